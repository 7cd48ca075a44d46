"""The constraint guard's checks: what the person pinned becomes term checks on reply sentences,
in English and Chinese, with negated mentions allowed."""

from __future__ import annotations

import pytest

from voice_agent.conversation.constraints import ConstraintSet, constraints_from_texts, parse_constraints

NUT_ALLERGY_EN = "My kid is allergic to nuts, especially peanuts."
NUT_ALLERGY_ZH = "我家小孩对坚果过敏，尤其是花生。"


def _keys(text: str) -> set[str]:
    return {c.key for c in parse_constraints(text)}


@pytest.mark.parametrize(
    ("statement", "key"),
    [
        (NUT_ALLERGY_EN, "nuts"),
        (NUT_ALLERGY_ZH, "nuts"),
        ("My son has a severe peanut allergy.", "nuts"),
        ("I'm allergic to shellfish.", "shellfish"),
        ("我对海鲜过敏。", "shellfish"),
        ("I'm lactose intolerant.", "dairy"),
        ("我乳糖不耐受。", "dairy"),
        ("My wife has celiac disease, so she can't eat gluten.", "gluten"),
        ("I'm vegetarian, I never eat meat or fish.", "diet:vegetarian"),
        ("我吃素。", "diet:vegetarian"),
        ("I'm vegan.", "diet:vegan"),
        ("我只吃清真食品。", "diet:halal"),
        ("I don't drink alcohol at all.", "alcohol"),
        ("我不喝酒。", "diet:sober"),
        ("I really hate cilantro.", "cilantro"),
        ("我很讨厌香菜。", "cilantro"),
        ("Never suggest sushi to me.", "avoid:sushi"),
        ("以后别给我推荐火锅。", "avoid:火锅"),
        ("I can't stand mushrooms.", "mushrooms"),
    ],
)
def test_stated_constraints_are_recognised(statement: str, key: str) -> None:
    assert key in _keys(statement), _keys(statement)


@pytest.mark.parametrize(
    "statement",
    [
        "What's the capital of France?",
        "I had peanuts for lunch.",
        "我今天吃了花生。",
        "I'm not vegetarian anymore.",
        "The party is on Saturday.",
        "I don't like waiting.",
    ],
)
def test_ordinary_sentences_state_no_constraint(statement: str) -> None:
    assert not parse_constraints(statement), parse_constraints(statement)


@pytest.mark.parametrize(
    "sentence",
    [
        "Try a peanut butter cake.",
        "A classic is the walnut brownie.",
        "Top it with some Nutella and hazelnuts.",
        "No worries, try peanut butter cookies.",
        "Avoid peanuts and use almond flour instead.",
        "推荐一个花生酱蛋糕。",
        "可以在上面撒一些核桃碎。",
        "做一个杏仁蛋糕吧。",
        "他对坚果过敏，推荐花生酱蛋糕。",  # an allergy named, then what it rules out recommended
        "我对坚果过敏，可以吃花生酱吗？",
    ],
)
def test_recommending_what_the_allergy_rules_out_is_a_violation(sentence: str) -> None:
    constraints = constraints_from_texts([NUT_ALLERGY_EN, NUT_ALLERGY_ZH])
    violation = constraints.check(sentence)
    assert violation is not None and violation.constraint.key == "nuts", sentence


@pytest.mark.parametrize(
    "sentence",
    [
        "How about a nut-free vanilla cake?",
        "A lemon cake without peanuts, almonds or walnuts is a safe choice.",
        "Since your kid is allergic to nuts, go for a strawberry sponge.",
        "Because of the peanut allergy, I'd pick a fruit tart.",
        "You can't have nuts, so try a carrot cake.",
        "Try coconut macaroons or a doughnut.",
        "可以做一个不含坚果的香草蛋糕。",
        "因为孩子对坚果过敏，建议选水果蛋糕。",
        "这个蛋糕不含花生、杏仁和核桃。",
        "无坚果的巧克力蛋糕也不错。",
        "你告诉过我，你家小孩对坚果过敏，尤其是花生。",  # the allergy said back, with what it covers
    ],
)
def test_negated_mentions_and_other_words_pass(sentence: str) -> None:
    constraints = constraints_from_texts([NUT_ALLERGY_EN, NUT_ALLERGY_ZH])
    assert constraints.check(sentence) is None, constraints.check(sentence)


