"""A day of the month said in words, written in digits: "the Saturday, twenty-first of March" → "the
Saturday, 21 March".

A date note quotes the person's words, and a small model copies what it is given: told "twenty-first of
March", it writes that, and a plan with "actual dates" (or a countdown worked back from the day) needs the
digits. Only a day with its month is written over ("the twenty-first of March", "March the third",
"March twenty-first"); an ordinal alone ("the second time") is left as said.
"""

from __future__ import annotations

import re

from voice_agent.text.dates import ORDINAL_WORD, UNIT_ORDINALS
from voice_agent.text.holidays import MONTHS_EN

_MONTH = "|".join(MONTHS_EN)
_UNITS = UNIT_ORDINALS.split("|")
_TEENS = (
    "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
    "eighteenth", "nineteenth",
)  # fmt: skip
_TENS = {"twenty": 20, "thirty": 30}
_ROUND = {"twentieth": 20, "thirtieth": 30}
_DAY_OF_MONTH = re.compile(
    rf"\b(?:the\s+)?(?P<day>{ORDINAL_WORD})(?:\s+of)?\s+(?P<month>{_MONTH})\b|"
    rf"\b(?P<month2>{_MONTH})\s+(?:the\s+)?(?P<day2>{ORDINAL_WORD})\b",
    re.IGNORECASE,
)


def ordinal_value(word: str) -> int:
    """The number an English ordinal word (``ORDINAL_WORD``) names: "twenty-first" → 21."""
    word = word.lower().replace(" ", "-")
    if word in _ROUND:
        return _ROUND[word]
    if word in _TEENS:
        return 10 + _TEENS.index(word)
    tens, _, unit = word.rpartition("-")
    if not tens and unit[:6] in _TENS:  # ("twentyfirst": no hyphen)
        tens, unit = unit[:6], unit[6:]
    return _TENS.get(tens, 0) + _UNITS.index(unit) + 1


def _as_digits(match: re.Match[str]) -> str:
    day = match.group("day") or match.group("day2")
    said = match.group("month") or match.group("month2")
    if said == "may" and " of " not in match.group(0):  # (the verb: "the first may be the hardest")
        return match.group(0)
    month = said.capitalize()
    number = ordinal_value(day)
    if number > 31:
        return match.group(0)
    return f"{number} {month}"


def digit_dates(text: str) -> str:
    """``text`` with each day of a month said in words written in digits ("twenty-first of March" →
    "21 March")."""
    return _DAY_OF_MONTH.sub(_as_digits, text)
