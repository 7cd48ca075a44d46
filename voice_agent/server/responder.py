"""One client's ``Responder``: the per-client turn limit in front of the conversation engine. (The voice
session releases the reply sentence by sentence through the reply guard: loopback check, owner hints.)"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from typing import Any, cast

from voice_agent.clock import Clock
from voice_agent.conversation.engine import ConversationEngine
from voice_agent.metrics.trace import TurnTrace

Intercept = Callable[[str], Awaitable[str | None]]
RATE_LIMIT_NOTICE = "You're going a little fast for me. Please wait a moment, then ask again."


class TurnLimiter:
    """At most ``per_minute`` turns in any sliding minute."""

    def __init__(self, per_minute: int, clock: Clock) -> None:
        if per_minute < 1:
            raise ValueError("per_minute must be >= 1")
        self.per_minute = per_minute
        self._clock = clock
        self._times: deque[int] = deque()

    def allow(self) -> bool:
        now = self._clock.now_ns()
        while self._times and now - self._times[0] >= 60_000_000_000:
            self._times.popleft()
        if len(self._times) >= self.per_minute:
            return False
        self._times.append(now)
        return True


class KioskResponder:
    def __init__(
        self,
        engine: ConversationEngine,
        limiter: TurnLimiter,
        *,
        on_limited: Callable[[], None] | None = None,
        intercept: Intercept | None = None,
    ) -> None:
        self.engine = engine
        self.limiter = limiter
        self.on_limited = on_limited
        self.intercept = intercept
        self._limited: set[str] = set()  # turns answered here that leave no trace in memory or turn log
        self.scheduler = engine.scheduler  # the speech loops share the engine's critical-path scheduler

    def speculate(self, conversation_id: str, confirmed_text: str) -> bool:
        """Work before the endpoint, only where no intercept may claim the turn: words it answers
        itself (a PIN said aloud) must never reach memory or the LLM, not even speculatively."""
        if self.intercept is not None:
            return False
        return self.engine.speculate(conversation_id, confirmed_text)

    async def respond(self, conversation_id: str, user_text: str, trace: TurnTrace) -> AsyncIterator[str]:
        answer = None if self.intercept is None else await self.intercept(user_text)
        if answer is not None:  # e.g. a PIN said aloud: answered here, never stored nor sent to the LLM
            trace.attrs["private"] = True
            self._limited.add(trace.turn_id)
            yield answer
            return
        if not self.limiter.allow():
            trace.attrs["rate_limited"] = True
            self._limited.add(trace.turn_id)
            if self.on_limited is not None:
                self.on_limited()
            yield RATE_LIMIT_NOTICE
            return
        reply = _gen(self.engine.respond(conversation_id, user_text, trace))
        async with contextlib.aclosing(reply) as deltas:
            async for delta in deltas:
                yield delta

    async def commit(self, conversation_id: str, user_text: str, spoken_reply: str, trace: TurnTrace) -> None:
        if trace.turn_id in self._limited:  # refused or private: nothing of it is kept
            self._limited.discard(trace.turn_id)
            return
        await self.engine.commit(conversation_id, user_text, spoken_reply, trace)


def _gen(stream: AsyncIterator[Any]) -> AsyncGenerator[Any, None]:
    """The engine's reply is an async generator: closed at once on barge-in, which stops the LLM stream."""
    return cast(AsyncGenerator[Any, None], stream)