def test_a_negation_carries_over_from_the_first_clause() -> None:
    constraints = constraints_from_texts([NUT_ALLERGY_EN])
    assert constraints.check("almonds or walnuts.", context="Make it without peanuts,") is None
    assert constraints.check("add walnuts on top.", context="It's a lovely cake,") is not None


@pytest.mark.parametrize(
    ("sentence", "violates"),
    [
        ("Grill some chicken breast with roasted vegetables.", True),
        ("A salmon fillet with rice is quick.", True),
        ("来一份红烧肉吧。", True),
        ("清蒸鱼很健康。", True),
        ("Try a veggie burger with a lentil soup.", False),
        ("A mushroom risotto is filling.", False),
        ("肉桂卷配咖啡也不错。", False),
        ("番茄炒鸡蛋很简单。", False),
        ("做一个麻婆豆腐，用素肉代替猪肉。", False),
    ],
)
def test_a_vegetarian_diet_rules_out_meat_and_fish(sentence: str, violates: bool) -> None:
    constraints = constraints_from_texts(["I'm vegetarian, I never eat meat or fish.", "我吃素。"])
    assert (constraints.check(sentence) is not None) is violates, sentence


def test_the_safe_sentence_names_the_constraint_and_passes_its_own_check() -> None:
    texts = [
        NUT_ALLERGY_EN,
        "我吃素。",
        "I really hate cilantro.",
        "I'm lactose intolerant.",
        "Never suggest sushi.",
    ]
    constraints = constraints_from_texts(texts)
    assert len(constraints) >= 5
    for constraint in constraints.constraints:
        for language in ("en", "zh"):
            sentence = constraint.explanation(language)
            assert constraints.check(sentence) is None, sentence
    nuts = next(c for c in constraints.constraints if c.key == "nuts")
    assert "allergy" in nuts.explanation("en") and "nuts" in nuts.explanation("en")
    assert "过敏" in nuts.explanation("zh") and "坚果" in nuts.explanation("zh")


def test_no_constraints_check_nothing() -> None:
    assert ConstraintSet().check("Try a peanut butter cake.") is None
    assert not constraints_from_texts(["What's the weather like?"])


@pytest.mark.parametrize(
    ("statement", "bad", "fine"),
    [
        ("I can't stand mushrooms.", "Try a creamy mushroom risotto.", "Try a lemon risotto with peas."),
        ("I stopped drinking last year.", "How about a glass of red wine?", "How about sparkling water?"),
        ("我受不了香菜。", "可以做香菜拌牛肉。", "可以做番茄炒蛋。"),
    ],
)
def test_a_dislike_that_is_pinned_is_checked(statement: str, bad: str, fine: str) -> None:
    from voice_agent.conversation.extract import extract

    assert [item.kind for item in extract(statement).items] == ["constraint"]  # pinned, so the guard sees it
    constraints = constraints_from_texts([statement])
    assert constraints.check(bad) is not None
    assert constraints.check(fine) is None


def test_typographic_apostrophes_read_like_plain_ones() -> None:
    from voice_agent.conversation.extract import extract

    statement = "My kid can\u2019t eat nuts, and I can\u2019t stand mushrooms."
    assert [item.kind for item in extract(statement).items] == ["constraint"]
    constraints = constraints_from_texts([statement])
    assert {"nuts", "mushrooms"} <= {c.key.split(":")[-1] for c in constraints.constraints}
    assert constraints.check("Don\u2019t add any nuts; try a lemon cake.") is None  # negated, as with '
    violation = constraints.check("Try a mushroom tart.")
    assert violation is not None and violation.sentence == "Try a mushroom tart."
