"""Wave 40: turns that need a day said in more ways, the day said back without a weekday habit beside it,
and Chinese vows about what is done to someone."""

from __future__ import annotations

import pytest

from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints
from voice_agent.conversation.dated_fallback import dated_text
from voice_agent.conversation.place_note import named_place
from voice_agent.conversation.reply_fallbacks import ReplyFallbacks
from voice_agent.memory.records import MemoryRecord
from voice_agent.metrics.trace import TurnTrace
from voice_agent.text.dates import ASKS_DAY, NEEDS_DATE, NEEDS_DAY


def _keys(text: str) -> set[str]:
    return {c.key for c in parse_constraints(text)}


def _user(text: str, source: str = "t1") -> MemoryRecord:
    return MemoryRecord("c", text, role="user", source=source, created_at=1.0)


@pytest.mark.parametrize(
    "turn",
    [
        "Help me plan it and tell me when I should be booking everything.",
        "Can you tell me when to book the hotel?",
        "Can you help me make a plan for what to order when and when to schedule the deliveries?",
    ],
)
def test_when_to_do_something_asks_for_a_day(turn: str) -> None:
    assert ASKS_DAY.search(turn)


@pytest.mark.parametrize(
    "turn",
    [
        "Write the email to my manager and tell me which days I should take off.",
        "I need to put in a PTO request for the wedding.",
        "What should I sow this week so it's ready in time for her party?",
    ],
)
def test_leave_and_things_readied_for_a_day_need_the_date(turn: str) -> None:
    assert NEEDS_DATE.search(turn) and NEEDS_DAY.search(turn)


def test_when_of_a_past_story_asks_for_no_day() -> None:
    assert not ASKS_DAY.search("When I was sick in bed I watched a film.")
    assert not NEEDS_DATE.search("I took my coat off and sat down.")


def test_a_weekday_habit_is_not_said_back_with_the_calendar_day() -> None:
    records = [
        _user("the twins turn eleven on July 22nd"),
        _user("so Sunday dinners are about to get loud again."),
    ]
    said = dated_text("When should we go to the theme park?", records)
    assert "July 22nd" in said
    assert "Sunday" not in said


def test_a_weekday_that_says_which_day_the_date_is_stays() -> None:
    records = [_user("医生说二宝预产期就是明年一月九号"), _user("我一查正好是个礼拜五")]
    said = dated_text("我哪天得请假？", records)
    assert "一月九号" in said and "礼拜五" in said
    records = [_user("The party is on the 7th of December"), _user("it's a Sunday, so bring the kids.")]
    assert "Sunday" in dated_text("What day should I book the cake for?", records)


def test_a_name_placeholder_counts_as_a_name_in_the_day_said_back() -> None:
    names = "[NAME:0639e05ed9d5], [NAME:f1570820a195] and [NAME:5a1570820a19]"
    day = f"You told me the triplets, {names}, turn eleven on July 22nd, and the party is at our house."
    day += " The whole family is coming, with friends from school and the neighbours."
    assert len(day) > 200  # as written; about 160 characters as said
    assert ReplyFallbacks(constraints_from_texts([]), "en", TurnTrace("d"), day=day).day == day
    too_long = day + " More words about nothing much at all, and then some more of them."
    assert ReplyFallbacks(constraints_from_texts([]), "en", TurnTrace("d"), day=too_long).day == ""


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("回家我就跟老伴儿发誓,这辈子再也不让人搓澡了。", "avoid:搓澡"),
        ("以后去任何动物园,打死都不会再给仔仔亲手喂动物,看看就算了。", "avoid:喂动物"),
        ("这种折腾人的体力游戏，我这辈子再也不玩儿了，谁劝都不好使。", "avoid:体力游戏"),
    ],
)
def test_chinese_vows_about_what_is_done_to_someone_are_read(text: str, key: str) -> None:
    assert key in _keys(text)


