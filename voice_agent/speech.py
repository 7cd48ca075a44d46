"""The speech backends of a session, built from the config and started together."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from voice_agent.asr.base import SpeechRecognizer
from voice_agent.asr.whisper import WhisperRecognizer
from voice_agent.clock import Clock
from voice_agent.config import Config
from voice_agent.tts.base import SpeechSynthesizer
from voice_agent.tts.router import TtsRouter
from voice_agent.vad.base import VoiceActivityDetector
from voice_agent.vad.silero import SileroVad


@dataclass
class SpeechStack:
    vad: VoiceActivityDetector
    recognizer: SpeechRecognizer
    synthesizer: SpeechSynthesizer

    @classmethod
    def from_config(cls, config: Config, *, clock: Clock | None = None) -> SpeechStack:
        """Silero VAD, Whisper (``asr.model``), and the TTS router (``tts.backend``); nothing loaded yet."""
        return cls(
            vad=SileroVad(),
            recognizer=WhisperRecognizer(config.asr, config.model_dir),
            synthesizer=TtsRouter(config.tts, config.model_dir, clock=clock),
        )

    async def start(self) -> None:
        """Load all models (concurrently: VAD, Whisper and piper load in worker threads)."""
        await asyncio.gather(self.vad.start(), self.recognizer.start(), self.synthesizer.start())

    async def close(self) -> None:
        await asyncio.gather(self.recognizer.close(), self.synthesizer.close())
