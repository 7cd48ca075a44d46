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
        # an amount, and the clause explaining the one taken back left out
        (
            "预算砍到十万——哦不对不对，十万是他一开始说的，后来又算了一遍，八万封顶。",
            "后来又算了一遍，八万封顶。",
        ),
        ("the budget is 5,000 pounds, no wait, 4,000 pounds max", "4,000 pounds max"),
        ("My kid is allergic to peanuts.", None),
        ("我对花生过敏。", None),
        ("Oscar's parents' evening is on Thursday the 14th, no, hang on, Friday.", "Friday."),
        ("Hang on a sec, I need my glasses.", None),  # "hang on" alone corrects nothing
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


async def test_a_reply_copying_a_self_correction_from_memory_says_only_what_stands() -> None:
    from test_reply_check import ScriptedLlm

    from voice_agent.conversation.constraints import constraints_from_texts
    from voice_agent.conversation.reply_check import ReplyCheck
    from voice_agent.metrics.trace import TurnTrace

    turn = "can you help me write a quick note to her nursery saying i'll bring in cupcakes on her birthday"
    memory = "user: layla's birthday is the twelfth of may no wait sorry that's wrong the twenty first of may"
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": f"{memory}\n\n{turn}"}]
    llm = ScriptedLlm(
        "Dear nursery, I'll bring cupcakes on Layla's birthday. "
        "It's the twelfth of May no wait sorry that's wrong the twenty first of May."
    )
    trace = TurnTrace("c")
    check = ReplyCheck(constraints_from_texts([]), "en", trace, user_words=turn)
    said = "".join([text async for text in check.run(messages, llm)])  # type: ignore[arg-type]
    assert "twelfth" not in said and "twenty first of May" in said
    assert "I'll bring cupcakes" in said


def test_no_cake_is_suggested_for_the_words_to_write_on_one() -> None:
    from voice_agent.conversation.suggestions import request_kind

    assert request_kind("", "我想订一个寿桃蛋糕，上面要写字，你帮我想一句好不好？") is None
    assert request_kind("", "我想订一个寿桃蛋糕，你推荐哪种？") is not None


def test_a_clause_said_back_ends_as_a_sentence() -> None:
    said = said_back("the written papers start on the 26th of September, English first,", "en")
    assert said == "You told me the written papers start on the 26th of September, English first."
    assert said_back("我家小孩对坚果过敏，", "zh") == "你告诉过我，你家小孩对坚果过敏。"
