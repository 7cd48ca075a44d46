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
# Decode window: once committed words cover enough audio, a decode starts a little before the last
# WINDOW_PREFIX_WORDS committed words. Those words are forced on the decoder as its prefix (so an
# imprecise cut cannot change them) and the committed text before them goes in as Whisper's previous-
# text prompt. The encoder and the word alignment then see a few seconds instead of the whole utterance.
WINDOW_PREFIX_WORDS = 3
WINDOW_MARGIN_S = 0.15  # the cut is this far before the first forced word's start
WINDOW_MIN_CUT_S = 1.0  # trimming less than this is not worth it


def _key(word: Word) -> str:
    return normalize_text(word.text)


def result_logprob(result: AsrResult) -> float:
    return min((s.avg_logprob for s in result.segments), default=0.0)


class StreamingTranscriber:
    """LocalAgreement over one utterance at a time (``reset`` between utterances)."""

    def __init__(
        self, recognizer: SpeechRecognizer, *, language: str | None = None, trim_window: bool = True
    ) -> None:
        self.recognizer = recognizer
        self._forced_language = language
        self.trim_window = trim_window
        self.reset()

    def reset(self) -> None:
        self.committed: list[Word] = []
        self._hypothesis: list[Word] = []
        self._decoded_samples = 0
        self.language: str | None = self._forced_language
        self.decodes = 0
        self.last_window_s = 0.0  # audio the last decode encoded (for traces)

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
            attrs={
                **result.attrs,
                "committed_words": len(self.committed),
                "tail_words": len(words),
                "window_s": round(self.last_window_s, 3),
            },
        )

    def _window(self) -> tuple[float, str, str]:
        """(cut in seconds, previous-text prompt, forced prefix) for the next decode."""
        everything = self.committed_text or ""
        if not self.trim_window or len(self.committed) <= WINDOW_PREFIX_WORDS:
            return 0.0, "", everything
        first_forced = len(self.committed) - WINDOW_PREFIX_WORDS
        cut_s = self.committed[first_forced].start_s - WINDOW_MARGIN_S
        if cut_s < WINDOW_MIN_CUT_S or cut_s <= self.committed[first_forced - 1].start_s:
            return 0.0, "", everything  # too little to trim, or timings too tight to cut between words
        language = self.language or "en"
        prompt = join_words(self.committed[:first_forced], language)
        prefix = join_words(self.committed[first_forced:], language)
        return cut_s, prompt, prefix

    async def _decode(self, audio: PcmFloat32) -> AsrResult:
        self.decodes += 1
        cut_s, prompt, prefix = self._window()
        cut = int(cut_s * SAMPLE_RATE_HZ)
        self.last_window_s = (len(audio) - cut) / SAMPLE_RATE_HZ
        result = await self.recognizer.transcribe(
            audio[cut:], language=self.language, prompt=prompt or None, prefix=prefix or None
        )
        if (
            self.language is None
            and result.text
            and len(audio) >= LANGUAGE_LOCK_S * SAMPLE_RATE_HZ
            and result.language_probability >= LANGUAGE_LOCK_PROB
        ):
            self.language = result.language
        if cut:
            result = _shifted(result, cut_s, len(audio) / SAMPLE_RATE_HZ)
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


def _shifted(result: AsrResult, offset_s: float, duration_s: float) -> AsrResult:
    """A window's result on the utterance's clock: word and segment times moved by ``offset_s``."""

    def move(word: Word) -> Word:
        return replace(word, start_s=word.start_s + offset_s, end_s=word.end_s + offset_s)

    segments = tuple(
        replace(
            s,
            start_s=s.start_s + offset_s,
            end_s=s.end_s + offset_s,
            words=tuple(move(w) for w in s.words),
        )
        for s in result.segments
    )
    return replace(result, segments=segments, duration_s=duration_s)
