"""Rules drawn from the blind `heldout21` split (plain everyday speech), each as a general case: a
changed plan read from a condensed earlier conversation, a medicine for someone allergic to one, a refusal
after "Sure!", a memory copied mid-reply, a Chinese order with a list, and a note about "that day".

The LLM is a scripted stream at the network edge; the checks, splitter and fallbacks are the real ones."""

from __future__ import annotations

from _scripted_llm import ScriptedLlm

from voice_agent.bench.adoption import violations
from voice_agent.conversation.acknowledge import acknowledgement, stating_clauses
from voice_agent.conversation.changed_plan import changed_plan
from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints
from voice_agent.conversation.dated_fallback import dated_text
from voice_agent.conversation.likings import says_liking
from voice_agent.conversation.name_note import addressee
from voice_agent.conversation.no_answer import REFUSAL
from voice_agent.conversation.place_note import place_note
from voice_agent.conversation.reminders import turn_guidance
from voice_agent.conversation.reply_check import ReplyCheck
from voice_agent.conversation.said_before import person_statements
from voice_agent.conversation.suggestions import concrete_option, request_kind
from voice_agent.conversation.turn_compose import turn_day
from voice_agent.memory.records import MemoryRecord
from voice_agent.metrics.trace import TurnTrace
from voice_agent.prompt import BuiltPrompt

DRAMA_SUMMARY = MemoryRecord(
    "c1",
    "Earlier conversation (2026-12-04): User: 我买了这周六晚上七点半的话剧票，跟闺蜜一起去看。 | "
    "Assistant: 好的，我记住了。 | "
    "User: 话剧那边临时调了场次，周六晚上那场取消了，票给我们改到周日下午两点了。 | "
    "Assistant: 好的，我记住了。",
    kind="summary",
    source="turns:1-4",
    created_at=100.0,  # written when the turns left the window: after both
)
DRAMA_CLAUSE = MemoryRecord("c1", "我买了这周六晚上七点半的话剧票", source="t1", created_at=1.0)
TO_HUSBAND = "帮我给我老公发条微信，说我去看话剧那天他得在家带孩子，别约人出去。"


def test_the_parts_of_a_condensed_conversation_are_dated_as_the_utterances_they_were() -> None:
    parts = person_statements([DRAMA_SUMMARY, DRAMA_CLAUSE])
    first, change = parts[0], parts[1]
    assert first.source == "t1" and first.created_at == 1.0  # the clause record's turn and time
    assert change.created_at > first.created_at and change.source != first.source
    # so the change revises the plan: the day said back is the new one, never the cancelled Saturday
    assert "周日" in dated_text(TO_HUSBAND, parts) and "周六晚上七点半" not in dated_text(TO_HUSBAND, parts)
    assert "周日下午两点" in changed_plan(TO_HUSBAND, [DRAMA_SUMMARY, DRAMA_CLAUSE], "zh")


def test_an_english_change_in_a_summary_revises_the_plan_before_it() -> None:
    summary = MemoryRecord(
        "c1",
        "Earlier conversation (2026-12-04): User: I've signed up to volunteer at the food bank on Tuesday "
        "afternoons, sorting donations from… | Assistant: Got it. | "
        "User: Update on the food bank: they've got Tuesdays covered now, so they've moved me to Thursday… | "
        "Assistant: Got it.",
        kind="summary",
        created_at=100.0,
    )
    clauses = [
        MemoryRecord("c1", "so they've moved me to Thursday afternoons instead, same hours.", source="t3",
                     created_at=3.0),
        MemoryRecord("c1", "Update on the food bank: they've got Tuesdays covered now", source="t3",
                     created_at=3.0),
    ]  # fmt: skip
    asked = "Can you write a quick message to my manager asking if I can leave early one afternoon a week?"
    assert changed_plan(asked, [summary, *clauses], "en") == (
        "You told me they've moved you to Thursday afternoons instead."
    )


def test_a_medicine_asked_for_keeps_the_persons_drug_allergy() -> None:
    told = (
        "Just so you know, I'm allergic to ibuprofen. I took a couple of Nurofen for a headache last year "
        "and my face swelled up, and she said aspirin's out too because it's the same family."
    )
    constraints = constraints_from_texts([told])
    assert {"ibuprofen", "aspirin"} <= set(constraints.keys())
    assert constraints.check("Take two Nurofen with food.") is not None  # a brand of it
    assert constraints.check("An aspirin will help.") is not None
    asked = "I went over on my ankle this afternoon and it's really throbbing. What can I take for the pain?"
    assert turn_guidance(constraints, [told], asked, "en") == [
        "Suggest a medicine that is not ibuprofen, and say to check with a pharmacist."
    ]
    opening = acknowledgement(constraints.constraints, constraints, "en", asked)
    assert (
        opening is not None and opening.text == "You told me you're allergic to ibuprofen, so no ibuprofen. "
    )
    assert "paracetamol" in concrete_option(constraints, "", asked, "en")
    # a visit is still a visit: what to tell the dentist first
    visit = turn_guidance(
        constraints, [told], "I'm at the dentist tomorrow, anything I should tell them?", "en"
    )
    assert visit and "Tell them first" in visit[0]


