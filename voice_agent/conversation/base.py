"""The contract between the speech loop and the conversation engine (the text path of a turn)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Protocol

from voice_agent.metrics.trace import TurnTrace


class Responder(Protocol):
    """Answers one user turn as a stream of text deltas; learns what was actually spoken afterwards.

    The speech loop calls ``respond`` with the final transcript, splits the stream into sentences, runs
    the loopback check and TTS, and — when the turn ends or is cut by barge-in — calls ``commit`` with
    the reply text the person actually heard, which is what enters the history.
    """

    def respond(self, conversation_id: str, user_text: str, trace: TurnTrace) -> AsyncIterator[str]: ...

    async def commit(
        self, conversation_id: str, user_text: str, spoken_reply: str, trace: TurnTrace
    ) -> None: ...
