"""Words that ask for a day, and words that name one (English and Chinese)."""

from __future__ import annotations

import functools
import re

from voice_agent.text.holidays import holiday_date

_I = re.IGNORECASE
ASKS_DAY = re.compile(
    # ("when" that asks: "When's the MRI?", "remind me when the dentist is"; not "when I was sick in bed")
    r"\b(?:when(?:'s| (?:is|was|are|were|do|does|did|should|shall|can|could|will|would|am|the|my|our|his|"
    r"her|their|your|that|it's)\b)|what (?:day|date)s?|which (?:day|date)s?|what time)\b|"
    r"(?:^|[.;!?]\s*)when\s*[?？]|"
    # ("tell me when I should be booking everything", "when to go": not "when I was sick in bed")
    r"\bwhen (?:i|we|you|they) (?:should|ought|need|have to|must)\b|"
    r"\bwhen to (?:book|go|leave|start|plant|sow|schedule|order|arrange|buy)\b|"
    # (the nights of a stay: "酒店订哪几晚", "which nights should I book")
    r"\b(?:which|what) nights?\b|哪几晚|哪晚|哪几个晚上|哪几天|哪几号|"
    r"么子时候|么时候|哪个时候|哪天|哪一天|几号|几月几|什么时候|啥时候|啥辰光|几时|哪阵|咩时候|几时候|星期几|周几|礼拜几|什么日子|哪个日子|几点",
    _I,
)
MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december|"
    "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
DAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
# Words that name one day or month the same way in any sentence: a weekday, a month, 周三 / 礼拜三 / 星期三.
DAY_NAME = re.compile(
    rf"\b(?:{DAYS}|january|february|march|april|june|july|august|september|october|november|december)\b|"
    r"(?:周|星期|礼拜)[一二三四五六日天]",
    re.IGNORECASE,
)
_ZH_NUMBER = "[0-9一二三四五六七八九十廿两]"
# A day of the month in words, as a transcript writes it: "the twenty first of may", "May the third".
UNIT_ORDINALS = "first|second|third|fourth|fifth|sixth|seventh|eighth|ninth"
ORDINAL_WORD = (
    rf"(?:(?:twenty|thirty)[- ]?(?:{UNIT_ORDINALS})|{UNIT_ORDINALS}|tenth|eleventh|twelfth|thirteenth|"
    r"fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth)"
)
HOLDS_DATE = re.compile(
    rf"\b(?:{DAYS}|(?:the )?\d{{1,2}}(?:st|nd|rd|th)\b|(?:{MONTHS})\.? \d{{1,2}}\b|"
    rf"\d{{1,2}} (?:{MONTHS})\b|"
    rf"\d{{1,2}}/\d{{1,2}}|tomorrow|next (?:week|month|{DAYS})|"
    rf"{ORDINAL_WORD} of (?:{MONTHS})\b|(?:{MONTHS}) the {ORDINAL_WORD}\b)|"
    # (not "后天" across words: "从那以后天一黑", "然后天天")
    rf"{_ZH_NUMBER}{{1,3}}(?:号|日)|{_ZH_NUMBER}{{1,2}}月|(?:周|星期|礼拜)[一二三四五六日天]|明天|(?<![以之然最落])后天|下周|下个?礼拜|"
    r"下个月|月底|月初",
    _I,
)
# A day of a month: "6 September", "the 22nd of August", "Aug 22", "8月22号", "九月六号" (no weekday alone).
CALENDAR_DATE = re.compile(
    rf"\b(?:(?:{MONTHS})\.? \d{{1,2}}(?:st|nd|rd|th)?\b|\d{{1,2}}(?:st|nd|rd|th)? (?:of )?(?:{MONTHS})\b|"
    rf"{ORDINAL_WORD} of (?:{MONTHS})\b|(?:{MONTHS}) the {ORDINAL_WORD}\b)|"
    rf"{_ZH_NUMBER}{{1,2}}月{_ZH_NUMBER}{{1,3}}(?:号|日)",
    _I,
)
# Asking to be reminded: "which date was it again?", "是哪天来着？", "你记得是哪天吗？".
RECALLS_DAY = re.compile(
    r"\b(?:again|was it|is it|did i (?:say|tell you|mention)|remind me|do you remember)\b|来着|记得|还记得",
    _I,
)
# What is written for a day, so it needs the day in it: an invitation to the event, a note of when one is
# away ("邀请朋友们来看我们的摄影展", "an out-of-office").
_FOR_A_DAY_EN = r"invit(?:e|es|ation|ations|ing)|out[- ]of[- ]office"
_FOR_A_DAY_ZH = "邀请|请大家来"
# Leave taken for a day, or a thing readied for it: "which days I should take off", "a PTO request",
# "so it's ready in time for her party".
_OFF_OR_IN_TIME_EN = (
    r"pto|days? (?:i|we) (?:should |need to |have to )?take off|(?:ready|done|back|home|there) in time"
)
# Words of a request that needs a day in its answer: "put the date in", a leave request, "that day".
NEEDS_DAY = re.compile(
    # (not a day to fill: "plan the day for us", "spend the day at the zoo")
    r"\b(?:(?<!plan )(?<!spend )(?<!enjoy )(?<!map out )the (?:date|day)|dates?|the time|what day|days? off|"
    rf"time off|annual leave|that day|{_OFF_OR_IN_TIME_EN}|"
    # a plan counted back from the day: "work backwards and give me a schedule", "a settling-in timetable"
    r"schedule|timetable|timeline|countdown|work(?:ing)? (?:it )?back(?:wards?)?|count(?:ing)? back|"
    # (the stretch before the day: "a grooming plan for the lead-up", "考前咋冲刺")
    r"lead-?up|run-?up|(?:the|a) (?:week|fortnight|month) before|in phases|phase by phase|"
    r"on (?:his|her|my|their|our|your|the) (?:birthday|big day|wedding day|anniversary|moving day)|"
    # a note ahead of something: "apologising in advance for the truck blocking the driveway"
    rf"in advance|ahead of time|beforehand|heads[- ]up|{_FOR_A_DAY_EN})\b|"
    # (a leave request says which day)
    r"日子|日期|哪天|几号|时间|什么时候|啥辰光|请假|请[一两半几个]?天?的?假|调休|倒推|倒着(?:排|算|推)|时间表|排期|日程|"
    # ("我那天搬家要用货梯": the day they told us; a plan in phases runs up to the day: "训练计划按阶段排")
    rf"那天|当天|考前|考试前|冲刺|倒计时|按阶段|分阶段|{_FOR_A_DAY_ZH}",
    _I,
)


