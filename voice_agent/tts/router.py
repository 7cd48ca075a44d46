"""Picks the voice for each sentence by language and falls back to a local one when a voice fails.

English → piper (local, neural); Chinese and anything without a local neural voice → espeak-ng; with
``tts.backend = "edge"`` the online voice is tried first, under a short timeout, and after a failure it
is skipped for a while (a small circuit breaker) so every sentence does not pay the timeout again.
A voice that fails before producing audio costs nothing but the wait: the next one speaks instead.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

from voice_agent.clock import Clock, MonotonicClock
from voice_agent.config import TtsConfig
from voice_agent.errors import BackendError, DependencyMissingError, InputError, VoiceAgentError
from voice_agent.frames import SpeechChunk
from voice_agent.tts.base import SpeechSynthesizer, guess_language
from voice_agent.tts.edge import EdgeSynthesizer
from voice_agent.tts.espeak import EspeakSynthesizer
from voice_agent.tts.piper import PiperSynthesizer

log = logging.getLogger(__name__)
EDGE_RETRY_AFTER_S = 60.0


def spoken_language(text: str, language: str | None) -> str:
    """The language to voice ``text`` in: the script decides between Chinese and English (a reply in
    English to a Chinese question is read by the English voice), other languages are taken as given."""
    script = guess_language(text)
    lang = (language or script).lower().split("-")[0]
    if script == "zh":
        return "zh"
    return "en" if lang in ("zh", "yue") else lang


class TtsRouter:
    """A ``SpeechSynthesizer`` over piper, espeak-ng and edge-tts."""

    name = "tts-router"

    def __init__(self, config: TtsConfig, model_dir: Path, *, clock: Clock | None = None) -> None:
        self.config = config
        self._clock = clock or MonotonicClock()
        self.piper = PiperSynthesizer(config.piper_voice, model_dir)
        self.espeak = EspeakSynthesizer(config.espeak_voices)
        self.edge = EdgeSynthesizer({"en": config.edge_voice}, timeout_s=config.edge_timeout_s)
        self._edge_down_until_ns = 0
        self.sample_rate_hz = self.piper.sample_rate_hz
        self.fallbacks: list[str] = []  # why a preferred voice was skipped, newest last

    async def start(self) -> None:
        await self.espeak.start()
        if self.config.backend in ("piper", "edge"):
            await self.piper.start()
            self.sample_rate_hz = self.piper.sample_rate_hz
        if self.config.backend == "edge":
            try:
                await self.edge.start()
            except DependencyMissingError as err:
                self._edge_failed(str(err), retry_after_s=float("inf"))

    def voices_for(self, language: str) -> list[SpeechSynthesizer]:
        """The voices to try for ``language``, best first."""
        local: SpeechSynthesizer = (
            self.piper if language == "en" and self.config.backend != "espeak" else self.espeak
        )
        order: list[SpeechSynthesizer] = []
        if self.config.backend == "edge" and self._clock.now_ns() >= self._edge_down_until_ns:
            order.append(self.edge)
        order.append(local)
        if local is not self.espeak:
            order.append(self.espeak)
        return order

    async def synthesize(
        self, text: str, *, language: str | None = None, sentence_index: int = 0
    ) -> AsyncIterator[SpeechChunk]:
        if not text.strip():
            raise InputError("nothing to synthesise: the text is empty")
        lang = spoken_language(text, language)
        voices = self.voices_for(lang)
        for position, voice in enumerate(voices):
            produced = False
            try:
                async for chunk in voice.synthesize(text, language=lang, sentence_index=sentence_index):
                    produced = True
                    if position:
                        chunk.meta["fallback"] = "; ".join(self.fallbacks[-1:])
                    yield chunk
                return
            except VoiceAgentError as err:
                if produced or position == len(voices) - 1:
                    raise
                if voice is self.edge:
                    self._edge_failed(str(err), retry_after_s=EDGE_RETRY_AFTER_S)
                else:
                    self.fallbacks.append(f"{voice.name}: {err}")
                log.warning(
                    "TTS voice %s failed (%s); falling back to %s", voice.name, err, voices[position + 1].name
                )
        raise BackendError(
            "no voice available", backend=self.name
        )  # pragma: no cover (loop returns or raises)

    def _edge_failed(self, reason: str, *, retry_after_s: float) -> None:
        self.fallbacks.append(reason if reason.startswith("edge-tts") else f"edge-tts: {reason}")
        if retry_after_s == float("inf"):
            self._edge_down_until_ns = 2**62
        else:
            self._edge_down_until_ns = self._clock.now_ns() + int(retry_after_s * 1e9)

    async def close(self) -> None:
        await self.piper.close()
        await self.espeak.close()
        await self.edge.close()
