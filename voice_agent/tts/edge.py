"""edge-tts (Microsoft's online voices): optional, often unreachable, always behind a short timeout.

The router falls back to a local voice when this fails; errors are mapped to ``BackendError``
(retryable) here, in one place. MP3 from the service is decoded with PyAV.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping
from typing import Any

import numpy as np

from voice_agent.audio.resample import float32_to_int16
from voice_agent.errors import BackendError, DependencyMissingError, InputError
from voice_agent.frames import SpeechChunk

DEFAULT_VOICES = {"en": "en-US-AriaNeural", "zh": "zh-CN-XiaoxiaoNeural"}
OUTPUT_RATE_HZ = 24_000


class EdgeSynthesizer:
    def __init__(self, voices: Mapping[str, str] | None = None, *, timeout_s: float = 2.0) -> None:
        self.name = "edge-tts"
        self.sample_rate_hz = OUTPUT_RATE_HZ
        self.voices = {**DEFAULT_VOICES, **(voices or {})}
        self.timeout_s = timeout_s
        self._module: Any = None

    async def start(self) -> None:
        try:
            import edge_tts
        except ImportError as err:
            raise DependencyMissingError("edge_tts", "edge") from err
        self._module = edge_tts

    def voice_for(self, language: str | None) -> str:
        lang = (language or "en").lower().split("-")[0]
        return self.voices.get(lang, self.voices["en"])

    async def synthesize(
        self, text: str, *, language: str | None = None, sentence_index: int = 0
    ) -> AsyncIterator[SpeechChunk]:
        if self._module is None:
            await self.start()
        if not text.strip():
            raise InputError("nothing to synthesise: the text is empty")
        voice = self.voice_for(language)
        try:
            mp3 = await asyncio.wait_for(self._fetch(text, voice), self.timeout_s)
        except TimeoutError as err:
            raise BackendError(
                f"no audio within {self.timeout_s:.1f} s", backend=self.name, retryable=True
            ) from err
        except (BackendError, asyncio.CancelledError):
            raise
        except Exception as err:  # aiohttp, websocket and service errors (403, 503, DNS, refused)
            raise BackendError(f"{type(err).__name__}: {err}", backend=self.name, retryable=True) from err
        pcm = await asyncio.to_thread(_decode_mp3, mp3)
        yield SpeechChunk(pcm, OUTPUT_RATE_HZ, sentence_index, text, {"backend": self.name, "voice": voice})

    async def _fetch(self, text: str, voice: str) -> bytes:
        timeout = max(1, int(self.timeout_s))
        communicate = self._module.Communicate(text, voice, connect_timeout=timeout, receive_timeout=timeout)
        parts: list[bytes] = []
        async for message in communicate.stream():
            if message.get("type") == "audio" and message.get("data"):
                parts.append(message["data"])
        if not parts:
            raise BackendError("the service returned no audio", backend=self.name, retryable=True)
        return b"".join(parts)

    async def close(self) -> None:
        self._module = None


def _decode_mp3(data: bytes) -> np.ndarray:
    import io

    from faster_whisper.audio import decode_audio

    try:
        samples = decode_audio(io.BytesIO(data), sampling_rate=OUTPUT_RATE_HZ)
    except Exception as err:
        raise BackendError(f"cannot decode the service's audio: {err}", backend="edge-tts") from err
    return float32_to_int16(np.asarray(samples, dtype=np.float32))
