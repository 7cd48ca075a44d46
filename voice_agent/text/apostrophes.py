"""Typographic apostrophes as the ASCII one, so that rules written with "can't" also read "can’t" (typed
text, pasted text and some LLM replies use U+2019). One character for one: offsets stay valid.

Transcripts and texted messages often drop the apostrophe altogether ("please dont ever suggest the
cinema", "i cant eat shellfish", "im allergic"): :func:`with_apostrophes` puts it back in the negative
contractions and "im"/"ive", so "dont" reads as "don't" (the text grows by a character each: for
reading what was said, not for offsets into the original)."""

from __future__ import annotations

import re

_TYPOGRAPHIC = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\uff07": "'", "\u2032": "'"})


def plain_apostrophes(text: str) -> str:
    """``text`` with every apostrophe-like character as ``'`` (the same length)."""
    return text.translate(_TYPOGRAPHIC)


_BARE_CONTRACTION = re.compile(
    r"\b(do|does|did|is|are|was|were|have|has|had|should|would|could|must|ca|wo)(nt)\b|\b(i)(m|ve)\b",
    re.IGNORECASE,
)


def _apostrophe(match: re.Match[str]) -> str:
    if match.group(1):
        return f"{match.group(1)}n't" if match.group(2) == "nt" else f"{match.group(1)}N'T"
    return f"{match.group(3)}'{match.group(4)}"


# Scots and northern negatives ("cannae stand lamb", "I dinnae eat fish", "I'll no touch it"), Jamaican
# ones ("cyaan stand ackee", "mi nuh eat pork") and a
# dropped g on "nothing" ("nothin' off a critter"), read as the standard forms the rules are written in.
_DIALECT_NEGATIVE = re.compile(
    r"\b(?:(?P<can>cannae|cannie|canna|cyaan|kyaan|cyan)\b|(?P<do>dinnae|dinnit|dinna|nuh(?=\s+(?:eat|nyam|drink|touch|like)\b))\b|(?P<did>didnae|didna)\b|"
    r"(?P<will>willnae|winnae|wullnae|wilnae)\b|(?P<is>isnae|isna)\b|(?P<ill>i'll|ah'll|a'll)\s+no\s+"
    r"(?=(?:eat|touch|drink|have|go|set foot)\b)|(?P<thing>noth|someth|anyth)in')",
    re.IGNORECASE,
)
_STANDARD = {
    "can": "can't", "do": "don't", "did": "didn't", "will": "won't", "is": "isn't", "ill": "I won't ",
}  # fmt: skip


def _standard(match: re.Match[str]) -> str:
    group = match.lastgroup or ""
    return f"{match.group('thing')}ing" if group == "thing" else _STANDARD[group]


def with_apostrophes(text: str) -> str:
    """``text`` with plain apostrophes (``plain_apostrophes``) and the ones a transcript left out of
    "dont", "cant", "wont", "didnt", "im", "ive" … put back ("dont" → "don't"; "can't" stays); Scots
    negatives ("cannae", "dinnae", "I'll no touch") as the standard ones."""
    return _DIALECT_NEGATIVE.sub(_standard, _BARE_CONTRACTION.sub(_apostrophe, plain_apostrophes(text)))
