"""Readings added in wave 30 from the blind splits heldout78-83: "non-veg" is meat (Indian English), and
"non-vegetarian" is no vegetarian diet."""

from __future__ import annotations

import pytest

from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints


@pytest.mark.parametrize(
    "told",
    [
        "Started my Sabarimala vratham, so no non-veg, no alcohol, nothing.",
        "We don't eat non-vegetarian food at home.",
        "Amma is very strict, so no nonveg for me this month.",
    ],
)
def test_no_non_veg_keeps_meat_off(told: str) -> None:
    kept = constraints_from_texts([told])
    assert kept.check("I'd suggest grilled chicken with rice.") is not None
    assert kept.check("A paneer tikka with rice and salad.") is None


@pytest.mark.parametrize(
    "told", ["I'm non-vegetarian, I eat everything.", "We love non-veg food, especially chicken biryani."]
)
def test_eating_non_veg_is_no_constraint(told: str) -> None:
    assert parse_constraints(told) == []


_WEDDING = "下个月我结婚，媳妇那边伴娘团让我提前给个接亲环节的意见，"
REQUEST = _WEDDING + "你帮我设计一套接亲流程和堵门游戏，整热闹点的。"


async def test_a_request_said_back_is_no_answer_though_it_asks_no_question() -> None:
    """The model copied the request; its first clause alone ("下个月我结婚，") was said before the rest was
    seen to be a copy, and the person heard only that."""
    from _scripted_llm import ScriptedLlm

    from voice_agent.conversation.reply_check import ReplyCheck
    from voice_agent.metrics.trace import TurnTrace

    answer = "接亲流程可以这样安排：先敲门对暗号，再找婚鞋，最后合影。"
    llm = ScriptedLlm(REQUEST, answer)
    trace = TurnTrace("copy")
    check = ReplyCheck(constraints_from_texts([]), "zh", trace, user_words=REQUEST)
    said = "".join([t async for t in check.run([{"role": "user", "content": REQUEST}], llm)])
    assert "".join(said.split()) == answer and len(llm.calls) == 2
    assert trace.first("reply.question_start_held") is not None