def test_a_vow_with_no_thing_still_reads_as_none() -> None:
    assert _keys("我当着她面发过誓，这辈子不碰了。") == set()
    assert _keys("再也不让他失望了。") == set()


@pytest.mark.parametrize(
    ("text", "place"),
    [
        # where the home is now, without "在", and a neighbourhood no list knows
        ("我上个月刚搬了家，现在住光谷，鲁巷那边，离地铁站走路十分钟。", "光谷"),
        # rented there: the verb after "现在" is no part of the place
        ("我上个月终于搬家了，现在租在南山蛇口，就海上世界后面那一片。我们湖南老家那边下大雪。", "南山蛇口"),
        # moved there, with an ASCII comma after it
        ("我们上个月刚刚从城里搬到良渚文化村,走到玉鸟流苏十分钟,空气是真的好。", "良渚文化村"),
        ("我老家在安吉县，山清水秀。", "安吉县"),
    ],
)
def test_chinese_homes_in_neighbourhoods_are_read(text: str, place: str) -> None:
    assert named_place(text) == place


@pytest.mark.parametrize(
    "text", ["我现在住院呢，过两天出来。", "我现在住酒店，等房子装修好。", "现在住得挺好。"]
)
def test_a_stay_that_is_no_home_names_no_place(text: str) -> None:
    assert named_place(text) == ""


def test_the_place_the_turn_asks_about_beats_a_generic_option_when_the_model_says_nothing() -> None:
    turn = "What time should we set off to the zoo, and where is good to stop for lunch on the way?"
    rules = constraints_from_texts(["I am vegetarian."])
    bare = ReplyFallbacks(
        rules, "en", TurnTrace("p"), requested="lunch", user_words=turn, asks_suggestion=True
    )
    assert bare.option and bare.option in bare.no_answer()  # no place known: the option
    trace = TurnTrace("p")
    placed = ReplyFallbacks(
        rules, "en", trace, requested="lunch", user_words=turn, asks_suggestion=True, place="Penarth"
    )
    said = placed.no_answer()
    assert "Penarth" in said and placed.option not in said
    assert trace.first("reply.place_fallback") is not None


def test_a_home_moved_into_ranks_over_the_one_moved_out_of() -> None:
    text = "Finally moved out of my mam's in Merthyr and into a little terrace in Penarth, by the pier."
    assert named_place(text) == "Penarth"
    assert named_place("I got into a fight in Leeds once, and then moved to York.") == "York"


@pytest.mark.parametrize(
    ("text", "key"),
    [
        # a dislike of "her books": the writer named before it in the sentence
        ("Everyone is mad about Sally Rooney, but honest to God I can't stand her books, all that moping.",
         "avoid:sally rooney"),
        # "the stuff": what a thing was, just before
        ("Every second sofa was velvet, and I can't stand the stuff, the feel of it sets my teeth on edge.",
         "avoid:velvet"),
        ("I swore to my wife that I will never climb a ladder again, not even a stepladder.", "avoid:ladder"),
        ("打那儿起我就跟我媳妇儿发了誓,这辈子再也不骑车了,甭管共享的还是自个儿的。", "avoid:骑车"),
        ("我跟自家讲，这辈子再也不漂头发了，一次都不会了。", "avoid:漂头发"),
        # dialect words of not standing a thing, and the kind or feel after it left off
        ("我打小儿就腻歪薄荷那股凉劲儿，洗完头跟脑瓜顶上扣了块冰似的。", "avoid:薄荷"),
        ("我老早就晓得自家吃勿消推理悬疑迭种书，杀人啊尸体啊，看得人心里厢发毛。", "avoid:推理悬疑"),
        ("The GP did the breath test and it's official, I'm lactose intolerant now.", "dairy"),
    ],
)  # fmt: skip
def test_more_ways_of_keeping_a_thing_off_are_read(text: str, key: str) -> None:
    assert key in _keys(text)


