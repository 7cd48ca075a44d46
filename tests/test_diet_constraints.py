"""Common diets and conditions, said in everyday words, become pinned constraints the guard checks:
keto/low-carb, low-salt, diabetic/blood sugar, halal, plant-based, 吃斋 — in English and Chinese."""

from __future__ import annotations

import pytest

from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints
from voice_agent.conversation.extract import extract


@pytest.mark.parametrize(
    ("statement", "breaks", "keeps"),
    [
        ("I'm doing keto now, so basically no carbs for me.", "Have some toast with jam.",
         "Scrambled eggs with avocado and spinach."),
        ("I'm on a low-carb diet these days.", "A big bowl of pasta is perfect.",
         "Grilled salmon with salad."),
        ("I'm off carbs for a while.", "Try a bagel with cream cheese.", "An omelette with mushrooms."),
        ("My doctor put me on a low-salt diet for my blood pressure.", "Grab a bag of salted pretzels.",
         "Keep some apples and unsalted almonds in the drawer."),
        ("I have high blood pressure.", "Instant noodles are quick.", "Fresh fruit is a good snack."),
        ("I eat a plant-based diet.", "A cheese omelette would be nice.", "Oatmeal with berries."),
        ("My husband is diabetic.", "Serve orange juice and cake.", "Serve sparkling water and green tea."),
        ("我最近在减肥，晚上不吃主食。", "晚上来一碗米饭配红烧鱼。", "晚上吃清蒸鱼配炒青菜。"),
        ("我在戒碳水。", "早上吃两个馒头。", "早上吃鸡蛋和牛奶。"),
        ("医生说我血糖偏高。", "下午来块蛋糕吧。", "下午吃点黄瓜和坚果。"),
        ("医生让我少吃盐，我有高血压。", "配点榨菜和咸鸭蛋。", "配点清炒时蔬和白粥。"),
        ("我是回民。", "去吃红烧肉吧。", "去吃牛肉拉面吧。"),
        ("我吃斋。", "来一份宫保鸡丁。", "来一份麻婆豆腐素菜版和炒青菜。"),
    ],
)  # fmt: skip
def test_a_diet_said_in_everyday_words_is_pinned_and_checked(statement: str, breaks: str, keeps: str) -> None:
    assert parse_constraints(statement), statement
    items = extract(statement).items
    assert items and items[0].kind in ("constraint", "decision")  # pinned: the guard reads pinned items
    guard = constraints_from_texts([statement])
    assert guard.check(breaks) is not None, breaks
    assert guard.check(keeps) is None, keeps


def test_a_diet_named_to_say_it_is_over_is_no_constraint() -> None:
    assert parse_constraints("I'm not doing keto anymore.") == []
    assert parse_constraints("I love a salty snack.") == []


def test_negated_mentions_of_the_diet_pass() -> None:
    keto = constraints_from_texts(["I'm keto."])
    assert keto.check("Skip the bread and have eggs instead.") is None
    assert keto.check("A low-carb wrap without a tortilla works.") is None
    salt = constraints_from_texts(["I'm on a low-sodium diet."])
    assert salt.check("Choose unsalted nuts and no soy sauce.") is None
