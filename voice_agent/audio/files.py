"""Audio files through the same protocols as the microphone and speaker.

``FileSource`` decodes WAV/FLAC/MP3/... (PyAV, as faster-whisper does) to 16 kHz mono float32 and yields
fixed-size frames, either as fast as the consumer takes them or paced in real time (``realtime=True``,
what benchmarks use so endpointing waits for real). ``WavFileSink`` writes what is "played" to a WAV
file, either at once or paced in real time (so barge-in can cut it like a speaker).
"""

from __future__ import annotations

import asyncio
import wave
from collections.abc import AsyncIterator
from pathlib import Path

import numpy as np

from voice_agent.aio import cancel_and_wait
from voice_agent.audio.base import PlaybackReport, PlayedChunk
from voice_agent.audio.playback import PlaybackQueue
from voice_agent.audio.resample import float32_to_int16, int16_to_float32, resample
from voice_agent.clock import Clock, MonotonicClock
from voice_agent.errors import InputError
from voice_agent.frames import AudioFrame, PcmFloat32, PcmInt16, SpeechChunk

ASR_RATE_HZ = 16_000


def read_audio(path: str | Path, sample_rate_hz: int = ASR_RATE_HZ) -> PcmFloat32:
    """Decode an audio file to mono float32 at ``sample_rate_hz``. Bad files raise ``InputError``."""
    p = Path(path)
    if not p.is_file():
        raise InputError(f"audio file not found: {p}")
    if p.stat().st_size == 0:
        raise InputError(f"audio file is empty: {p}")
    from faster_whisper.audio import decode_audio

    try:
        samples = decode_audio(str(p), sampling_rate=sample_rate_hz)
    except Exception as err:  # PyAV raises many types (InvalidDataError, ValueError, ...)
        raise InputError(f"cannot decode audio file {p}: {err}") from err
    if len(samples) == 0:
        raise InputError(f"audio file holds no audio samples: {p}")
    return np.asarray(samples, dtype=np.float32)


