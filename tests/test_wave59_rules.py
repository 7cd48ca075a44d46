"""Wave 59: a trip the turn names for itself ("去冲绳玩五天", "eight days in Osaka … a packing list") is
planned for that place, so no note names a town the person once mentioned (their home, a past holiday)."""

from __future__ import annotations

import pytest

from voice_agent.conversation.constraints import parse_constraints
from voice_agent.conversation.place_note import place_note
from voice_agent.memory.records import MemoryRecord


def _records(*texts: str) -> list[MemoryRecord]:
    return [MemoryRecord(conversation_id="c", text=t, role="user", kind="utterance") for t in texts]


@pytest.mark.parametrize(
    ("said", "turn", "language"),
    [
        (
            "哎妈呀，沈阳今儿个风刮得嗷嗷的，我在中街买个冰棍儿。",
            "下个月我们一家三口去冲绳玩五天，租车自驾，也想去海边好好玩一玩。你帮我排排行程，玩啥项目都写清楚。",
            "zh",
        ),
        (
            "哎呀，佛山呢排热到痴线，我喺祖庙门口等巴士。",
            "下个月我同老公去东京玩五日，其他日子周围行下食下。你帮我哋排个行程。",
            "zh",
        ),
        (
            "重庆这几天热得遭不住，我在解放碑等个红绿灯。",
            "下个月我跟三个老姐妹去青城山一个瑜伽营住四天，帮我们排一下晚上耍啥子，再列个行李清单。",
            "zh",
        ),
        (
            "After the airline lost my suitcase for eleven days on our honeymoon in Bali, I swore I'd never "
            "check a bag again.",
            "The missus and I have eight days in Osaka in April. Can you write us a packing list?",
            "en",
        ),
        (
            "Mate, the Gateway was chockers, took me an hour to get from Eagle Farm to Murarrie.",
            "My brother-in-law's flying up next month and he's keen on a day of fishing around Brissie. "
            "Where should I take him?",
            "en",
        ),
    ],
)
def test_a_trip_the_turn_names_is_not_steered_to_a_remembered_town(
    said: str, turn: str, language: str
) -> None:
    assert place_note(turn, _records(said), language) == ""


@pytest.mark.parametrize(
    ("said", "turn", "language", "town"),
    [
        (
            "我爸妈退休以后搬到昆明住了，说那边冬天暖和。",
            "过年我要回去看爸妈住一个礼拜，要带哪些衣服？",
            "zh",
            "昆明",
        ),
        (
            "My parents retired and bought a little cottage just outside Keswick.",
            "We're going up to stay with my folks over Easter, what is there to do round there?",
            "en",
            "Keswick",
        ),
        (
            "我姐嫁到扬州好多年了，一直叫我去玩。",
            "五一我带我妈去我姐那儿住三天，你帮我想想这几天去哪儿玩、吃点啥？",
            "zh",
            "扬州",
        ),
    ],
)
def test_a_trip_to_someone_of_theirs_still_names_where_they_live(
    said: str, turn: str, language: str, town: str
) -> None:
    assert town in place_note(turn, _records(said), language)


def _keys(text: str) -> set[str]:
    return {c.key for c in parse_constraints(text)}


@pytest.mark.parametrize(
    ("text", "key"),
    [
        # a thing read from the way it is eaten or named
        (
            "One forkful of a salad with that tahini dressing and my throat was closing up like a "
            "drawbridge.",
            "sesame",
        ),
        (
            "One bite of a satay skewer at my cousin's wedding and my lips went up like a pair of bike tyres "
            "and my chest locked tight, they had to jab me in the leg.",
            "nuts",
        ),
        ("One cutting chai or two spoons of dahi and I'm running to the loo with gas and cramps.", "dairy"),
        ("Me ma's been trying to sneak a mushroom into me since 1989, I pick every one out.", "mushrooms"),
        (
            "Look, I'll eat just about anything, but eggs? Fried, scrambled, the smell alone has me gagging.",
            "eggs",
        ),
        (
            "Never again, I'm telling you, will I set foot on a boat across the Irish Sea: that crossing "
            "was hell.",
            "boats",
        ),
        ("I've told our kid straight, I am never, ever taking the motor up there again.", "avoid:car"),
        # Chinese: a feud, a pointed thing refused, a vow on one's name, a drink pointed at
        ("我这身子骨跟咖啡天生犯相，沾一口心口就咚咚咚跟敲鼓似的。", "coffee"),
        (
            "香菜那个东西，在我这儿跟臭虫是一个档次的，哪个敢在我碗里撒一颗，我宁愿整碗倒了都不得吃。",
            "cilantro",
        ),
        (
            "我这个人别个都说好将就，就是姜这个东西，哪怕藏在汤里头我都咬得出来，那股味道一上来我就想呕。",
            "avoid:姜",
        ),
        ("讲出来侬不要笑，凡是提神的东西我是吃不消的，一杯美式下去心口扑通扑通跳。", "caffeine"),
        (
            "上趟我骑共享单车摔出去，膝盖缝了五针，我当场发誓，这辈子两只轮子的东西我再碰一碰就不姓沈。",
            "avoid:自行车",
        ),
        ("上次摔了以后，我这辈子再也不骑自行车了。", "avoid:骑自行车"),
        (
            "上回一帮人在KTV包房里喝到后半夜，丢人丢到姥姥家了，我发的誓：这辈子再踏进那玩意儿一步，我就是狗。",
            "avoid:ktv",
        ),
        (
            "去年过年跟发小喝大了，胃出血进了医院，打那以后我跟那玩意儿彻底掰了，啤的白的一口都不整。",
            "alcohol",
        ),
        ("小时候啃了半个，嘴巴肿得像两根香肠，喉咙发紧，到现在连杨枝甘露都不敢点。", "avoid:杨枝甘露"),
        ("嘴巴周围立马肿成香肠，送到医院打了针才缓过来，现在连杨枝甘露我都不敢碰。", "avoid:杨枝甘露"),
        (
            "My guts and anything made from wheat, barley or rye parted ways about five years back, the "
            "specialist did the scope.",
            "gluten",
        ),
    ],
)
def test_a_thing_kept_off_said_in_everyday_words(text: str, key: str) -> None:
    assert key in _keys(text)


@pytest.mark.parametrize(
    "text",
    [
        "I set foot on a boat to Skye last year and loved it.",
        "I tried to slip a note in her lunchbox.",
        "We went ice skating and I fell.",
        "我家闺女上礼拜刚学会骑自行车，摔得膝盖全是紫的。",
        "成都这两天阴到起，衣服晾了三天还是潮的。",
        "Have you tried the new place? The queue alone has me gagging.",
    ],
)
def test_everyday_talk_keeps_nothing_off(text: str) -> None:
    assert _keys(text) == set()


def test_the_body_that_fell_out_with_a_food_is_no_food() -> None:
    keys = _keys("My guts and anything made from wheat, barley or rye parted ways about five years back.")
    assert not any("guts" in key for key in keys)
