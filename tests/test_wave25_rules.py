"""Rules drawn from wave 25's blind splits (`heldout48` to `heldout53`), each as a general case."""

from __future__ import annotations

import pytest
from _scripted_llm import ScriptedLlm

from voice_agent.conversation.changed_plan import replaced_keys
from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints
from voice_agent.conversation.date_note import date_note
from voice_agent.conversation.dated_fallback import dated_text
from voice_agent.conversation.extract import extract
from voice_agent.conversation.name_note import name_note
from voice_agent.conversation.reply_check import ReplyCheck
from voice_agent.conversation.reply_copies import about_turn, pinned_lines, said_again
from voice_agent.conversation.revised_plans import standing_clauses
from voice_agent.memory.person_names import PersonNameFinder
from voice_agent.memory.records import MemoryRecord
from voice_agent.memory.scrub import Scrubber
from voice_agent.metrics.trace import TurnTrace


def _keys(text: str) -> set[str]:
    return {c.key for c in parse_constraints(text)}


# --- no rule read into a story -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        # "干得要命" is "terribly dry": no reaction, so the lamb eaten after it is no allergy
        "就是这边干得要命，嘴唇天天裂口子。同事都挺好，开学第一天就请我吃了手抓羊肉。",
        # "veggies" are vegetables, not a vegetarian
        "Now it's all about calories: whole milk, full-fat everything, butter on his veggies.",
        # weeks off work is time off, not something given up; a flight of stairs is no flight
        "Slipped disc, six weeks off work. I carried the wardrobe down three flights in Levenshulme.",
        # the person who did something is no thing kept off
        "Blown up like a balloon, cramps all night. Our lass made us sleep in the spare room.",
        # goosebumps (鸡皮疙瘩) are no chicken
        "一听就起鸡皮疙瘩。我当了一辈子音乐老师，受不了这个。",
    ],
)
def test_a_story_states_no_rule(text: str) -> None:
    assert _keys(text) == set()


def test_the_words_that_still_state_those_rules() -> None:
    assert "dogs" in _keys("俺这人怕狗，怕哩要命。")  # an intensifier after fear still counts
    assert "diet:vegetarian" in _keys("I'm veggie these days.")
    assert "alcohol" in _keys("I'm three months off booze.")


# --- never again, in any verb's words ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("We are never hiring a van and doing it ourselves again, I don't care what it costs.", "avoid:van"),
        (
            "I am never putting snail bait in that garden again, not even the pet-safe stuff.",
            "avoid:snail bait",
        ),
        ("从那以后我就发誓，这辈子再也不租二房东和什么长租公寓的房子了。", "avoid:二房东"),
        ("从那以后我就发誓，这辈子再也不租二房东和什么长租公寓的房子了。", "avoid:长租公寓"),
        ("我当场就把那学步车扔了，这辈子都不得再用那玩意儿。", "avoid:学步车"),
        ("我是真烦这种网红神曲，什么《小苹果》《套马杆》，吵得脑仁疼。", "avoid:小苹果"),
        ("我是真烦这种网红神曲，什么《小苹果》《套马杆》，吵得脑仁疼。", "avoid:套马杆"),
        ("我这辈子最烦的菜就是茼蒿，那股子蒿子味儿冲得很。", "avoid:茼蒿"),
        ("我最烦茼蒿。", "avoid:茼蒿"),
        ("我跟我老公说了，过年去海南，这辈子再也不去了。", "avoid:海南"),
        ("I'm not buying Crocs again as long as I live.", "avoid:crocs"),
        ("Ciara brought him a bag of grapes and he hit the roof. He can't stick them.", "avoid:grapes"),
    ],
)
def test_a_thing_sworn_off_or_loathed_is_kept_off(text: str, key: str) -> None:
    assert key in _keys(text)


def test_no_thing_is_read_from_a_pronoun_or_a_plain_annoyance() -> None:
    assert _keys("We're never letting him stay over again.") == set()
    assert _keys("Big news. She kept saying no. Oh, and the cat's been sick on the landing again.") == set()
    assert "avoid:turkey" not in _keys("Never again. I am not frying a turkey as long as I live.")
    assert _keys("这事真麻烦死了。") == set()
    assert _keys("我最近心烦。") == set()


