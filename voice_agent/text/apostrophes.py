"""Typographic apostrophes as the ASCII one, so that rules written with "can't" also read "can’t" (typed
text, pasted text and some LLM replies use U+2019). One character for one: offsets stay valid."""

from __future__ import annotations

_TYPOGRAPHIC = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\uff07": "'", "\u2032": "'"})


def plain_apostrophes(text: str) -> str:
    """``text`` with every apostrophe-like character as ``'`` (the same length)."""
    return text.translate(_TYPOGRAPHIC)
