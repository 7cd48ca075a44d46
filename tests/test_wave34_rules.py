"""Wave 34 rules, each from held-out speech an earlier wave missed (heldout96-107)."""

from __future__ import annotations

import pytest

from voice_agent.conversation.acknowledge import acknowledgement
from voice_agent.conversation.clinical import medicine_turn
from voice_agent.conversation.constraints import ConstraintSet, parse_constraints
from voice_agent.conversation.likings import liked_fallback, says_liking
from voice_agent.conversation.reminders import ASKS_ADVICE
from voice_agent.conversation.reply_copies import without_prompt_echo
from voice_agent.conversation.said_before import relevant_statement
from voice_agent.conversation.suggestions import request_kind
from voice_agent.memory.person_names_zh import ChineseNameFinder
from voice_agent.memory.records import MemoryRecord
from voice_agent.text.dates import asks_for_day, holds_day


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


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        # heldout102-107, read after the blind run
        ("我跟你讲，夜车我是再也不坐了，更别讲自己开。", ["avoid:夜车"]),
        ("从那以后天一黑我就不上高速，打死不赶夜路。", ["avoid:夜路"]),
        ("I swore that day that game never comes into my house again, after we pulled out Monopoly at lunch "
         "and it ended in tears.", []),
        ("We pulled out Monopoly after lunch and it ended in tears. I swore that game never comes into my "
         "house again.", ["avoid:monopoly"]),
        ("I just can't stand trivia, it makes me feel about twelve. Same with Trivial Pursuit at "
         "Christmas, I'll happily do the dishes instead.", ["avoid:trivia", "avoid:trivial pursuit"]),
        ("I can't stand anything snug up around my throat: turtlenecks, mock necks.",
         ["avoid:mock necks", "avoid:turtlenecks"]),
        ("Mushrooms are the one thing I just cannot stomach, that slimy, rubbery thing.", ["mushrooms"]),
        ("that's it, I'm done with heels forever, I don't care how short I look.", ["avoid:heels"]),
        ("我这个人鼻子老灵的,顶怕樟脑丸那股味道。", ["avoid:樟脑丸"]),
        ("我当时就发誓,这辈子再在直播间买衣裳我就是憨子。", ["avoid:直播间"]),
        ("我这人跟咖啡八字不合。", ["coffee"]),
        ("我跟侬讲，我顶顶吃不消的就是看动物表演。", ["avoid:动物表演"]),
    ],
)  # fmt: skip
def test_heldout_constraints_read(text: str, keys: list[str]) -> None:
    assert _keys(text) == keys


@pytest.mark.parametrize(
    "text",
    [
        "I've been birdwatching since my NUS days, my binoculars are the most expensive thing I own.",
        "She's been quilting for decades.",
        "There is nothing like standing on a ridge when the rally cars come through sideways.",
        "我现在是彻底入了骑行的坑了。",
        "一礼拜四个上午都泡在书法班，一天写不够二十张宣纸手就痒。",
        "我现在啥都不想，一门心思就想钓鱼。",
        "昨天又去影院二刷了宫崎骏那部电影，哭得稀里哗啦的。",
    ],
)
def test_heldout_likings(text: str) -> None:
    assert says_liking(text)


@pytest.mark.parametrize(
    "text",
    ["I've been working since 8am.", "I've been waiting for ages.", "我把钱包捡起来了。", "一两刷子都没有。"],
)
def test_not_likings(text: str) -> None:
    assert not says_liking(text)


def test_no_day_across_words_nor_in_a_day_to_plan() -> None:
    assert not holds_day("从那以后天一黑我就不上高速。")
    assert holds_day("我后天走。")
    assert not asks_for_day("Can you plan the day for us, what to see and do?")
    assert asks_for_day("Put the day in the card for her.")


def test_a_request_is_never_said_back_as_told() -> None:
    records = [
        MemoryRecord(conversation_id="c", text="Suggest a board game for a rainy day.", role="user"),
        MemoryRecord(conversation_id="c", text="We got the keys to our flat in Sengkang.", role="user"),
    ]
    said = relevant_statement(
        "Which board game cafe is good, and how do I get there from the flat?", records, "en"
    )
    assert "Suggest" not in said and "Sengkang" in said


def test_a_morning_is_no_name() -> None:
    finder = ChineseNameFinder()
    finder.start()
    text = "今早在中山路那家嗦老友粉，刚好碰到我学车的教练，覃建勋，我们学员都喊他覃老师。"
    assert [text[a:b] for a, b in finder.spans(text)] == ["覃建勋", "覃老师"]


def test_a_trip_into_a_named_country_gets_no_trip_of_ours() -> None:
    assert (
        request_kind("", "I want to drive up into Malaysia for a long weekend. Can you plan a 3-day trip?")
        is None
    )
    kind = request_kind("", "Can you plan a 3-day trip for the long weekend?")
    assert kind is not None and kind.name == "trip"


def test_names_to_come_up_with_ask_advice() -> None:
    assert ASKS_ADVICE.search("Can you help me come up with some names for the two kittens?")


def test_a_thing_for_the_long_weekend_is_no_trip() -> None:
    asked = (
        "My in-laws are staying with us over the long weekend and want a proper family games evening. "
        "Which board games should I buy for it?"
    )
    assert request_kind("", asked) is None
