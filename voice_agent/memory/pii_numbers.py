"""Numbers that identify a person, in every form ASR writes them: phones, resident IDs, bank cards.

A *run* is a stretch of digit groups joined by spaces, dashes, dots or parentheses, where a group is ASCII
or full-width digits, Chinese numerals (一二三四五六七八九零〇幺两) or English digit words ("five").
Inside a run, a number may start and end only at a *loose* gap (one holding a space or parenthesis), so
``2023-05-08`` or ``3.14159`` is judged whole, never cut into pieces; ``in 2023 13800138000`` still
finds the phone. Each candidate window is classified by its digits *and* by how they were grouped, which
is what keeps dates, prices, versions and counts out:

- Chinese mobile ``1[3-9]\\d{9}`` (``+86``/``0086``/``86`` prefix allowed) → ``+86…``;
- 18-character resident ID: a region code, a plausible birth date, then the ISO 7064 MOD 11-2 check
  character; a wrong check character is still an ID (a mis-heard one) and is flagged;
- bank card of 13–19 digits passing Luhn, grouped as cards are written; UnionPay (``62…``) numbers and
  4-4-4-4 groupings that fail Luhn are kept too, flagged (some UnionPay cards carry no Luhn digit);
- international ``+CC…`` (8–15 digits), North American numbers ``(555) 123-4567`` → ``+1…``, Chinese
  landlines ``010-12345678`` → ``+86…``.

Everything here is pure string work on precompiled patterns, linear in the input.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass

CN_NUMERALS = {
    "零": "0",
    "〇": "0",
    "一": "1",
    "幺": "1",
    "二": "2",
    "两": "2",
    "三": "3",
    "四": "4",
    "五": "5",
    "六": "6",
    "七": "7",
    "八": "8",
    "九": "9",
}
DIGIT_WORDS = {
    "zero": "0",
    "oh": "0",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
}
_DIGIT_CHARS = {**CN_NUMERALS, **{chr(0xFF10 + i): str(i) for i in range(10)}}
_TO_ASCII = str.maketrans(_DIGIT_CHARS)

_DCHARS = "0-9\uff10-\uff19" + "".join(CN_NUMERALS)
_WORDS = "|".join(sorted(DIGIT_WORDS, key=len, reverse=True))
_GROUP = rf"[{_DCHARS}]+(?:[Xx](?![A-Za-z0-9]))?|(?<![A-Za-z])(?i:{_WORDS})(?![A-Za-z])"
_GAP_CHARS = " \t\u00a0\u3000\\-\u2010\u2011\u2013\u2014.()"
_RUN_RE = re.compile(
    rf"(?<![A-Za-z0-9_])(?P<plus>[+\uff0b][ \t]?)?\(?(?:{_GROUP})(?:[{_GAP_CHARS}]{{1,4}}(?:{_GROUP}))*"
)
_GROUP_RE = re.compile(_GROUP)
_TIGHT_GAPS = frozenset({"-", ".", "\u2010", "\u2011", "\u2013", "\u2014"})

_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"
_ID_SHAPE = re.compile(r"[1-8]\d{5}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dX]")
_CN_MOBILE = re.compile(r"1[3-9]\d{9}")
_NANP = re.compile(r"[2-9]\d{9}")
# Chinese landlines: area code with its leading 0, then a 7-8 digit local number, maybe split 4-4.
_LANDLINE_SHAPES = frozenset({(3, 8), (3, 7), (4, 7), (4, 8), (3, 4, 4), (4, 4, 4), (4, 3, 4), (3, 3, 4)})
_MIN_RUN_CHARS = 8  # fewer characters cannot hold the 8+ digits any kind needs
_MAX_WINDOW_DIGITS = 19


@dataclass(frozen=True)
class Detection:
    """One PII value found by a pattern: its span in the text, kind, canonical value and flags."""

    start: int
    end: int
    kind: str  # PHONE | ID | CARD
    canonical: str  # +8613800138000, 11010519491231002X, 4111111111111111
    flags: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Group:
    start: int
    end: int
    digits: str  # ASCII digits, possibly ending in X
    spoken: bool  # written as words or Chinese numerals


def to_ascii_digits(text: str) -> str:
    """Map full-width digits and Chinese numerals to ASCII digits; other characters are kept."""
    return text.translate(_TO_ASCII)


def id_check_char(first17: str) -> str:
    """The ISO 7064 MOD 11-2 check character of a resident ID's first 17 digits."""
    total = sum(int(d) * w for d, w in zip(first17, _ID_WEIGHTS, strict=True))
    return _ID_CHECK[total % 11]


def luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def canonical_number(kind: str, text: str) -> str | None:
    """The canonical form of a number of ``kind`` however it is written, or None if it is not one."""
    for match in find_numbers(text):
        if match.kind == kind:
            return match.canonical
    return None


def find_numbers(text: str) -> Iterator[Detection]:
    """Yield every identifying number in ``text``, left to right, non-overlapping."""
    for run in _RUN_RE.finditer(text):
        if run.end() - run.start() < _MIN_RUN_CHARS:
            continue
        groups = _groups(text, run.start(), run.end())
        if groups:
            yield from _classify_run(text, run.start(), groups, plus=run.group("plus") is not None)


