"""Parser-free pieces for languages without a parser here (and for text a parser could not align):
sentences from end punctuation, cut into windows by length. Words are whitespace-separated runs,
single Han/kana/Hangul characters, or whole PII placeholders, so a placeholder is never split."""

from __future__ import annotations

import re
from collections.abc import Callable

from voice_agent.memory.clauses.piece import Piece, Spans
from voice_agent.memory.language import PLACEHOLDER_RE
from voice_agent.text.cjk import HAN, HANGUL, KANA

_ONE_PER_CHAR = KANA + HAN + HANGUL  # scripts written without spaces: each character is a unit

_UNIT_RE = re.compile(PLACEHOLDER_RE.pattern + f"|[{_ONE_PER_CHAR}]|" + rf"[^\s{_ONE_PER_CHAR}]+")
_SENTENCE_END_RE = re.compile(r"[.!?。！？;；…]['\"”’)）]*$")
_SOFT_BREAK_RE = re.compile(r"[,，、:：;；\-–—]$")
MIN_WORDS = 3


def units(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in _UNIT_RE.finditer(text)]


def sentence_pieces(spans: Spans, text: str) -> list[Piece]:
    pieces: list[Piece] = []
    current: list[int] = []
    for index, (start, end) in enumerate(spans):
        current.append(index)
        if _SENTENCE_END_RE.search(text[start:end]):
            pieces.append(Piece(tokens=tuple(current), sentence=len(pieces)))
            current = []
    if current:
        pieces.append(Piece(tokens=tuple(current), sentence=len(pieces)))
    return pieces


def fragment_test(spans: Spans, text: str) -> Callable[[Piece], bool]:
    def is_fragment(piece: Piece) -> bool:
        words = [i for i in piece.tokens if any(ch.isalnum() for ch in text[spans[i][0] : spans[i][1]])]
        return len(words) < MIN_WORDS

    return is_fragment


def break_test(spans: Spans, text: str) -> Callable[[int], bool]:
    def breaks_before(index: int) -> bool:
        if index == 0:
            return False
        start, end = spans[index - 1]
        return bool(_SOFT_BREAK_RE.search(text[start:end]) or _SENTENCE_END_RE.search(text[start:end]))

    return breaks_before
