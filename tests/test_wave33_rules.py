"""Wave 33 rules, each from held-out speech the wave before missed (heldout96-101)."""

from __future__ import annotations

import pytest

from voice_agent.conversation.constraints import parse_constraints
from voice_agent.conversation.date_note import date_note
from voice_agent.conversation.likings import says_liking
from voice_agent.conversation.message_draft import salutation
from voice_agent.conversation.place_note import names_own_place, place_note, recalled_place
from voice_agent.memory.records import MemoryRecord

MANAGER = "[NAME:aaaaaaaaaaaa]"
FERRY_PORT = "[NAME:bbbbbbbbbbbb]"
ISLAND = "[NAME:cccccccccccc]"


def _said(*texts: str) -> list[MemoryRecord]:
    return [MemoryRecord(conversation_id="c", text=t, role="user", kind="utterance") for t in texts]


def _keys(text: str) -> list[str]:
    return sorted(c.key for c in parse_constraints(text))


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        # parted with, a foot never set on it, done with after "never again", not a drop of it
        ("So lavender and I are finished, even a whiff of it in a lift and I know a migraine is coming.",
         ["avoid:lavender"]),
        ("I swore on the pier, never again, I'm not setting foot on a boat for anything.", ["boats"]),
        ("Never again, mate, I'm done with those small speedboats bashing across open water.",
         ["avoid:small speedboats"]),
        ("not one drop of booze while I'm on it and for three days after", ["alcohol"]),
        ("I've told Gareth straight, I am not getting behind the wheel of a hire van ever again.",
         ["avoid:hire van"]),
        ("So reds are just off the list now, full stop.", ["avoid:reds"]),
        ("so anything with dates in it is off the menu for me and I carry an EpiPen now", ["avoid:dates"]),
        ("I am never running a Kris Kringle or any class of gift swap again, not for work, not for anyone.",
         ["avoid:kris kringle"]),
        ("我当场就发誓，这辈子再也不碰孔明灯这种东西了，谁劝都没用。", ["avoid:孔明灯"]),
        # vows in Chinese: flying a drone, a guesthouse on pain of being a fool, a tour group on one's name
        ("我跟你说，我这辈子再也不飞无人机了。", ["avoid:无人机"]),
        ("我当场就发誓，以后出门再住民宿我就是瓜娃子，宁可多花点钱住正经酒店。", ["avoid:民宿"]),
        ("回来我就跟老公撂了话，这辈子我再跟团，我名字倒过来写。", ["avoid:跟团"]),
        # at war with it, the stomach said first; not the chicken of the coconut-chicken pot it came in
        ("我这个肠胃跟椰子硬是八字不合。上个月公司团建吃椰子鸡火锅，当天晚上跑了七八趟厕所。",
         ["avoid:椰子"]),
    ],
)  # fmt: skip
def test_things_sworn_off_parted_with_or_not_touched_at_all(text: str, keys: list[str]) -> None:
    assert _keys(text) == keys


@pytest.mark.parametrize(
    "text",
    [
        # not even out of breath is no reaction (and a flight home after it is no rule against flying)
        "宿管阿姨二话没说帮我抬了一个上去，气都不带喘的。回杭州的航班又延误了两个钟头，到家都后半夜了。",
        "Tom and I are done with the garden for today.",
        "Never again, I'm done with it.",
        "Dessert is off the menu tonight.",
        "I lost the £500 deposit. Whatever it costs.",
    ],
)
def test_no_rule_from_a_reaction_said_not_to_happen_or_a_day_done(text: str) -> None:
    assert _keys(text) == []


def test_a_reaction_that_nearly_did_not_happen_still_counts() -> None:
    assert _keys("他一坐飞机就吐，差点没吐出来。") == ["flying"]


def test_a_day_without_it_feeling_off_is_a_liking_not_a_rule() -> None:
    text = "我们潮汕人嘛，一天不喝工夫茶浑身不得劲。"
    assert _keys(text) == []
    assert says_liking(text)


