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
- international ``+CC…`` (8–15 digits), North American numbers ``(555) 123-4567`` → ``+1…``; Chinese
  landlines ``010-12345678`` and other national numbers grouped as their countries write them
  (``07700 900123``, ``01 42 68 53 00``) are kept as written, flagged ``national``: the scrubber reads
  them in its configured region (never a guessed +86);
- US social security numbers written ``123-45-6789`` or ``123 45 6789`` (valid area, group and serial).

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
_GROUP = (
    rf"[{_DCHARS}]+(?:[Xx](?![A-Za-z0-9]))?"
    rf"|(?<![A-Za-z])(?i:(?:(?:double|triple)[ \t]+)?(?:{_WORDS}))(?![A-Za-z])"  # "double oh": 00
)
_REPEAT = {"double": 2, "triple": 3}
_GAP_CHARS = " \t\u00a0\u3000\\-\u2010\u2011\u2013\u2014.()"
_RUN_RE = re.compile(
    rf"(?<![A-Za-z0-9_])(?P<plus>[+\uff0b][ \t]?)?\(?(?:{_GROUP})(?:[{_GAP_CHARS}]{{1,4}}(?:{_GROUP}))*"
)
_GROUP_RE = re.compile(_GROUP)
_TIGHT_GAPS = frozenset({"-", ".", "\u2010", "\u2011", "\u2013", "\u2014"})

_DOUBLED = (0, 2, 4, 6, 8, 1, 3, 5, 7, 9)  # digit sum of 2*d, for Luhn
_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"
_ID_SHAPE = re.compile(r"[1-8]\d{5}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dX]")
_CN_MOBILE = re.compile(r"1[3-9]\d{9}")
_NANP = re.compile(r"[2-9]\d{9}")
# Chinese landlines: area code with its leading 0, then a 7-8 digit local number, maybe split 4-4.
_LANDLINE_SHAPES = frozenset({(3, 8), (3, 7), (4, 7), (4, 8), (3, 4, 4), (4, 4, 4), (4, 3, 4), (3, 3, 4)})
# Other national numbers with a trunk 0, as they are grouped: UK 07700 900123 / 01632 960 001,
# French 01 42 68 53 00, Australian mobiles 0412 345 678, and 0xx xxxx xxxx.
_TRUNK_SHAPES = frozenset({(5, 6), (5, 3, 3), (2, 2, 2, 2, 2), (2, 4, 4), (3, 3, 3, 2), (4, 3, 3)})
# US social security number: area not 000, 666 or 9xx; group not 00; serial not 0000.
_SSN = re.compile(r"(?!000|666|9\d\d)\d{3}(?!00)\d{2}(?!0000)\d{4}")
_MIN_RUN_CHARS = 8  # fewer characters cannot hold the 8+ digits any kind needs
_PLUS_LENGTHS = frozenset(range(8, 16))  # +CC and subscriber number, E.164
_ZERO_LENGTHS = frozenset(range(10, 18))  # 00-prefixed international, 0-prefixed Chinese landline
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
    """The Luhn (mod 10) check of a card number's digits."""
    values = [ord(c) - 48 for c in reversed(digits)]
    return (sum(values[0::2]) + sum(_DOUBLED[v] for v in values[1::2])) % 10 == 0


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
        if raw[0].isascii() and raw[0].isalpha():  # a digit word, maybe "double oh"
            lowered = raw.lower()
            repeat, _, word = lowered.partition(" ") if lowered[:6] in _REPEAT else ("", "", lowered)
            digit = DIGIT_WORDS[word.strip()] * _REPEAT.get(repeat, 1)
            groups.append(_Group(m.start(), m.end(), digit, True))
        else:
            digits = raw.translate(_TO_ASCII).upper()
            groups.append(_Group(m.start(), m.end(), digits, any(c in CN_NUMERALS for c in raw)))
    # A run glued to a following letter ("1990s", "13800138000abc") is a code or unit, not a number.
    if groups and end < len(text) and text[end].isascii() and text[end].isalpha():
        groups.pop()
    return groups


