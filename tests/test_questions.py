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


@pytest.mark.parametrize(
    "text",
    [
        "okay so um we're driving down tomorrow what should i grab to drink at the gas station",
        "i've got a free long weekend in august and i kinda want to take a trip somewhere where should i go",
        "our 1 month is on friday can u help me write a cute msg 2 send her",
        "那个下个月我生日嘛然后我老公一直问我想要啥礼物你帮我想想呗",
        "周末带孩子去哪儿玩",
    ],
)
def test_a_transcript_without_a_question_mark_still_asks(text: str) -> None:
    assert is_question(text)


@pytest.mark.parametrize(
    "text",
    [
        "我什么都吃",
        "哪儿都行",
        "I know what I should do.",
        "my kid is allergic to nuts",
        "I wonder what we should cook",
    ],
)
def test_question_words_in_a_statement_do_not_make_it_ask(text: str) -> None:
    assert not is_question(text)


def test_a_run_on_statement_that_says_and_so_on_states_something() -> None:
    text = "我最近特别迷露营就是每个周末都会开车去山里然后搭个帐篷晚上看看星星什么的然后装备越买越多停不下来"
    assert not is_question(text)
    assert not only_asks(text)
