"""The LLM at its edge for reply-check tests: each call streams the next scripted reply in small deltas
and records the messages it was sent."""

from __future__ import annotations

from collections.abc import AsyncIterator


def deltas(text: str, size: int = 3) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


class ScriptedLlm:
    """Each call streams the next scripted reply; it records the messages it was sent."""

    def __init__(self, *replies: str, delta_chars: int = 3) -> None:
        self.replies = list(replies)
        self.delta_chars = delta_chars
        self.calls: list[list[dict[str, str]]] = []
        self.consumed = 0  # deltas handed out so far, over all calls

    def __call__(self, messages: list[dict[str, str]]) -> AsyncIterator[str]:
        self.calls.append(messages)
        return self._stream(self.replies.pop(0))

    async def _stream(self, reply: str) -> AsyncIterator[str]:
        for delta in deltas(reply, self.delta_chars):
            self.consumed += 1
            yield delta
