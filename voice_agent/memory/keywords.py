"""Keyword normalisation shared by every store backend and by queries, so BM25 sees the same terms.

Latin text is left to the backend's word tokenizer (FTS5 ``porter unicode61``, Weaviate ``word``).
Chinese has no spaces, so each run of CJK characters becomes its overlapping bigrams (a single
character stays a unigram): 我喜欢猫 -> 我喜 喜欢 欢猫. PII placeholders such as ``[PHONE:7f3a9c]``
are kept as one term (``phone_7f3a9c``) so a scrubbed query matches the scrubbed record exactly.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from voice_agent.memory.records import MemoryRecord
from voice_agent.text.cjk import HAN, char_class
from voice_agent.text.placeholders import PLACEHOLDER_SHAPE_RE as _PLACEHOLDER

_CJK_RUN = re.compile(char_class(HAN) + "+")
_WORD = re.compile(r"[a-z]+_[0-9a-f]{4,64}|[^\W_]+", re.UNICODE)
_ANY_WORD = re.compile(r"\w+", re.UNICODE)

# Function words that carry no topic; removed from queries only (documents keep them for BM25 stats).
_STOPWORD_TEXT = """
    a about after again all also am an and any are as at be because been before being both but by
    can could did do does doing down during each few for from further had has have having he her here
    hers herself him himself his how i if in into is it its itself just me more most my myself no nor
    not now of off on once only or other our ours out over own same she should so some such than that
    the their theirs them then there these they this those through to too under until up very was we
    were what when where which while who whom why will with would you your yours yourself s t don
    ever kind like likely things thing something anything going get got"""
STOPWORDS: frozenset[str] = frozenset(_STOPWORD_TEXT.split())


def _placeholder_term(match: re.Match[str]) -> str:
    return f" {match.group(1).lower()}_{match.group(2)} "


def _cjk_bigrams(match: re.Match[str]) -> str:
    run = match.group(0)
    if len(run) == 1:
        return f" {run} "
    return " " + " ".join(run[i : i + 2] for i in range(len(run) - 1)) + " "


def keyword_text(text: str) -> str:
    """The text a backend indexes for BM25."""
    text = _PLACEHOLDER.sub(_placeholder_term, text)
    text = _CJK_RUN.sub(_cjk_bigrams, text)
    return " ".join(text.split())


def indexed_text(record: MemoryRecord) -> str:
    """What a backend indexes for a record: its speaker (a name placeholder) and its text."""
    return keyword_text(f"{record.speaker} {record.text}" if record.speaker else record.text)


def query_terms(text: str, *, max_terms: int = 32) -> list[str]:
    """Distinct, lower-cased content terms of a query, in order, stopwords removed."""
    seen: list[str] = []
    for term in _WORD.findall(keyword_text(text).lower()):
        if term in STOPWORDS or term in seen or (len(term) == 1 and term.isascii()):
            continue
        seen.append(term)
        if len(seen) >= max_terms:
            break
    return seen


def fts5_query(text: str) -> str | None:
    """An FTS5 MATCH expression ORing the query's terms (each quoted), or None when nothing is left."""
    terms = query_terms(text)
    if not terms:
        return None
    return " OR ".join('"' + term.replace('"', '""') + '"' for term in terms)


def term_overlap(query: str | Sequence[str], text: str) -> float:
    """Share of the query's content terms (a query, or its :func:`query_terms`) that occur in ``text``,
    matching crude stems too (a cheap rerank feature)."""
    terms = query_terms(query) if isinstance(query, str) else query
    if not terms:
        return 0.0
    stems = _text_stems(text)
    hits = sum(1 for t in terms if _stem(t) in stems)
    return hits / len(terms)


def term_stems(terms: Sequence[str]) -> list[str]:
    """The crude stems of a query's terms, for :func:`stem_overlap` (one per term, repeats kept)."""
    return [_stem(t) for t in terms]


def stem_overlap(stems: Sequence[str], text: str) -> float:
    """:func:`term_overlap` for stems computed once per query (``term_stems(query_terms(query))``)."""
    if not stems:
        return 0.0
    found = _text_stems(text)
    return sum(1 for s in stems if s in found) / len(stems)


@functools.lru_cache(maxsize=16384)
def word_set(text: str) -> frozenset[str]:
    """The distinct lower-cased words of a text (near-duplicate checks; cached like the stems)."""
    return frozenset(_ANY_WORD.findall(text.lower()))


@functools.lru_cache(maxsize=16384)
def _text_stems(text: str) -> frozenset[str]:
    """The crude stems of a text's words (cached: the same records come back query after query)."""
    return frozenset(_stem(w) for w in _WORD.findall(keyword_text(text).lower()))


@functools.lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    # A crude suffix strip, enough to match "painting"/"paints"/"painted" in the overlap feature.
    for suffix in ("ings", "ing", "ies", "ied", "ed", "es", "s"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word
