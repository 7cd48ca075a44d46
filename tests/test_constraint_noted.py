"""A turn that only tells a constraint hears that it is remembered; anything that asks goes to the LLM."""

from __future__ import annotations

import pytest

from voice_agent.conversation.constraint_noted import constraint_noted

REMEMBERED = "Got it, I'll remember that"


@pytest.mark.parametrize(
    ("turn", "language", "heard"),
    [
        (
            "Hi, I'm [NAME:0123456789ab]. My daughter [NAME:fedcba987654] is allergic to sesame.",
            "en",
            "Got it, I'll remember that your daughter [NAME:fedcba987654] is allergic to sesame.",
        ),
        (
            "I'm vegetarian, I never eat meat or fish.",
            "en",
            "Got it, I'll remember that you're vegetarian, you never eat meat or fish.",
        ),
        ("Just a heads-up: I'm allergic to shellfish.", "en", f"{REMEMBERED} you're allergic to shellfish."),
        ("我家小孩对坚果过敏，尤其是花生。", "zh", "好的，我记住了：你家小孩对坚果过敏，尤其是花生。"),
        # a request never to make is answered with what will not happen, not said back as an order
        ("Never suggest sushi to me, I don't like raw fish.", "en", "Got it, I won't suggest sushi."),
        ("Please don't take me to karaoke.", "en", "Got it, I won't suggest karaoke."),
        ("以后别给我推荐火锅。", "zh", "好的，以后我不会再推荐火锅了。"),
    ],
)  # fmt: skip
def test_a_told_constraint_is_said_back_as_remembered(turn: str, language: str, heard: str) -> None:
    assert constraint_noted(turn, language) == heard


@pytest.mark.parametrize(
    "turn",
    [
        "My kid is allergic to nuts. Can you recommend a cake?",  # asks: the LLM answers, under the guard
        "I'm vegetarian, what should I cook tonight?",
        "我对芒果过敏，推荐一个水果吧。",
        "Am I allergic to anything?",
        "We're moving to Leeds next month.",  # no constraint
        "",
    ],
)
def test_a_turn_that_asks_or_tells_no_constraint_goes_to_the_llm(turn: str) -> None:
    assert constraint_noted(turn, "zh" if "芒果" in turn else "en") is None


@pytest.mark.parametrize(
    ("turn", "language", "heard"),
    [
        ("Remember my kid is allergic to peanuts.", "en", f"{REMEMBERED} your kid is allergic to peanuts."),
        ("Don't forget my son is allergic to eggs.", "en", f"{REMEMBERED} your son is allergic to eggs."),
        ("别忘了我家孩子对鸡蛋过敏。", "zh", "好的，我记住了：你家孩子对鸡蛋过敏。"),
    ],
)
def test_asked_to_remember_it_is_said_back_without_the_asking(turn: str, language: str, heard: str) -> None:
    """ "Remember …", "Don't forget …" ask to keep what follows: no order not to do something."""
    assert constraint_noted(turn, language) == heard
