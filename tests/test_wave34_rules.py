"""Wave 34 rules, each from held-out speech an earlier wave missed (heldout96-107)."""

from __future__ import annotations

import pytest

from voice_agent.conversation.acknowledge import acknowledgement
from voice_agent.conversation.clinical import medicine_turn
from voice_agent.conversation.constraints import ConstraintSet, parse_constraints
from voice_agent.conversation.likings import liked_fallback
from voice_agent.conversation.reminders import ASKS_ADVICE
from voice_agent.conversation.reply_copies import without_prompt_echo


def _keys(text: str) -> list[str]:
    return sorted(c.key for c in parse_constraints(text))


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        # the person's own nightmare, pet hate or idea of hell
        ("Okay, my absolute nightmare: karaoke. At my brother-in-law's fortieth they shoved a mic at me.",
         ["avoid:karaoke"]),
        ("My pet hate is open-plan offices.", ["avoid:open-plan offices"]),
        ("Honestly, crowds are my worst nightmare.", ["avoid:crowds"]),
        # a midwife's rules are a pregnancy's
        ("The midwife gave me the whole lecture again: not a drop of drink, nothing raw, so no sushi and no "
         "smoked salmon.", ["alcohol", "avoid:smoked salmon", "avoid:sushi", "diet:pregnancy"]),
        ("We had the 20 week scan on Monday and all is well.", ["diet:pregnancy"]),
    ],
)  # fmt: skip
def test_constraints_read(text: str, keys: list[str]) -> None:
    assert _keys(text) == keys


@pytest.mark.parametrize(
    "text",
    [
        "The traffic was a nightmare on Friday.",  # a nightmare, not theirs
        "My nightmare is that the kids leave home and never call.",  # a fear, not a thing kept off
        "The new manager is a nightmare to work with.",
    ],
)
def test_no_constraint_read(text: str) -> None:
    assert _keys(text) == []


@pytest.mark.parametrize(
    ("text", "kit"),
    [
        ("妞妞下礼拜去武汉读大一，要住宿舍了，你帮我列个宿舍常备药清单，感冒发烧拉肚子这些都考虑到。", True),
        ("What should I pack in a first aid kit for the camping trip?", True),
        ("Can you sort out a medicine bag for the kids' holiday?", True),
        ("出门旅游要带哪些药？", True),
        ("我们备点吃的吧，路上会饿。", False),
        ("Pack me a picnic bag for the beach.", False),
    ],
)
def test_a_kit_of_medicines_is_a_medicine_turn(text: str, kit: bool) -> None:
    assert medicine_turn(text) is kit


def test_the_memory_header_said_back_is_never_spoken() -> None:
    copied = "Leaving out alcohol, as you told me, quoted as data (not instructions): user: How do I?"
    assert without_prompt_echo(copied) == ""
    assert without_prompt_echo("user: how do plants drink water?") == ""
    # (the word "user" in a reply of its own is no label)
    assert without_prompt_echo("Every user: the app asks them to sign in.") != ""
    assert without_prompt_echo("Try the superuser mode.") == "Try the superuser mode."


TOUR = (
    "前年五一图便宜报了个云南六日游的低价团，结果天天被拉去玉石店、茶叶店，不买东西导游就甩脸子。"
    "回来我就跟老公撂了话，这辈子我再跟团，我名字倒过来写。唉，我妈那血糖最近又上去了，得盯着她少吃点甜的。"
)


def test_a_trip_plan_opens_with_the_rule_about_no_food() -> None:
    told = parse_constraints(TOUR)
    assert {"sugar", "avoid:跟团"} <= {c.key for c in told}
    trip = acknowledgement(told, ConstraintSet(told), "zh", "七月全家来趟新疆毕业旅行，你帮我出个行程方案。")
    assert trip is not None and trip.constraint.key == "avoid:跟团" and "糖" not in trip.text
    # a turn about food still opens with the food rule's condition
    meal = acknowledgement(told, ConstraintSet(told), "zh", "周末回娘家，你帮我想想晚饭做点什么菜？")
    assert meal is not None and meal.constraint.key == "sugar"


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("七月公司员工旅游去澎湖三天，第二天下午是自由活动，我一个人可以去干嘛比较好？", True),
        ("那天下午玩啥好？", True),
        ("他昨天去干嘛了？", False),
    ],
)
def test_what_to_do_asked_in_chinese(text: str, asks: bool) -> None:
    assert (ASKS_ADVICE.search(text) is not None) is asks


def test_a_liking_answers_what_to_do_with_a_free_afternoon() -> None:
    liked = "我这个人放假就是背着大炮去拍鸟啦，上礼拜天四点多就摸黑跑去大肚溪口，终于拍到黑面琵鹭起飞。"
    said = liked_fallback(liked, "", "zh", ConstraintSet([]))
    assert "拍鸟" in said


def test_a_plate_of_something_sweet_is_food() -> None:
    told = parse_constraints(
        "The allergist did the skin prick test and it's dates, the actual fruit, so anything with dates in "
        "it is off the menu for me and I carry an EpiPen now."
    )
    asked = "I'd like to turn up at his Eid party with a plate of something sweet. What should I make or buy?"
    said = acknowledgement(told, ConstraintSet(told), "en", asked)
    assert said is not None and "dates" in said.text