@pytest.mark.parametrize(
    ("turn", "records", "place"),
    [
        # a way to get there and when to leave: from the town they moved up to
        ("Our daughter's graduating from the University of Sydney, the ceremony's at 10am on a Friday. "
         "Can you work out the best way for us to get there and when we should leave?",
         ["We finally did the tree change: sold the place in Carindale and moved up the range to Toowoomba."],
         "Toowoomba"),
        # moved back to a district with its city; a county-level city with its town named; flying abroad
        ("仔仔考上中南大学了，九月初去长沙报到，你帮我看看是开车送还是坐高铁、飞机好，怎么走最方便。",
         ["我们前年从广州天河搬回顺德大良了，老婆娘家在这边。"], "顺德大良"),
        ("下个月想去宜兴丁蜀镇待三天，跟个紫砂师傅学做壶，你帮我看看怎么过去最方便。",
         ["我们家去年从市北区搬到黄岛了，就是现在说的西海岸新区。"], "黄岛"),
        ("十一想带媳妇去巴厘岛过结婚十周年，五天左右，你帮我看看机票怎么买划算、怎么飞。",
         ["我们年初从兰州搬到西安了，住曲江这边。"], "西安"),
    ],
)  # fmt: skip
def test_a_journey_sets_off_from_where_they_live(turn: str, records: list[str], place: str) -> None:
    assert recalled_place(turn, _said(*records), where=True) == place
    assert place in place_note(turn, _said(*records), "en" if place == "Toowoomba" else "zh")


def test_things_to_do_on_an_island_the_turn_names_are_not_about_their_old_trip() -> None:
    turn = (
        f"Gord and I are spending three nights on {ISLAND} for our anniversary before we carry on to Naxos. "
        "What should we do there?"
    )
    records = _said("We drove up to Muskoka last weekend for my nephew's wedding.")
    assert names_own_place(turn)
    assert recalled_place(turn, records) == ""
    # a turn that names no town of its own still gets the place they told us about
    assert recalled_place("My sister's visiting next week, what should we do around here?",
                          _said("We moved to Muskoka last year.")) == "Muskoka"  # fmt: skip


def test_a_message_is_not_addressed_to_a_place_the_scrubber_took_for_a_name() -> None:
    turn = (
        "Can you draft a short message to my new manager asking if I can take Friday and Monday off? A long "
        f"weekend on Bintan, ferry from {FERRY_PORT}."
    )
    assert salutation(turn, "en", MANAGER) == f"Hi {MANAGER},"
    assert salutation(turn, "en", "") == ""


@pytest.mark.parametrize(
    ("turn", "fact", "language"),
    [
        ("球会秋季杯定了在三亚打，会长说10月18号周六开杆，连打两天。你帮我安排一下行程，看看机票怎么订。",
         "我妈今年七十，大寿定在阳历10月19号，绍兴老家摆酒。", "zh"),
        ("Our booth at the trade show in Las Vegas runs the 13th through the 17th of May. Can you help me "
         "work out which days I can cover?",
         "The pinning ceremony's Friday, May 16th, ten in the morning.", "en"),
        # a holiday's month: Christmas week is December's
        ("Can you help me plan our family's Christmas week? Lay it out day by day from the 18th.",
         "ACL reconstruction on the 20th of December, I've got to be there at half six, fasted.", "en"),
    ],
)  # fmt: skip
def test_days_planned_in_a_month_bring_the_day_told_in_it(turn: str, fact: str, language: str) -> None:
    assert fact.rstrip("。.") in date_note(turn, _said(fact), language)


def test_a_month_alone_or_may_the_verb_brings_no_day() -> None:
    fact = "The pinning ceremony's Friday, May 16th, ten in the morning."
    assert date_note("May I plan a day out in Leeds?", _said(fact), "en") == ""
    assert date_note("Can you plan our trip to Leeds in June, the 3rd to the 5th?", _said(fact), "en") == ""


