"""The LLM stage's contract: a chat backend streams text deltas; every call leaves its statistics.

All backends speak the OpenAI chat-completions protocol through the ``openai`` client (see
``openai_backend.py``); the router (``router.py``) orders them, retries, falls back and keeps a circuit
breaker per backend.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

Message = dict[str, str]


@dataclass
class TokenUsage:
    """What the server reported about one request (fields it did not report stay ``None``)."""

    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cached_tokens: int | None = None
    first_token_limit_s: float | None = None  # the limit this request had (grown with the queue)
    busy_extensions: int = 0  # times the limit was extended because the server was still working


@runtime_checkable
class ChatStream(Protocol):
    """An async iterator of text deltas; ``usage`` is filled once the server reports it (often at the end)."""

    usage: TokenUsage

    def __aiter__(self) -> AsyncIterator[str]: ...

    async def __anext__(self) -> str: ...


class GeneratorStream:
    """An async iterator over text deltas made by an async generator, closable before its end."""

    def __init__(self, gen: AsyncGenerator[str, None]) -> None:
        self._gen = gen

    def __aiter__(self) -> AsyncIterator[str]:
        return self

    async def __anext__(self) -> str:
        return await self._gen.__anext__()

    async def aclose(self) -> None:
        await self._gen.aclose()


@runtime_checkable
class ChatBackend(Protocol):
    """One OpenAI-compatible chat endpoint."""

    name: str

    def stream(self, messages: list[Message], *, max_tokens: int, temperature: float) -> ChatStream:
        """Stream the reply as text deltas. Failures raise ``voice_agent.errors.BackendError``."""
        ...

    def count_tokens(self, text: str) -> int | None:
        """Tokens of ``text`` by this backend's own tokenizer, or ``None`` when it has none at hand."""
        ...

    async def aclose(self) -> None:
        """Release connections (and a server this backend owns)."""
        ...


@dataclass
class LlmCallStats:
    """One routed LLM call, as the trace and the prompt-rate estimator see it."""

    backend: str = ""
    prompt_tokens: int | None = None
    prompt_tokens_estimated: bool = False  # True: counted here, the server did not report it
    cached_tokens: int | None = None
    cached_tokens_estimated: bool = False  # True: inferred from the prefix shared with the last call
    first_token_ms: float | None = None
    total_ms: float = 0.0
    completion_tokens: int | None = None
    fallbacks: list[str] = field(default_factory=list)  # backends tried (and failed) before ``backend``
    errors: list[str] = field(default_factory=list)
    attempts: int = 0
    completed: bool = False
    queued_ahead: int = 0  # requests already in flight at the backend that answered, when this one started
    first_token_limit_s: float | None = None
    busy_extensions: int = 0

    @property
    def new_prompt_tokens(self) -> int | None:
        """Prompt tokens the server actually had to read (prompt minus the reused prefix)."""
        if self.prompt_tokens is None:
            return None
        return max(0, self.prompt_tokens - (self.cached_tokens or 0))

    @property
    def decode_tokens_per_s(self) -> float | None:
        """Generation speed after the first token (``None`` when too little was generated to tell)."""
        if self.first_token_ms is None or not self.completion_tokens or self.completion_tokens < 2:
            return None
        decode_ms = self.total_ms - self.first_token_ms
        if decode_ms <= 0:
            return None
        return (self.completion_tokens - 1) / (decode_ms / 1000.0)

    def to_json(self) -> dict[str, Any]:
        return {
            "backend": self.backend,
            "prompt_tokens": self.prompt_tokens,
            "prompt_tokens_estimated": self.prompt_tokens_estimated,
            "cached_tokens": self.cached_tokens,
            "cached_tokens_estimated": self.cached_tokens_estimated,
            "first_token_ms": None if self.first_token_ms is None else round(self.first_token_ms, 2),
            "total_ms": round(self.total_ms, 2),
            "completion_tokens": self.completion_tokens,
            "decode_tokens_per_s": (
                None if self.decode_tokens_per_s is None else round(self.decode_tokens_per_s, 1)
            ),
            "fallbacks": list(self.fallbacks),
            "errors": list(self.errors),
            "attempts": self.attempts,
            "completed": self.completed,
            "queued_ahead": self.queued_ahead,
            "first_token_limit_s": self.first_token_limit_s,
            "busy_extensions": self.busy_extensions,
        }
