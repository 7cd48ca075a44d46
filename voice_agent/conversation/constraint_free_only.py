"""Only the kind without a thing, said as the person's rule: "it's decaf or nowt for me now", "I only drink
decaf these days", "strictly alcohol-free since the op": the thing itself (caffeine, alcohol) is kept off.
Each word names a known topic key (``constraint_terms.TOPICS``)."""

from __future__ import annotations

import re

__all__ = ["free_only_topics"]

_FREE_WORDS = {
    "decaf": "caffeine", "decaffeinated": "caffeine", "caffeine-free": "caffeine",
    "caffeine free": "caffeine",
    "alcohol-free": "alcohol", "non-alcoholic": "alcohol", "dairy-free": "dairy", "sugar-free": "sugar",
}  # fmt: skip
_FREE = "|".join(sorted(_FREE_WORDS, key=len, reverse=True))
_ONLY_EN = re.compile(
    rf"\b(?:it's|it is|it has to be|has to be|strictly|only|just)\s+(?P<x>{_FREE})\b"
    r"(?=\s+(?:or\s+(?:nowt|nothing|nada|bust|water)|only|for\s+me|from\s+now\s+on|now|these\s+days|since))|"
    rf"\bI\s+(?:only|just)\s+(?:drink|have|take|order)\s+(?P<y>{_FREE})\b",
    re.IGNORECASE,
)


def free_only_topics(text: str) -> list[str]:
    """The topic keys a "decaf or nowt" rule in ``text`` keeps off."""
    out: list[str] = []
    for match in _ONLY_EN.finditer(text):
        word = (match.group("x") or match.group("y")).lower()
        if _FREE_WORDS[word] not in out:
            out.append(_FREE_WORDS[word])
    return out
