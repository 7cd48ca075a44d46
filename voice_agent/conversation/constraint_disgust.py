"""A food the person cannot bear the smell of is a dislike, not an intolerance: "唯独羊肉，那股膻味一闻到就
想呕" or "the smell of it turns my stomach" says nothing about what eating it does to the body, so the reply
should steer round it in the person's own terms ("避开羊肉", "no lamb"), not open with "对羊肉不耐受".

Only a reaction to a smell counts, and only when no other symptom is named: "一喝牛奶就想吐" (no smell) and
"闻到就想吐，吃了还拉肚子" stay intolerances."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from voice_agent.conversation.constraint_symptoms_zh import RETCH_MORE_ZH, SYMPTOM_ZH

if TYPE_CHECKING:
    from voice_agent.conversation.constraints import Constraint

_I = re.IGNORECASE
# Retching at it: the only symptoms a smell can give.
_RETCH_ZH = rf"想呕|作呕|想吐|恶心|反胃|干呕|吐|{RETCH_MORE_ZH}"
_SMELL_ZH = re.compile(r"闻|味|膻|臭|骚|腥")
_OTHER_SYMPTOM_ZH = re.compile(
    "|".join(
        s
        for s in SYMPTOM_ZH.split("|")
        if s != RETCH_MORE_ZH and not re.fullmatch(_RETCH_ZH, s.rstrip("?").rstrip("儿"))
    )
)
_RETCH_EN = re.compile(
    r"\b(?:turns? my stomach|gies me the boak|gives me the boak|makes? me (?:gag|retch|heave|boak)|"
    r"(?:gag|retch|heave|boak)(?:s|ed|ing)? at)\b",
    _I,
)
_SMELL_EN = re.compile(r"\b(?:smell|smells|stink|stinks|whiff|pong|reek|reeks)\b", _I)
_BODY_EN = re.compile(
    r"\b(?:bloat|bloated|bloating|cramps?|diarrh|the runs|rash|hives|itch|itchy|swell|swollen|wheez|"
    r"migraine|headache|heartburn|reflux|intoleran|allerg)",
    _I,
)


def smelled_only(text: str) -> bool:
    """Whether ``text`` tells of retching at a smell and of no other reaction."""
    if _SMELL_ZH.search(text) and re.search(_RETCH_ZH, text):
        return not _OTHER_SYMPTOM_ZH.search(text) and "不耐受" not in text and "过敏" not in text
    if _SMELL_EN.search(text) and _RETCH_EN.search(text):
        return not _BODY_EN.search(text)
    return False


def as_dislikes(read: list[Constraint], text: str) -> list[Constraint]:
    """``read`` with intolerances turned into dislikes when ``text`` only retches at a smell."""
    if not any(c.kind == "intolerance" for c in read) or not smelled_only(text):
        return read
    return [replace(c, kind="avoid") if c.kind == "intolerance" else c for c in read]
