"""Rules drawn from wave 26's blind splits (`heldout54` to `heldout59`), each as a general case: the
cause a story names after a reaction, vows in their spoken shapes, and no rule read from a likeness, a lift
to hospital, a symptom, an amount or a relief."""

from __future__ import annotations

import pytest

from voice_agent.conversation.constraint_diagnosis import diagnosed
from voice_agent.conversation.constraint_objects import clean_object
from voice_agent.conversation.constraints import parse_constraints


def _keys(text: str) -> set[str]:
    return {c.key for c in parse_constraints(text)}


def _rules(text: str) -> set[tuple[str, str]]:
    return {(c.key, c.kind) for c in parse_constraints(text)}


# --- the cause a story names -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("Doctor at the Northern General reckons it's the hops, a proper allergy, and I carry an EpiPen now.",
         ("allergy:hops", "allergy")),
        ("GP says it's the DEET itself he's allergic to, not the midges.", ("allergy:deet", "allergy")),
        ("She reckons it's the SLS, the foaming stuff in toothpaste, my mouth just can't handle it.",
         ("intolerance:sls", "intolerance")),
        ("The GP reckons it's the hyoscine, some people just don't get on with it.",
         ("intolerance:hyoscine", "intolerance")),
        ("Whole chin came up in blisters, and the doctor said it's the PPD in it.",
         ("intolerance:ppd", "intolerance")),
        ("Looked it up after, it's the inulin, I just can't handle it.",
         ("intolerance:inulin", "intolerance")),
        ("Turns out it wasn't the heat at all, it was the masoor dal. Lips swelled up.",
         ("lentils", "allergy")),
        ("后来查过敏原，说是油菜花粉，医生讲以后花期离远点。", ("allergy:油菜花粉", "allergy")),
        ("医生说我就是艾蒿过敏，以后碰都别碰。", ("allergy:艾蒿", "allergy")),
        ("查了一下说是魔芋里那个葡甘露聚糖，有的人就是受不了。", ("intolerance:魔芋", "intolerance")),
    ],
)  # fmt: skip
def test_the_cause_a_finding_names_is_kept_off(text: str, rule: tuple[str, str]) -> None:
    assert rule in _rules(text)


@pytest.mark.parametrize(
    "text",
    [
        "Turns out it's the weekend already, time flies.",  # no reaction: no cause
        "Doctor says it's oral allergy syndrome, off the back of me hay fever.",  # a condition
        "Thought it was a bug, so I stayed in bed.",  # a guess, and a condition
        "后来去同济看，医生说是颈椎加耳石症。",  # a condition, and no reaction named
    ],
)
def test_a_finding_of_no_thing_is_no_rule(text: str) -> None:
    assert diagnosed(text, reaction=True) == [] or not _keys(text)


# --- vows, in their spoken shapes -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("I'm done, I'm never reheating rice again as long as I live.", "avoid:rice"),
        ("Never, ever getting acrylics again, I don't care how cute they look.", "avoid:acrylics"),
        ("I am not going over the Bealach na Bà as long as I live.", "avoid:bealach na bà"),
        (
            "Never again, I'm not touching one of them gas canister stoves as long as I live.",
            "avoid:gas canister",
        ),
        ("Never again, not Viagogo, not StubHub, it's face value or I stay home.", "avoid:viagogo"),
        ("Never again, not Viagogo, not StubHub, it's face value or I stay home.", "avoid:stubhub"),
        ("这辈子再坐顺风车我就不姓王。", "avoid:顺风车"),
        ("从那以后我就发誓，这辈子再不碰那些网上筹款的平台了。", "avoid:网上筹款"),
        ("别跟我提三里屯，这辈子再也不去了。", "avoid:三里屯"),
        ("我这人鼻子怪得很，最闻不得那种香薰精油的味道。", "avoid:香薰精油"),
        ("I cannot stand those freeze-dried pouch dinners.", "avoid:freeze-dried pouch dinners"),
    ],
)
def test_a_thing_sworn_off_is_kept_off(text: str, key: str) -> None:
    assert key in _keys(text)


def test_a_list_named_before_its_tail_keeps_its_items() -> None:
    keys = _keys("一个月里别吃感光的东西，芹菜、柠檬、木瓜、韭菜这些统统不能碰。")
    assert {"avoid:芹菜", "avoid:柠檬", "avoid:木瓜", "avoid:韭菜"} <= keys
    assert not any("这些" in k or "个月" in k for k in keys)


# --- no rule read into a story ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Tried the mince in a spag bol Tuesday, sick as a dog by ten o'clock.",  # a likeness
        "Lips swelled up, throat went all tight, Dev had to drive me to the LRI.",  # a lift, not driving
        "I've had these hives and puffy lips on and off for years.",  # a symptom is no cause
        "再也不用每天早上挤地铁过江了，幸福感爆棚。",  # relief, not a vow
        "现在吃个五六颗就心慌手抖冒冷汗。",  # an amount is no thing
        "My amma is horrified I'm in a unit with no garden for her curry leaf plant.",  # what it lacks
        "再去那家店我就是狗。",  # which shop: said before, not here
    ],
)
def test_no_rule_is_read_into_a_story(text: str) -> None:
    assert _keys(text) == set()


def test_a_likeness_leaves_the_real_cause() -> None:
    assert "eggs" in _keys("Eggs make me sick as a dog.")


@pytest.mark.parametrize(
    ("raw", "thing"),
    [("proper", ""), ("the stuff", ""), ("these hives", ""), ("是艾蒿", "艾蒿"), ("那种香薰精油", "香薰精油"),
     ("个五六颗", ""), ("一个月里", ""), ("韭菜这些", "韭菜")],
)  # fmt: skip
def test_a_thing_is_cleaned_of_what_is_no_thing(raw: str, thing: str) -> None:
    assert clean_object(raw) == thing


def test_a_vow_still_holds_where_it_is_no_relief() -> None:
    assert "avoid:滴滴" in _keys("我再也不用滴滴了。")
