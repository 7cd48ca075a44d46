"""The speech backends of a session, built from the config and started together, and the audio ends
(files or devices) a session runs between."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from voice_agent.asr.base import SpeechRecognizer
from voice_agent.asr.whisper import WhisperRecognizer
from voice_agent.audio.files import FileSource, WavFileSink
from voice_agent.clock import Clock
from voice_agent.config import Config
from voice_agent.tts.base import SpeechSynthesizer
from voice_agent.tts.router import TtsRouter
from voice_agent.vad.base import VoiceActivityDetector
from voice_agent.vad.silero import SileroVad

if TYPE_CHECKING:
    from voice_agent.audio.devices import MicrophoneSource, SpeakerSink


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


def file_io(
    input_path: str | Path,
    output_path: str | Path,
    *,
    realtime: bool = False,
    clock: Clock | None = None,
) -> tuple[FileSource, WavFileSink]:
    """File mode: ``input_path`` (WAV/FLAC/MP3) in, a WAV of the replies out. ``realtime=True`` paces
    both like devices (benchmarks: endpointing and barge-in happen as they would live)."""
    source = FileSource(input_path, realtime=realtime, clock=clock)
    sink = WavFileSink(output_path, realtime=realtime, clock=clock)
    return source, sink


async def device_io(
    input_device: int | str | None = None,
    output_device: int | str | None = None,
    *,
    clock: Clock | None = None,
) -> tuple[MicrophoneSource, SpeakerSink]:
    """Live mode: the microphone and speaker (by index or name; None: the defaults), the speaker
    already running. Raises ``AudioDeviceError`` (pointing at file mode) when there is no device."""
    from voice_agent.audio.devices import MicrophoneSource, SpeakerSink, resolve_device

    resolve_device(input_device, "input")  # fail before anything starts
    sink = SpeakerSink(output_device, clock=clock)
    await sink.start()
    return MicrophoneSource(input_device, clock=clock), sink
