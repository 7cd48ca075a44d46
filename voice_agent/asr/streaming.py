"""Partial transcripts while the person speaks: the LocalAgreement-2 policy (after whisper_streaming).

The growing utterance is decoded every so often; the words on which two consecutive decodes agree are
committed. Later decodes see all the audio (the encoder is cheap with short windows, and the acoustic
context keeps the tail accurate) but the committed words are forced on the decoder as a prefix, so only
the unconfirmed tail is generated token by token. At the end of speech only that tail is left, which is
what cuts the final-transcript latency. ``finish`` does not change the committed state, so it can run
speculatively when a pause begins and be thrown away if the person goes on talking.
"""

from __future__ import annotations

import time
from dataclasses import replace

from voice_agent.asr.base import AsrResult, AsrSegment, SpeechRecognizer, join_words
from voice_agent.asr.filters import normalize_text
from voice_agent.frames import PcmFloat32, Transcript, Word

SAMPLE_RATE_HZ = 16_000
MIN_DECODE_S = 0.3  # less new audio than this is not worth a decode
LANGUAGE_LOCK_S = 1.0  # lock the utterance's language once a decode of this much audio was sure of it
LANGUAGE_LOCK_PROB = 0.5
SEAM_NGRAM = 5  # a decode may repeat up to this many committed words at its start
STABLE_MARGIN_S = 0.4  # words ending this close to the end of the decoded audio are never committed


def _key(word: Word) -> str:
    return normalize_text(word.text)


def result_logprob(result: AsrResult) -> float:
    return min((s.avg_logprob for s in result.segments), default=0.0)


class StreamingTranscriber:
    """LocalAgreement over one utterance at a time (``reset`` between utterances)."""

    def __init__(self, recognizer: SpeechRecognizer, *, language: str | None = None) -> None:
        self.recognizer = recognizer
        self._forced_language = language
        self.reset()

    def reset(self) -> None:
        self.committed: list[Word] = []
        self._hypothesis: list[Word] = []
        self._decoded_samples = 0
        self.language: str | None = self._forced_language
        self.decodes = 0

    @property
    def committed_text(self) -> str:
        return join_words(self.committed, self.language or "en")

    @property
    def committed_s(self) -> float:
        return self.committed[-1].end_s if self.committed else 0.0

    def needs_update(self, audio_samples: int, interval_ms: int) -> bool:
        return (
            audio_samples - self._decoded_samples
            >= max(MIN_DECODE_S * 1000, interval_ms) * SAMPLE_RATE_HZ / 1000
        )

    async def update(self, audio: PcmFloat32) -> Transcript:
        """Decode the utterance so far; commit what two decodes agree on; return the partial."""
        self._decoded_samples = len(audio)
        if len(audio) < MIN_DECODE_S * SAMPLE_RATE_HZ:
            return self._partial(self._hypothesis)
        result = await self._decode(audio)
        words = self._new_words(result)
        stable_until_s = len(audio) / SAMPLE_RATE_HZ - STABLE_MARGIN_S
        agreed = 0
        while (
            agreed < min(len(words), len(self._hypothesis))
            and _key(words[agreed]) == _key(self._hypothesis[agreed])
            and words[agreed].end_s <= stable_until_s
        ):
            agreed += 1
        self.committed.extend(words[:agreed])
        self._hypothesis = words[agreed:]
        return self._partial(self._hypothesis)

    async def finish(self, audio: PcmFloat32) -> AsrResult:
        """The final transcript: committed words + a decode of the unconfirmed tail only."""
        started = time.perf_counter()
        if not self.committed:
            result = await self._decode(audio)
            return replace(
                result, attrs={**result.attrs, "committed_words": 0, "tail_words": len(result.words)}
            )
        result = await self._decode(audio)
        words = self._new_words(result)
        language = self.language or result.language
        all_words = tuple(self.committed + words)
        text = join_words(all_words, language)
        segment = AsrSegment(text, 0.0, len(audio) / SAMPLE_RATE_HZ, all_words, result_logprob(result))
        return AsrResult(
            text=text,
            language=language,
            language_probability=result.language_probability,
            segments=(segment,) if text else (),
            duration_s=len(audio) / SAMPLE_RATE_HZ,
            elapsed_s=time.perf_counter() - started,
            dropped=result.dropped,
            dropped_segments=result.dropped_segments,
            attrs={**result.attrs, "committed_words": len(self.committed), "tail_words": len(words)},
        )

    async def _decode(self, audio: PcmFloat32) -> AsrResult:
        self.decodes += 1
        result = await self.recognizer.transcribe(
            audio, language=self.language, prefix=self.committed_text or None
        )
        if (
            self.language is None
            and result.text
            and len(audio) >= LANGUAGE_LOCK_S * SAMPLE_RATE_HZ
            and result.language_probability >= LANGUAGE_LOCK_PROB
        ):
            self.language = result.language
        return result

    def _new_words(self, result: AsrResult) -> list[Word]:
        """The continuation's words, minus any repeat of the committed tail at its start."""
        words = list(result.words)
        if not words and result.text:  # a decode without word timings: keep its text as one word
            words = [Word(result.text, self.committed_s, result.duration_s, 1.0)]
        committed_keys = [_key(w) for w in self.committed[-SEAM_NGRAM:]]
        for n in range(min(SEAM_NGRAM, len(committed_keys), len(words)), 0, -1):
            if committed_keys[-n:] == [_key(w) for w in words[:n]]:
                return words[n:]
        return words

    def _partial(self, hypothesis: list[Word]) -> Transcript:
        words = tuple(self.committed + hypothesis)
        return Transcript(join_words(words, self.language or "en"), self.language or "", False, words)
