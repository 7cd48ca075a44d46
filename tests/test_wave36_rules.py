"""Wave 36: a pinned plan changed later is not shown as the plan; a change's clause on why the old plan
fell through is not quoted as the plan; a reply the model could not give, for a turn a constraint
guides, says the constraint back instead of "sorry"; vows, culprits and shifted plans in new shapes."""

from __future__ import annotations

from tests._scripted_llm import ScriptedLlm
from voice_agent.conversation.block_records import shown_pinned
from voice_agent.conversation.constraints import constraints_from_texts
from voice_agent.conversation.extract import extract
from voice_agent.conversation.no_answer import only_lead_in
from voice_agent.conversation.reply_check import ReplyCheck
from voice_agent.conversation.reply_fallbacks import NOTHING_TO_SAY
from voice_agent.conversation.revised_plans import the_change, without_revised
from voice_agent.memory.records import MemoryRecord
from voice_agent.metrics.trace import TurnTrace

CALL = (
    "Every month we do the big family call, my brother in Perth and my sister in London. It's always "
    "the last Sunday of the month, 8pm Singapore time, on Zoom, and I'm the one who sends out the link. "
    "My car's COE expires next year, so that's a headache waiting to happen."
)
CALL_CHANGED = (
    "Eh, change of plan for the family call. The free Zoom kicks us out after forty minutes anyway, so "
    "from this month it's the last Saturday, 4pm Singapore time, and we're switching to Google Meet."
)


def _pinned(text: str, kind: str, source: str, when: float) -> MemoryRecord:
    return MemoryRecord("c", text, kind=kind, source=source, created_at=when)  # type: ignore[arg-type]


def test_a_pinned_plan_changed_by_a_later_pinned_statement_is_not_shown() -> None:
    (item,) = extract(CALL).items
    assert item.kind == "constraint" and item.text == CALL  # (pinned whole for its "always")
    old = _pinned(item.text, "constraint", "t1", 1.0)
    (change_item,) = extract(CALL_CHANGED).items
    assert change_item.kind == "decision"
    change = _pinned(change_item.text, "decision", "t2", 2.0)
    nuts = _pinned("My kid is allergic to peanuts, we always carry the EpiPen.", "constraint", "t0", 0.5)
    assert shown_pinned([nuts, old, change]) == [nuts, change]  # (an allergy holds whatever the change)
    assert shown_pinned([nuts, old]) == [nuts, old]  # nothing changed it


def test_a_clause_on_why_the_old_plan_fell_through_is_not_quoted() -> None:
    plan = MemoryRecord("c", "彩排定在12月21号礼拜六晚上七点，在老堂那边", source="t1", created_at=1.0)
    why = MemoryRecord("c", "老堂那边礼拜六有人办婚礼，借不出来", source="t2", created_at=2.0)
    moved = MemoryRecord("c", "挪到22号礼拜天下午两点半，在新堂三楼的副堂", source="t2", created_at=2.0)
    aside = MemoryRecord("c", "我家老头子又说要去瑞安钓鱼", source="t3", created_at=3.0)
    assert without_revised([plan, why, moved, aside]) == [moved, aside]
    moved_why = "挪到22号礼拜天下午两点半，老堂那边礼拜六有人办婚礼，借不出来。"
    assert the_change(moved_why) == "挪到22号礼拜天下午两点半。"
    booked = (
        "Change of plan with [NAME:6ae79afed7b5]. The Midrand track's booked out for a qualifier on "
        "Saturday, so we're going Sunday instead, eleven o'clock, to the club track in Boksburg."
    )
    assert the_change(booked) == "we're going Sunday instead, eleven o'clock, to the club track in Boksburg."


LATEX = constraints_from_texts(
    [
        "The girl pulled on her rubber gloves and within five minutes my lips had swollen up and there "
        "were hives crawling up my neck. The doctor said it's latex."
    ]
)
DECORATE = "Give me a decoration plan and a shopping list for the children's harvest thanksgiving hall."


