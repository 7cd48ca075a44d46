"""Small asyncio helpers shared by the LLM streams, the audio sinks, the kiosk runtime and the turn
detector."""

from __future__ import annotations

import asyncio
from typing import Any


async def cancel_and_wait(task: asyncio.Future[Any] | None) -> None:
    """Cancel ``task`` (if it is still running) and return only once it has finished unwinding.

    When the caller itself is cancelled meanwhile, the wait goes on until ``task`` is done and the
    caller's cancellation is raised after it: what the caller does next (closing the stream ``task`` was
    reading) must never run while ``task`` still runs, and the caller's cancellation is never swallowed.
    An error ``task`` ends with is retrieved, not raised: it belongs to the work that was cancelled."""
    if task is None or task.done():
        return
    task.cancel()
    interrupted = False
    while not task.done():
        try:
            await asyncio.wait({task})
        except asyncio.CancelledError:
            interrupted = True
    if not task.cancelled():
        task.exception()
    if interrupted:
        raise asyncio.CancelledError