@pytest.mark.parametrize(
    "text",
    [
        # the thing first needs the verb to end its clause
        "Honest I can't stand her books.",
        # a verdict, a vegetable patch, a town's name and a symptom with its own cause keep nothing off
        "The GP did the breath test and it's official, I'm lactose intolerant now.",
        "Oh, and the dog's dug up the veggie patch again.",
        "嫑说咧，我刚从咸阳搬到西安，就是楼下夜市吵得人睡不着。",
        "俺娘一听高兴得不得了，说要去庙里烧香。就是空调又不制冷了，热得人一宿睡不着。",
    ],
)
def test_words_that_keep_nothing_off_are_not_read_as_rules(text: str) -> None:
    keys = _keys(text)
    assert not keys & {"avoid:honest", "allergy:official", "diet:vegetarian", "salt", "temples"}
    assert keys <= {"dairy"}


def test_a_symptom_still_ties_to_what_caused_it() -> None:
    assert "coffee" in _keys("一喝咖啡就睡不着。")
    assert "salt" in _keys("我刚从咸阳搬到西安，一吃咸的就头晕。")
    assert "diet:vegetarian" in _keys("I went veggie last year, and I feel great.")


@pytest.mark.parametrize(
    ("text", "key"),
    [
        (
            "I've told Shazza I'm never getting in one of those buggies again as long as I live.",
            "avoid:buggies",
        ),
        ("I really cannot tahan durian one lah, the smell, the taste, everything.", "avoid:durian"),
        # a kind of flight, not all flying
        ("这辈子打死我也不坐红眼航班了，多花几百块钱认了。", "overnight flights"),
    ],
)
def test_vows_said_with_a_particle_or_a_kind_are_read(text: str, key: str) -> None:
    assert key in _keys(text)


def test_a_plain_way_of_going_is_still_the_whole_topic() -> None:
    assert _keys("我再也不坐飞机了。") == {"flying"}
    assert "flying" not in _keys("这辈子打死我也不坐红眼航班了。")


def test_the_day_in_a_long_condensed_statement_is_said_back_as_its_clause() -> None:
    said = (
        "Okay, so the HOA finally approved our fence, only took them four months. Big news though — my "
        "daughter [NAME:69cb6529c13b] is getting married on Saturday, May 17th, at a vineyard outside "
        "Charlottesville, and I'm walking her down the aisle, so I am officially not allowed to have a "
        "sunburn in any photos. My wife already has a color-coded spreadsheet going."
    )
    day = dated_text("Help me pick the best dates for our golf trip.", [_user(said)])
    assert day == "my daughter [NAME:69cb6529c13b] is getting married on Saturday, May 17th"


def test_a_time_before_the_thing_and_driving_oneself_are_read() -> None:
    assert _keys("打那以后我就发了誓，这辈子八达岭我是再也不去了，谁叫也不去。") == {"avoid:八达岭"}
    assert "driving" in _keys("冬天上山这事儿,这辈子我再也不自己开车了,方向盘我碰都不碰。")


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        # a vow said twice: the thing after the first vow's verb, no junk of the vow itself
        ("下来我就发誓，这辈子再也不坐索道缆车了，打死都不坐。", {"avoid:索道缆车"}),
        ("我当时就跟同事说，这辈子再也不得去啥子农家乐了，打死都不去。", {"avoid:农家乐"}),
        ("落地我就跟闺女撂下话了，这辈子再也不坐飞机了，打死也不坐，多远都坐火车。", {"flying"}),
        # "one of them things" names no thing; a boat pointed at is still boats
        ("Swear down, I am never getting on one of them things again.", set()),
        ("从那以后我就发了誓，这辈子再也不开车过琼州海峡，打死都不去排那个船。", {"boats", "driving"}),
    ],
)
def test_vows_said_twice_or_pointed_give_no_junk(text: str, keys: set[str]) -> None:
    assert _keys(text) == keys
