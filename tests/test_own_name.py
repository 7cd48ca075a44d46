"""The person's own name: greeted when said, and never made up when asked for before it was said."""

from __future__ import annotations

import pytest

from voice_agent.conversation.own_name import greeting, name_not_told
from voice_agent.memory.records import MemoryRecord

NAME = "[NAME:0123456789ab]"


@pytest.mark.parametrize(
    ("turn", "heard"),
    [
        (f"My name is {NAME}.", f"Nice to meet you, {NAME}!"),
        (f"Hi, I'm {NAME}.", f"Nice to meet you, {NAME}!"),
        ("Hello! My name's Marisol.", "Nice to meet you, Marisol!"),  # a name the scrubber did not find
        ("Call me Sam, please.", "Nice to meet you, Sam!"),
        (f"你好，我叫{NAME}。", f"你好，{NAME}！很高兴认识你。"),
        ("叫我小王就行。", "你好，小王！很高兴认识你。"),
    ],
)
def test_a_turn_that_says_who_the_person_is_is_greeted_with_the_name(turn: str, heard: str) -> None:
    assert greeting(turn) == heard


@pytest.mark.parametrize(
    "turn",
    [
        "I'm Italian.",  # after "I'm", only a name the scrubber found
        "I'm fine.",
        "我是学生。",
        "My name is Marisol and I love hiking.",  # more to answer: the LLM does
        f"Hi, I'm {NAME}. My daughter is allergic to sesame.",
        "What is my name?",
    ],
)
def test_anything_more_or_other_is_no_introduction(turn: str) -> None:
    assert greeting(turn) is None


def _said(text: str) -> MemoryRecord:
    return MemoryRecord("c", text)


def test_a_name_asked_for_before_it_was_said_is_not_made_up() -> None:
    others = [_said(f"My daughter {NAME} is allergic to sesame.")]  # someone else's name
    assert (
        name_not_told("What is my name?", others)
        == "You haven't told me your name yet. What should I call you?"
    )
    assert name_not_told("我叫什么名字？", []) == "你还没告诉过我你的名字。你想让我怎么称呼你？"
    # Said before (pinned or recalled): recall_answer says it back instead.
    assert name_not_told("What is my name?", [_said(f"Hi, I'm {NAME}.")]) is None
    assert name_not_told("我叫什么名字？", [_said(f"我叫{NAME}。")]) is None
    # Not a question for the person's own name.
    assert name_not_told("What's my daughter's name?", others) is None
    # What the assistant said is not what the person told.
    assert name_not_told(
        "What is my name?", [MemoryRecord("c", f"My name is {NAME}.", role="assistant")]
    ) == ("You haven't told me your name yet. What should I call you?")
