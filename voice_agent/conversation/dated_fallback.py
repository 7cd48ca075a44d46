"""A day the person told us, said back when the model gave no answer to "which day was it?".

"我得跟领导请个假去考试，你记得是哪天吗？" after "科目三总算约上了，下个月二十六号上午…": the statement
shares no word with the question (考试 / 科目三), so the recall answer cannot pick it, and the 0.5B
model may say the question back twice. Instead of "抱歉，这个我一时答不上来", the reply check says back
the person's statement that holds a date: the one among the recalled statements that shares a word with
the question, else the only one that holds a date at all. Nothing when the question asks no day or
date, or when several statements hold one and none shares a word with the question (which one it was is
not clear).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from voice_agent.conversation.echo import content_keys
from voice_agent.conversation.recall_answer import said_back
from voice_agent.memory.records import MemoryRecord
from voice_agent.text.questions import is_question

_I = re.IGNORECASE
ASKS_DAY = re.compile(
    r"\b(?:when|what (?:day|date)|which (?:day|date)|what time)\b|"
    r"哪天|哪一天|几号|几月几|什么时候|星期几|周几|礼拜几|什么日子|哪个日子",
    _I,
)
_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december|"
    "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_DAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_ZH_NUMBER = "[0-9一二三四五六七八九十廿两]"
HOLDS_DATE = re.compile(
    rf"\b(?:{_DAYS}|(?:the )?\d{{1,2}}(?:st|nd|rd|th)\b|(?:{_MONTHS})\.? \d{{1,2}}\b|"
    rf"\d{{1,2}} (?:{_MONTHS})\b|"
    rf"\d{{1,2}}/\d{{1,2}}|tomorrow|next (?:week|month|{_DAYS}))|"
    rf"{_ZH_NUMBER}{{1,3}}(?:号|日)|{_ZH_NUMBER}{{1,2}}月|(?:周|星期|礼拜)[一二三四五六日天]|明天|后天|下周|下个?礼拜|"
    r"下个月|月底|月初",
    _I,
)
_MAX_CHARS = 160


def dated_statement(question: str, records: Sequence[MemoryRecord], language: str) -> str:
    """The person's statement that holds the day ``question`` asks about, said back; "" when the
    question asks for no day, or which statement it is is not clear."""
    if not ASKS_DAY.search(question) or not is_question(question):
        return ""
    dated: list[str] = []
    for record in records:
        if record.role != "user" or record.kind == "summary" or record.status != "active":
            continue
        text = record.text.strip()
        if len(text) > _MAX_CHARS or is_question(text) or not HOLDS_DATE.search(text):
            continue
        if text not in dated:
            dated.append(text)
    asked = content_keys(question)
    sharing = [text for text in dated if asked & content_keys(text)]
    if sharing:
        return said_back(sharing[0], language)
    return said_back(dated[0], language) if len(dated) == 1 else ""
