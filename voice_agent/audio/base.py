"""The audio edge: where sound comes from and where it goes.

A source is an async iterator of mono float32 ``AudioFrame``s at ``sample_rate_hz``; microphones and files
implement the same protocol, so file mode runs the same code as live mode. A sink plays ``SpeechChunk``s
and, when stopped or drained, reports how much of each chunk was actually played: that is what the
session keeps in the history after a barge-in.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from voice_agent.frames import AudioFrame, SpeechChunk


@runtime_checkable
class AudioSource(Protocol):
    """Mono float32 audio frames, in order. ``is_live``: frames keep coming while we are busy (a mic,
    a file paced in real time); a non-live source waits for the consumer (a file read as fast as
    possible)."""

    sample_rate_hz: int
    is_live: bool

    def __aiter__(self) -> AsyncIterator[AudioFrame]: ...

    async def close(self) -> None: ...


@dataclass(frozen=True)
class PlayedChunk:
    """How much of one written chunk reached the listener's ears."""

    sentence_index: int
    text: str
    samples_total: int  # at the chunk's own rate
    samples_played: int
    sample_rate_hz: int
    started_ns: int | None = None  # when its first sample went out (None: never started)

    @property
    def fraction_played(self) -> float:
        return 1.0 if self.samples_total == 0 else min(1.0, self.samples_played / self.samples_total)


@dataclass(frozen=True)
class PlaybackReport:
    """What happened to the chunks written since the last ``stop``/``drain``."""

    chunks: tuple[PlayedChunk, ...] = ()
    stopped_ns: int | None = None  # set when playback was cut by ``stop``

    @property
    def samples_played(self) -> int:
        return sum(c.samples_played for c in self.chunks)

    @property
    def ms_played(self) -> float:
        return sum(1000.0 * c.samples_played / c.sample_rate_hz for c in self.chunks)

    @property
    def first_audio_ns(self) -> int | None:
        starts = [c.started_ns for c in self.chunks if c.started_ns is not None]
        return min(starts) if starts else None

    @property
    def interrupted(self) -> bool:
        return self.stopped_ns is not None and any(c.fraction_played < 1.0 for c in self.chunks)


@runtime_checkable
class AudioSink(Protocol):
    """Plays speech. ``write`` queues a chunk and returns at once (playback goes on in the background),
    so the next sentence can be synthesised while this one plays."""

    sample_rate_hz: int

    async def write(self, chunk: SpeechChunk) -> None: ...

    async def stop(self) -> PlaybackReport:
        """Cut playback now (audible within 100 ms) and report what was played."""
        ...

    async def drain(self) -> PlaybackReport:
        """Wait until everything written has been played, then report it."""
        ...

    async def close(self) -> None: ...
