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
class DroppedSegment:
    """A segment the hallucination filter removed, with the rule that removed it and what it saw."""

    segment: AsrSegment
    rule: str
    detail: str

    def to_json(self) -> dict[str, Any]:
        s = self.segment
        return {
            "text": s.text,
            "start_s": round(s.start_s, 3),
            "end_s": round(s.end_s, 3),
            "rule": self.rule,
            "detail": self.detail,
            "avg_logprob": round(s.avg_logprob, 4),
            "no_speech_prob": round(s.no_speech_prob, 4),
            "compression_ratio": round(s.compression_ratio, 3),
        }


@dataclass(frozen=True)
class AsrResult:
    """One decode. ``dropped`` holds "text [rule]" of each non-empty segment the hallucination filter
    removed (kept for traces); ``dropped_segments`` the segments themselves, with rule and detail."""

    text: str
    language: str
    language_probability: float
    segments: tuple[AsrSegment, ...]
    duration_s: float
    elapsed_s: float
    dropped: tuple[str, ...] = ()
    dropped_segments: tuple[DroppedSegment, ...] = ()
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
            **self._dropped_json(),
        }

    def _dropped_json(self) -> dict[str, Any]:
        if self.dropped_segments:
            return {"dropped": [d.to_json() for d in self.dropped_segments]}
        return {"dropped": [{"text": text} for text in self.dropped]} if self.dropped else {}


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
