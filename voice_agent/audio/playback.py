"""The playback queue shared by the sinks: chunks in, fixed-size blocks out, with per-chunk accounting.

A device callback (PortAudio thread) or a pacing task pulls blocks; ``cut`` empties the queue at once
and reports, per chunk, how many samples were played. Thread-safe.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

from voice_agent.audio.base import PlaybackReport, PlayedChunk
from voice_agent.audio.resample import int16_to_float32, resample
from voice_agent.clock import Clock
from voice_agent.frames import PcmFloat32, SpeechChunk


@dataclass
class _Entry:
    chunk: SpeechChunk
    samples: PcmFloat32  # at the queue's rate
    pos: int = 0
    started_ns: int | None = None


class PlaybackQueue:
    def __init__(self, sample_rate_hz: int, clock: Clock) -> None:
        self.sample_rate_hz = sample_rate_hz
        self._clock = clock
        self._entries: list[_Entry] = []
        self._lock = threading.Lock()
        self._done = threading.Condition(self._lock)

    def prepare(self, chunk: SpeechChunk) -> PcmFloat32:
        """The chunk's samples at the queue's rate (a few ms of work: may run in a worker thread)."""
        return resample(int16_to_float32(chunk.pcm.reshape(-1)), chunk.sample_rate_hz, self.sample_rate_hz)

    def add(self, chunk: SpeechChunk, samples: PcmFloat32 | None = None) -> None:
        samples = self.prepare(chunk) if samples is None else samples
        with self._lock:
            self._entries.append(_Entry(chunk, samples))

    def pull(self, n: int) -> tuple[PcmFloat32, int]:
        """The next ``n`` samples (zero-padded) and how many of them are real audio."""
        out = np.zeros(n, dtype=np.float32)
        filled = 0
        with self._lock:
            for entry in self._entries:
                if filled >= n:
                    break
                left = len(entry.samples) - entry.pos
                if left <= 0:
                    continue
                if entry.started_ns is None:
                    entry.started_ns = self._clock.now_ns()
                take = min(left, n - filled)
                out[filled : filled + take] = entry.samples[entry.pos : entry.pos + take]
                entry.pos += take
                filled += take
            if self._pending_locked() == 0:
                self._done.notify_all()
        return out, filled

    def pending_samples(self) -> int:
        with self._lock:
            return self._pending_locked()

    def _pending_locked(self) -> int:
        return sum(len(e.samples) - e.pos for e in self._entries)

    def has_entries(self) -> bool:
        with self._lock:
            return bool(self._entries)

    def cut(self, *, unplayed_samples: int = 0, stopped: bool = True) -> PlaybackReport:
        """Drop what was not pulled yet and report. ``unplayed_samples``: pulled samples still inside
        the device's buffer (not heard yet), subtracted from the newest chunks."""
        now = self._clock.now_ns()
        with self._lock:
            entries, self._entries = self._entries, []
            self._done.notify_all()
        played = [e.pos for e in entries]
        backlog = max(0, unplayed_samples)
        for i in range(len(entries) - 1, -1, -1):
            if backlog <= 0:
                break
            take = min(backlog, played[i])
            played[i] -= take
            backlog -= take
        chunks = tuple(self._played(e, p) for e, p in zip(entries, played, strict=True))
        return PlaybackReport(chunks=chunks, stopped_ns=now if stopped else None)

    def _played(self, entry: _Entry, played_out: int) -> PlayedChunk:
        total = len(entry.chunk.pcm)
        if len(entry.samples) == 0:
            own = total if entry.pos >= 0 else 0
        else:
            own = min(total, round(played_out * total / len(entry.samples)))
        return PlayedChunk(
            sentence_index=entry.chunk.sentence_index,
            text=entry.chunk.text,
            samples_total=total,
            samples_played=own,
            sample_rate_hz=entry.chunk.sample_rate_hz,
            started_ns=entry.started_ns if played_out > 0 or len(entry.samples) == 0 else None,
        )

    def wait_empty(self, timeout_s: float) -> bool:
        """Block (in a worker thread) until every queued sample was pulled."""
        with self._lock:
            return self._done.wait_for(lambda: self._pending_locked() == 0, timeout=timeout_s)
