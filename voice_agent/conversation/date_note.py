"""The day the person told us, named next to a turn that needs it.

"The MRI on the back is Wednesday the 11th of February" and, weeks later, "Would you draft a text to my
sister asking could she do the school run for me that morning? Put the date in": the statement is in the
memory block, yet a small model writes the text with no date, or "[date]". The note after the turn quotes
the person's dated words ("(The day I told you: The MRI on the back is Wednesday the 11th of February.)" /
"（我跟你说过的日子：三月十二号面签。）"), as the place note names a place.

The turn must ask for a day or a date ("when", "which day", "the date", 哪天, 日子, 日期, 几号), and one of
the person's recalled statements must hold one: the one sharing a word with the turn, else the only one.
A plan on a day asked about ("go Bangkok end September, 24th to 30th … Can or not ah?", "礼拜三下半天两点钟
去做头发…好伐？") gets the sentence of a recalled statement that names the same month or weekday ("the
written papers start on the 26th of September"): whether the two clash is the answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from voice_agent.conversation.dated_fallback import dated_text
from voice_agent.conversation.revised_plans import without_revised
from voice_agent.conversation.said_before import person_statements
from voice_agent.memory.records import MemoryRecord
from voice_agent.text.dates import DAY_NAME, asks_for_day
from voice_agent.text.holidays import HOLIDAY_MONTHS, MONTHS_EN
from voice_agent.text.sentences import sentences_of
from voice_agent.text.spoken_dates_en import digit_dates

NOTE = {"en": "The day I told you: {text}", "zh": "我跟你说过的日子：{text}"}


def needs_day(user_text: str) -> bool:
    """Whether the turn asks for a day or a date, or needs one in what it asks for."""
    return asks_for_day(user_text)


# Asking whether a plan is all right: "Can or not ah?", "is that ok?", "好伐？", "行不行", "得唔得".
_ASKS_OK = re.compile(
    r"\b(?:can or not|is (?:that|it|this) (?:ok|okay|alright|fine|a good idea)|good idea)\b|"
    # (a yes-or-no question, not "what should I buy" nor "what can I cook")
    r"(?:^|(?<=[.!?,;:])\s*)(?:so\s+|and\s+|but\s+)?(?:should|can|could)\s+(?:i|we)\b|好伐|行不行|可以吗|可不可以|好不好|中不中|得唔得|合适吗|行吗|好吗|要不要|"
    r"咋样|怎么样|侬讲",
    re.I,
)


# Planning days of a month the turn names ("10月18号周六开杆…你帮我安排一下行程", "the trade show in Las
# Vegas, the 13th through the 17th of May. Can you help me work out which days I can cover"): a day the
# person told us in that month may clash.
# (or what to sort out before a trip in that month: "flying out … on the 20th of November … a checklist of
# everything to sort out at home before I go" after a library book due back on the 23rd)
_PLANS = re.compile(
    r"\b(?:plan|itinerary|schedule|rota|book|arrange|which days|work out|check-?list|to-?do list|"
    r"before (?:i|we) (?:go|leave|fly|set off))\b|"
    r"安排|行程|排个|排一下|订票|机票|请假|值班|规划|走之前|出发前",
    re.I,
)
# Which days of the month to pick: "你帮我看看四月份哪几天去合适", "which weekend in May works".
_WHICH_DAYS = re.compile(r"哪几天|哪天|哪些天|哪个周末|\bwhich (?:days?|dates?|weekends?)\b", re.I)
_MONTH_EN = tuple(name.lower() for name in MONTHS_EN)
_MONTH = re.compile(
    rf"\b(?P<en>{'|'.join(_MONTH_EN)})\b|(?P<zh>1[0-2]|[1-9]|十[一二]?|[一二三四五六七八九])月|"
    rf"(?P<day>{'|'.join(HOLIDAY_MONTHS)})",  # (a holiday's month: "our Christmas week")
    re.I,
)
_ZH_MONTH = {"十": 10, "十一": 11, "十二": 12, **{d: i + 1 for i, d in enumerate("一二三四五六七八九")}}
# (or a part of the month: "early March, the first or second weekend", "the second half of June", "月底")
_DAY_NUMBER = re.compile(
    r"\d|[一二三四五六七八九十廿]+(?:号|日)|中旬|上旬|下旬|月初|月底|月中|月末|"
    r"\b(?:early|mid|late|the (?:start|end|beginning|middle) of|(?:first|second|third|fourth|last) "
    r"(?:weekend|week|half)s?)\b",
    re.I,
)


_AS_MONTH = re.compile(r"\b(?:in|of|during|until|till|through|early|late|mid|since)\s+$", re.I)


def _months(text: str) -> set[int]:
    """The months ``text`` names ("May" only beside a number: not the verb)."""
    found = set()
    for m in _MONTH.finditer(text):
        if m.group("day"):
            found.add(HOLIDAY_MONTHS[m.group("day").lower()])
        elif m.group("en"):
            name = m.group("en").lower()
            near = text[max(0, m.start() - 8) : m.end() + 6]
            # (or said as a month: "sometime in May", "the end of May")
            if name != "may" or re.search(r"\d", near) or _AS_MONTH.search(text, 0, m.start()):
                found.add(_MONTH_EN.index(name) + 1)
        else:
            zh = m.group("zh")
            found.add(int(zh) if zh.isdigit() else _ZH_MONTH[zh])
    return found


def date_note(user_text: str, records: Sequence[MemoryRecord], language: str) -> str:
    """The note quoting the person's dated statement for a turn that needs a day, or ""."""
    if not needs_day(user_text):
        if _ASKS_OK.search(user_text):
            text = _same_day(user_text, records)
        else:
            text = day_in_planned_month(user_text, records)
    else:
        text = dated_text(user_text, person_statements(records))
    if not text:
        return ""
    if language != "zh":  # ("twenty-first of March" → "21 March": the digits a plan with dates needs)
        text = digit_dates(text)
    return NOTE["zh" if language == "zh" else "en"].format(
        text=text.strip().rstrip("。.,，;；、 ") + ("。" if language == "zh" else ".")
    )


def _same_day(user_text: str, records: Sequence[MemoryRecord]) -> str:
    """The sentence of a recalled statement of the person's that names a month or a weekday the turn names
    too, or ""."""
    named = {m.group(0).lower() for m in DAY_NAME.finditer(user_text)}
    if not named:
        return ""
    for record in person_statements(records):
        for sentence in sentences_of(record.text):
            if any(m.group(0).lower() in named for m in DAY_NAME.finditer(sentence)):
                return sentence
    return ""


def day_in_planned_month(user_text: str, records: Sequence[MemoryRecord]) -> str:
    """For a turn planning days of a month it names, the sentence of a recalled statement of the person's
    that names a day in that month too, or ""."""
    if not (_WHICH_DAYS.search(user_text) or (_PLANS.search(user_text) and _DAY_NUMBER.search(user_text))):
        return ""
    months = _months(user_text)
    if not months:
        return ""
    # (not a day changed since, as in ``dated_text``)
    for record in without_revised(person_statements(records), constraints_stand=False):
        for sentence in sentences_of(record.text):
            if _months(sentence) & months and _DAY_NUMBER.search(sentence):
                return sentence
    return ""
