"""What the conversation engine needs from memory and from the LLM, as small Protocols."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any, Protocol

from voice_agent.memory.records import Kind, MemoryRecord
from voice_agent.memory.writes import WriteRequest


class RecallLike(Protocol):
    @property
    def records(self) -> Sequence[MemoryRecord]: ...

    @property
    def tokens_used(self) -> int: ...

    def info(self) -> dict[str, Any]: ...


class MemoryPort(Protocol):
    async def scrub(self, conversation_id: str, text: str) -> str: ...

    async def remember(self, request: WriteRequest) -> list[MemoryRecord]: ...

    async def remember_item(
        self,
        conversation_id: str,
        kind: Kind,
        text: str,
        *,
        source: str,
        importance: float,
        user_id: str | None = None,
    ) -> MemoryRecord: ...

    async def pinned(self, conversation_id: str) -> list[MemoryRecord]: ...

    async def refill_names(self, conversation_id: str, text: str) -> str: ...

    async def recall(self, conversation_id: str, query: str, *, budget_tokens: int) -> RecallLike: ...

    async def forget(self, conversation_id: str, *, query: str) -> int: ...

    async def mark_superseded(self, conversation_id: str, old_id: str, new_id: str) -> None: ...


class StatsLike(Protocol):
    def to_json(self) -> dict[str, Any]: ...


class LlmPort(Protocol):
    def stream(
        self, messages: list[dict[str, str]], *, max_tokens: int, temperature: float
    ) -> AsyncIterator[str]: ...

    @property
    def last_stats(self) -> StatsLike | None: ...


class RatePort(Protocol):
    def tokens_per_ms(self) -> float: ...
