"""Self-corrections: only what stands after "no wait" / "不对不对" is said back, and the turn itself is no
remembered line even where the prompt scrubbed a name in it."""

from __future__ import annotations

import pytest

from voice_agent.conversation.recall_answer import said_back
from voice_agent.conversation.reply_copies import prompt_lines
from voice_agent.text.corrections import after_correction


@pytest.mark.parametrize(
    ("text", "stands"),
    [
        ("her birthday is the twelfth of May, no wait, the twenty-first of May", "the twenty-first of May"),
        ("it's on Tuesday sorry that's wrong it's on Thursday at eight", "it's on Thursday at eight"),
        ("搬家公司订了下礼拜二，不对不对，是礼拜四早上八点", "是礼拜四早上八点"),
        ("下礼拜二早上八点来呃不对不对是礼", ""),  # cut off: nothing that stands is left
        ("My kid is allergic to peanuts.", None),
        ("我对花生过敏。", None),
    ],
)
def test_what_stands_after_a_self_correction(text: str, stands: str | None) -> None:
    assert after_correction(text) == stands


def test_a_corrected_sentence_is_said_back_as_it_stands() -> None:
    told = said_back("Layla's birthday is the twelfth of May, no wait, the twenty-first of May.", "en")
    assert told == "You told me the twenty-first of May."
    assert "礼拜二" not in said_back("订了下礼拜二，不对不对，是礼拜四早上八点。", "zh")
    assert said_back("下礼拜二早上八点来呃不对不对是礼", "zh") == ""


def test_the_turn_scrubbed_for_the_prompt_is_not_a_remembered_line() -> None:
    turn = "呢个礼拜日成家人陪我阿爷去酒楼饮茶，我哋叫咩茶好？"
    messages = [
        {
            "role": "user",
            "content": "<memory>\nuser: 我对菊花过敏\n</memory>\n\n"
            "呢个礼拜日成家人陪我[NAME:d2c69965a8ff]去酒楼饮茶，我哋叫咩茶好？\n(请只用中文回答。)",
        }
    ]
    lines = prompt_lines(messages, turn)  # type: ignore[arg-type]
    assert "我对菊花过敏" in lines
    assert not any("酒楼" in line for line in lines)
