"""One reading per constraint key: the same rule read by two shapes ("I can't bear loud music") is one,
and a dish of a thing kept off is the thing; a dish a known topic already holds (杨枝甘露 beside mango) is
read by the topic alone."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from voice_agent.conversation.constraints import Constraint

_RULED_OUT = frozenset(("allergy", "intolerance", "diet"))


def one_per_key(read: list[Constraint]) -> list[Constraint]:
    """The first reading of each key, unless a later one says the body or a diet rules it out where the
    first only kept it off."""
    best: dict[str, Constraint] = {}
    for c in read:
        held = best.get(c.key)
        if held is None or (held.kind not in _RULED_OUT and c.kind in _RULED_OUT):
            best[c.key] = c
    # (a dish of a thing kept off goes with the thing: "cinnamon roll" beside "cinnamon")
    avoided = {c.noun_en.lower() for c in best.values() if c.kind == "avoid" and c.noun_en}
    kept = [c for c in best.values() if not (c.kind == "avoid" and _holds_one(c.noun_en.lower(), avoided))]
    return [c for c in kept if not _topic_holds(c, kept)]


def _topic_holds(c: Constraint, read: list[Constraint]) -> bool:
    """Whether ``c`` is one thing the body cannot take, in its own words ("allergy:杨枝甘露"), that a known
    topic the body cannot take, read beside it, lists as one of its terms (mango's 杨枝甘露): the topic
    says it, with all its kin."""
    if ":" not in c.key or c.kind not in _RULED_OUT:
        return False
    own = {c.noun_en.lower(), c.noun_zh} - {""}
    for other in read:
        if other is c or ":" in other.key or other.kind not in _RULED_OUT:
            continue
        if own & ({t.lower() for t in other.terms_en} | {t.text for t in other.terms_zh}):
            return True
    return False


def _holds_one(noun: str, others: set[str]) -> bool:
    """Whether ``noun`` names, as a whole word, another of ``others`` ("cinnamon roll": "cinnamon")."""
    words = noun.split()
    return len(words) > 1 and any(o != noun and o in words for o in others)
