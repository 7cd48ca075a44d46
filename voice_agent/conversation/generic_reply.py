"""Whether a reply names anything the turn did not: "You should order a cocktail." for "there's a proper
cocktail bar… what should I be ordering?", "Baking a cake is a great idea." for "I want to bake her a
cake… any recipe ideas?" say nothing to act on. After such a reply to a request of a known kind, under
constraints, a specific option that keeps them all is said (``reply_fallbacks.option_tie``)."""

from __future__ import annotations

from voice_agent.conversation.echo import content_keys
from voice_agent.conversation.said_before import stems
from voice_agent.text.cjk import has_han

__all__ = ["names_nothing_new"]

# Words of praise, helping and choosing: a reply of only these and the turn's own words names nothing.
_VAGUE = frozenset((
    "try", "great", "idea", "good", "nice", "lovely", "perfect", "fun", "suggest", "recommend", "option",
    "choice", "sure", "help", "happy", "make", "bak", "cook", "get", "go", "enjoy", "delicious", "wonderful",
    "best", "simple", "easy", "classic", "special", "tasty", "fantastic", "amazing", "excellent", "popular",
    "favourite", "favorite", "really", "also", "always", "thing", "someth", "anyth", "time", "day", "one",
    "way", "should", "could", "would", "might", "can", "will", "definitely", "consider", "choose", "pick",
))  # fmt: skip


def names_nothing_new(said: str, turn: str) -> bool:
    """Whether ``said`` (an English reply) has no content word beyond the turn's own and words of praise,
    helping and choosing; a Chinese reply is never judged so (its character pairs are too many to tell)."""
    if not said.strip() or has_han(said):
        return False
    return not (stems(content_keys(said)) - stems(content_keys(turn)) - _VAGUE)
