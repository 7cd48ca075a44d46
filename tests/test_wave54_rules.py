"""Wave 54's readers: a falling-out with a thing keeps it off (and an immune reaction makes it an allergy,
whoever read it first); a religious diet told by its certifier or its blessing; a pigsty is no pork."""

from __future__ import annotations

import pytest

from voice_agent.conversation.constraint_breakups import breakup_matches
from voice_agent.conversation.constraints import parse_constraints


def _kinds(text: str) -> dict[str, str]:
    return {c.key: c.kind for c in parse_constraints(text)}


@pytest.mark.parametrize(
    ("text", "thing"),
    [
        ("So me and anything made of natural rubber are not on speaking terms anymore.", "natural rubber"),
        ("Me and anything with a caffeine kick have officially filed for divorce.", "caffeine"),
        ("Coffee and I broke up years ago.", "Coffee"),
        ("Dunno if I told ya, but coconut's my kryptonite, mate.", "coconut"),
        ("医生话佢同芒果呢样嘢係死对头，以后沾都唔好沾。", "芒果"),
        ("我跟香菜是死对头。", "香菜"),
    ],
)
def test_a_falling_out_with_a_thing_names_the_thing(text: str, thing: str) -> None:
    assert [m.group("x") for m in breakup_matches(text)] == [thing]


@pytest.mark.parametrize(
    "text",
    [
        "Me and my husband are not on speaking terms this week.",
        "Me and Dave fell out last year over the fence.",
        "Tom and I broke up in the spring.",
        "My sister and I fell out over the will.",
        "The cat's my nemesis, he sits on my keyboard.",
    ],
)
def test_people_and_pets_are_no_things(text: str) -> None:
    assert breakup_matches(text) == []


def test_the_kind_follows_the_story() -> None:
    latex = (
        "My hands came up in welts and I went all wheezy and puffy-faced, so me and anything made of natural "
        "rubber are not on speaking terms anymore."
    )
    assert _kinds(latex).get("allergy:natural rubber") == "allergy"
    caffeine = "Me and anything with a caffeine kick have officially filed for divorce, I drink hot water."
    assert _kinds(caffeine) == {"caffeine": "avoid"}


def test_a_swollen_mouth_and_no_breath_make_an_allergy_whoever_read_it() -> None:
    text = "我个女第一次食芒果布甸，成块嘴肿到好似香肠咁，喘唔到气，即刻抱佢去打针，医生话佢同芒果係死对头。"
    assert _kinds(text) == {"mango": "allergy"}
    # (a stomach that swells is no immune reaction)
    milk = "Every time I drink milk my stomach swells up and I'm in the loo all night."
    assert _kinds(milk).get("dairy") == "intolerance"


@pytest.mark.parametrize(
    ("text", "diet"),
    [
        ("If the butcher hasn't got the Beth Din's stamp on it, it doesn't cross our door.", "diet:kosher"),
        ("If it's not been done proper with the bismillah at the butcher it's not coming in.", "diet:halal"),
    ],
)
def test_a_religious_diet_told_by_its_certifier_or_blessing(text: str, diet: str) -> None:
    assert diet in _kinds(text)


def test_a_pigsty_is_no_pork() -> None:
    assert "pork" not in _kinds("小时候我妈非逼我吃苦瓜，我躲到猪圈后头吐了一下午。")
    assert _kinds("我一吃猪肉就拉肚子。") == {"pork": "intolerance"}


def test_a_reaction_borrows_no_cause_from_a_sentence_that_moved_on() -> None:
    text = (
        "就是那个疙疙瘩瘩的苦瓜，我是一口都咽不下去，我躲到猪圈后头吐了一下午。"
        "我们院坝头那只鸭子前两天下了个双黄蛋，稀奇得很。"
    )
    assert "eggs" not in _kinds(text)
    # (a cause told right after the reaction is still read: "…my lips puffed right up. It was the prawns.")
    assert "shellfish" in _kinds("I had a couple of handfuls and my lips puffed right up. It was the prawns.")


def test_a_day_after_a_town_is_no_part_of_it() -> None:
    from voice_agent.conversation.place_note import named_place

    assert named_place("Priya's crashing in Banff Saturday night, so we meet there.") == "Banff"
    assert named_place("We moved to Milton Keynes in March.") == "Milton Keynes"