async def _said(check: ReplyCheck, *replies: str) -> str:
    messages = [{"role": "system", "content": "Answer briefly."}, {"role": "user", "content": DECORATE}]
    return "".join([text async for text in check.run(messages, ScriptedLlm(*replies))])


def test_the_reaction_said_as_done_is_no_thing_kept_off() -> None:
    assert LATEX.keys() == ["allergy:latex"]  # not "allergy:swollen up" of "my lips had swollen up"


async def test_no_answer_to_a_turn_a_constraint_guides_says_the_constraint_back() -> None:
    # (with two constraints, a second empty reply is no answer: with one, the safe sentence of that one)
    rules = constraints_from_texts([*(c.source for c in LATEX.constraints), "I can't stand jazz."])
    assert len(rules) == 2
    trace = TurnTrace("rule")
    check = ReplyCheck(rules, "en", trace, user_words=DECORATE, guided=LATEX.constraints)
    said = await _said(check, "", "")
    assert "latex" in said.lower() and said.strip() != NOTHING_TO_SAY["en"]
    assert trace.first("reply.rule_fallback") is not None
    # not guided by it (a constraint of another topic): the plain sorry, as before
    trace = TurnTrace("plain")
    said = await _said(ReplyCheck(rules, "en", trace, user_words=DECORATE), "", "")
    assert said.strip() == NOTHING_TO_SAY["en"] and trace.first("reply.rule_fallback") is None


async def test_an_answer_keeps_its_words_and_gets_no_rule_fallback() -> None:
    trace = TurnTrace("answer")
    check = ReplyCheck(LATEX, "en", trace, user_words=DECORATE, guided=LATEX.constraints)
    said = await _said(check, "Paper lanterns, sunflower bunting and crepe streamers in orange and gold.")
    assert "lanterns" in said and trace.first("reply.rule_fallback") is None


def _keys(text: str) -> list[str]:
    return constraints_from_texts([text]).keys()


def test_chinese_vows_of_a_kind_a_list_or_an_activity_on_a_road() -> None:
    assert _keys("从那回起我就发了毒誓，这辈子再也不自驾跑山路了，哪个劝都没得用。") == ["driving"]
    assert _keys("打那以后我就发誓，啥除草剂我这辈子都不再碰了。") == ["avoid:除草剂"]
    assert _keys("我跟我老公讲死了，以后什么上门服务都不搞了。") == ["avoid:上门服务"]
    listed = "打那以后俺就发誓，啥水滴筹、轻松筹这些筹款平台，再也不沾了，捐也不捐、转也不转。"
    assert _keys(listed) == ["avoid:水滴筹", "avoid:轻松筹", "avoid:筹款平台"]
    assert _keys("以后什么事都好商量。") == []  # no vow


def test_the_culprits_named_beside_a_reaction() -> None:
    told = (
        "Turns out garlic and onion are the big culprits for me, even the onion powder on a packet of chips "
        "and I'm doubled over by nine o'clock. Leeks and shallots as well, she reckons it's all the same "
        "fructan business."
    )
    keys = _keys(told)
    assert "garlic" in keys and "onion" in keys and not any("same" in k for k in keys)
    assert _keys("He said Smith is the culprit for the broken window.") == []  # no body, no rule


def test_a_plan_shifted_elsewhere_is_said_from_the_new_place() -> None:
    shifted = (
        "Town council says the Block 456 rooftop garden got waterproofing works, cannot go up, so we "
        "shifted it to the open field behind the CC, same time."
    )
    assert the_change(shifted) == "we shifted it to the open field behind the CC, same time."


def test_a_reply_that_only_says_it_understood_writes_nothing() -> None:
    assert only_lead_in(["好的，我明白了。"], written=True) and only_lead_in(["Got it."])
    assert not only_lead_in(["好的，礼拜四晚上八点半在软件新城楼下见。"])
