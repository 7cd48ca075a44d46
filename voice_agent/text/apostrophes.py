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


def with_apostrophes(text: str) -> str:
    """``text`` with plain apostrophes (``plain_apostrophes``) and the ones a transcript left out of
    "dont", "cant", "wont", "didnt", "im", "ive" … put back ("dont" → "don't"; "can't" stays)."""
    return _BARE_CONTRACTION.sub(_apostrophe, plain_apostrophes(text))
