"""What the person asked to forget leaves the recent window as well as the memory."""

from __future__ import annotations

from pathlib import Path

from voice_agent.conversation.forget_turns import (
    FORGOTTEN,
    forget_confirmation,
    forget_in_turns,
    says,
    without,
)
from voice_agent.conversation.turns import TurnLog

QUERY = "my kid is allergic to peanuts"


def test_each_sentence_that_says_it_is_replaced_and_the_rest_kept() -> None:
    read = (
        "<memory>\nuser: remember my kid is allergic to peanuts\nuser: I live in Leeds.\n</memory>\n\n"
        "What snack should I bring? I like cake."
    )
    assert without(read, QUERY) == (
        f"<memory>\n{FORGOTTEN}\nuser: I live in Leeds.\n</memory>\n\nWhat snack should I bring? I like cake."
    )
    reply = "Got it, I'll remember that your kid is allergic to peanuts. Anything else?"
    assert without(reply, QUERY) == f"{FORGOTTEN} Anything else?"
    assert without("我家孩子对花生过敏。推荐零食。", "我家孩子对花生过敏") == f"{FORGOTTEN}推荐零食。"


def test_a_sentence_must_say_all_of_it_not_share_a_word() -> None:
    assert says("Your kid is allergic to peanuts, especially.", QUERY)
    assert not says("My kid loves peanuts.", QUERY)  # 2 of its 3 content words
    assert not says("I'm allergic to cats.", QUERY)
    # With four or more content words, all but one: the sentence may say it in other words.
    assert says("My son Leo has a nut allergy and turns six on Saturday.", "my son Leo turns six on Saturday")
    assert not says("anything", "")


def test_the_confirmation_is_in_the_persons_language() -> None:
    assert forget_confirmation("Forget that I live in Leeds.") == "Okay, I've forgotten that."
    assert forget_confirmation("忘掉我住在杭州这件事。") == "好的，这件事我已经忘掉了。"


async def test_turns_already_condensed_lose_it_too(tmp_path: Path) -> None:
    """Out of the window the LLM reads, and out of the turns kept on disk before it."""
    log = TurnLog(tmp_path / "turns.sqlite3")
    await log.open()
    try:
        await log.append("c", "t1", "user", "Remember my kid is allergic to peanuts.")
        await log.append(
            "c", "t1", "assistant", "Got it, I'll remember that your kid is allergic to peanuts."
        )
        await log.append("c", "t2", "user", "What's the capital of France?")
        await log.advance_window("c", 2)  # the first exchange was condensed
        await log.append("c", "t3", "user", "Forget that my kid is allergic to peanuts.")
        await log.append("c", "t4", "user", "Remember my kid is allergic to peanuts.", interrupted=False)
        await log.append("other", "t9", "user", "My kid is allergic to peanuts.")
        changed = await forget_in_turns(log, "c", QUERY)
        texts = [t.text for t in await log.every_turn("c")]
        others = [t.text for t in await log.every_turn("other")]
    finally:
        await log.close()
    assert changed == 4
    assert texts == [FORGOTTEN, FORGOTTEN, "What's the capital of France?", FORGOTTEN, FORGOTTEN]
    assert others == ["My kid is allergic to peanuts."]  # another conversation's log is untouched
