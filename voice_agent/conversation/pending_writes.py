"""Memory writes in flight, per conversation: each on its own task, never cancelled.

A write starts once the critical path is clear (the critical-path scheduler defers it until the reply's
first audio); the next turn of the same conversation expedites it and waits for it, so what was said
lands before the next turn reads. ``asyncio.wait`` never cancels what it waits for: not when the wait
times out, and not when the waiter itself is cancelled (a barge-in cancelling a reply, shutdown
cancelling a prefill). A failed write is logged, never raised into a reply.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

from voice_agent.scheduling import CriticalPathScheduler

log = logging.getLogger(__name__)


class PendingWrites:
    """The writes in flight, grouped by conversation id (the scheduler's group for them too)."""

    def __init__(self, scheduler: CriticalPathScheduler) -> None:
        self.scheduler = scheduler
        self._groups: dict[str, set[asyncio.Task[None]]] = {}

    def spawn(
        self, conversation_id: str, write: Coroutine[Any, Any, Any], *, name: str = "memory.write"
    ) -> None:
        """Run ``write`` on its own task once the critical path is clear."""

        async def guarded() -> None:
            try:
                async with self.scheduler.background(name, group=conversation_id):
                    await write
            except Exception:  # a failed write is logged, never raised into the reply
                log.exception("memory write failed for conversation %s", conversation_id)

        task = asyncio.get_running_loop().create_task(guarded())
        group = self._groups.setdefault(conversation_id, set())
        group.add(task)

        def done(finished: asyncio.Task[None]) -> None:
            group.discard(finished)
            if not group and self._groups.get(conversation_id) is group:
                del self._groups[conversation_id]  # a kiosk sees endless conversations

        task.add_done_callback(done)

    async def wait(
        self, conversation_id: str, *, limit_s: float | None = None, expedite: bool = True
    ) -> None:
        """Wait for the conversation's writes in flight (at most ``limit_s`` seconds; they go on after).
        ``expedite``: a write still deferred by the scheduler starts now (a turn is about to read)."""
        tasks = list(self._groups.get(conversation_id, ()))
        if not tasks:
            return
        if expedite:
            self.scheduler.expedite(conversation_id)
        await asyncio.wait(tasks, timeout=limit_s)

    async def drain(self) -> None:
        """Shutdown: every deferred write goes now, and all of them land."""
        for conversation_id in list(self._groups):
            self.scheduler.expedite(conversation_id)
        tasks = [task for group in self._groups.values() for task in group]
        if tasks:
            await asyncio.wait(tasks)
