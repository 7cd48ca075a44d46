"""Rules drawn from wave 22's look at earlier blind splits, each as a general case."""

from __future__ import annotations

import pytest

from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints
from voice_agent.conversation.echo import content_keys


def _keys(text: str) -> set[tuple[str, str]]:
    return {(c.kind, c.key) for c in parse_constraints(text)}


@pytest.mark.parametrize(
    "text",
    [
        "油炸的东西一律不碰",
        "我不碰油炸的东西",
        "I avoid fried food.",
        "I can't have anything deep-fried since the gallbladder op.",
        "教练让我少油少糖。",
    ],
)
def test_fried_food_is_a_rule_of_its_own(text: str) -> None:
    assert ("avoid", "fried") in _keys(text)


def test_the_fried_rule_catches_fried_dishes_but_not_a_stir_fry() -> None:
    guard = constraints_from_texts(["油炸的东西一律不碰，少油少糖。"])
    assert guard.check("晚上点个炸鸡吧。") is not None
    assert guard.check("来份薯条怎么样？") is not None
    assert guard.check("点一份清蒸鱼配糙米饭。") is None
    assert guard.check("炸酱面也行。") is None  # a sauce, not deep-fried
    english = constraints_from_texts(["No fried food for me."])
    assert english.check("Try the fish and chips.") is not None
    assert english.check("A chicken stir-fry with brown rice.") is None
    assert english.check("Stir-fried tofu with greens.") is None


def test_a_coachs_rule_names_every_thing_it_rules_out() -> None:
    coach = (
        "我最近在健身减脂，教练给我定了饮食规矩：高蛋白、低脂、少糖，"
        "油炸的、奶茶、甜点一律不碰，碳水也得控制。"
    )
    keys = _keys(coach)
    assert {("avoid", "fried"), ("avoid", "sugar")} <= keys
    assert _keys("甜点一律不碰") == {("avoid", "sugar")}


@pytest.mark.parametrize("text", ["今天别吃了。", "晚上不能吃", "周末一律不喝", "以后别吃"])
def test_a_time_is_no_thing_to_avoid(text: str) -> None:
    assert not [c for c in parse_constraints(text) if c.kind == "avoid" and c.key.startswith("avoid:")]


def test_a_possessive_shares_its_word_with_the_plain_noun() -> None:
    assert "physio" in content_keys("My physio's called Ruairí.")
    assert "physio" in content_keys("My physio’s called Ruairí.")
    assert "manager" in content_keys("The managers' office")