@pytest.mark.parametrize(
    ("text", "first"),
    [
        ("We finally did it and left Dublin, sold the little terrace in Drumcondra and bought a house just "
         "outside Mullingar with a proper garden.", (0, "Mullingar")),
        ("Right, we've finally moved. New house is in Whitley Bay, five minutes from the Spanish City.",
         (0, "Whitley Bay")),
        ("Well, we've gone and done it, packed up the house in Geelong and moved up to Cairns.",
         (0, "Cairns")),
        # a grandmother's house is not theirs, and Mam is no town (the keys got are a home moved into)
        ("We got the keys to the 2BHK in Baner! My nani's house in Kolkata had those old cane chairs.",
         (0, "Baner")),
        ("sold the house in Wolverhampton and moved back to Mam's village, just outside Llangefni.",
         (1, "Wolverhampton")),
    ],
)  # fmt: skip
def test_the_home_they_bought_or_moved_into_ranks_first(text: str, first: tuple[int, str]) -> None:
    from voice_agent.conversation.place_note import ranked_places

    assert ranked_places(text)[0] == first
    assert "Mam" not in [place for _, place in ranked_places(text)]


def test_a_route_of_no_town_sets_off_from_home_but_a_way_to_get_a_skill_is_no_journey() -> None:
    records = _said("We finally did it and left Dublin and bought a house just outside Mullingar.")
    showrooms = (
        "I want to spend Saturday going round a few of the big tile showrooms. Can you plan me a route and "
        "tell me how to get there and back?"
    )
    assert place_note(showrooms, records, "en") == "They will set off from Mullingar."
    rhythm = "My teacher says music is the best way to get the rhythm of the language. Give me a playlist."
    assert place_note(rhythm, records, "en") == ""
    # a journey the turn says starts elsewhere is not set off from home
    based = "I'm based in Bristol. What's the best way for me to get up there?"
    assert place_note(based, records, "en") == ""


def test_a_smell_that_brings_on_a_headache_is_read_but_not_a_smell_noticed_from_afar() -> None:
    assert _keys("我这人鼻子特别娇气，樟木那股味一闻就头痛。") == ["intolerance:樟木"]
    assert _keys("榴莲那个味儿我是真受不了，隔着一层楼都闻得到，一闻就想吐。") == ["avoid:榴莲"]
    # a style popular online is no heat in the body, and ice cream in a simile is no dairy
    style = _keys("现在小红书上火的那个奶油风，我是真欣赏不来，看着就像掉进一桶香草冰淇淋里，腻得慌。")
    assert "dairy" not in style and "cold" not in style
    assert _keys("以后自己的房子，厨房必须关得严严实实，打死不搞开放式。") == ["avoid:开放式"]
    # a fast's hours are the fast, not a rule against water
    fasting = "I'm fasting: nothing to eat and not even a sip of water during the day."
    assert "avoid:water" not in _keys(fasting)


def test_a_style_not_to_ones_taste_is_kept_off_and_is_no_food() -> None:
    text = "现在小红书上火的那个奶油风，我是真欣赏不来，看着就像掉进一桶香草冰淇淋里，腻得慌。"
    assert _keys(text) == ["avoid:奶油风"]


def test_a_midwife_and_grog_say_a_pregnancy_and_no_alcohol() -> None:
    text = (
        "Fourteen weeks now, and my midwife at the Women's has me on the strict list: no grog at all, none "
        "of the soft cheeses, no deli meats."
    )
    assert {"diet:pregnancy", "alcohol"} <= set(_keys(text))


