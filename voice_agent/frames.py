"""Frozen dataclasses passed between the stages of the chain. Units are in the names."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

PcmInt16 = npt.NDArray[np.int16]
PcmFloat32 = npt.NDArray[np.float32]


@dataclass(frozen=True)
class AudioFrame:
    """A slice of mono audio, float32 in [-1, 1]. ``t_ns`` is the capture time of its first sample."""

    samples: PcmFloat32
    sample_rate_hz: int
    t_ns: int = 0

    @property
    def duration_ms(self) -> float:
        return 1000.0 * len(self.samples) / self.sample_rate_hz


@dataclass(frozen=True)
class Word:
    text: str
    start_s: float
    end_s: float
    probability: float = 1.0


@dataclass(frozen=True)
class Transcript:
    text: str
    language: str
    is_final: bool
    words: tuple[Word, ...] = ()
    t_ns: int = 0


@dataclass(frozen=True)
class Utterance:
    """One endpointed stretch of speech, ready for final transcription."""

    audio: PcmFloat32
    sample_rate_hz: int
    speech_start_ns: int
    speech_end_ns: int
    endpoint_ns: int  # when the endpointer decided the turn was over


@dataclass(frozen=True)
class Sentence:
    """A piece of the reply released by the sentence splitter (a clause or a sentence)."""

    text: str
    index: int
    t_ns: int = 0


@dataclass(frozen=True)
class SpeechChunk:
    """Synthesised audio for one sentence, int16 mono."""

    pcm: PcmInt16
    sample_rate_hz: int
    sentence_index: int = 0
    text: str = ""
    meta: dict[str, str] = field(default_factory=dict)

    @property
    def duration_ms(self) -> float:
        return 1000.0 * len(self.pcm) / self.sample_rate_hz
