"""Memory writes in flight: deferred while a critical path is open, expedited by the next turn, never
cancelled by a waiter that gives up or is itself cancelled, and all landed at shutdown."""

from __future__ import annotations

import asyncio
import logging

import pytest

from voice_agent.conversation.pending_writes import PendingWrites
from voice_agent.scheduling import CriticalPathScheduler


async def _write(landed: list[str], what: str, gate: asyncio.Event | None = None) -> None:
    if gate is not None:
        await gate.wait()
    landed.append(what)


async def test_a_deferred_write_waits_for_the_first_audio_and_the_next_turn_expedites_it() -> None:
    scheduler = CriticalPathScheduler(max_deferral_s=60)
    writes = PendingWrites(scheduler)
    landed: list[str] = []
    scheduler.hold("turn-1")
    writes.spawn("c", _write(landed, "turn 1"))
    await asyncio.sleep(0.05)
    assert landed == []  # deferred: the reply's critical path is open
    await writes.wait("c", limit_s=5)  # the next turn: the write goes now, and lands before it reads
    assert landed == ["turn 1"]
    scheduler.release("turn-1")


async def test_a_waiter_that_gives_up_or_is_cancelled_never_cancels_the_write() -> None:
    writes = PendingWrites(CriticalPathScheduler())
    landed: list[str] = []
    gate = asyncio.Event()
    writes.spawn("c", _write(landed, "slow", gate))
    await writes.wait("c", limit_s=0.01)  # gave up
    waiter = asyncio.create_task(writes.wait("c"))
    await asyncio.sleep(0.01)
    waiter.cancel()  # a barge-in cancels the reply that waited
    with pytest.raises(asyncio.CancelledError):
        await waiter
    gate.set()
    await writes.wait("c")
    assert landed == ["slow"]


async def test_a_failed_write_is_logged_and_shutdown_lands_the_others(
    caplog: pytest.LogCaptureFixture,
) -> None:
    scheduler = CriticalPathScheduler(max_deferral_s=60)
    writes = PendingWrites(scheduler)
    landed: list[str] = []

    async def broken() -> None:
        raise RuntimeError("disk full")

    scheduler.hold("turn-1")  # never released: shutdown must not wait for it
    writes.spawn("a", broken())
    writes.spawn("a", _write(landed, "a"))
    writes.spawn("b", _write(landed, "b"), name="memory.write_reply")
    with caplog.at_level(logging.ERROR):
        await asyncio.wait_for(writes.drain(), timeout=10)
    assert sorted(landed) == ["a", "b"]
    assert "memory write failed for conversation a" in caplog.text
    await writes.wait("a")  # nothing left in flight
