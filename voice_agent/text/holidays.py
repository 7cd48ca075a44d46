"""A day named by a fixed-date holiday, as its date: "the day after Valentine's" is 15 February,
"圣诞节前一天" is 12月24日.

People give birthdays and plans this way ("she were born the day after Valentine's"), and a small model
asked for "the date" writes the holiday's own day, or none. Only holidays on the same date every year
are read (not Easter, Thanksgiving or the lunar festivals, whose date moves), one or two days either side.
"""

from __future__ import annotations

import re

_I = re.IGNORECASE
MONTHS_EN = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
    "November", "December",
)  # fmt: skip
# The month of a holiday said to place a week or a stretch of days in it ("our Christmas week").
HOLIDAY_MONTHS = {
    "christmas": 12, "xmas": 12, "halloween": 10, "thanksgiving": 11, "圣诞": 12, "国庆": 10, "元旦": 1,
}  # fmt: skip
# (month, day) of each holiday, by the words that name it.
_HOLIDAYS_EN: tuple[tuple[str, tuple[int, int]], ...] = (
    (r"new year'?s eve|hogmanay", (12, 31)),
    (r"new year'?s(?: day)?", (1, 1)),
    (r"(?:st\.? |saint )?valentine'?s(?: day)?", (2, 14)),
    (r"(?:st\.? |saint )?patrick'?s(?: day)?|paddy'?s day", (3, 17)),
    (r"april fools'?(?: day)?", (4, 1)),
    (r"independence day|(?:the )?fourth of july|july (?:the )?4th", (7, 4)),
    (r"hallowe'?en", (10, 31)),
    (r"bonfire night|guy fawkes(?: night)?", (11, 5)),
    (r"christmas eve", (12, 24)),
    (r"boxing day", (12, 26)),
    (r"christmas(?: day)?|xmas", (12, 25)),
)
_HOLIDAYS_ZH: tuple[tuple[str, tuple[int, int]], ...] = (
    ("元旦", (1, 1)), ("情人节", (2, 14)), ("愚人节", (4, 1)), ("劳动节|五一", (5, 1)),
    ("儿童节|六一", (6, 1)), ("教师节", (9, 10)), ("国庆节?|十一", (10, 1)), ("万圣节", (10, 31)),
    ("平安夜", (12, 24)), ("圣诞节?", (12, 25)), ("跨年夜", (12, 31)),
)  # fmt: skip
_SHIFT_EN = {"the day before": -1, "the day after": 1, "two days before": -2, "two days after": 2}
_HOLIDAY_EN = re.compile(
    r"\b(?P<shift>(?:the|two) days? (?:before|after))\s+(?P<h>"
    + "|".join(f"(?:{words})" for words, _ in _HOLIDAYS_EN)
    + r")(?![\w'])",
    _I,
)
_HOLIDAY_ZH = re.compile(
    r"(?P<h>"
    + "|".join(f"(?:{words})" for words, _ in _HOLIDAYS_ZH)
    + r")的?(?P<shift>前一天|前两天|后一天|第二天|"
    r"后两天|前一日|后一日)"
)
_SHIFT_ZH = {"前一天": -1, "前一日": -1, "前两天": -2, "后一天": 1, "第二天": 1, "后一日": 1, "后两天": 2}
_DAYS_IN = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
# A holiday named after a saint (or a poet), which a name finder would take for a person: "the day after
# Valentine's", "Valentine's Day", "St Patrick's", "Burns Night".
_SAINTS_DAY = re.compile(
    r"(?:\b(?:day|night|week|weekend|eve) (?:after|before) |\b(?:st\.?|saint) )(?P<a>valentine|patrick|david|"
    r"andrew|george|stephen)(?='?s\b)|\b(?P<b>valentine|patrick|david|andrew|george|stephen)(?='?s day\b)|"
    # (a night named after a poet or a plotter: "Burns Night", "Burns Supper", "Guy Fawkes Night")
    r"\b(?P<c>burns|guy fawkes|fawkes)(?= (?:night|supper|day)\b)",
    _I,
)


def saints_days(text: str) -> list[tuple[int, int]]:
    """The character spans of saints' names that name a holiday in ``text`` ("Valentine" of "the day after
    Valentine's"), never a person."""
    return [match.span(next(g for g in "abc" if match.group(g))) for match in _SAINTS_DAY.finditer(text)]


def holiday_date(text: str) -> str:
    """The date of the first day ``text`` names beside a fixed-date holiday ("15 February", "2月15日"),
    or "" when it names none."""
    english = _HOLIDAY_EN.search(text)
    if english is not None:
        month, day = _shifted(
            _date_of(english.group("h"), _HOLIDAYS_EN), _SHIFT_EN[english.group("shift").lower()]
        )
        return f"{day} {MONTHS_EN[month - 1]}"
    chinese = _HOLIDAY_ZH.search(text)
    if chinese is not None:
        month, day = _shifted(_date_of(chinese.group("h"), _HOLIDAYS_ZH), _SHIFT_ZH[chinese.group("shift")])
        return f"{month}月{day}日"
    return ""


def _date_of(named: str, holidays: tuple[tuple[str, tuple[int, int]], ...]) -> tuple[int, int]:
    return next(date for words, date in holidays if re.fullmatch(words, named, _I))


def _shifted(date: tuple[int, int], days: int) -> tuple[int, int]:
    month, day = date[0], date[1] + days
    if day < 1:
        month = 12 if month == 1 else month - 1
        day += _DAYS_IN[month - 1]
    elif day > _DAYS_IN[month - 1]:
        day -= _DAYS_IN[month - 1]
        month = 1 if month == 12 else month + 1
    return month, day