def test_a_never_on_a_pastime_opens_a_reply_about_what_to_do() -> None:
    told = "Please don't ever suggest running to me. I've had two operations on my left knee."
    constraints = constraints_from_texts([told])
    asked = (
        "Work's doing a charity challenge and everyone has to get sponsored for something. What should I do?"
    )
    opening = acknowledgement(constraints.constraints, constraints, "en", asked)
    assert opening is not None and opening.text == "With no running, as you told me, "
    option = concrete_option(constraints, "", asked, "en")
    assert "sponsored" in option and "run" not in option
    # a "never" about food opens no reply about what to do
    olives = constraints_from_texts(["I never eat olives."])
    assert acknowledgement(olives.constraints, olives, "en", "What should we do this weekend?") is None


async def test_a_refusal_after_sure_is_no_answer() -> None:
    asked = "My team wants to take me out for lunch on Thursday. Can you help me write a reply to them?"
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": asked}]
    llm = ScriptedLlm(
        "Sure! Here's a reply to the team: I'm sorry, I can't assist with that.",
        "Thanks so much, team! I'm fasting this month, so could we do dinner instead?",
    )
    trace = TurnTrace("refusal")
    check = ReplyCheck(constraints_from_texts([]), "en", trace, user_words=asked)
    said = "".join([text async for text in check.run(messages, llm)])
    assert "can't assist" not in said and "dinner instead" in said and len(llm.calls) == 2
    assert trace.first("reply.refusal") is not None
    # after an answer, a refusal is only left out
    again = ScriptedLlm("Thanks, team, lunch sounds lovely. I'm sorry, I can't assist with that.")
    said = "".join(
        [t async for t in ReplyCheck(constraints_from_texts([]), "en", TurnTrace("r2"), user_words=asked).run(
            messages, again
        )]
    )  # fmt: skip
    assert "lunch sounds lovely" in said and "can't assist" not in said and len(again.calls) == 1
    assert REFUSAL.search("很抱歉，我无法协助完成这个请求。") and not REFUSAL.search(
        "我无法想象没有猫的日子。"
    )


async def test_a_memory_copied_in_short_first_pieces_is_never_said() -> None:
    told = "我胃不好，一吃柿子就胃胀胃疼。去年秋天吃了两个，疼了一宿，医生说我这种胃最好别碰，柿饼也一样。"
    asked = "入秋了，你给我推荐几样这个季节好吃的水果吧。"
    messages = [
        {"role": "system", "content": "规则"},
        {"role": "user", "content": f"<memory>\nuser: {told}\n</memory>\n\n{asked}"},
    ]
    llm = ScriptedLlm("我胃不好， 一吃柿子就胃胀胃疼。推荐苹果。", "推荐苹果和石榴。")
    trace = TurnTrace("copy")
    check = ReplyCheck(constraints_from_texts([told]), "zh", trace, user_words=asked)
    said = "".join([text async for text in check.run(messages, llm)])
    assert "我胃不好" not in said and "石榴" in said


def test_a_chinese_order_with_a_list_rules_out_each_item() -> None:
    told = "我这人最怕早起，出去玩千万别给我安排什么看日出、赶早的行程。"
    keys = {c.key for c in parse_constraints(told)}
    assert {"avoid:早起", "avoid:日出", "avoid:赶早"} <= keys
    assert constraints_from_texts([told]).check("凌晨四点起床去光明顶看日出。") is not None
    assert parse_constraints("我最怕我妈唠叨。") == []  # a person, no thing to keep off
    assert parse_constraints("我最怕冷，冬天不出门。") == []


def test_what_is_said_back_of_a_constraint_is_its_stating_clause() -> None:
    (wool,) = constraints_from_texts(["我对羊毛过敏，穿上羊毛衫没一会儿就起一片红疹子。"]).constraints
    assert stating_clauses(wool) == "我对羊毛过敏。"
    (nuts,) = constraints_from_texts(["My kid is allergic to nuts, especially peanuts."]).constraints
    assert stating_clauses(nuts) == "My kid is allergic to nuts, especially peanuts."
    assert violations("我建议选羊毛以外的衣服。", ["羊毛"]) == []  # 以外 is read whole
    assert violations("我建议避开早起，换个别的安排。", ["早起"]) == []


def test_a_trip_to_a_named_place_gets_no_other_trip_as_an_example() -> None:
    assert request_kind("", "下个月跟老公去黄山玩两天，你帮我排个行程？") is None
    assert request_kind("", "In April we go to Japan for two weeks. What should we do?") is None
    kind = request_kind("", "Where should we go for a holiday in May?")
    assert kind is not None and kind.name == "trip"
    kind = request_kind("", "明天是初一，中午想点个外卖，你帮我挑挑点啥好？")
    assert kind is not None and kind.name == "dinner"


