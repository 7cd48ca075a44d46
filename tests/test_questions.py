"""Whether a turn asks, and whether it only asks (states nothing about the person)."""

from __future__ import annotations

import pytest

from voice_agent.text.questions import is_question, only_asks


@pytest.mark.parametrize(
    "text",
    [
        "What is my kid allergic to?",
        "what is my kid allergic to",  # a transcript without a question mark
        "Am I vegetarian?",
        "对了，我孩子对什么过敏？",
        "我是素食者吗",
        "Hi, what is my name?",
    ],
)
def test_a_turn_that_only_asks(text: str) -> None:
    assert only_asks(text)


@pytest.mark.parametrize(
    "text",
    [
        "I'm vegetarian, what should I cook?",
        "My kid is allergic to nuts. Can you recommend a cake?",
        "我对芒果过敏，推荐一个水果吧。",
        "You know I'm vegetarian, right?",
        "I'm allergic to nuts.",
        "",
    ],
)
def test_a_turn_that_states_something(text: str) -> None:
    assert not only_asks(text)


def test_questions_from_their_opening_words_or_their_end() -> None:
    assert is_question("do you like tea") and is_question("你喜欢喝茶吗") and is_question("Tea?")
    assert not is_question("I like tea.")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Name a famous painter.", True),
        ("Suggest a board game for a rainy day.", True),
        ("Tell me something about the moon.", True),
        ("给我讲一点关于月亮的事。", True),
        ("说一个有名的画家。", True),
        ("How long is a marathon?", True),
        ("Ninety percent of what I play is soul music.", False),
        ("My kid is allergic to nuts, what cake should I bake?", False),
        ("我外公是广东人，我从小跟着他听粤剧。", False),
    ],
)
def test_questions_and_requests_tell_nothing_about_the_person(text: str, expected: bool) -> None:
    from voice_agent.text.questions import asks_or_requests

    assert asks_or_requests(text) is expected
