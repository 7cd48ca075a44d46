"""A turn that needs a day we were told (a leave request, "put the date in") gets that day said after a
reply that named none of it (conversation/reply_fallbacks.day_tie); a day named by a fixed-date holiday
is read as its date (text/holidays.py)."""

from __future__ import annotations

import pytest

from tests._scripted_llm import ScriptedLlm
from voice_agent.conversation.constraints import constraints_from_texts
from voice_agent.conversation.dated_fallback import dated_text, names_day_of
from voice_agent.conversation.recall_answer import said_back
from voice_agent.conversation.reply_check import ReplyCheck
from voice_agent.memory.records import MemoryRecord
from voice_agent.metrics.trace import TurnTrace
from voice_agent.text.holidays import holiday_date


@pytest.mark.parametrize(
    ("text", "date"),
    [
        ("She were born the day after Valentine's, in a two-up two-down.", "15 February"),
        ("the party is the day before New Year's Day", "31 December"),
        ("we fly two days after Christmas", "27 December"),
        ("the day after Hogmanay", "1 January"),
        ("我生日是圣诞节前一天。", "12月24日"),
        ("她是情人节的第二天出生的", "2月15日"),
        ("I love Christmas.", ""),  # the holiday itself is no day told
        ("十一月去北京", ""),
    ],
)
def test_a_day_beside_a_fixed_date_holiday_is_its_date(text: str, date: str) -> None:
    assert holiday_date(text) == date


def test_a_statement_dated_by_a_holiday_is_found_with_its_date() -> None:
    records = [
        MemoryRecord("c1", "Me nan Edna is gonna be a hundred!", source="t1"),
        MemoryRecord("c1", "She were born the day after Valentine's, in Barnsley.", source="t1"),
    ]
    text = dated_text("Write the Palace an email with the date of her hundredth birthday.", records)
    assert text == "She were born the day after Valentine's, in Barnsley (15 February)"
    assert names_day_of("Her birthday is 15 February.", text) and not names_day_of("Dear Palace,", text)


async def _said(check: ReplyCheck, turn: str, llm: ScriptedLlm) -> str:
    messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": turn}]
    return "".join([text async for text in check.run(messages, llm)])


async def test_a_reply_without_the_day_gets_the_persons_dated_words_after_it() -> None:
    turn = "我要同公司请几日假返汕头帮阿爸做寿，你帮我写个请假申请，日子要写清楚。"
    day = said_back("阿爸系农历九月初九出世", "zh")
    trace = TurnTrace("day")
    check = ReplyCheck(constraints_from_texts([]), "zh", trace, user_words=turn, day=day)
    said = await _said(check, turn, ScriptedLlm("您好，我因家中老人做寿，需请假三天，望批准。"))
    assert said.startswith("您好") and said.rstrip().endswith(day) and "九月初九" in said
    assert trace.first("reply.day_tie") is not None


async def test_a_reply_that_gave_the_day_gets_nothing_added() -> None:
    turn = "Can you write a short email to the Palace with the date of her hundredth birthday?"
    day = said_back("She were born the day after Valentine's (15 February)", "en")
    trace = TurnTrace("gave")
    check = ReplyCheck(constraints_from_texts([]), "en", trace, user_words=turn, day=day)
    said = await _said(check, turn, ScriptedLlm("Dear Sir, my nan Edna turns one hundred on 15 February."))
    assert "told me" not in said and trace.first("reply.day_tie") is None


async def test_a_drafted_message_said_for_no_answer_carries_the_day_too() -> None:
    turn = "Can you write us a short email to the Palace with her name and the date of her birthday?"
    day = said_back("She were born the day after Valentine's (15 February)", "en")
    trace = TurnTrace("draft")
    check = ReplyCheck(constraints_from_texts([]), "en", trace, user_words=turn, day=day,
                       remembered="Dear Edna, happy birthday!")  # fmt: skip
    said = await _said(check, turn, ScriptedLlm("", ""))  # the model says nothing, twice
    assert said.startswith("Dear Edna, happy birthday!") and "15 February" in said


def test_a_saints_day_is_a_holiday_not_a_person() -> None:
    from voice_agent.text.holidays import saints_days

    text = "born the day after Valentine's; St Patrick's Day; Valentine came"
    assert [text[s:e] for s, e in saints_days(text)] == ["Valentine", "Patrick"]


def test_only_a_turn_that_needs_a_date_gets_the_day_said() -> None:
    from voice_agent.conversation.turn_compose import turn_day
    from voice_agent.prompt import BuiltPrompt

    visa = MemoryRecord("c1", "下礼拜三去面签。", source="t1")
    prompt = BuiltPrompt([], {}, 0, 4096, retrieved=[visa])
    assert turn_day("帮我写个请假条，日子要写清楚。", prompt, "zh") == "你告诉过我，下礼拜三去面签。"
    assert turn_day("面签是哪天来着？", prompt, "zh") == "你告诉过我，下礼拜三去面签。"
    assert turn_day("我今天没时间做饭，晚上吃什么好？", prompt, "zh") == ""  # time, not a date


def test_when_asks_for_a_day_only_as_a_question() -> None:
    from voice_agent.text.dates import ASKS_DAY

    for asks in ("When's the MRI again?", "Remind me when the dentist is.", "We leave at six. When?"):
        assert ASKS_DAY.search(asks), asks
    told = "She left a pot of soup outside my door when I was sick in bed, would you write her a note?"
    assert ASKS_DAY.search(told) is None  # a time told, not asked: no day is quoted next to it
