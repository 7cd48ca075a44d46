"""eSpeak NG (Debian ``espeak-ng``) as a subprocess writing WAV to stdout: any language, robotic."""

from __future__ import annotations

import asyncio
import shutil
import struct
from collections.abc import AsyncIterator, Mapping

import numpy as np

from voice_agent.errors import BackendError, InputError, ModelError
from voice_agent.frames import SpeechChunk

TIMEOUT_S = 10.0


class EspeakSynthesizer:
    def __init__(self, voices: Mapping[str, str] | None = None, *, binary: str = "espeak-ng") -> None:
        self.name = "espeak-ng"
        self.sample_rate_hz = 22_050
        self.voices = dict(voices or {"en": "en-us", "zh": "cmn"})
        self._binary = binary
        self._path: str | None = None

    async def start(self) -> None:
        self._path = shutil.which(self._binary)
        if self._path is None:
            raise ModelError(f"{self._binary} not found; apt-get install espeak-ng", model="espeak-ng")

    def voice_for(self, language: str | None) -> str:
        lang = (language or "en").lower()
        return self.voices.get(lang) or self.voices.get(lang.split("-")[0]) or lang

    async def synthesize(
        self, text: str, *, language: str | None = None, sentence_index: int = 0
    ) -> AsyncIterator[SpeechChunk]:
        if self._path is None:
            raise ModelError("EspeakSynthesizer.start() was not called", model="espeak-ng")
        if not text.strip():
            raise InputError("nothing to synthesise: the text is empty")
        voice = self.voice_for(language)
        proc = await asyncio.create_subprocess_exec(
            self._path, "-v", voice, "--stdout",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        try:
            out, err = await asyncio.wait_for(proc.communicate(text.encode("utf-8")), TIMEOUT_S)
        except (TimeoutError, asyncio.CancelledError):
            proc.kill()
            await proc.wait()
            raise
        if proc.returncode != 0 or not out:
            message = err.decode("utf-8", "replace").strip() or f"exit status {proc.returncode}"
            raise BackendError(f"voice {voice!r}: {message}", backend=self.name)
        pcm, rate = _parse_wav(out)
        self.sample_rate_hz = rate
        yield SpeechChunk(pcm, rate, sentence_index, text, {"backend": self.name, "voice": voice})

    async def close(self) -> None:
        self._path = None


def _parse_wav(data: bytes) -> tuple[np.ndarray, int]:
    """espeak-ng streams a WAV whose size fields are placeholders: read the fmt chunk, then all the
    bytes after the data tag."""
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise BackendError("output is not a WAV stream", backend="espeak-ng")
    fmt = data.find(b"fmt ")
    tag = data.find(b"data", fmt)
    if fmt < 0 or tag < 0:
        raise BackendError("WAV stream without fmt/data chunks", backend="espeak-ng")
    channels, rate = struct.unpack_from("<HI", data, fmt + 10)
    (bits,) = struct.unpack_from("<H", data, fmt + 22)
    if channels != 1 or bits != 16:
        raise BackendError(f"unexpected WAV format: {channels} channel(s), {bits} bits", backend="espeak-ng")
    body = data[tag + 8 :]
    body = body[: len(body) - len(body) % 2]
    return np.frombuffer(body, dtype="<i2").astype(np.int16), int(rate)