def write_wav(path: str | Path, pcm: PcmInt16 | PcmFloat32, sample_rate_hz: int) -> Path:
    """Write mono audio (int16, or float32 in [-1, 1]) as a 16-bit WAV file."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    data = pcm if pcm.dtype == np.int16 else float32_to_int16(pcm.astype(np.float32))
    with wave.open(str(p), "wb") as fh:
        fh.setnchannels(1)
        fh.setsampwidth(2)
        fh.setframerate(sample_rate_hz)
        fh.writeframes(np.ascontiguousarray(data).tobytes())
    return p


class FileSource:
    """Frames of a decoded file (or of given samples). Same protocol as the microphone."""

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        samples: PcmFloat32 | None = None,
        sample_rate_hz: int = ASR_RATE_HZ,
        frame_ms: int = 32,
        realtime: bool = False,
        clock: Clock | None = None,
        tail_silence_ms: int = 0,
    ) -> None:
        if (path is None) == (samples is None):
            raise ValueError("give exactly one of path or samples")
        if path is not None and not Path(path).is_file():
            raise InputError(f"audio file not found: {path}")
        self.path = Path(path) if path is not None else None
        self._samples = samples
        self.sample_rate_hz = sample_rate_hz
        self.frame_samples = int(sample_rate_hz * frame_ms / 1000)
        self.is_live = realtime
        self._clock = clock or MonotonicClock()
        self._tail_samples = int(sample_rate_hz * tail_silence_ms / 1000)
        self._closed = False

    async def load(self) -> PcmFloat32:
        """Decode the whole file (off the event loop); raises ``InputError`` on a bad file."""
        if self._samples is None:
            assert self.path is not None
            self._samples = await asyncio.to_thread(read_audio, self.path, self.sample_rate_hz)
        return self._samples

    @property
    def duration_s(self) -> float | None:
        return None if self._samples is None else len(self._samples) / self.sample_rate_hz

    async def __aiter__(self) -> AsyncIterator[AudioFrame]:
        samples = await self.load()
        if self._tail_samples:
            samples = np.concatenate([samples, np.zeros(self._tail_samples, dtype=np.float32)])
        frame_ns = self.frame_samples * 1_000_000_000 // self.sample_rate_hz
        start_ns = self._clock.now_ns()
        for k, offset in enumerate(range(0, len(samples), self.frame_samples)):
            if self._closed:
                return
            block = samples[offset : offset + self.frame_samples]
            if self.is_live:
                # like a microphone: a frame is available once its last sample was captured
                due_ns = start_ns + (k + 1) * frame_ns
                delay_ns = due_ns - self._clock.now_ns()
                if delay_ns > 0:
                    await asyncio.sleep(delay_ns / 1e9)
                t_ns = start_ns + k * frame_ns
            else:
                await asyncio.sleep(0)
                t_ns = self._clock.now_ns() - frame_ns
            yield AudioFrame(np.ascontiguousarray(block, dtype=np.float32), self.sample_rate_hz, t_ns)

    async def close(self) -> None:
        self._closed = True


class WavFileSink:
    """A 'speaker' that writes to a WAV file. ``realtime=True`` plays at the speed of sound (20 ms
    blocks), so ``stop`` cuts it mid-sentence like a device; otherwise writes happen at once."""

    BLOCK_MS = 20

    def __init__(
        self,
        path: str | Path,
        *,
        sample_rate_hz: int = 22_050,
        realtime: bool = False,
        clock: Clock | None = None,
        gap_ms: int = 300,
    ) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.sample_rate_hz = sample_rate_hz
        self.realtime = realtime
        self._clock = clock or MonotonicClock()
        self._gap = np.zeros(int(sample_rate_hz * gap_ms / 1000), dtype=np.int16)
        self._wav: wave.Wave_write | None = wave.open(str(self.path), "wb")  # noqa: SIM115 (closed in close())
        self._wav.setnchannels(1)
        self._wav.setsampwidth(2)
        self._wav.setframerate(sample_rate_hz)
        self._frames_written = 0
        self._queue = PlaybackQueue(sample_rate_hz, self._clock)
        self._instant: list[PlayedChunk] = []
        self._pacer: asyncio.Task[None] | None = None
        self._new_reply = False

    @property
    def seconds_written(self) -> float:
        return self._frames_written / self.sample_rate_hz

    async def write(self, chunk: SpeechChunk) -> None:
        if self._wav is None:
            raise InputError(f"WAV sink {self.path} is closed")
        if self._new_reply and self._frames_written:
            self._write_pcm(self._gap)
        self._new_reply = False
        if not self.realtime:
            pcm = float32_to_int16(
                resample(int16_to_float32(chunk.pcm.reshape(-1)), chunk.sample_rate_hz, self.sample_rate_hz)
            )
            now = self._clock.now_ns()
            self._write_pcm(pcm)
            self._instant.append(
                PlayedChunk(
                    chunk.sentence_index,
                    chunk.text,
                    len(chunk.pcm),
                    len(chunk.pcm),
                    chunk.sample_rate_hz,
                    now,
                )
            )
            return
        self._queue.add(chunk)
        if self._pacer is None or self._pacer.done():
            self._pacer = asyncio.create_task(self._pace(), name="wav-sink-pacer")

    async def _pace(self) -> None:
        block = int(self.sample_rate_hz * self.BLOCK_MS / 1000)
        block_ns = self.BLOCK_MS * 1_000_000
        next_ns = self._clock.now_ns()
        while self._queue.pending_samples() > 0:
            samples, filled = self._queue.pull(block)
            if filled:
                self._write_pcm(float32_to_int16(samples[:filled]))
            next_ns += block_ns
            delay = next_ns - self._clock.now_ns()
            if delay > 0:
                await asyncio.sleep(delay / 1e9)

    def _write_pcm(self, pcm: PcmInt16) -> None:
        if self._wav is not None and len(pcm):
            self._wav.writeframes(np.ascontiguousarray(pcm).tobytes())
            self._frames_written += len(pcm)

    async def stop(self) -> PlaybackReport:
        self._new_reply = True
        if not self.realtime:
            report = PlaybackReport(tuple(self._instant), stopped_ns=self._clock.now_ns())
            self._instant = []
            return report
        report = self._queue.cut()
        await self._stop_pacer()
        return report

    async def drain(self) -> PlaybackReport:
        self._new_reply = True
        if not self.realtime:
            report = PlaybackReport(tuple(self._instant))
            self._instant = []
            return report
        if self._pacer is not None:
            await asyncio.wait({self._pacer})  # unlike awaiting it, never cancels the pacer
        return self._queue.cut(stopped=False)

    async def _stop_pacer(self) -> None:
        await cancel_and_wait(self._pacer)
        self._pacer = None

    async def close(self) -> None:
        await self._stop_pacer()
        if self._wav is not None:
            self._wav.close()
            self._wav = None
