"""Cancelled reads end before the stream they read is closed: cancel_and_wait, the LLM stream's wait
budget and the holding phrase, however often the reader is cancelled meanwhile."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from voice_agent.aio import cancel_and_wait
from voice_agent.conversation.holding import hold_if_late
from voice_agent.llm.openai_backend import _WaitBudget


async def _slow_to_unwind(log: list[str], unwind_s: float = 0.05) -> None:
    try:
        await asyncio.sleep(3600)
    except asyncio.CancelledError:
        await asyncio.sleep(unwind_s)  # a read that takes a moment to give up (a socket being shut)
        log.append("unwound")
        raise


def test_the_task_has_ended_when_it_returns() -> None:
    async def main() -> None:
        log: list[str] = []
        task = asyncio.ensure_future(_slow_to_unwind(log))
        await asyncio.sleep(0)
        await cancel_and_wait(task)
        assert log == ["unwound"] and task.cancelled()
        await cancel_and_wait(task)  # done already: nothing happens
        await cancel_and_wait(None)

    asyncio.run(main())


async def _unwind_through_cancels(seconds: float) -> None:
    """Takes ``seconds`` to give up, whatever cancels it meanwhile."""
    deadline = asyncio.get_running_loop().time() + seconds
    while asyncio.get_running_loop().time() < deadline:
        try:
            await asyncio.sleep(0.005)
        except asyncio.CancelledError:
            continue


async def _chunks(started: asyncio.Event) -> AsyncIterator[str]:
    """An LLM stream whose next chunk never comes, and whose read takes a moment to give up."""
    yield "Hello"
    started.set()
    try:
        await asyncio.sleep(3600)
    except asyncio.CancelledError:
        await _unwind_through_cancels(0.05)
        raise
    yield "never"


def test_a_reply_stream_cancelled_twice_closes_cleanly() -> None:
    """The engine cancels a reply (barge-in) while the backend waits for the next chunk, and cancels it
    again while that read unwinds: the stream is closed after the read ended, not under it (httpx's
    "async generator already executing")."""

    async def main() -> None:
        started = asyncio.Event()
        stream = _chunks(started)
        budget = _WaitBudget(first_token_s=60.0, total_s=60.0)
        errors: list[BaseException] = []

        async def read_all() -> None:
            chunks = stream.__aiter__()
            try:
                while True:
                    await budget.run(chunks.__anext__(), first=False)
            finally:
                try:
                    await stream.aclose()
                except RuntimeError as err:  # "aclose(): asynchronous generator is already running"
                    errors.append(err)

        reader = asyncio.ensure_future(read_all())
        await started.wait()
        await asyncio.sleep(0.01)
        reader.cancel()
        await asyncio.sleep(0.01)
        reader.cancel()
        with pytest.raises(asyncio.CancelledError):
            await reader
        assert errors == []
        assert budget.waited_s > 0

    asyncio.run(main())


def test_the_holding_phrase_stream_closes_after_its_first_read_ended() -> None:
    async def main() -> None:
        log: list[str] = []

        async def late_first_token() -> AsyncIterator[str]:
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                await _unwind_through_cancels(0.05)
                log.append("read ended")
                raise
            yield "never"

        deltas = hold_if_late(late_first_token(), after_s=0.01, phrase="One moment.", on_hold=lambda: None)
        said: list[str] = []

        async def speak() -> None:
            async for delta in deltas:
                said.append(str(delta))

        speaker = asyncio.ensure_future(speak())
        await asyncio.sleep(0.05)
        speaker.cancel()  # barge-in while the first token is still awaited
        await asyncio.sleep(0.01)
        speaker.cancel()
        with pytest.raises(asyncio.CancelledError):
            await speaker
        await deltas.aclose()  # type: ignore[attr-defined]
        assert said == ["One moment. "]
        assert log == ["read ended"]

    asyncio.run(main())
