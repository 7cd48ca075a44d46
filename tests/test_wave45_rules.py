"""Wave 45: vows read in more shapes (eating in a kind of place, sending a pet somewhere for a service,
any boat at all), a Chinese liking that points back at what it likes ("喜欢那种…的东西"), a low-fat diet,
an allergy acknowledged by itself, and a plan on a calendar date raising what is dated near it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.test_retrieve import PLAIN, T, axis, put, rec, store  # noqa: F401  (the store fixture)
from voice_agent.conversation.acknowledge import acknowledgement
from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints
from voice_agent.conversation.dated_fallback import near_date_statement
from voice_agent.conversation.likings import _liking_sentence
from voice_agent.memory.records import MemoryRecord
from voice_agent.memory.retrieve import Retriever
from voice_agent.memory.store.sqlite import SqliteStore


def _keys(text: str) -> list[str]:
    return [c.key for c in parse_constraints(text)]


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("I am never, ever eating in a revolving restaurant again, I don't care how good the view is.",
         "avoid:revolving restaurant"),
        ("Honestly I'm never eating at the Ivy again.", "avoid:ivy"),
        ("打那以后我就发誓,这辈子再也不送宠物店洗澡了,都在家自个儿给它洗。", "avoid:宠物店"),
        ("以后再也不送孩子去托管班了", "avoid:托管班"),
        ("打那儿起我就跟自个儿发誓了,这辈子甭管什么船,我是再也不上了。", "boats"),
        ("这辈子甭管什么游艇，我是再也不上了。", "avoid:游艇"),
    ],
)  # fmt: skip
def test_vows_in_more_shapes_are_read(text: str, key: str) -> None:
    assert key in _keys(text)


def test_eating_in_alone_and_a_touched_drink_read_as_before() -> None:
    assert _keys("I am never eating in again, honestly") == []
    assert _keys("I am never touching tequila again") == ["avoid:tequila"]
    assert _keys("啥除草剂我这辈子都不再碰了") == ["avoid:除草剂"]


def test_a_chinese_liking_that_points_back_says_what_it_points_at() -> None:
    told = _liking_sentence(
        "我们昆明人讲究哪样嘛，我家里头的收纳筐、脏衣篓，连纸篓都是竹编藤编的，是我从建水、大理一路背回来的，"
        "我就是喜欢那种天然的、有手工味道的东西。昨天滇池边上海鸥来了，我带娃克喂了一下午，板扎得很。"
    )
    assert "竹编" in told and "喜欢那种天然的" in told and "海鸥" not in told
    # a liking that names its thing keeps only the short clause before it, as before
    plain = _liking_sentence(
        "我家闺女今年十二，哈利波特迷得都魔怔了，天天在家念咒语，上学路上也念，睡觉前还要念两遍才肯睡。"
    )
    assert plain == "我家闺女今年十二，哈利波特迷得都魔怔了。"


@pytest.mark.parametrize(
    "text",
    [
        "The vet says he's on a strict low-fat diet for life now after the pancreatitis, nothing greasy.",
        "I'm on a strict low-fat diet now.",
        "医生说我要低脂饮食，胆囊不好。",
    ],
)
def test_a_low_fat_diet_rules_out_the_fatty_things_a_reply_would_suggest(text: str) -> None:
    assert "diet:low-fat" in _keys(text)
    said = constraints_from_texts([text])
    assert said.check("Make a peanut butter cake with cream cheese icing.") is not None
    assert said.check("做个红烧肉吧。") is not None
    assert said.check("A banana and oat cake with a thin yoghurt frosting, or butternut squash soup.") is None


@pytest.mark.parametrize(
    "text",
    [
        "I bought some low-fat yoghurt.",
        "The low-fat version tastes like cardboard.",
        "我买了低脂牛奶",
        "我买了低盐酱油",
    ],
)
def test_a_product_sold_low_in_something_is_no_diet(text: str) -> None:
    assert _keys(text) == []


@pytest.mark.parametrize(
    "text",
    ["Dad had a bad bout of pancreatitis last year.", "去年查出来胆结石了", "I had my gallbladder out."],
)
def test_a_pancreas_or_gallbladder_condition_keeps_fatty_food_off(text: str) -> None:
    assert "fat" in _keys(text)
    assert constraints_from_texts([text]).check("How about a bacon sandwich? 或者地三鲜。") is not None


def test_lard_is_fat_not_meat() -> None:
    assert _keys("大夫嘱咐说往后得低脂饮食，油炸的、肥肉、荤油都不能碰。") == ["diet:low-fat", "fried", "fat"]
    assert _keys("我不吃荤") == ["diet:vegetarian", "meat"]


def test_an_allergy_is_acknowledged_by_itself_not_by_a_condition_named_after_it() -> None:
    fact = (
        "You know I've been allergic to groundnuts since I was small, my throat closed up at a wedding in "
        "Ibadan. Anyway, Arsenal drew again on Sunday, that team wants to kill me with high blood pressure."
    )
    said = acknowledgement(
        parse_constraints(fact), constraints_from_texts([fact]), "en", "Give me a Naija menu for the final."
    )
    assert said is not None and "groundnut" in said.text and "blood pressure" not in said.text
    # a condition named before the rule's words is still its reason
    gout = "I've got gout now, so the doctor says no more offal or anchovies."
    told = acknowledgement(
        parse_constraints(gout), constraints_from_texts([gout]), "en", "What should I cook for dinner?"
    )
    assert told is not None and "gout" in told.text


async def test_a_plan_on_a_calendar_date_raises_statements_naming_a_date(store: SqliteStore) -> None:  # noqa: F811
    weekend = rec("the Lions were proper kak in Pretoria on Saturday")
    knee = rec("the ACL reconstruction on my right knee is Friday the 22nd of August, six weeks on crutches")
    plain = rec("Eskom has us on stage four load-shedding again")
    await put(store, [(weekend, axis(0)), (plain, axis(0, lean=0.1)), (knee, axis(0, lean=0.3))])
    params = replace(PLAIN, keyword_k=0, day_bonus=0.2)
    match = "The Boks play at Ellis Park on Saturday 6 September. What do we need to sort out?"
    ranked = await Retriever(store, params).retrieve(T, match, axis(0), 500)
    assert ranked.items[0].record.id == knee.id  # (a date of a month, not a weekday alone)
    assert [i.record.id for i in ranked.items[1:]] == [weekend.id, plain.id]
    plain_turn = await Retriever(store, params).retrieve(
        T, "What do we need for Saturday's match?", axis(0), 500
    )
    assert plain_turn.items[-1].record.id == knee.id  # (no date named: meaning alone)


def test_a_plan_on_a_date_falls_back_to_the_persons_own_dated_statement() -> None:
    said = [
        MemoryRecord(
            "c1", "the surgeon gave me a date for the ACL op on my right knee, Friday the 22nd of August"
        ),
        MemoryRecord("c1", "Anyway, the Lions were proper kak in Pretoria on Saturday."),
        MemoryRecord("c1", "My wife's already told me she's not carrying me to the car."),
    ]
    match = "The Boks play the All Blacks on Saturday 6 September. What do we need to sort out?"
    assert "22nd of August" in near_date_statement(match, said, "en")
    assert near_date_statement("What do we need to sort out for Saturday's match?", said, "en") == ""
    assert near_date_statement("On 6 September?", said[1:], "en") == ""  # (no date of their own)
