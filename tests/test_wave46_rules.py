"""Wave 46: vows and family rules read in more shapes ("Dad's sworn off buffets", "there will never be
another bouncy castle at anything we organise", "鞭炮、烟花一律不准再放", "再也不让她坐网约车、出租车了"), a
dislike of "them" or "the stuff" whose thing was slipped into food or pointed at, "it's a phase" read as
no cause, a vegan's rule on what is worn, a Chinese refusal in the verb the person used ("不放鞭炮",
"不吹蜡烛"), a thing said back with what it keeps off ("…所以不放榴莲"), and a turn about a day's running
order or about somewhere near home."""

from __future__ import annotations

import pytest

from voice_agent.conversation.acknowledge import acknowledgement, concerns
from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints
from voice_agent.conversation.negation import is_negated
from voice_agent.conversation.place_note import place_note
from voice_agent.conversation.reminders import asks_plan
from voice_agent.memory.records import MemoryRecord


def _keys(text: str) -> list[str]:
    return [c.key for c in parse_constraints(text)]


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("He's sworn off buffets for life, says he'll never go near another bain-marie.", ["avoid:buffets"]),
        ("I told Dermot that's it, there will never be another bouncy castle or any of them inflatables at "
         "anything we organise, full stop.", ["avoid:bouncy castle"]),
        ("There'll never be another trampoline in this house.", ["avoid:trampoline"]),
        ("从那天起我就发誓，屋企以后都不会再买洗衣凝珠。", ["avoid:洗衣凝珠"]),
        ("我们屋头以后不管啥子事，鞭炮、烟花一律不准再放，哪个放哪个就莫回来。",
         ["avoid:鞭炮", "avoid:烟花"]),
        ("家里以后一律不准再抽烟。", ["avoid:抽烟"]),
        ("so I swore blind I'll never pay for phone insurance again, I'll mind the phone myself.",
         ["avoid:phone insurance"]),
        ("俺当时就发誓，这辈子再也不办合约机了。", ["avoid:合约机"]),
        ("打那儿起我就发誓，甭管多近，再也不让她一个人坐网约车、出租车了。",
         ["avoid:网约车", "avoid:出租车"]),
        ("My wife keeps trying to sneak raisins into things, but I can't stand them, never could.",
         ["avoid:raisins"]),
        ("Every time I walk in I get hit with that lavender they spray everywhere and honestly, I can't "
         "stand the stuff, never could.", ["avoid:lavender"]),
    ],
)  # fmt: skip
def test_vows_rules_and_pointed_dislikes_are_read(text: str, keys: list[str]) -> None:
    assert _keys(text) == keys


@pytest.mark.parametrize(
    "text",
    [
        "There will never be another Beatles.",  # (admiration, no rule)
        "There's never a dull moment at our place.",
        "My gran still thinks it's a phase and keeps trying to feed me bobotie after I got hives.",
        "She reckons it's just a fad, my breaking out in a rash.",
        "以后再也不用办那些手续了。",  # (relief, no vow)
    ],
)
def test_no_rule_is_read_from_admiration_or_a_dismissal(text: str) -> None:
    assert _keys(text) == []


VEGAN = (
    "It's been a year since I went vegan, and I don't buy anything that comes off an animal anymore, so no "
    "leather shoes, no wool jerseys, nothing. My gran still thinks it's a phase."
)


def test_a_vegans_rule_concerns_what_is_worn_and_opens_the_reply() -> None:
    coat = "I'm getting a winter coat made by a tailor. Can you help me decide on the fabric and the lining?"
    guided = parse_constraints(VEGAN)
    assert [c.key for c in guided] == ["diet:vegan", "avoid:leather shoes", "avoid:wool jerseys"]
    assert all(concerns(c, coat) for c in guided)
    ack = acknowledgement(guided, constraints_from_texts([VEGAN]), "en", coat)
    assert ack is not None and ack.text == "Since you're vegan, "
    # (and not a turn about a film)
    assert not concerns(guided[0], "Can you recommend a film for tonight?")


@pytest.mark.parametrize(
    ("fact", "turn", "opening"),
    [
        ("我们屋头以后不管啥子事，鞭炮、烟花一律不准再放。", "下个月我爷爷满八十，你帮我把当天的流程排一下。",
         "按你说的，不放鞭炮，"),
        ("他打年轻时候就最烦吹蜡烛、唱生日歌这套洋玩意儿。", "老爷子八十大寿，您帮我从头到尾排个流程。",
         "按你说的，不吹蜡烛，"),
        ("打那儿起我就发誓，再也不让她一个人坐网约车、出租车了。",
         "下礼拜三闺女放学，您帮我琢磨琢磨接送怎么安排合适？",
         "按你说的，不坐网约车，"),
        ("我老公提了个榴莲回来，我这辈子最受不了的就是榴莲，闻到都脑壳疼，莫讲吃了。",
         "下个礼拜六是我伢子生日，帮我想下吃的、蛋糕和活动怎么安排咯。",
         "因为你这辈子最受不了的就是榴莲，所以不放榴莲，"),
    ],
)  # fmt: skip
def test_a_chinese_refusal_names_the_thing_with_the_persons_verb(fact: str, turn: str, opening: str) -> None:
    ack = acknowledgement(parse_constraints(fact), constraints_from_texts([fact]), "zh", turn)
    assert ack is not None and ack.text == opening


def test_a_bare_no_before_an_activity_is_a_refusal_and_not_before_a_noun() -> None:
    text = "按你说的，不吹蜡烛，也不放鞭炮。"
    start = text.index("吹蜡烛")
    assert is_negated(text, start, start + 3)
    plain = "推荐吹蜡烛环节。"
    assert not is_negated(plain, plain.index("吹蜡烛"), plain.index("吹蜡烛") + 3)
    assert (
        constraints_from_texts(["他最烦吹蜡烛、唱生日歌这套洋玩意儿。"]).check("按你说的，不吹蜡烛，") is None
    )
    assert (
        constraints_from_texts(["他最烦吹蜡烛、唱生日歌这套洋玩意儿。"]).check("最后大家一起吹蜡烛。")
        is not None
    )


@pytest.mark.parametrize(
    ("turn", "plan"),
    [
        ("您帮我从头到尾排个流程，寿宴上都安排点儿什么环节。", True),
        ("Can you give me a running order for the afternoon?", True),
        ("你觉得这个蛋糕好看吗？", False),
    ],
)
def test_a_days_running_order_is_a_plan(turn: str, plan: bool) -> None:
    assert asks_plan(turn) is plan


def _said(text: str) -> MemoryRecord:
    return MemoryRecord(conversation_id="c", text=text, role="user")


def test_a_class_near_home_asks_about_the_home_told_before() -> None:
    told = [_said("我们上个月刚搬到曲江，房子就在大唐不夜城后头")]
    turn = "娃八岁了，想给她找个放学后的兴趣班，最好离屋近，走路就能接送。你给我推荐几个。"
    assert "曲江" in place_note(turn, told, "zh")
    assert place_note("你给我推荐几个兴趣班。", told, "zh") == ""
    assert "Leeds" in place_note(
        "Can you find a swimming class close to home?", [_said("We moved to Leeds last spring.")], "en"
    )
