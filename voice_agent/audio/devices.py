"""Microphone and speaker through sounddevice (PortAudio).

Input and output are separate streams (``sd.play`` + ``sd.rec`` at once hang on one global stream).
Both run callbacks in PortAudio's thread and hand audio to/from the event loop without blocking it.
Devices are chosen by index or by (part of) their name; rates are converted to what the device takes.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any, Literal

import numpy as np

from voice_agent.audio.base import PlaybackReport
from voice_agent.audio.playback import PlaybackQueue
from voice_agent.audio.resample import Resampler
from voice_agent.clock import Clock, MonotonicClock
from voice_agent.errors import AudioDeviceError
from voice_agent.frames import AudioFrame, SpeechChunk

FILE_MODE_HINT = "use file mode instead: voice-agent talk --input question.wav --output reply.wav"
DeviceSpec = int | str | None


def import_sounddevice() -> Any:
    """Import sounddevice, mapping a missing PortAudio library to ``AudioDeviceError``."""
    try:
        import sounddevice
    except OSError as err:  # raised at import when libportaudio2 is missing
        raise AudioDeviceError(
            f"PortAudio is not available ({err}); "
            f"install it (apt-get install libportaudio2) or {FILE_MODE_HINT}"
        ) from err
    return sounddevice


def list_devices() -> list[dict[str, Any]]:
    sd = import_sounddevice()
    try:
        return [dict(d) for d in sd.query_devices()]
    except Exception as err:
        raise AudioDeviceError(f"cannot list audio devices ({err}); {FILE_MODE_HINT}") from err


def resolve_device(spec: DeviceSpec, kind: Literal["input", "output"]) -> tuple[int, dict[str, Any]]:
    """The device index and info for ``spec`` (index, name or part of a name, or None: the default)."""
    sd = import_sounddevice()
    devices = list_devices()
    channels_key = f"max_{kind}_channels"
    usable = [(i, d) for i, d in enumerate(devices) if d.get(channels_key, 0) > 0]
    if not usable:
        raise AudioDeviceError(f"no audio {kind} device found; {FILE_MODE_HINT}")
    if spec is None:
        default = sd.default.device[0 if kind == "input" else 1]
        if isinstance(default, int) and default >= 0 and devices[default].get(channels_key, 0) > 0:
            return default, devices[default]
        return usable[0]
    if isinstance(spec, int) or (isinstance(spec, str) and spec.strip().isdigit()):
        index = int(spec)
        for i, d in usable:
            if i == index:
                return i, d
        raise AudioDeviceError(f"no audio {kind} device with index {index}; available: {_names(usable)}")
    matches = [(i, d) for i, d in usable if spec.lower() in str(d.get("name", "")).lower()]
    if not matches:
        raise AudioDeviceError(f"no audio {kind} device named like {spec!r}; available: {_names(usable)}")
    return matches[0]


def _names(devices: list[tuple[int, dict[str, Any]]]) -> str:
    return ", ".join(f"{i}: {d.get('name')}" for i, d in devices)


class MicrophoneSource:
    """Live microphone frames, resampled to ``sample_rate_hz`` (16 kHz for VAD and ASR)."""

    is_live = True

    def __init__(
        self,
        device: DeviceSpec = None,
        *,
        sample_rate_hz: int = 16_000,
        frame_ms: int = 32,
        clock: Clock | None = None,
    ) -> None:
        self.sample_rate_hz = sample_rate_hz
        self._device = device
        self._frame_ms = frame_ms
        self._clock = clock or MonotonicClock()
        self._stream: Any = None
        self._queue: asyncio.Queue[tuple[np.ndarray, int] | None] = asyncio.Queue(maxsize=200)
        self._resampler = Resampler(sample_rate_hz, sample_rate_hz)
        self.overflows = 0

    def _open(self) -> tuple[Any, int]:
        sd = import_sounddevice()
        index, info = resolve_device(self._device, "input")
        rate = int(info.get("default_samplerate") or self.sample_rate_hz)
        with contextlib.suppress(Exception):
            sd.check_input_settings(device=index, channels=1, samplerate=self.sample_rate_hz, dtype="float32")
            rate = self.sample_rate_hz
        loop = asyncio.get_running_loop()

        def callback(indata: np.ndarray, frames: int, _time: Any, status: Any) -> None:
            t_ns = self._clock.now_ns() - frames * 1_000_000_000 // rate
            if status:
                self.overflows += 1
            loop.call_soon_threadsafe(self._put, indata[:, 0].copy(), t_ns)

        try:
            stream = sd.InputStream(
                device=index,
                channels=1,
                samplerate=rate,
                dtype="float32",
                blocksize=int(rate * self._frame_ms / 1000),
                latency="low",
                callback=callback,
            )
            stream.start()
        except Exception as err:
            raise AudioDeviceError(
                f"cannot open microphone {info.get('name')!r}: {err}; {FILE_MODE_HINT}"
            ) from err
        return stream, rate

    def _put(self, block: np.ndarray, t_ns: int) -> None:
        if self._queue.full():  # the consumer stalled: drop the oldest rather than grow without bound
            self._queue.get_nowait()
            self.overflows += 1
        self._queue.put_nowait((block, t_ns))

    async def __aiter__(self) -> AsyncIterator[AudioFrame]:
        if self._stream is None:
            self._stream, rate = self._open()
            self._resampler = Resampler(rate, self.sample_rate_hz)
        while True:
            item = await self._queue.get()
            if item is None:
                return
            block, t_ns = item
            samples = self._resampler.process(block)
            if len(samples):
                yield AudioFrame(samples, self.sample_rate_hz, t_ns)

    async def close(self) -> None:
        if self._stream is not None:
            self._stream.stop()
            self._stream.close()
            self._stream = None
        self._queue.put_nowait(None)


class SpeakerSink:
    """Plays speech on an output device. ``stop`` empties the queue the callback reads from, so
    playback ends within one block plus the device latency."""

    BLOCK_MS = 20
    LATENCY_S = 0.06  # device buffer: rides out scheduling hiccups on a busy CPU, still cuts < 100 ms

    def __init__(self, device: DeviceSpec = None, *, clock: Clock | None = None) -> None:
        self._device = device
        self._clock = clock or MonotonicClock()
        self._stream: Any = None
        self.sample_rate_hz = 0
        self._queue: PlaybackQueue | None = None
        self._generation = 0
        self.callbacks = 0

    def _ensure_open(self) -> PlaybackQueue:
        if self._queue is not None:
            return self._queue
        sd = import_sounddevice()
        index, info = resolve_device(self._device, "output")
        self.sample_rate_hz = int(info.get("default_samplerate") or 48_000)
        queue = PlaybackQueue(self.sample_rate_hz, self._clock)

        def callback(outdata: np.ndarray, frames: int, _time: Any, _status: Any) -> None:
            samples, _filled = queue.pull(frames)
            outdata[:, 0] = samples
            self.callbacks += 1

        try:
            self._stream = sd.OutputStream(
                device=index,
                channels=1,
                samplerate=self.sample_rate_hz,
                dtype="float32",
                blocksize=int(self.sample_rate_hz * self.BLOCK_MS / 1000),
                latency=self.LATENCY_S,
                callback=callback,
            )
            self._stream.start()
        except Exception as err:
            raise AudioDeviceError(
                f"cannot open speaker {info.get('name')!r}: {err}; {FILE_MODE_HINT}"
            ) from err
        self._queue = queue
        return queue

    async def start(self, *, settle_s: float = 5.0) -> None:
        """Open the device now and wait (up to ``settle_s``) until it really consumes audio: some
        backends (ALSA through PulseAudio) take a second or two before the first blocks flow, and a
        reply written then would start late."""
        queue = await asyncio.to_thread(self._ensure_open)
        # warm the resampler up (the first use loads codecs), so the first reply is not late
        await asyncio.to_thread(queue.prepare, SpeechChunk(np.zeros(441, dtype=np.int16), 22_050))
        blocks_per_s = 1000 // self.BLOCK_MS
        start = self.callbacks
        for _ in range(int(settle_s / 0.05)):  # the counter is bumped by PortAudio's thread: poll it
            if self.callbacks - start >= blocks_per_s // 2:
                break
            await asyncio.sleep(0.05)

    def _latency_samples(self) -> int:
        latency = float(getattr(self._stream, "latency", 0.0) or 0.0)
        return int(latency * self.sample_rate_hz)

    async def write(self, chunk: SpeechChunk) -> None:
        queue = self._queue if self._queue is not None else await asyncio.to_thread(self._ensure_open)
        generation = self._generation
        samples = await asyncio.to_thread(queue.prepare, chunk)
        if generation == self._generation:  # a stop() while resampling drops this chunk
            queue.add(chunk, samples)  # resampling a sentence takes a few ms

    async def stop(self) -> PlaybackReport:
        self._generation += 1
        if self._queue is None:
            return PlaybackReport(stopped_ns=self._clock.now_ns())
        return self._queue.cut(unplayed_samples=self._latency_samples())

    async def drain(self) -> PlaybackReport:
        if self._queue is None:
            return PlaybackReport()
        queue = self._queue
        while not await asyncio.to_thread(queue.wait_empty, 0.05):
            pass  # poll so that cancellation (barge-in) is seen within 50 ms
        await asyncio.sleep(self._latency_samples() / max(1, self.sample_rate_hz))
        return queue.cut(stopped=False)

    async def close(self) -> None:
        if self._stream is not None:
            self._stream.stop()
            self._stream.close()
            self._stream = None
        self._queue = None