class _Run:
    """A run's digits with prefix sums, so each candidate window is judged in O(1) before any copying.

    Windows are whole *tokens* (groups joined by one tight ``-``/``.``) and are tried longest first from
    each start; only windows whose length and first digits fit some kind are built and classified.
    """

    def __init__(self, text: str, groups: list[_Group]) -> None:
        self.text = text
        self.groups = groups
        self.digits = "".join(g.digits for g in groups)
        self.goff = list(itertools.accumulate((len(g.digits) for g in groups), initial=0))
        gaps = [text[a.end : b.start] for a, b in itertools.pairwise(groups)]
        self.token_starts = [0] + [k + 1 for k, gap in enumerate(gaps) if gap not in _TIGHT_GAPS]
        self.token_starts.append(len(groups))
        self.spoken = list(itertools.accumulate((g.spoken for g in groups), initial=0))
        self.singles = list(itertools.accumulate((len(g.digits) == 1 for g in groups), initial=0))
        self.dots = list(itertools.accumulate(("." in gap for gap in gaps), initial=0))
        values = [0 if c == "X" else ord(c) - 48 for c in self.digits]
        # Luhn in O(1) per window: sums of plain and doubled digits by absolute position parity.
        self.plain = [_parity_prefix(values, parity) for parity in (0, 1)]
        self.doubled = [_parity_prefix([_DOUBLED[v] for v in values], parity) for parity in (0, 1)]

    def luhn(self, a: int, b: int) -> bool:
        q = (b - 1) % 2
        total = self.plain[q][b] - self.plain[q][a] + self.doubled[1 - q][b] - self.doubled[1 - q][a]
        return total % 10 == 0

    def lengths_from(self, a: int, gs: int, plus: bool) -> frozenset[int]:
        """Window lengths (in digits) from digit ``a`` that some kind other than a card could have."""
        if plus:
            return _PLUS_LENGTHS
        d = self.digits
        first, second = d[a], d[a + 1]
        lengths = set()
        if self.goff[gs + 1 : gs + 4] == [a + 3, a + 5, a + 9]:  # 123-45-6789: a US social security number
            lengths.add(9)
        if first == "0":
            return _ZERO_LENGTHS | lengths
        if first in "12345678" and d[a + 6 : a + 8] in ("18", "19", "20") and d[a + 10 : a + 11] in "01":
            lengths.add(18)
        north_american = self.goff[gs + 1] - a == 1 and self.goff[gs + 2 : gs + 3] == [a + 4]  # 1-555-…
        if first == "1" and (second in "3456789" or north_american):
            lengths.add(11)
        if first == "8" and second == "6":
            lengths.add(13)
        if first in "23456789":
            lengths.add(10)
        return frozenset(lengths)

    def classify(self, gs: int, ge: int, plus: bool) -> tuple[str, str, tuple[str, ...]] | None:
        a, b = self.goff[gs], self.goff[ge]
        digits = self.digits[a:b]
        if "X" in digits[:-1]:
            return None
        shape = tuple(self.goff[k + 1] - self.goff[k] for k in range(gs, ge))
        # Digits read out one by one ("1 3 8 0 …") are grouped by the speaker's pauses, not by format.
        spoken = self.spoken[ge] > self.spoken[gs] or (
            ge - gs > 2 and self.singles[ge] - self.singles[gs] == ge - gs
        )
        if self.dots[ge - 1] > self.dots[gs]:
            gaps = [self.text[self.groups[k].end : self.groups[k + 1].start] for k in range(gs, ge - 1)]
            if not _dotted_phone(shape, gaps):
                return None
        luhn = 13 <= len(digits) <= 19 and not digits.endswith("X") and self.luhn(a, b)
        return _phone_or_id_or_card(digits, shape, spoken=spoken, plus=plus, luhn=luhn)


def _parity_prefix(values: list[int], parity: int) -> list[int]:
    return list(itertools.accumulate((v if p % 2 == parity else 0 for p, v in enumerate(values)), initial=0))


def _classify_run(text: str, run_start: int, groups: list[_Group], *, plus: bool) -> Iterator[Detection]:
    run = _Run(text, groups)
    starts, goff = run.token_starts, run.goff
    tokens, last = len(starts) - 1, 0
    i = 0
    while i < tokens:
        gs = starts[i]
        a = goff[gs]
        last = max(last, i)  # one past the longest window from token i that any kind could fill
        while last < tokens and goff[starts[last + 1]] - a <= _MAX_WINDOW_DIGITS + 2:
            last += 1
        window_plus = plus and i == 0
        if goff[starts[last]] - a < 8:
            i += 1
            continue
        lengths = run.lengths_from(a, gs, window_plus)
        # Card numbers failing Luhn are kept only for UnionPay (62…) or when written in groups of four.
        union_pay = run.digits[a : a + 2] == "62"
        grouped4 = goff[gs + 1] - a == 4
        found = None
        for j in range(last - 1, i - 1, -1):
            ge = starts[j + 1]
            n = goff[ge] - a
            if n < 8:
                break
            if n not in lengths and not (
                13 <= n <= 19
                and not window_plus
                and ((union_pay and n >= 16) or (grouped4 and ge - gs > 1) or run.luhn(a, goff[ge]))
            ):
                continue
            found = run.classify(gs, ge, window_plus)
            if found is not None:
                kind, canonical, flags = found
                start = run_start if i == 0 else groups[gs].start
                if text[start - 1 : start] == "(":
                    start -= 1
                yield Detection(start, groups[ge - 1].end, kind, canonical, flags)
                i = j + 1
                break
        if found is None:
            i += 1


def _phone_or_id_or_card(
    digits: str, shape: tuple[int, ...], *, spoken: bool, plus: bool, luhn: bool
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
        if _card_shape(shape, spoken) and luhn:
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
        if luhn:
            return "CARD", digits, ()
        if (digits.startswith("62") and len(digits) >= 16) or (len(shape) > 1 and shape[0] == 4):
            return "CARD", digits, ("luhn_failed",)
    if len(digits) == 10 and _NANP.fullmatch(digits) and (spoken or shape in ((10,), (3, 3, 4))):
        return "PHONE", "+1" + digits, ()
    if digits[0] == "0" and digits[1] != "0" and shape in _LANDLINE_SHAPES:
        return "PHONE", digits, ("national",)  # 010-12345678: +86 only where the region says China
    if digits[0] == "0" and digits[1] != "0" and shape in _TRUNK_SHAPES:
        return "PHONE", digits, ("national",)  # 07700 900123, 01 42 68 53 00: the country is unknown
    if spoken and digits[0] == "0" and digits[1] != "0" and 10 <= len(digits) <= 12:
        return "PHONE", digits, ("national",)  # "oh seven seven double oh nine …": read in the region
    if shape == (3, 2, 4) and _SSN.fullmatch(digits):
        return "ID", "SSN" + digits, ()
    return None


def _card_shape(shape: tuple[int, ...], spoken: bool) -> bool:
    if spoken or len(shape) == 1 or shape in ((4, 6, 4), (4, 6, 5)):
        return True
    return all(size == 4 for size in shape[:-1]) and 1 <= shape[-1] <= 4


def _dotted_phone(shape: tuple[int, ...], gaps: list[str]) -> bool:
    return all(gap == "." for gap in gaps) and shape in ((3, 3, 4), (3, 4, 4))
