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
