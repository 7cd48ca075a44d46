"""Rules drawn from wave 22's look at earlier blind splits, each as a general case."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from _scripted_llm import ScriptedLlm

from voice_agent.conversation.acknowledge import acknowledgement
from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints
from voice_agent.conversation.echo import content_keys
from voice_agent.conversation.message_draft import salutation
from voice_agent.conversation.name_note import tied_addressee
from voice_agent.conversation.reminders import guided_constraints
from voice_agent.conversation.reply_check import ReplyCheck
from voice_agent.conversation.revised_plans import without_revised
from voice_agent.conversation.turn_compose import turn_change, turn_day
from voice_agent.memory.records import MemoryRecord
from voice_agent.metrics.trace import TurnTrace


def _keys(text: str) -> set[tuple[str, str]]:
    return {(c.kind, c.key) for c in parse_constraints(text)}


@pytest.mark.parametrize(
    "text",
    [
        "油炸的东西一律不碰",
        "我不碰油炸的东西",
        "I avoid fried food.",
        "I can't have anything deep-fried since the gallbladder op.",
        "教练让我少油少糖。",
    ],
)
def test_fried_food_is_a_rule_of_its_own(text: str) -> None:
    assert ("avoid", "fried") in _keys(text)


def test_the_fried_rule_catches_fried_dishes_but_not_a_stir_fry() -> None:
    guard = constraints_from_texts(["油炸的东西一律不碰，少油少糖。"])
    assert guard.check("晚上点个炸鸡吧。") is not None
    assert guard.check("来份薯条怎么样？") is not None
    assert guard.check("点一份清蒸鱼配糙米饭。") is None
    assert guard.check("炸酱面也行。") is None  # a sauce, not deep-fried
    english = constraints_from_texts(["No fried food for me."])
    assert english.check("Try the fish and chips.") is not None
    assert english.check("A chicken stir-fry with brown rice.") is None
    assert english.check("Stir-fried tofu with greens.") is None


def test_a_coachs_rule_names_every_thing_it_rules_out() -> None:
    coach = (
        "我最近在健身减脂，教练给我定了饮食规矩：高蛋白、低脂、少糖，"
        "油炸的、奶茶、甜点一律不碰，碳水也得控制。"
    )
    keys = _keys(coach)
    assert {("avoid", "fried"), ("avoid", "sugar")} <= keys
    assert _keys("甜点一律不碰") == {("avoid", "sugar")}


@pytest.mark.parametrize("text", ["今天别吃了。", "晚上不能吃", "周末一律不喝", "以后别吃"])
def test_a_time_is_no_thing_to_avoid(text: str) -> None:
    assert not [c for c in parse_constraints(text) if c.kind == "avoid" and c.key.startswith("avoid:")]


def test_a_possessive_shares_its_word_with_the_plain_noun() -> None:
    assert "physio" in content_keys("My physio's called Ruairí.")
    assert "physio" in content_keys("My physio’s called Ruairí.")
    assert "manager" in content_keys("The managers' office")


def _opening(fact: str, turn: str, language: str) -> str:
    constraints = constraints_from_texts([fact])
    said = acknowledgement(guided_constraints(constraints, [fact], turn), constraints, language, turn)
    return said.text if said else ""


def test_a_trigger_named_after_and_is_an_intolerance_said_back_in_the_persons_words() -> None:
    fact = "My husband Dariusz has IBS and onions are his big trigger. Even onion powder gets him."
    assert ("intolerance", "onion") in _keys(fact)
    turn = "I'm making a big pot of chilli for the two of us tonight. Can you give me a decent recipe?"
    assert (
        _opening(fact, turn, "en")
        == "You told me your husband Dariusz has IBS and onions are his big trigger, so no onion. "
    )
    assert constraints_from_texts([fact]).check("Fry two onions in oil.") is not None


def test_what_a_thing_is_like_is_no_thing_of_its_own() -> None:
    fact = "I really can't bear coconut. The smell, the taste, the bits of desiccated stuff, all of it."
    assert _keys(fact) == {("avoid", "avoid:coconut")}  # not "smell", not "taste"
    turn = "I've got chicken thighs and a bag of spinach. What curry should I make tonight?"
    assert _opening(fact, turn, "en") == "You told me you really can't bear coconut, so no coconut. "


def test_kept_off_caffeine_in_chinese() -> None:
    fact = "我现在基本碰不了咖啡因了。医生说我对咖啡因特别敏感，让我能不碰就不碰。"
    # (read as a body that cannot take it since wave 35: "对咖啡因特别敏感")
    assert ("intolerance", "caffeine") in _keys(fact)
    assert not [k for _, k in _keys(fact) if "不" in k]  # "能不碰就不碰" names no thing called 不碰


def test_gout_rules_out_high_purine_food_and_opens_with_the_diagnosis() -> None:
    fact = "我爸上个月查出来痛风了，尿酸六百多。医生交代了，海鲜、动物内脏、啤酒这些统统不能碰。"
    assert ("avoid", "purine") in _keys(fact)
    assert (
        _opening(fact, "这周六我爸六十大寿，想在家里做一桌菜，帮我配个菜单呗？", "zh")
        == "因为你爸上个月查出来痛风了，"
    )
    guard = constraints_from_texts(["My dad has gout."])
    assert guard.check("Liver and onions would be a classic.") is not None
    assert guard.check("A roast chicken with greens.") is None
    assert not _keys("My uric acid level came back fine.")


def test_a_refusal_said_back_in_chinese_names_the_thing_without_recommending_it() -> None:
    guard = constraints_from_texts(["我媳妇儿最受不了羊肉那股膻味儿。"])
    assert guard.check("你媳妇儿最受不了羊肉那股膻味儿。") is None
    assert guard.check("做个羊肉汤吧。") is not None


def _records(*texts: str) -> list[MemoryRecord]:
    return [
        MemoryRecord("c", text, role="user", source=f"t{i}", created_at=float(i))
        for i, text in enumerate(texts)
    ]


def test_an_arrangement_for_a_day_is_a_plan_a_later_change_revises() -> None:
    old, new = _records(
        "业主群里通知了，这礼拜六早上九点在小区南门集合，一块儿去龙潭湖公园搞植树活动，让自己带手套和水。",
        "哎，刚群里又说了，植树那个改到礼拜天下午两点了，说礼拜六有雨，集合地方还是南门不变。",
    )
    assert without_revised([old, new]) == [new]
    prompt = SimpleNamespace(retrieved=[old, new], pinned=[], left_out=[])
    asked = "植树那天我几点得出门，要带点啥？"
    assert "礼拜天下午两点" in turn_change(asked, prompt, "zh")  # type: ignore[arg-type]
    assert "九点" not in turn_day(asked, prompt, "zh")  # type: ignore[arg-type]
    # a fact with a day that nothing changed stays
    kept, other = _records("我妈的复查约在3月12号上午。", "晚饭改成吃面了。")
    assert kept in without_revised([kept, other])


async def test_a_changed_plan_is_tied_once_not_with_the_day_it_was_before() -> None:
    asked = "植树那天我几点得出门，要带点啥？"
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": asked}]
    check = ReplyCheck(
        constraints_from_texts([]), "zh", TurnTrace("t"), user_words=asked,
        day="你告诉过我，刚群里又说了，植树那个改到礼拜天下午两点了，说礼拜六有雨。",
        changed="你告诉过我，植树那个改到礼拜天下午两点了。",
    )  # fmt: skip
    said = "".join([text async for text in check.run(messages, ScriptedLlm("记得带上手套和水。"))])
    assert said.count("礼拜天下午两点") == 1 and "礼拜六" not in said


def test_a_leave_request_needs_the_day_told() -> None:
    prompt = SimpleNamespace(
        retrieved=_records("我妈那个甲状腺的复查约在3月12号上午，省人民医院，得空腹去。"), pinned=[]
    )
    asked = "帮我给我们组长发个微信请个假呗，就说家里老人要去医院复查我得陪着。"
    assert "3月12号" in turn_day(asked, prompt, "zh")  # type: ignore[arg-type]


def test_a_message_to_someones_teacher_is_to_the_teacher() -> None:
    asked = (
        "Can you draft a quick text to [NAME:356428e78b31]'s piano teacher letting her know "
        "[NAME:356428e78b31] won't make Tuesday's lesson?"
    )
    records = _records("[NAME:356428e78b31]'s got a new piano teacher this term, [NAME:db3479a7ad21].")
    teacher = tied_addressee(asked, records)
    assert teacher == "[NAME:db3479a7ad21]"
    assert salutation(asked, "en", teacher) == "Hi [NAME:db3479a7ad21],"  # not "Hi Emi,"


def test_a_name_in_the_statement_does_not_cut_or_lengthen_what_is_said_back() -> None:
    fact = (
        "My husband [NAME:487032928076] has IBS and onions are his big trigger. Even onion powder gets him."
    )
    turn = "I'm making a big pot of chilli for the two of us tonight. Can you give me a decent recipe?"
    said = (
        "You told me your husband [NAME:487032928076] has IBS and onions are his big trigger, so no onion. "
    )
    assert _opening(fact, turn, "en") == said


def test_a_grazing_board_is_food_and_colours_are_kinds_not_things() -> None:
    fact = (
        "Oh, and heads up, she absolutely hates olives. Green, black, kalamata, doesn't matter, she says "
        "they taste like feet."
    )
    keys = {k for _, k in _keys(fact)}
    assert "avoid:olives" in keys and not keys & {"avoid:green", "avoid:black", "avoid:doesn't matter"}
    turn = "I told her I'd put together a grazing board for her book club night. What should go on it?"
    assert _opening(fact, turn, "en") == "With no olives, as you told me, "
    assert constraints_from_texts([fact]).check("A green salad and black coffee.") is None


def test_a_long_liking_is_said_back_up_to_its_dash() -> None:
    from voice_agent.conversation.likings import liked_fallback

    liked = (
        "My father-in-law [NAME:1e5a9272c35a]'s absolutely mad for birdwatching — keeps a pair of binoculars "
        "in the glovebox at all times and he'll pull over on the A487 if he so much as spots a red kite."
    )
    said = liked_fallback(liked, "place", "en", constraints_from_texts([]))
    assert said == (
        "You told me your father-in-law [NAME:1e5a9272c35a]'s absolutely mad for birdwatching. "
        "I'd suggest a place along those lines."
    )


def test_a_note_ahead_of_something_needs_the_day_told() -> None:
    prompt = SimpleNamespace(
        retrieved=_records(
            "moving day's finally locked in — the removalists are coming Friday the 28th of November, "
            "first thing, around seven.",
            "Still haven't packed a single box, mind you.",
        ),
        pinned=[],
    )
    asked = "Can you write a note for the neighbours apologising in advance for the truck blocking the drive?"
    assert "Friday the 28th of November" in turn_day(asked, prompt, "en")  # type: ignore[arg-type]


def test_tea_tonight_is_the_evening_meal_not_a_drink() -> None:
    from voice_agent.conversation.suggestions import request_kind

    sauce = request_kind("", "Can you give me a quick pasta sauce for tea tonight?")
    assert sauce is not None and sauce.name == "sauce"
    meal = request_kind("", "What should we have for tea tonight?")
    assert meal is not None and meal.name == "dinner"
    drink = request_kind("", "What tea should I drink before bed?")
    assert drink is not None and drink.name == "drink"


def test_the_condition_a_rule_comes_from_is_named_before_the_diet() -> None:
    fact = (
        "I'm twenty-eight weeks pregnant and the midwife says I've got gestational diabetes, so I have to "
        "keep sugar and fast carbs right down and check my blood sugar after every meal."
    )
    turn = "I'm bored of toast. What could I have for breakfast tomorrow instead?"
    assert _opening(fact, turn, "en") == "Since you told me about the gestational diabetes, "
    assert _opening("I'm vegetarian.", "What should I cook tonight?", "en") == "Since you're vegetarian, "


def test_a_clause_of_a_plan_is_revised_with_it_and_read_with_its_utterance() -> None:
    date, venue, change = (
        MemoryRecord("c", "奶奶八十大寿定在下个月15号中午", role="user", source="t1", created_at=1.0),
        MemoryRecord("c", "在湘里人家摆三桌。", role="user", source="t1", created_at=1.0),
        MemoryRecord(
            "c", "跟你说一声，寿宴的地方改了，湘里人家那天包不下来，换到福满楼了，时间不变。",
            role="user", source="t2", created_at=2.0,
        ),
    )  # fmt: skip
    # the venue clause names no arrangement word, but its utterance set the plan; the date still holds
    assert without_revised([date, venue, change]) == [date, change]
    asked = "帮我写条微信发给表哥，告诉他奶奶寿宴在哪儿办、几点开始。"
    prompt = SimpleNamespace(retrieved=[venue, change], pinned=[date], left_out=[])
    assert "福满楼" in turn_change(asked, prompt, "zh")  # type: ignore[arg-type]


def test_what_the_change_says_beside_it_is_no_word_of_the_old_plan() -> None:
    from voice_agent.conversation.changed_plan import replaced_keys

    records = [
        MemoryRecord("c", "这周日约了一大家子去拍全家福", role="user", source="t1", created_at=1.0),
        MemoryRecord("c", "上午十点在人民公园南门集合，拍外景。", role="user", source="t1", created_at=1.0),
        MemoryRecord(
            "c", "周日天气预报有雨，改到他们影楼的棚里拍了", role="user", source="t2", created_at=2.0
        ),
        MemoryRecord(
            "c", "就在解放路上那家“时光印象”，时间还是上午十点。", role="user", source="t2", created_at=2.0
        ),
    ]
    old = replaced_keys("帮我在家族群里发个通知，说一下拍全家福去哪儿集合。", records)
    assert {"人民", "公园"} <= old and "上午" not in old  # the time still holds


def test_packed_lunches_are_food_talk() -> None:
    fact = "So it turns out my youngest, Theo, is allergic to sunflower seeds."
    turn = "Can you give me some ideas for Theo's packed lunches this week?"
    assert _opening(fact, turn, "en") == "Since your youngest, Theo, is allergic to sunflower seeds, "


def test_a_teacher_whose_surname_is_told_after_the_calling_is_greeted_by_it() -> None:
    told = MemoryRecord(
        "c", "我闺女新换的钢琴老师姓佘，就是[NAME:c9009eb4abc2]那个佘，人字头底下一个示。", role="user"
    )
    asked = "帮我给闺女的钢琴老师发个微信，孩子这周六发烧了，课想请个假。"
    teacher = tied_addressee(asked, [told])
    assert teacher == "佘老师"  # not the famous name that spells the character
    assert salutation(asked, "zh", teacher) == "佘老师："


def test_a_newly_changed_teacher_is_no_daughter_called_xinhuan() -> None:
    from voice_agent.memory.person_names import PersonNameFinder
    from voice_agent.memory.scrub import Scrubber

    finder = PersonNameFinder()
    finder.start(["zh"])
    scrubber = Scrubber(b"k" * 32, phone_region=None, names=finder)
    found = [f.value for f in scrubber.scrub("我闺女新换的钢琴老师姓佘。").found]
    assert "新换" not in found
    assert [f.value for f in scrubber.scrub("我女儿美玲的老师很好。").found] == ["美玲"]


def test_everyday_words_the_dictionary_lacks_are_no_names() -> None:
    from voice_agent.memory.person_names import PersonNameFinder
    from voice_agent.memory.scrub import Scrubber

    finder = PersonNameFinder()
    finder.start(["zh"])
    scrubber = Scrubber(b"k" * 32, phone_region=None, names=finder)
    turn = "我得跟公司请半天假去表哥的乔迁酒，你帮我写个请假的微信给主管。"
    assert scrubber.scrub(turn).found == []  # 乔迁 and 微信 had become NAME placeholders
    assert [f.value for f in scrubber.scrub("我同事乔丹说了他不来。").found] == ["乔丹"]


def test_a_message_to_someone_named_by_role_is_not_to_the_only_name_recalled() -> None:
    from voice_agent.conversation.name_note import addressee

    son = MemoryRecord(
        "c", "我儿子[NAME:1d0959508525]幼儿园那个家长会定了，11月18号下午三点半。", role="user"
    )
    boss = "我老板刚说让我11月17号到19号去苏州出差三天，帮我回他条微信，看咋说合适。"
    assert addressee(boss, [son]) == ""  # a shared date shape (月号) ties nothing either
    assert addressee("帮我给他写条生日祝福的微信。", [son]) == "[NAME:1d0959508525]"


def test_a_particle_ends_no_thing_kept_off() -> None:
    assert _keys("以后别给我安排KTV啊，我五音不全。") == {("avoid", "avoid:ktv")}


def test_the_day_note_reads_a_clause_with_its_whole_pinned_statement() -> None:
    from voice_agent.conversation.date_note import date_note

    whole = (
        "聚会改地方了，五道口那家云南菜馆周六被人包场了，班长换到了东四的一家淮扬菜馆，时间不变，还是六点半。"
    )
    records = [
        MemoryRecord("c", "五道口那家云南菜馆周六被人包场了", role="user", source="t2", created_at=2.0),
        MemoryRecord("c", whole, role="user", source="t2", created_at=2.0, kind="decision"),
    ]
    note = date_note("你帮我写个通知发到同学群里，提醒大家聚会的时间和地点。", records, "zh")
    assert "东四" in note  # not the old venue alone, as the day's reason