def _groups(text: str, start: int, end: int) -> list[_Group]:
    groups: list[_Group] = []
    for m in _GROUP_RE.finditer(text, start, end):
        raw = m.group()
        lowered = raw.lower()
        if lowered in DIGIT_WORDS:
            groups.append(_Group(m.start(), m.end(), DIGIT_WORDS[lowered], True))
        else:
            digits = raw.translate(_TO_ASCII).upper()
            groups.append(_Group(m.start(), m.end(), digits, any(c in CN_NUMERALS for c in raw)))
    # A run glued to a following letter ("1990s", "13800138000abc") is a code or unit, not a number.
    if groups and end < len(text) and text[end].isascii() and text[end].isalpha():
        groups.pop()
    return groups


def _tokens(text: str, groups: list[_Group]) -> list[list[_Group]]:
    """Join groups separated by one tight character (``-`` or ``.``): a window never cuts through them."""
    tokens: list[list[_Group]] = [[groups[0]]]
    for prev, cur in itertools.pairwise(groups):
        if text[prev.end : cur.start] in _TIGHT_GAPS:
            tokens[-1].append(cur)
        else:
            tokens.append([cur])
    return tokens


def _classify_run(text: str, run_start: int, groups: list[_Group], *, plus: bool) -> Iterator[Detection]:
    tokens = _tokens(text, groups)
    sizes = [sum(len(g.digits) for g in tok) for tok in tokens]
    i = 0
    while i < len(tokens):
        # Longest window first; windows longer than any kind are skipped by their digit count.
        total, last = 0, i
        while last < len(tokens) and total + sizes[last] <= _MAX_WINDOW_DIGITS + 2:
            total += sizes[last]
            last += 1
        found = None
        for j in range(last - 1, i - 1, -1):
            window = [g for tok in tokens[i : j + 1] for g in tok]
            found = _classify(text, window, plus=plus and i == 0)
            if found is not None:
                kind, canonical, flags = found
                start = run_start if i == 0 else window[0].start
                if text[start - 1 : start] == "(":
                    start -= 1
                yield Detection(start, window[-1].end, kind, canonical, flags)
                i = j + 1
                break
        if found is None:
            i += 1


def _classify(text: str, window: list[_Group], *, plus: bool) -> tuple[str, str, tuple[str, ...]] | None:
    digits = "".join(g.digits for g in window)
    if len(digits) < 8 or len(digits) > _MAX_WINDOW_DIGITS + 2 or "X" in digits[:-1]:
        return None
    shape = tuple(len(g.digits) for g in window)
    # Digits read out one by one ("1 3 8 0 …") are grouped by the speaker's pauses, not by format.
    spoken = len(shape) > 2 and max(shape) == 1
    gaps = [text[a.end : b.start] for a, b in itertools.pairwise(window)]
    if any("." in gap for gap in gaps) and not _dotted_phone(shape, gaps):
        return None
    spoken = spoken or any(g.spoken for g in window)
    return _phone_or_id_or_card(digits, shape, spoken=spoken, plus=plus)


def _phone_or_id_or_card(
    digits: str, shape: tuple[int, ...], *, spoken: bool, plus: bool
) -> tuple[str, str, tuple[str, ...]] | None:
    has_x = digits.endswith("X")
    if plus or digits.startswith("00"):
        body = digits if plus else digits[2:]
        if body.startswith("86") and _CN_MOBILE.fullmatch(body[2:]):
            return "PHONE", "+" + body, ()
        if not has_x and 8 <= len(body) <= 15 and body[0] != "0":
            return "PHONE", "+" + body, ()
        return None
    if _ID_SHAPE.fullmatch(digits):
        if id_check_char(digits[:17]) == digits[17]:
            return "ID", digits, ()
        if _card_shape(shape, spoken) and luhn_ok(digits):
            return "CARD", digits, ()
        return "ID", digits, ("check_char_mismatch",)
    if has_x:
        return None
    if shape == (1, 3, 3, 4) and digits[0] == "1" and _NANP.fullmatch(digits[1:]):
        return "PHONE", "+" + digits, ()
    if _CN_MOBILE.fullmatch(digits) and (spoken or len(shape) == 1 or max(shape) <= 4 or shape == (3, 8)):
        return "PHONE", "+86" + digits, ()
    if len(digits) == 13 and digits.startswith("86") and _CN_MOBILE.fullmatch(digits[2:]):
        return "PHONE", "+" + digits, ()
    if 13 <= len(digits) <= 19 and _card_shape(shape, spoken):
        if luhn_ok(digits):
            return "CARD", digits, ()
        if (digits.startswith("62") and len(digits) >= 16) or (len(shape) > 1 and shape[0] == 4):
            return "CARD", digits, ("luhn_failed",)
    if len(digits) == 10 and _NANP.fullmatch(digits) and (spoken or shape in ((10,), (3, 3, 4))):
        return "PHONE", "+1" + digits, ()
    if digits[0] == "0" and digits[1] != "0" and shape in _LANDLINE_SHAPES:
        return "PHONE", "+86" + digits[1:], ()
    return None


def _card_shape(shape: tuple[int, ...], spoken: bool) -> bool:
    if spoken or len(shape) == 1 or shape in ((4, 6, 4), (4, 6, 5)):
        return True
    return all(size == 4 for size in shape[:-1]) and 1 <= shape[-1] <= 4


def _dotted_phone(shape: tuple[int, ...], gaps: list[str]) -> bool:
    return all(gap == "." for gap in gaps) and shape in ((3, 3, 4), (3, 4, 4))
