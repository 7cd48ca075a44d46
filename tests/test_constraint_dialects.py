"""Rules said in transcripts and dialects: a list with what it shares said after it, Cantonese refusals,
and everyday words that only look like a symptom."""

from __future__ import annotations

from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints
from voice_agent.conversation.likings import says_liking


def test_a_list_with_its_reason_after_it_is_each_kept_off() -> None:
    rules = constraints_from_texts(["医生说菠菜、苋菜、竹笋、空心菜这些草酸高的一律别吃，浓茶也别喝了。"])
    assert {"avoid:菠菜", "avoid:苋菜", "avoid:竹笋", "avoid:空心菜", "avoid:浓茶"} <= set(rules.keys())
    assert rules.check("炒个蒜蓉菠菜吧。") is not None
    assert rules.check("清炒莴笋和番茄炒蛋都不错。") is None  # 莴笋 is no 竹笋


def test_a_cantonese_refusal_is_a_rule_and_eggs_are_no_chicken() -> None:
    rules = constraints_from_texts(["我呢个人乜都食，就系唔食鸡。"])
    assert rules.keys() == ["chicken"]
    assert rules.check("整个白切鸡啦。") is not None
    assert rules.check("蒸个水蛋，加个鸡蛋羹。") is None
    assert rules.check("田鸡粥都几好。") is None


def test_the_gas_station_is_no_symptom() -> None:
    assert parse_constraints("we're driving six hours, what should i grab to drink at the gas station") == []
    assert [c.key for c in parse_constraints("Beans give me terrible gas.")] == ["intolerance:beans"]


def test_a_liking_said_in_a_transcript() -> None:
    assert says_liking("yeah so um lately i've been like super into astronomy you know")
    assert says_liking("我最近嗯特别迷露营就是基本上每个周末都会开车去山里")
    assert not says_liking("我上次在山里迷路了")


def test_a_liking_in_a_long_run_on_is_said_back_cut_around_it() -> None:
    from voice_agent.conversation.constraints import ConstraintSet
    from voice_agent.conversation.likings import liked_fallback

    run_on = (
        "yeah so um lately i've been like super into astronomy you know like i got this eight inch dobsonian "
        "telescope for my birthday and um now i'm out in the backyard like every clear night looking at "
        "saturn and stuff and i've got like an app that tells me when the space station goes over so yeah"
    )
    said = liked_fallback(run_on, "trip", "en", ConstraintSet())
    assert "you've been like super into astronomy" in said and said.endswith("along those lines.")
    assert len(said) < 240
    assert liked_fallback("um so yeah " * 30, "trip", "en", ConstraintSet()) == ""  # no liking in it
