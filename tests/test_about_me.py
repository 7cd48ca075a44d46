""" "What do you know about me?": the person's own pinned statements, said back, newest first."""

from __future__ import annotations

from voice_agent.conversation.about_me import NOTHING_TOLD, about_me
from voice_agent.memory.records import MemoryRecord

NAME = "[NAME:0123456789ab]"


def _told(text: str, kind: str = "fact", at: float = 0.0, role: str = "user") -> MemoryRecord:
    return MemoryRecord("c", text, kind=kind, created_at=at, role=role)  # type: ignore[arg-type]


def test_what_the_person_told_is_said_back_newest_first() -> None:
    pinned = [
        _told("My kid is allergic to peanuts.", "constraint", 1.0),
        _told(f"My son's name is {NAME}.", "fact", 2.0),
        _told("Got it, noted.", "fact", 3.0, role="assistant"),  # the assistant's words are not theirs
        _told("I walked the dog.", "utterance", 4.0),  # not pinned
    ]
    assert about_me("What do you know about me?", pinned) == (
        f"You told me that your son's name is {NAME}, and that your kid is allergic to peanuts."
    )
    assert about_me(
        "你都知道我什么？", [_told(f"我叫{NAME}。"), _told("我对芒果过敏。", "constraint", 1.0)]
    ) == (f"你告诉过我：你对芒果过敏；你叫{NAME}。")


def test_nothing_told_and_other_questions() -> None:
    assert about_me("What do you remember about me?", []) == NOTHING_TOLD["en"]
    assert (
        about_me("你了解我多少？", [_told("I'm vegetarian.", "constraint")])
        == "你告诉过我：you're vegetarian。"
    )
    assert about_me("What do you know about Paris?", [_told("I'm vegetarian.", "constraint")]) is None
