"""Which remembered facts are restated right before the turn ("Remember: my kid is allergic to nuts.").

Small models follow what sits next to the turn, not what sits in a long system prompt. The line carries
the person's constraints (they matter whenever food, drink or plans come up, and breaking one harms the
person) and the pinned facts that retrieval found relevant to this turn, in the person's own first-person
words, newest first, at most a few.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from voice_agent.conversation.constraints import ConstraintSet
from voice_agent.memory.records import MemoryRecord

# A turn where a constraint may matter even when retrieval did not bring it up: food, drink, outings,
# anything asked to be recommended.
CONSTRAINT_TOPICS = re.compile(
    r"\b(?:eat|eating|food|cook|cooking|recipe|bake|baking|cake|dinner|lunch|breakfast|brunch|snack|dessert|"
    r"meal|menu|restaurant|order|drink|drinks|bar|party|picnic|treat|topping|pizza|dish|kitchen|grocer\w*|"
    r"recommend|suggest|ideas?|plan)\b|吃|喝|菜|饭|餐|蛋糕|甜点|零食|早点|早饭|推荐|建议|点什么|做什么|聚会|饮料|配料",
    re.IGNORECASE,
)
MAX_CONSTRAINTS = 3
MAX_RELEVANT_FACTS = 2


def turn_reminders(
    pinned: Sequence[MemoryRecord],
    recalled: Sequence[MemoryRecord],
    constraints: ConstraintSet,
    user_text: str = "",
) -> list[str]:
    """The texts for the reminder line: constraint statements first (when retrieval found them, or the
    turn is about food, drink or a recommendation), then relevant pinned facts."""
    pinned_by_id = {r.id: r for r in pinned if r.status == "active"}
    recalled_ids = {r.id for r in recalled}
    topical = bool(CONSTRAINT_TOPICS.search(user_text))
    pinned_texts = {r.text for r in pinned_by_id.values() if topical or r.id in recalled_ids}
    stated = [c.source for c in constraints.constraints if c.source in pinned_texts]
    newest = sorted(pinned_by_id.values(), key=lambda r: -r.created_at)
    ordered_constraints = [r.text for r in newest if r.text in stated][:MAX_CONSTRAINTS]
    found = [r for r in recalled if r.id in pinned_by_id and r.status == "active"]
    shared = [r for r in newest if r not in found and _shares_a_word(r.text, user_text)]
    relevant = [r.text for r in [*found, *shared] if r.text not in stated][:MAX_RELEVANT_FACTS]
    return list(dict.fromkeys([*ordered_constraints, *relevant]))


_WORD = re.compile(r"[a-z]{3,}|[\u4e00-\u9fff]{2}", re.IGNORECASE)
_COMMON = frozenset(
    [
        "the",
        "and",
        "you",
        "your",
        "what",
        "when",
        "where",
        "which",
        "who",
        "how",
        "does",
        "did",
        "can",
        "could",
        "would",
        "should",
        "will",
        "this",
        "that",
        "with",
        "for",
        "from",
        "are",
        "was",
        "were",
        "have",
        "has",
        "had",
        "any",
        "some",
        "about",
        "again",
        "remember",
        "tell",
        "know",
        "like",
        "want",
        "need",
        "just",
        "please",
        "today",
        "tonight",
    ]
)


def _shares_a_word(record: str, turn: str) -> bool:
    """A pinned fact that names what the turn asks about ("my name", "the party", "我女儿")."""
    if not turn:
        return False
    record_words = {w.lower() for w in _WORD.findall(record)} | _bigrams(record)
    turn_words = {w.lower() for w in _WORD.findall(turn)} | _bigrams(turn)
    return bool((record_words & turn_words) - _COMMON)


def _bigrams(text: str) -> set[str]:
    han = "".join(ch for ch in text if "\u4e00" <= ch <= "\u9fff")
    return {han[i : i + 2] for i in range(len(han) - 1)}
