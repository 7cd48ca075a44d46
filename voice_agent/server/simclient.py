"""A simulated kiosk client: speaks the WebSocket protocol like the page does, with real audio.

Its microphone never stops (like a browser's): silence frames flow between utterances, paced in real
time, so the server's VAD endpoints turns exactly as it would for a person. Used by the load test
(``scripts/kiosk_load.py``) and the server tests. Needs the ``websockets`` package.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from voice_agent.frames import PcmFloat32
from voice_agent.server.protocol import AUDIO_IN_RATE_HZ, float32_to_pcm16

FRAME_MS = 32


@dataclass
class TurnRecord:
    final: str = ""
    spoken: str = ""
    says: list[str] = field(default_factory=list)
    outcome: str = ""
    server_v2v_ms: float | None = None
    client_v2v_ms: float | None = None  # last speech frame sent → first reply audio received
    audio_bytes: int = 0
    timed_out: bool = False


@dataclass
class _Utterance:
    audio: PcmFloat32


class SimClient:
    def __init__(
        self,
        url: str,
        *,
        token: str | None = None,
        user: str | None = None,
        pin: str | None = None,
        badge: str | None = None,
        frame_ms: int = FRAME_MS,
        realtime: bool = True,
    ) -> None:
        self.url = url
        self.token = token
        self.user = user
        self.pin = pin
        self.badge = badge
        self.frame = AUDIO_IN_RATE_HZ * frame_ms // 1000
        self.realtime = realtime
        self.events: list[dict[str, Any]] = []
        self.texts: list[str] = []  # every piece of text the server sent this client
        self.audio_bytes = 0
        self.ready: dict[str, Any] | None = None
        self.closed: tuple[int | None, str] | None = None
        self._ws: Any = None
        self._tasks: list[asyncio.Task[None]] = []
        self._speech: asyncio.Queue[_Utterance] = asyncio.Queue()
        self._turn_done: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._current: TurnRecord | None = None
        self._speech_end_s: float | None = None
        self._ready = asyncio.Event()

    async def connect(self, *, timeout_s: float = 30.0) -> dict[str, Any]:
        import websockets

        self._ws = await websockets.connect(self.url, max_size=2**22, open_timeout=timeout_s)
        hello: dict[str, Any] = {"type": "hello", "protocol": 1}
        if self.token:
            hello["token"] = self.token
        if self.user:
            hello["user"] = self.user
        if self.pin:
            hello["pin"] = self.pin
        if self.badge:
            hello["badge"] = self.badge
        await self._ws.send(json.dumps(hello))
        self._tasks = [asyncio.create_task(self._receive()), asyncio.create_task(self._microphone())]
        await asyncio.wait_for(self._ready.wait(), timeout_s)
        assert self.ready is not None
        return self.ready

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()

    async def __aenter__(self) -> SimClient:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def send_json(self, message: dict[str, Any]) -> None:
        await self._ws.send(json.dumps(message))

    async def say(self, audio: PcmFloat32, *, timeout_s: float = 60.0) -> TurnRecord:
        """Speak ``audio`` (16 kHz float32) into the stream and wait for the turn's ``turn_done``."""
        while not self._turn_done.empty():
            self._turn_done.get_nowait()
        record = TurnRecord()
        self._current = record
        self._speech_end_s = None
        utterance = _Utterance(np.asarray(audio, dtype=np.float32))
        await self._speech.put(utterance)
        try:
            done = await asyncio.wait_for(self._turn_done.get(), timeout_s)
        except TimeoutError:
            record.timed_out = True
            return record
        finally:
            self._current = None
        record.outcome = str(done.get("outcome", ""))
        record.spoken = str(done.get("spoken", ""))
        record.server_v2v_ms = done.get("voice_to_voice_ms")
        return record

    async def speak(self, audio: PcmFloat32) -> None:
        """Put ``audio`` into the microphone stream now, without waiting for anything (a barge-in)."""
        await self._speech.put(_Utterance(np.asarray(audio, dtype=np.float32)))

    async def wait_for(
        self,
        kind: str,
        *,
        timeout_s: float = 30.0,
        after: int = 0,
        where: Callable[[dict[str, Any]], bool] | None = None,
    ) -> dict[str, Any]:
        """The first event of type ``kind`` (and matching ``where``) at index >= ``after`` in ``events``."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            for event in self.events[after:]:
                if event.get("type") == kind and (where is None or where(event)):
                    return event
            if self.closed is not None:
                break
            await asyncio.sleep(0.05)
        raise TimeoutError(f"no {kind!r} event within {timeout_s} s (closed: {self.closed})")

    # -- tasks -------------------------------------------------------------------------------------
    async def _microphone(self) -> None:
        frame_s = self.frame / AUDIO_IN_RATE_HZ
        silence = np.zeros(self.frame, dtype=np.float32)
        start = time.monotonic()
        k = 0
        utterance: _Utterance | None = None
        pos = 0
        while True:
            if utterance is None and not self._speech.empty():
                utterance, pos = self._speech.get_nowait(), 0
            if utterance is not None:
                block = utterance.audio[pos : pos + self.frame]
                pos += self.frame
                if pos >= len(utterance.audio):
                    self._speech_end_s = time.monotonic() + frame_s
                    utterance = None
            else:
                block = silence
            await self._ws.send(float32_to_pcm16(block))
            k += 1
            if self.realtime:
                delay = start + k * frame_s - time.monotonic()
                if delay > 0:
                    await asyncio.sleep(delay)

    async def _receive(self) -> None:
        import websockets

        try:
            async for message in self._ws:
                if isinstance(message, bytes):
                    self._on_audio(message)
                else:
                    self._on_event(json.loads(message))
        except websockets.ConnectionClosed:
            pass
        finally:
            close = getattr(self._ws, "close_code", None)
            self.closed = (close, str(getattr(self._ws, "close_reason", "") or ""))
            self._ready.set()

    def _on_audio(self, message: bytes) -> None:
        self.audio_bytes += len(message)
        record = self._current
        if record is None:
            return
        record.audio_bytes += len(message)
        if record.client_v2v_ms is None and self._speech_end_s is not None:
            record.client_v2v_ms = round((time.monotonic() - self._speech_end_s) * 1000, 1)

    def _on_event(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        kind = event.get("type")
        for key in ("text", "spoken"):
            if isinstance(event.get(key), str) and event[key]:
                self.texts.append(event[key])
        record = self._current
        if kind == "ready":
            self.ready = event
            self._ready.set()
        elif kind == "final" and record is not None:
            record.final = str(event.get("text", ""))
        elif kind == "say" and record is not None:
            record.says.append(str(event.get("text", "")))
        elif kind == "turn_done":
            self._turn_done.put_nowait(event)
