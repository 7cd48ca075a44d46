"""A turn prepared at a pause, before the endpoint confirmed it, and when ``respond`` may reuse it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from voice_agent.conversation.ports import RecallLike
from voice_agent.memory.records import MemoryRecord
from voice_agent.prompt import BuiltPrompt, Turn

PREPARED_TTL_NS = 30 * 1_000_000_000  # older than this, the person moved on: build the turn afresh

PinnedKey = tuple[tuple[str, str, str], ...]


def pinned_key(pinned: Sequence[MemoryRecord]) -> PinnedKey:
    """What of the pinned records shows in a prompt (a changed text or status changes the prompt)."""
    return tuple((r.id, r.text, r.status) for r in pinned)


@dataclass(frozen=True)
class PreparedTurn:
    """The prompt built (and already read by the local LLM) for the transcript decoded at a pause."""

    scrubbed: str
    pinned: PinnedKey
    window: list[Turn]
    budget: int
    recalled: RecallLike
    prompt: BuiltPrompt
    created_ns: int

    def matches(self, scrubbed: str, pinned: Sequence[MemoryRecord], window: list[Turn], now_ns: int) -> bool:
        """The confirmed turn is the one prepared, on the same pinned layer and window, and recently."""
        return (
            scrubbed == self.scrubbed
            and now_ns - self.created_ns <= PREPARED_TTL_NS
            and pinned_key(pinned) == self.pinned
            and window == self.window
        )