def test_a_title_kept_off_is_checked_but_not_when_refused() -> None:
    rules = constraints_from_texts(["我是真烦这种网红神曲，什么《小苹果》《套马杆》，吵得脑仁疼。"])
    assert rules.check("推荐的配乐是《小苹果》和《套马杆》。") is not None
    assert rules.check("推荐《茉莉花》和《让我们荡起双桨》。") is None


# --- a changed plan, without the old one -------------------------------------------------------------------

SHOWER = [
    MemoryRecord(
        "c", "My sister's locked in the baby shower: Saturday the 14th, 11am, at The Greenhouse Cafe.",
        role="user", source="t1", created_at=1.0,
    ),
    MemoryRecord(
        "c", "Change of plans for the shower, the Greenhouse went and double-booked us with a christening.",
        role="user", source="t2", created_at=2.0,
    ),
    MemoryRecord(
        "c", "It's now Sunday the 15th, 10:30, at Bev's place in Ashgrove, out in the backyard.",
        role="user", source="t2", created_at=2.0,
    ),
]  # fmt: skip


def test_why_the_old_plan_fell_through_names_the_old_plan() -> None:
    old = replaced_keys("Can you write a message for the shower group chat with all the details?", SHOWER)
    assert "greenhouse" in old  # named only as why the old plan fell through
    assert "shower" not in old  # what the turn is about


def test_a_change_is_said_without_why_the_old_plan_fell_through() -> None:
    change = (
        "哎呀，植物园那个嫁接课改时间了，北门那边在修路，改成下礼拜四下午两点，在南门温室那边集合。"
        "还好还好，礼拜二我本来还有个会。"
    )
    said = standing_clauses(change)
    assert "北门" not in said and "礼拜二" not in said
    assert "下礼拜四下午两点" in said and "南门温室" in said
    assert standing_clauses("下礼拜四下午两点在南门集合。") == "下礼拜四下午两点在南门集合。"  # no change


def test_the_day_note_of_a_change_leaves_the_old_day_out() -> None:
    records = [
        MemoryRecord("c", "嫁接课礼拜二上午九点开始，北门集合。", role="user", source="t1", created_at=1.0),
        MemoryRecord(
            "c", "哎呀，植物园那个嫁接课改时间了，北门那边在修路，改成下礼拜四下午两点，在南门温室那边集合。",
            role="user", source="t2", created_at=2.0,
        ),
    ]  # fmt: skip
    note = date_note("帮我给班主任发个请假的微信，说清楚那天几点要把孩子接走、去干啥。", records, "zh")
    assert "礼拜四" in note and "北门" not in note


# --- the day a plan is counted back from -------------------------------------------------------------------


def test_a_schedule_worked_back_from_the_day_names_the_day() -> None:
    told = MemoryRecord(
        "c",
        "I signed up for the giant pumpkin weigh-off. It's the first Saturday in October, October 4th.",
        role="user",
        source="t1",
    )
    note = date_note("Can you work backwards and give me a schedule for the pumpkin?", [told], "en")
    assert "October 4th" in note


def test_the_dated_clauses_of_one_utterance_are_one_statement() -> None:
    records = [
        MemoryRecord("c", "医生说二宝预产期就是明年一月九号", role="user", source="t1", created_at=1.0),
        MemoryRecord("c", "我一查正好是个礼拜五。", role="user", source="t1", created_at=1.0),
    ]
    said = dated_text("你帮我算算合同上写哪天上户合适", records)
    assert "一月九号" in said and "礼拜五" in said


# --- a reply that goes round in a loop ---------------------------------------------------------------------


def test_a_piece_said_again_word_for_word_is_a_loop() -> None:
    said = ["大家好！今天是我们乐队第一次演出，让我们一起庆祝！"]
    assert said_again("大家好！今天是我们乐队第一次演出，让我们一起庆祝！", said)
    assert said_again("Bring a jumper.", ["Bring a jumper!"])
    assert not said_again("好。", ["好。"])  # too short to be a loop
    assert not said_again("Bring a scarf.", ["Bring a jumper."])


