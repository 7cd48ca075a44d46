"""The turn log persists the recent window across restarts and slides in blocks."""

from __future__ import annotations

from pathlib import Path

import pytest

from voice_agent.conversation.condense import condense_turns
from voice_agent.conversation.turns import TurnLog
from voice_agent.errors import TenantRequiredError


async def test_window_survives_reopen_and_is_per_conversation(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite3"
    log = TurnLog(path)
    await log.open()
    await log.append("alice", "t1", "user", "hello")
    await log.append("alice", "t1", "assistant", "hi alice")
    await log.append("bob", "t2", "user", "bob here")
    await log.close()

    reopened = TurnLog(path)
    await reopened.open()
    alice = await reopened.window("alice")
    assert [(t.seq, t.role, t.text) for t in alice] == [(0, "user", "hello"), (1, "assistant", "hi alice")]
    assert [t.text for t in await reopened.window("bob")] == ["bob here"]
    await reopened.advance_window("alice", 1)
    await reopened.advance_window("alice", 0)  # never moves back
    assert [t.text for t in await reopened.window("alice")] == ["hi alice"]
    assert await reopened.forget("alice") == 2
    assert await reopened.window("alice") == []
    await reopened.close()


async def test_a_turn_without_a_conversation_is_refused(tmp_path: Path) -> None:
    log = TurnLog(tmp_path / "m.sqlite3")
    await log.open()
    with pytest.raises(TenantRequiredError):
        await log.append("", "t", "user", "x")
    with pytest.raises(TenantRequiredError):
        await log.window("  ")
    await log.close()


def test_condensed_summary_keeps_user_words_and_shortens_replies() -> None:
    class T:
        def __init__(self, role: str, text: str) -> None:
            self.role, self.text, self.created_at = role, text, 1_700_000_000.0

    summary = condense_turns(
        [T("user", "We are planning a trip to Lisbon in May."), T("assistant", "word " * 40)]
    )
    assert summary.startswith(
        "Earlier conversation (2023-11-14): User: We are planning a trip to Lisbon in May."
    )
    assert "Assistant: word word" in summary and summary.endswith("…")
    assert condense_turns([]) == ""
    # An exchange where the person only asked or ordered tells nothing about them: left out with its answer.
    quiz = [T("user", "How far away is the sun?"), T("assistant", "About 150 million kilometres."),
            T("user", "Name a famous painter."), T("assistant", "Frida Kahlo.")]  # fmt: skip
    told = [T("user", "Olives. Can't do them, they're vile."), T("assistant", "Got it.")]
    summary = condense_turns([*quiz[:2], *told, *quiz[2:]])
    assert (
        "Olives" in summary and "sun" not in summary and "Kahlo" not in summary and "painter" not in summary
    )
    assert condense_turns(quiz) == ""


def test_a_logged_user_message_keeps_the_persons_words_apart_from_prompt_additions() -> None:
    from voice_agent.conversation.turns import LoggedTurn, said_words

    sent = "(today is 2026-11-30)\n<memory>\nEarlier:\nuser: a | b\n</memory>\n\nWhat cake?"
    assert said_words(sent) == "What cake?"
    assert LoggedTurn(0, "t", "user", sent, 0.0).words == "What cake?"
    assert LoggedTurn(1, "t", "assistant", "(today is x)\nhi", 0.0).words == "(today is x)\nhi"
