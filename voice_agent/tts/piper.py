"""Piper (local neural TTS, English voice en_US-joe-medium) in a worker thread."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

from voice_agent.errors import BackendError, InputError, ModelError
from voice_agent.frames import SpeechChunk
from voice_agent.tts.base import iterate_in_thread


class PiperSynthesizer:
    def __init__(self, voice_id: str, model_dir: Path, *, model_path: Path | None = None) -> None:
        self.name = f"piper:{voice_id}"
        self.voice_id = voice_id
        self.sample_rate_hz = 22_050
        self._model_dir = Path(model_dir)
        self._model_path = model_path
        self._voice: Any = None

    async def start(self) -> None:
        if self._voice is None:
            self._voice = await asyncio.to_thread(self._load)
            self.sample_rate_hz = int(self._voice.config.sample_rate)

    def _load(self) -> Any:
        from piper import PiperVoice

        from voice_agent.provision import locate

        path = self._model_path or locate(self.voice_id, self._model_dir)
        if path.is_dir():
            onnx = sorted(path.glob("*.onnx"))
            if not onnx:
                raise ModelError(f"no .onnx voice in {path}", model=self.voice_id, path=str(path))
            path = onnx[0]
        try:
            return PiperVoice.load(str(path), config_path=str(path) + ".json")
        except Exception as err:
            raise ModelError(
                f"cannot load piper voice {path}: {err}", model=self.voice_id, path=str(path)
            ) from err

    async def synthesize(
        self, text: str, *, language: str | None = None, sentence_index: int = 0
    ) -> AsyncIterator[SpeechChunk]:
        if self._voice is None:
            raise ModelError("PiperSynthesizer.start() was not called", model=self.voice_id)
        if not text.strip():
            raise InputError("nothing to synthesise: the text is empty")
        voice = self._voice

        def chunks() -> Iterator[Any]:
            try:
                yield from voice.synthesize(text)
            except Exception as err:  # onnxruntime / phonemizer failures
                raise BackendError(f"synthesis failed: {err}", backend=self.name) from err

        async for chunk in iterate_in_thread(chunks):
            pcm = chunk.audio_int16_array.reshape(-1)
            if len(pcm):
                yield SpeechChunk(pcm, int(chunk.sample_rate), sentence_index, text, {"backend": self.name})

    async def close(self) -> None:
        self._voice = None