# --- names -------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def scrubber() -> Scrubber:
    finder = PersonNameFinder()
    finder.start(["en", "zh"])
    return Scrubber(b"k" * 32, phone_region=None, names=finder)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("我公司搬到张江了，得在那附近重新找个一室户。", "张江"),  # moved to: a place
        ("这回能租到这么好的房子，全靠链家那个小姑娘。", "全靠"),
        ("我们那个尤克里里社每个礼拜六弹。", "尤克里里"),
    ],
)
def test_words_and_places_are_not_hashed_as_people(scrubber: Scrubber, text: str, kept: str) -> None:
    assert kept in scrubber.scrub(text).text


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("我姐搬到张伟家住了。", "张伟"),  # moved into someone's home: a person
        ("See when I had Isla? Never again.", "Isla"),  # a popular given name names-dataset ranks low
        ("Anyway, Maisie's started nursery.", "Maisie"),
    ],
)
def test_people_are_still_hashed(scrubber: Scrubber, text: str, name: str) -> None:
    assert name not in scrubber.scrub(text).text


def test_someone_introduced_by_name_is_pinned_and_named_for_a_card() -> None:
    told = (
        "Round four down. The infusion center at [NAME:111111111111] isn't as grim as I pictured. My nurse "
        "is this big teddy bear called [NAME:222222222222], everybody calls him [NAME:333333333333], he's "
        "from El Paso. Anyway, my hair's coming out in clumps."
    )
    (item,) = extract(told).items
    assert "called [NAME:222222222222]" in item.text and "infusion" not in item.text
    pinned = MemoryRecord("c", item.text, kind="fact")
    other = MemoryRecord("c", "The infusion center at [NAME:111111111111] isn't as grim as I pictured.")
    turn = (
        "I want to bring a card for the nurse who's done every one of my sessions. Can you write something?"
    )
    assert "[NAME:222222222222]" in name_note(turn, [other, pinned], "en")
    (zh,) = extract("社长大家都喊他菠萝哥，他真名叫[NAME:444444444444]，是广西人。").items
    assert zh.kind == "fact"


def test_a_copied_line_is_said_back_only_when_it_is_about_the_turn() -> None:
    turn = "The GP says our youngest needs to see a paediatric ENT. How do we go about getting him seen?"
    assert not about_turn("the kids reckon the sunsets are actually sick.", turn, [])
    assert about_turn("我爸妈去年搬到昆明住了。", "我爸妈现在住在哪儿来着？", [])
    # a fact the prompt restates for the turn is about it, whatever its words
    prompt = "Remember: Raw onions are out.\nGive me a salad idea."
    pinned = pinned_lines([{"role": "user", "content": prompt}])
    assert pinned == ["Raw onions are out."]
    assert about_turn("Raw onions are out.", "Give me a salad idea.", pinned)


def test_no_seafood_keeps_fish_off_too() -> None:
    rules = constraints_from_texts(["No dairy, no seafood, no egg yolks, no soy, not even milk chocolate."])
    assert rules.check("Grilled salmon with new potatoes.") is not None
    assert rules.check("Roast chicken with rice.") is None


def test_a_question_about_growing_things_gets_no_dish() -> None:
    from voice_agent.conversation.suggestions import request_kind

    assert request_kind("", "院子里有块空地，我想弄个小菜园，再种点花。种点啥好活？") is None
    assert request_kind("", "I've got a bed going spare on the plot. What can I leave in the ground?") is None
    assert request_kind("", "What should I cook for dinner tonight?") is not None


async def test_a_copied_change_is_said_back_without_why_the_old_plan_fell_through() -> None:
    change = "演出的事儿变了，老唱机那天被人包场办婚礼。我们改到七号周日下午四点，在长阳创谷的回声livehouse。"
    turn = "帮我写条朋友圈，喊朋友们来看我们乐队第一次演出，时间地点别写错了。"
    prompt = f"记住：{change}\n{turn}"
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": prompt}]
    check = ReplyCheck(constraints_from_texts([]), "zh", TurnTrace("told"), user_words=turn)
    said = "".join([piece async for piece in check.run(messages, ScriptedLlm(f"好的！{change}", change))])
    assert "七号周日下午四点" in said and "老唱机" not in said, said
