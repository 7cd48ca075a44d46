"""Speech recognition: audio in, a transcript with language, segments and word timings out."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from voice_agent.frames import PcmFloat32, Transcript, Word


@dataclass(frozen=True)
class AsrSegment:
    text: str
    start_s: float
    end_s: float
    words: tuple[Word, ...] = ()
    avg_logprob: float = 0.0
    no_speech_prob: float = 0.0
    compression_ratio: float = 1.0


@dataclass(frozen=True)
class AsrResult:
    """One decode. ``dropped`` holds segment texts the hallucination filter removed (kept for traces)."""

    text: str
    language: str
    language_probability: float
    segments: tuple[AsrSegment, ...]
    duration_s: float
    elapsed_s: float
    dropped: tuple[str, ...] = ()
    attrs: dict[str, Any] = field(default_factory=dict)

    @property
    def words(self) -> tuple[Word, ...]:
        return tuple(w for s in self.segments for w in s.words)

    @property
    def real_time_factor(self) -> float:
        return self.elapsed_s / self.duration_s if self.duration_s > 0 else 0.0

    def to_transcript(self, *, is_final: bool, t_ns: int = 0) -> Transcript:
        return Transcript(self.text, self.language, is_final, self.words, t_ns)

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "language": self.language,
            "language_probability": round(self.language_probability, 4),
            "duration_s": round(self.duration_s, 3),
            "elapsed_s": round(self.elapsed_s, 3),
            "real_time_factor": round(self.real_time_factor, 4),
            "segments": [
                {
                    "start_s": round(s.start_s, 3),
                    "end_s": round(s.end_s, 3),
                    "text": s.text,
                    "avg_logprob": round(s.avg_logprob, 4),
                    "no_speech_prob": round(s.no_speech_prob, 4),
                    "words": [
                        {
                            "text": w.text,
                            "start_s": round(w.start_s, 3),
                            "end_s": round(w.end_s, 3),
                            "probability": round(w.probability, 4),
                        }
                        for w in s.words
                    ],
                }
                for s in self.segments
            ],
            **({"dropped": list(self.dropped)} if self.dropped else {}),
        }


_NO_SPACE_BEFORE = tuple("-'’.,!?;:)]}%")


def join_words(words: list[Word] | tuple[Word, ...], language: str) -> str:
    """Words back into text: no spaces in Chinese/Japanese, none before "-sposed" or "'s"."""
    if language in ("zh", "yue", "ja"):
        return "".join(w.text for w in words).strip()
    out = ""
    for w in words:
        out += w.text if not out or w.text.startswith(_NO_SPACE_BEFORE) else " " + w.text
    return out.strip()


@runtime_checkable
class SpeechRecognizer(Protocol):
    name: str
    multilingual: bool

    async def start(self) -> None:
        """Load the model (explicitly; nothing loads at import or construction)."""
        ...

    async def transcribe(
        self,
        audio: PcmFloat32,
        *,
        language: str | None = None,
        prompt: str | None = None,
        prefix: str | None = None,
        word_timestamps: bool = True,
    ) -> AsrResult:
        """Transcribe 16 kHz mono float32 audio. ``language`` None: detect it; ``prompt``: text said
        before this audio (context); ``prefix``: the known start of this audio's transcript, forced on
        the decoder: the result then holds only the continuation (text and words after the prefix)."""
        ...

    async def close(self) -> None: ...
