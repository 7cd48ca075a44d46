"""The audio edge over a WebSocket: a source and a sink that implement ``voice_agent.audio.base``, so the
voice session runs unchanged for a browser client.

Source: the client's PCM16 frames, pushed by the connection handler, read by the session as a live
stream. Input faster than real time (beyond a small burst) is refused, and when nobody reads (between
visits) the backlog is bounded by dropping the oldest audio.

Sink: reply audio is paced to the client like a sound card, keeping at most ``lead_ms`` queued in the
browser, so a barge-in cuts it within that lead, and so the samples "played" (sent minus what the
browser still holds) are what the history keeps. A ``say`` event with the sentence text goes out just
before its first audio block: the page shows the reply as it is spoken.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from voice_agent.aio import cancel_and_wait
from voice_agent.audio.base import PlaybackReport
from voice_agent.audio.playback import PlaybackQueue
from voice_agent.clock import Clock, MonotonicClock
from voice_agent.frames import AudioFrame, PcmFloat32, SpeechChunk
from voice_agent.server.outbox import Outbox
from voice_agent.server.protocol import AUDIO_IN_RATE_HZ, CLOSE_POLICY, ProtocolError, float32_to_pcm16


class WebSocketAudioSource:
    """Live microphone audio from one client (16 kHz mono float32 frames)."""

    is_live = True
    sample_rate_hz = AUDIO_IN_RATE_HZ

    def __init__(
        self,
        *,
        clock: Clock | None = None,
        max_speed: float = 1.5,
        burst_s: float = 3.0,
        max_backlog_s: float = 5.0,
    ) -> None:
        self._clock = clock or MonotonicClock()
        self._queue: asyncio.Queue[AudioFrame | None] = asyncio.Queue()
        self._backlog = 0
        self._max_backlog = int(max_backlog_s * self.sample_rate_hz)
        self._max_speed = max_speed
        self._burst = burst_s
        self._first_ns: int | None = None
        self.received_samples = 0
        self.dropped_samples = 0
        self._closed = False

    def push(self, samples: PcmFloat32) -> None:
        """Queue one frame (called by the connection handler as frames arrive)."""
        if self._closed:
            return
        now = self._clock.now_ns()
        if self._first_ns is None:
            self._first_ns = now
        self.received_samples += len(samples)
        allowed_s = (now - self._first_ns) / 1e9 * self._max_speed + self._burst
        if self.received_samples > allowed_s * self.sample_rate_hz:
            raise ProtocolError(
                "audio_too_fast",
                f"audio arrives faster than {self._max_speed}x real time",
                close_code=CLOSE_POLICY,
            )
        t_ns = now - len(samples) * 1_000_000_000 // self.sample_rate_hz
        self._queue.put_nowait(AudioFrame(samples, self.sample_rate_hz, t_ns))
        self._backlog += len(samples)
        while self._backlog > self._max_backlog:
            old = self._queue.get_nowait()
            if old is not None:
                self._backlog -= len(old.samples)
                self.dropped_samples += len(old.samples)

    def discard_pending(self) -> None:
        """Drop queued audio (a new visit must not hear the end of the previous one)."""
        while not self._queue.empty():
            frame = self._queue.get_nowait()
            if frame is None:  # keep the end marker
                self._queue.put_nowait(None)
                break
        self._backlog = 0

    async def __aiter__(self) -> AsyncIterator[AudioFrame]:
        while True:
            frame = await self._queue.get()
            if frame is None:
                self._queue.put_nowait(None)  # every later reader ends too
                return
            self._backlog -= len(frame.samples)
            yield frame

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._queue.put_nowait(None)


@dataclass
class _Pending:
    offset: int  # samples (at the sink rate) added before this chunk since the last cut
    sentence_index: int
    text: str


class WebSocketAudioSink:
    """Plays speech in the client's browser (PCM16 binary frames at ``sample_rate_hz``)."""

    BLOCK_MS = 40

    def __init__(
        self,
        outbox: Outbox,
        sample_rate_hz: int,
        *,
        clock: Clock | None = None,
        lead_ms: int = 240,
        on_first_audio: Callable[[], None] | None = None,
    ) -> None:
        self.outbox = outbox
        self.sample_rate_hz = sample_rate_hz
        self._clock = clock or MonotonicClock()
        self._lead_ns = lead_ms * 1_000_000
        self._queue = PlaybackQueue(sample_rate_hz, self._clock)
        self._announce: deque[_Pending] = deque()
        self._added = 0
        self._pulled = 0
        self._busy_until_ns = 0  # when the browser will have played everything sent so far
        self._pacer: asyncio.Task[None] | None = None
        self._on_first_audio = on_first_audio
        self._started = False
        self.sent_samples = 0

    async def write(self, chunk: SpeechChunk) -> None:
        samples = self._queue.prepare(chunk)
        self._announce.append(_Pending(self._added, chunk.sentence_index, chunk.text))
        self._added += len(samples)
        self._queue.add(chunk, samples)
        if self._pacer is None or self._pacer.done():
            self._pacer = asyncio.create_task(self._pace(), name="ws-sink-pacer")

    async def _pace(self) -> None:
        block = self.sample_rate_hz * self.BLOCK_MS // 1000
        while self._queue.pending_samples() > 0:
            ahead_ns = self._busy_until_ns - self._clock.now_ns()
            if ahead_ns > self._lead_ns:
                await asyncio.sleep(min(ahead_ns - self._lead_ns, self.BLOCK_MS * 1_000_000) / 1e9)
                continue
            while self._announce and self._announce[0].offset < self._pulled + block:  # starts in this block
                item = self._announce.popleft()
                self.outbox.event({"type": "say", "index": item.sentence_index, "text": item.text})
            samples, filled = self._queue.pull(block)
            if not filled:
                break
            self._send(samples[:filled])

    def _send(self, samples: PcmFloat32) -> None:
        now = self._clock.now_ns()
        if not self._started:
            self._started = True
            if self._on_first_audio is not None:
                self._on_first_audio()
        self.outbox.audio(float32_to_pcm16(samples))
        self._pulled += len(samples)
        self.sent_samples += len(samples)
        duration_ns = len(samples) * 1_000_000_000 // self.sample_rate_hz
        self._busy_until_ns = max(self._busy_until_ns, now) + duration_ns

    def _unplayed_samples(self) -> int:
        left_ns = max(0, self._busy_until_ns - self._clock.now_ns())
        return int(left_ns * self.sample_rate_hz / 1e9)

    async def stop(self) -> PlaybackReport:
        """Cut now: the client drops what it still holds (``audio_stop``)."""
        await self._stop_pacer()
        report = self._queue.cut(unplayed_samples=self._unplayed_samples())
        if self._started:
            self.outbox.event({"type": "audio_stop"})
        self._reset()
        return report

    async def drain(self) -> PlaybackReport:
        if self._pacer is not None:
            await asyncio.wait({self._pacer})  # never cancels the pacer
        left_ns = self._busy_until_ns - self._clock.now_ns()
        if left_ns > 0:  # the browser is still playing the last blocks
            await asyncio.sleep(left_ns / 1e9)
        report = self._queue.cut(stopped=False)
        self._reset()
        return report

    def _reset(self) -> None:
        self._announce.clear()
        self._added = self._pulled = 0
        self._started = False
        self._busy_until_ns = min(self._busy_until_ns, self._clock.now_ns())

    async def _stop_pacer(self) -> None:
        await cancel_and_wait(self._pacer)
        self._pacer = None

    async def close(self) -> None:
        await self._stop_pacer()
