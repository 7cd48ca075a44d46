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
from voice_agent.conversation.said_before import person_statements
from voice_agent.memory.records import MemoryRecord
from voice_agent.text.dates import DAY_NAME, asks_for_day
from voice_agent.text.sentences import sentences_of

NOTE = {"en": "The day I told you: {text}", "zh": "我跟你说过的日子：{text}"}


def needs_day(user_text: str) -> bool:
    """Whether the turn asks for a day or a date, or needs one in what it asks for."""
    return asks_for_day(user_text)


# Asking whether a plan is all right: "Can or not ah?", "is that ok?", "好伐？", "行不行", "得唔得".
_ASKS_OK = re.compile(
    r"\b(?:can or not|is (?:that|it|this) (?:ok|okay|alright|fine|a good idea)|should (?:i|we)|can (?:i|we)|"
    r"could (?:i|we)|good idea)\b|好伐|行不行|可以吗|可不可以|好不好|中不中|得唔得|合适吗|行吗|好吗|要不要|"
    r"咋样|怎么样|侬讲",
    re.I,
)


def date_note(user_text: str, records: Sequence[MemoryRecord], language: str) -> str:
    """The note quoting the person's dated statement for a turn that needs a day, or ""."""
    if not needs_day(user_text):
        text = _same_day(user_text, records) if _ASKS_OK.search(user_text) else ""
    else:
        text = dated_text(user_text, person_statements(records))
    if not text:
        return ""
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