# A request that needs a date itself, not only a time: "put the date in", a leave request, 日子要写清楚
# ("我没时间做饭" needs none, nor "that day").
NEEDS_DATE = re.compile(
    r"\b(?:the date|dates?|what days?|which days?|days? off|time off|annual leave|leave days?|deadline|"
    rf"{_OFF_OR_IN_TIME_EN})\b|"
    r"日子|日期|哪天|几号|哪几晚|哪晚|哪几天|请假|截止|期限|到期|"
    r"请[一两半几个]?天?的?假|调休|"
    # an invitation to the event, a note of when one is away: "邀请朋友们来看我们的摄影展", "an out-of-office"
    rf"\b(?:{_FOR_A_DAY_EN})\b|{_FOR_A_DAY_ZH}",
    _I,
)


def asks_for_day(text: str) -> bool:
    """Whether ``text`` asks for a day or a date, or needs one in what it asks for."""
    return bool(ASKS_DAY.search(text) or NEEDS_DAY.search(text))


@functools.lru_cache(maxsize=8192)
def holds_day(text: str) -> bool:
    """Whether ``text`` names a day: a date, a weekday, "next month", 三月十二号, or a day beside a
    fixed-date holiday ("the day after Valentine's")."""
    return HOLDS_DATE.search(text) is not None or bool(holiday_date(text))


_TIME = re.compile(
    r"\b\d{1,2}(?::\d{2})?\s*(?:am|pm|o'clock)\b|[0-9一二两三四五六七八九十]+点(?:半|[0-9一二三四五六七八九十]+分?)?",
    _I,
)


def holds_time(text: str) -> bool:
    """Whether ``text`` names a day or a time of day ("Thursday", "八点二十", "7:30 pm")."""
    return holds_day(text) or _TIME.search(text) is not None
