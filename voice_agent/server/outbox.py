"""Everything sent to one client goes through its outbox: one writer task, a bounded queue.

Sends from the session, the audio pacer and the control handler never interleave or block each other;
a client that stops reading fills its queue and is disconnected (``broken`` is set) instead of holding
memory or stalling the server.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from voice_agent.server.protocol import dumps

MAX_QUEUED = 1024  # messages; audio blocks are 40 ms, so this is far more than any healthy backlog


class Outbox:
    def __init__(self, *, max_queued: int = MAX_QUEUED) -> None:
        self._queue: asyncio.Queue[tuple[str, str | bytes] | None] = asyncio.Queue(maxsize=max_queued)
        self.broken = asyncio.Event()
        self.reason: str | None = None
        self.sent_bytes = 0
        self.sent_messages = 0

    def event(self, data: dict[str, Any]) -> None:
        self._put(("text", dumps(data)))

    def audio(self, pcm: bytes) -> None:
        self._put(("bytes", pcm))

    def _put(self, item: tuple[str, str | bytes]) -> None:
        if self.broken.is_set():
            return
        try:
            self._queue.put_nowait(item)
        except asyncio.QueueFull:
            self.fail("slow_consumer")

    def fail(self, reason: str) -> None:
        if not self.broken.is_set():
            self.reason = reason
            self.broken.set()

    async def run(
        self, send_text: Callable[[str], Awaitable[None]], send_bytes: Callable[[bytes], Awaitable[None]]
    ) -> None:
        """The writer: until ``close`` (after which what is queued is still sent) or a send fails."""
        while (item := await self._queue.get()) is not None:
            kind, payload = item
            try:
                if kind == "text":
                    assert isinstance(payload, str)
                    await send_text(payload)
                else:
                    assert isinstance(payload, bytes)
                    await send_bytes(payload)
            except Exception:  # the socket is gone; the connection handler ends the client
                self.fail("send_failed")
                return
            self.sent_messages += 1
            self.sent_bytes += len(payload)

    def close(self) -> None:
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(None)
