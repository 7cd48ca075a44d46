"""Rules drawn from this wave's blind splits (`heldout23`, `heldout24`), each as a general case."""

from __future__ import annotations

import pytest
from _scripted_llm import ScriptedLlm

from voice_agent.bench.adoption import violations
from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints
from voice_agent.conversation.reply_check import ReplyCheck
from voice_agent.conversation.reply_fallbacks import NOTHING_TO_SAY
from voice_agent.metrics.trace import TurnTrace


@pytest.mark.parametrize("text", ["白天不吃不喝。", "他不吃不喝好几天了，我很担心。", "我已经三天不喝咖啡了"])
def test_no_food_at_all_or_a_duration_names_no_thing_to_avoid(text: str) -> None:
    # "不吃不喝" is fasting, not a food called 不 (which would flag every Chinese sentence with 不)
    assert not [c for c in parse_constraints(text) if c.noun_zh in ("不", "不喝", "好几天", "三天")]
    guard = constraints_from_texts([text])
    assert guard.check("这周末不太冷，可以去公园散步。") is None


def test_the_thing_after_the_verb_is_still_read() -> None:
    assert [c.key for c in parse_constraints("我不吃香菜，一点都不行。")] == ["cilantro"]
    assert any("一次性筷子" in c.noun_zh for c in parse_constraints("我不碰一次性筷子。"))


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Peanuts could kill my nephew, literally.", "nuts"),
        ("Shellfish landed him in A&E last year.", "shellfish"),
        ("Eggs put her in the hospital once.", "eggs"),
        ("花生会要了他的命。", "nuts"),
        ("他吃虾直接进了医院。", "shellfish"),
    ],
)
def test_a_food_that_could_kill_or_sent_someone_to_hospital_is_an_allergy(text: str, key: str) -> None:
    assert (key, "allergy") in {(c.key, c.kind) for c in parse_constraints(text)}


@pytest.mark.parametrize("text", ["This heat could kill me.", "I landed in Paris yesterday.", "我妈住院了。"])
def test_no_food_named_is_no_allergy(text: str) -> None:
    assert parse_constraints(text) == []


@pytest.mark.parametrize(
    ("reply", "old"),
    [
        ("Biltong didn't last, so it's Mielie now.", "Biltong"),
        ("Cornwall fell through, so you're off to Devon.", "Cornwall"),
        ("The barbecue is out; it's a picnic now.", "barbecue"),
        ("去海南的计划黄了，改去云南。", "海南"),
    ],
)
def test_an_old_plan_said_to_be_off_is_no_violation(reply: str, old: str) -> None:
    assert violations(reply, [old]) == []


def test_the_old_plan_recommended_still_is() -> None:
    assert violations("I'd go for the barbecue, it's out of this world.", ["barbecue"]) == ["barbecue"]
    assert violations("推荐海南，计划一下行程。", ["海南"]) == ["海南"]


async def test_no_answer_about_a_changed_plan_says_the_change_not_sorry() -> None:
    asked = "帮我给我老公发条微信，让他周六去车站接我妈，几点到说清楚。"
    change = "你说过：下午那趟没抢到票，改成晚上的车了，八点二十到南站。"
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": asked}]
    trace = TurnTrace("changed")
    check = ReplyCheck(constraints_from_texts([]), "zh", trace, user_words=asked, changed=change)
    said = "".join([text async for text in check.run(messages, ScriptedLlm("", ""))])
    assert "八点二十" in said and NOTHING_TO_SAY["zh"] not in said
    assert trace.first("reply.changed_fallback") is not None


async def test_no_answer_about_a_place_told_says_what_to_do_there() -> None:
    asked = "We're flying down to see them over Easter. What should we do while we're there?"
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": asked}]
    check = ReplyCheck(constraints_from_texts([]), "en", TurnTrace("place"), user_words=asked, place="Hobart")
    said = "".join([text async for text in check.run(messages, ScriptedLlm("", ""))])
    assert "Hobart" in said and NOTHING_TO_SAY["en"] not in said