def test_a_place_and_a_liking_are_read_from_everyday_words() -> None:
    brother = MemoryRecord(
        "c1", "My brother's taken a job at the hospital in Hobart, so he's moved down there."
    )
    asked = "We're flying down to see them over Easter. What should we do while we're there?"
    assert "Hobart" in place_note(asked, [brother], "en")
    assert says_liking("Me and my husband started salsa classes in January and we're completely hooked.")


def test_a_note_about_that_day_needs_the_day_told() -> None:
    solar = MemoryRecord("c1", "The solar panels are finally going in on Thursday the 24th of April.")
    prompt = BuiltPrompt([], {}, 0, 4096, retrieved=[solar])
    asked = (
        "Can you write a short note for next door, letting them know there'll be a van on the drive that day?"
    )
    assert "24th of April" in turn_day(asked, prompt, "en")
    assert turn_day("I was sick that day, what should I cook tonight?", prompt, "en") == ""  # nothing written


async def test_a_reply_that_names_no_part_of_the_place_gets_things_to_do_there() -> None:
    asked = "We're flying down to see them over Easter. What should we do while we're there?"
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": asked}]
    for reply, tied in (
        ("We should go to the beach and snorkel.", True),
        ("Walk up Mount Wellington in Hobart.", False),
    ):
        trace = TurnTrace("place")
        check = ReplyCheck(constraints_from_texts([]), "en", trace, user_words=asked, place="Hobart")
        said = "".join([text async for text in check.run(messages, ScriptedLlm(reply))])
        assert said.startswith(reply) and ("Around Hobart" in said) is tied
        assert (trace.first("reply.place_tie") is not None) is tied


async def test_a_reply_that_is_only_a_lead_in_is_no_answer() -> None:
    asked = "Can you help me write a reply to my team about Thursday's lunch?"
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": asked}]
    llm = ScriptedLlm("Sure, here's a reply to the team:", "Thanks, team! Could we make it dinner instead?")
    check = ReplyCheck(constraints_from_texts([]), "en", TurnTrace("lead"), user_words=asked)
    said = "".join([text async for text in check.run(messages, llm)])
    assert "dinner instead" in said and len(llm.calls) == 2


def test_a_message_for_someone_known_by_a_full_name_and_a_nickname_is_to_the_full_name() -> None:
    records = [
        MemoryRecord(
            "c1", "我儿子谈了个女朋友，叫[NAME:aaaa1111bbbb]，复姓欧阳，在市医院当护士。", source="t1"
        ),
        MemoryRecord("c1", "儿子说她家里人都管她叫[NAME:cccc2222dddd]。", source="t1"),
    ]
    asked = "这周六儿子要带女朋友上家里吃饭，你帮我给那姑娘写条微信，欢迎她来。"
    assert addressee(asked, records) == "[NAME:aaaa1111bbbb]"
    # two people named apart are still two: no one is chosen
    two = [
        MemoryRecord("c1", "我儿子的女朋友叫[NAME:aaaa1111bbbb]。", source="t1"),
        MemoryRecord("c1", "女儿的男朋友叫[NAME:eeee3333ffff]。", source="t2"),
    ]
    assert addressee("帮我给他们写条微信，欢迎来家里吃饭。", two) == ""


def test_more_everyday_shapes_of_a_thing_kept_off() -> None:
    assert {c.key for c in parse_constraints("我这胃跟洋葱过不去，吃完就胀气。")} == {"onion"}
    assert {c.key for c in parse_constraints("皮蛋我是真吃不来。")} == {"avoid:皮蛋"}
    gifts = constraints_from_texts(["以后给我老公挑礼物，别再推荐衣服这一类了。"])
    assert gifts.check("推荐毛衣、衬衫、领带。") is not None and gifts.check("推荐一块手表。") is None
    ikea = constraints_from_texts(["Please don't ever send me to IKEA again."])
    assert ikea.keys() == ["avoid:ikea"]
    asked = "We need a sofa and a bookcase for the new flat. Where should we look?"
    assert turn_guidance(ikea, ["Please don't ever send me to IKEA again."], asked, "en") == [
        "Suggest something other than IKEA."
    ]


def test_a_change_is_said_back_with_the_time_it_names_next() -> None:
    records = [
        MemoryRecord("c1", "我妈这周六坐高铁来看我，下午三点到南站。", source="t1", created_at=1.0),
        MemoryRecord("c1", "下午那趟没抢到票，改成晚上的车了，八点二十到南站。", source="t2", created_at=2.0),
    ]
    asked = "帮我给我老公发条微信，让他周六去车站接我妈，几点到说清楚。"
    assert changed_plan(asked, records, "zh") == "你告诉过我，改成晚上的车了，八点二十到南站。"