@pytest.mark.parametrize(
    ("text", "liked"),
    [
        ("我退休这几年就一个爱好，逛旧货市场淘老物件。", True),
        ("我这个人放假就是背着大炮去拍鸟啦，上礼拜天四点多就摸黑跑去大肚溪口。", True),
        ("周末就是去加班，烦死了。", False),
    ],
)
def test_the_one_pastime_or_what_every_day_off_is_for(text: str, liked: bool) -> None:
    assert says_liking(text) is liked


@pytest.mark.parametrize(
    "turn",
    [
        "女儿研究生毕业了，七月想全家四口来趟新疆毕业旅行，玩个八九天，你帮我出个行程方案。",
        "元宵节我打算带女朋友从厦门飞台北玩三天，想去平溪那边凑凑热闹，你帮我排个行程。",
        "我妈念叨好几年想去普陀山烧香，我打算下个月陪她去两天，你帮我排个行程。",
    ],
)
def test_a_trip_to_a_named_place_gets_no_trip_of_ours_as_an_example(turn: str) -> None:
    from voice_agent.conversation.suggestions import request_kind

    assert request_kind("", turn) is None
    kind = request_kind("", "五一放五天假，去哪玩好？")
    assert kind is not None and kind.name == "trip"


def test_a_trip_in_a_named_city_and_a_pronoun_asked_for_name_no_thing_of_ours() -> None:
    from voice_agent.conversation.reminders import requested_thing
    from voice_agent.conversation.suggestions import request_kind

    cup = "球会秋季杯定了在三亚打，会长说10月18号周六开杆，连打两天。你帮我安排一下行程，看看机票怎么订。"
    assert request_kind("", cup) is None
    assert requested_thing("Put together an itinerary: which wineries to hit and what we should taste?") == ""


def test_a_day_told_in_the_planned_month_is_said_after_a_reply_that_names_none_of_it() -> None:
    from voice_agent.conversation.turn_compose import turn_day
    from voice_agent.prompt import BuiltPrompt

    surgery = _said("ACL reconstruction on the 20th of December, I've got to be there at half six, fasted.")
    prompt = BuiltPrompt([], {}, 0, 4096, retrieved=surgery)
    christmas = "Can you help me plan our family's Christmas week? Lay it out day by day from the 18th."
    said = turn_day(christmas, prompt, "en")
    assert said.startswith("You told me") and "20th of December" in said
    # no days planned, or another month: nothing
    assert turn_day("What should I cook for Christmas lunch?", prompt, "en") == ""
    assert turn_day("Plan our week in June, from the 3rd.", prompt, "en") == ""


def test_the_golf_side_of_a_weekend_asks_for_no_side_dish() -> None:
    from voice_agent.conversation.suggestions import request_kind

    golf = "What's the smartest way to handle the golf side of it: clubs, tee times, getting between courses?"
    assert request_kind("", golf) is None
    side = request_kind("", "Can I get a side of fries with the burger?")
    assert side is not None and side.name == "side"


def test_a_thank_you_for_what_a_role_did_is_to_them_not_to_the_child_the_turn_tells_of() -> None:
    from voice_agent.conversation.name_note import tied_addressee
    from voice_agent.conversation.writing import told_of_names

    child, fellow = "[NAME:dddddddddddd]", "[NAME:eeeeeeeeeeee]"
    turn = (
        f"{child} had a rough first fortnight with homesickness and apparently her floor fellow checked in "
        "on her every single evening. Can you write a short, heartfelt thank-you note from me and my wife?"
    )
    records = _said(
        f"Dropped {child} off at her residence in Montreal on Saturday.",
        f"Her floor fellow, a grad student in neuroscience called {fellow}, told us to just call her Mev.",
    )
    assert told_of_names(turn) == {child}
    assert tied_addressee(turn, records) == fellow
    assert salutation(turn, "en", fellow) == f"Dear {fellow},"
    # a farewell to the one the turn tells of is still to them
    farewell = f"{child} is leaving the company on Friday. Can you write a farewell message?"
    assert salutation(farewell, "en") == f"Hi {child},"
