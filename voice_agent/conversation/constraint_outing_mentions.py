"""When a place, a pastime or an animal named beside a bodily reaction is what the person keeps off.

"I get sick on every ferry" keeps the person off boats. But a story of being unwell names places and
things in passing: "being sick in my auntie's loo in Broughty Ferry" (a town), "my forehead on the window
like a sad dog" (a likeness), "since I retired off the buses the GP's had me on tablets, and … my ankles
swelled up" (a job, a whole clause away from the swelling). Read as rules, these told the person "I'll
avoid dogs" on a train journey. For these topics (``NOT_EATEN``), an English sentence counts only when the
topic is named outside a proper name and a likeness, close to the reaction; a food is eaten, so its
reaction may come later in the story.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from voice_agent.conversation.constraint_outings import OUTINGS

NOT_EATEN = frozenset(("flying", "boats", *(topic.key for topic in OUTINGS)))

# Within this many characters of the reaction ("the ferry had me throwing up the whole way": 13)
_NEAR_CHARS = 40
# A proper name of several words ("Broughty Ferry", "Dog and Duck" is cut at "and": "Dog" alone is kept
# unless a preposition names it as a place) and a place after a preposition ("in Coach Lane").
_PROPER_NAME = re.compile(
    r"\b[A-Z][a-z']+(?:\s+[A-Z][a-z']+)+|\b(?:in|at|to|from|near|on|off|via)\s+[A-Z][a-z']+"
)
_LIKENESS = re.compile(r"\blike (?:a|an|some|the) (?:[a-z]+ )?[a-z]+", re.IGNORECASE)


def masked(sentence: str) -> str:
    """``sentence`` with its proper names and likenesses blanked (same length: positions hold)."""
    for pattern in (_PROPER_NAME, _LIKENESS):
        sentence = pattern.sub(lambda m: " " * len(m.group(0)), sentence)
    return sentence


def near_reaction(named: Iterable[tuple[int, int]], reactions: Iterable[tuple[int, int]]) -> bool:
    """Whether a span naming the topic lies within ``_NEAR_CHARS`` of a span naming the reaction."""
    said = list(reactions)
    return any(
        max(start - r_end, r_start - end) <= _NEAR_CHARS for start, end in named for r_start, r_end in said
    )
