"""Scoring a model's answer against a LoCoMo gold answer.

``contains_gold``: the normalised gold answer appears in the normalised reply (lowercase, punctuation
and the articles a/an/the removed, whitespace collapsed; numbers compared as strings, so a gold ``7``
matches "7 days"). ``token_f1``: the usual SQuAD-style token overlap, for a softer view. Both are crude
for long or paraphrased answers; small local models score low on either.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections import Counter
from typing import Any

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = re.compile(f"[{re.escape(string.punctuation)}\u2018\u2019\u201c\u201d\u2013\u2014\u2026]")


def normalise_answer(value: Any) -> str:
    """Lowercase, without punctuation or articles, single-spaced (numbers become their string)."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = unicodedata.normalize("NFKC", str(value)).lower()
    text = _PUNCT.sub(" ", text)
    text = _ARTICLES.sub(" ", text)
    return " ".join(text.split())


def contains_gold(reply: str, gold: Any) -> bool:
    """Whether the normalised gold answer occurs in the normalised reply, on word boundaries."""
    want = normalise_answer(gold)
    if not want:
        return False
    have = normalise_answer(reply)
    return f" {want} " in f" {have} "


def token_f1(reply: str, gold: Any) -> float:
    """Token-overlap F1 between the normalised reply and gold answer (0.0 when either is empty)."""
    pred, ref = normalise_answer(reply).split(), normalise_answer(gold).split()
    if not pred or not ref:
        return 0.0
    common = sum((Counter(pred) & Counter(ref)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(pred), common / len(ref)
    return 2 * precision * recall / (precision + recall)
