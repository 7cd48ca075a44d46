"""Speech synthesis: text in, ``SpeechChunk``s (int16 mono) out, streamed."""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Protocol, TypeVar, runtime_checkable

from voice_agent.frames import SpeechChunk
from voice_agent.text.cjk import HAN, char_class

T = TypeVar("T")
_CJK = re.compile(char_class(HAN))


@runtime_checkable
class SpeechSynthesizer(Protocol):
    name: str
    sample_rate_hz: int

    async def start(self) -> None:
        """Load the voice (explicitly; nothing loads at import or construction)."""
        ...

    def synthesize(
        self, text: str, *, language: str | None = None, sentence_index: int = 0
    ) -> AsyncIterator[SpeechChunk]:
        """Audio for ``text``, in one or more chunks (each tagged with ``sentence_index`` and ``text``)."""
        ...

    async def close(self) -> None: ...


def guess_language(text: str) -> str:
    """The language to speak ``text`` in, from its script: "zh" for Chinese characters, else "en"."""
    return "zh" if _CJK.search(text) else "en"


async def iterate_in_thread(make_iterator: Callable[[], Iterator[T]]) -> AsyncIterator[T]:
    """Run a blocking iterator in a worker thread and yield its items on the event loop as they come.
    If the consumer stops early (or is cancelled), the worker stops after its current item."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[str, object]] = asyncio.Queue()
    stop = threading.Event()

    def worker() -> None:
        try:
            for item in make_iterator():
                if stop.is_set():
                    return
                loop.call_soon_threadsafe(queue.put_nowait, ("item", item))
        except BaseException as err:  # handed to the consumer below
            loop.call_soon_threadsafe(queue.put_nowait, ("error", err))
        finally:
            loop.call_soon_threadsafe(queue.put_nowait, ("done", None))

    thread = threading.Thread(target=worker, name="tts-worker", daemon=True)
    thread.start()
    try:
        while True:
            kind, value = await queue.get()
            if kind == "done":
                return
            if kind == "error":
                assert isinstance(value, BaseException)
                raise value
            yield value  # type: ignore[misc]
    finally:
        stop.set()
