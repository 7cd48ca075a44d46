"""Facts a reply should use: names and places pinned and answered from memory, and what the person likes
restated when they ask for a recommendation."""

from __future__ import annotations

import pytest

from voice_agent.conversation.constraints import ConstraintSet
from voice_agent.conversation.extract import extract
from voice_agent.conversation.likings import PREFERENCE
from voice_agent.conversation.recall_answer import answer_from_memory, is_recall_question
from voice_agent.conversation.reminders import turn_reminders
from voice_agent.memory.records import MemoryRecord


def _record(text: str, at: float = 0.0) -> MemoryRecord:
    return MemoryRecord("c", text, kind="fact", created_at=1_000.0 + at)


@pytest.mark.parametrize(
    "statement",
    [
        "Hey, I'm Tomasz, nice to meet you.",
        "Call me Sam.",
        "We just moved to Porto.",
        "I'm originally from Kraków.",
        "叫我阿杰就行。",
        "我姓李。",
        "我老家在山东青岛。",
        "我们刚搬到苏州。",
    ],
)
def test_names_and_places_are_pinned(statement: str) -> None:
    assert [item.kind for item in extract(statement).items] == ["fact"]


@pytest.mark.parametrize("text", ["I'm going home.", "I'm Tired of this.", "It's Monday."])
def test_a_capital_after_im_is_no_name_when_a_sentence_goes_on(text: str) -> None:
    assert extract(text).items == []


@pytest.mark.parametrize(
    ("fact", "question", "language", "says"),
    [
        ("Hey, I'm Tomasz, nice to meet you.", "Sorry, what's my name?", "en", "told me you're Tomasz"),
        ("Call me Sam.", "Do you remember what to call me?", "en", "Yes, you told me to call you Sam."),
        ("We just moved to Porto.", "Which city do we live in now? Remind me.", "en", "moved to Porto"),
        ("叫我阿杰就行。", "你记得该怎么称呼我吗？", "zh", "叫你阿杰"),
        ("我老家在山东青岛。", "我老家在哪儿？", "zh", "你老家在山东青岛"),
    ],
)  # fmt: skip
def test_name_and_place_questions_are_answered_from_memory(
    fact: str, question: str, language: str, says: str
) -> None:
    answer = answer_from_memory(question, [_record("What's two plus two?"), _record(fact, 1)], language)
    assert answer is not None and says in answer.text


def test_an_advice_question_is_still_no_recall_question() -> None:
    assert is_recall_question("你记得该怎么称呼我吗？")
    assert not is_recall_question("怎么做番茄炒蛋？") and not is_recall_question(
        "What should I cook tonight?"
    )


def test_preferences_are_told_from_dislikes_and_questions() -> None:
    for liked in (
        "My favourite author is Haruki Murakami.",
        "I'm a big fan of thrillers.",
        "我特别爱看悬疑小说。",
    ):
        assert PREFERENCE.search(liked), liked
    for other in ("I don't like olives.", "Do you like jazz?", "我不喜欢香菜。", "I live in Lyon."):
        assert not PREFERENCE.search(other), other


def test_what_the_person_likes_is_restated_for_a_recommendation_only() -> None:
    author = _record("My favourite author is Haruki Murakami.", 1)
    city = _record("I live in Lyon.", 2)
    pinned = [author, city]
    assert turn_reminders(pinned, [], ConstraintSet(), "Can you recommend something to read?") == [
        author.text
    ]
    assert turn_reminders(pinned, [], ConstraintSet(), "What is the capital of Peru?") == []
    singer = _record("我最喜欢的歌手是周杰伦。")
    assert turn_reminders([singer], [], ConstraintSet(), "推荐一首歌给我听吧。") == [singer.text]


def test_said_back_in_chinese_swaps_both_persons() -> None:
    from voice_agent.conversation.recall_answer import said_back

    assert said_back("叫我阿杰就行，你记住。", "zh") == "你告诉过我，叫你阿杰就行，我记住。"
    assert said_back("我住在杭州。", "zh") == "你告诉过我，你住在杭州。"
