"""faster-whisper (CTranslate2) recognition, off the event loop.

Why not just ``WhisperModel.transcribe``: it pads every call to a 30 s window, so a 2 s question costs
as much encoder time as 30 s of speech (about 0.8 s here), and with ``language=None`` it encodes twice
(once to detect the language). For utterances up to ~29 s we call the CTranslate2 model directly with
the mel features of the audio plus one second of silence: one encoder pass of the real length, language
detection from that same encoder output, greedy/beam decoding bounded by the audio length, then word
alignment. That is 3-5x faster at the same transcripts (see tests/test_asr.py for the WER check).
Longer audio (``voice-agent transcribe`` of a recording) goes through ``WhisperModel.transcribe``,
whose lazy segments are consumed inside the worker thread.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from voice_agent.asr.base import AsrResult, AsrSegment, DroppedSegment, join_words
from voice_agent.asr.device import Placement, choose_placement, cuda_device_count
from voice_agent.asr.filters import (
    CHINESE_LANGUAGES,
    SIMPLIFIED_PROMPT,
    DecodeContext,
    compression_ratio,
    has_loop,
    judge_segment,
    normalize_text,
    repetition_cut,
    to_simplified,
)
from voice_agent.config import AsrConfig
from voice_agent.errors import BackendError, ConfigError, InputError, ModelError
from voice_agent.frames import PcmFloat32, Word

logger = logging.getLogger(__name__)

SAMPLE_RATE_HZ = 16_000
HOP_SAMPLES = 160
MAX_FRAMES = 3000  # Whisper's 30 s window
# Silence appended before a short-window encode. 1 s already keeps LibriVox WER, but partial audio cut
# mid-word loops ("what is the weather, what is the weather, ...") far less with a few seconds of room.
PAD_S = 4.0
# Models decoded with short windows (LibriVox, this machine: base keeps its 2.8 % WER at a third of the
# time; tiny.en goes from 1.4 % to 7 % WER but is the fastest option, which is what it is chosen for).
# A short-window decode that loops or is unsure of itself is retried with the full 30 s window.
SHORT_WINDOW_MODELS = frozenset({"whisper-base", "whisper-tiny-en"})
SHORT_WINDOW_MAX_S = 29.0
TOKENS_PER_S = 12  # generous ceiling for speech (Chinese is the densest), bounds hallucination loops
LANGUAGE_MIN_PROB = 0.5  # below this, keep the previous utterance's language
PROMPT_MAX_CHARS = 200
PREFIX_MAX_TOKENS = 200
LOOPING_RATIO = 99.0  # compression ratio reported for a decode that never reached end-of-text


@dataclass(frozen=True)
class _Request:
    audio: PcmFloat32
    language: str | None
    prompt: str
    prefix: str
    word_timestamps: bool

    @property
    def duration_s(self) -> float:
        return len(self.audio) / SAMPLE_RATE_HZ


class WhisperRecognizer:
    """``SpeechRecognizer`` over a faster-whisper model folder (CTranslate2 format)."""

    def __init__(self, config: AsrConfig, model_dir: Path, *, model_path: Path | None = None) -> None:
        self.config = config
        self.name: str = config.model
        self.multilingual = config.model != "whisper-tiny-en"
        self._model_dir = Path(model_dir)
        self._model_path = model_path
        self._model: Any = None
        self._lock = threading.Lock()  # one decode at a time: the 2 cores are shared with everything else
        self._last_language: str | None = None
        self.placement: Placement | None = None  # where the model runs, once started
        if not self.multilingual and config.language not in (None, "en"):
            raise ConfigError(
                f"{config.model} only transcribes English; "
                f"use asr.model = 'whisper-base' for {config.language!r}",
                key="asr.language",
            )

    async def start(self) -> None:
        if self._model is None:
            placement = choose_placement(self.config.device, self.config.compute_type, cuda_device_count())
            try:
                await self._load_and_warm(placement)
            except (ModelError, BackendError) as err:
                if placement.device == "cpu" or not placement.automatic:
                    raise
                logger.warning("whisper on CUDA failed (%s); falling back to the CPU", err)
                await self._load_and_warm(choose_placement("cpu", self.config.compute_type, 0))

    async def _load_and_warm(self, placement: Placement) -> None:
        self._model = await asyncio.to_thread(self._load, placement)
        try:
            # the first decode pays one-off costs (allocations, kernel selection): pay them now, not
            # on the first thing the person says (on a GPU it also finds missing CUDA libraries)
            await self.transcribe(np.zeros(SAMPLE_RATE_HZ // 2, dtype=np.float32), language="en")
        except BackendError:
            self._model = None
            raise
        self.placement = placement

    def _load(self, placement: Placement) -> Any:
        from faster_whisper import WhisperModel

        from voice_agent.provision import locate

        path = self._model_path or locate(self.config.model, self._model_dir)
        try:
            model = WhisperModel(
                str(path),
                device=placement.device,
                compute_type=placement.compute_type,
                cpu_threads=self.config.threads(),
            )
        except Exception as err:
            raise ModelError(
                f"cannot load {self.config.model} from {path}: {err}", model=self.name, path=str(path)
            ) from err
        self.multilingual = bool(model.model.is_multilingual)
        repaired = repaired_tokenizer(Path(path) / "tokenizer.json")
        if repaired is not None:
            model.hf_tokenizer = repaired
        return model

    async def close(self) -> None:
        self._model = None

    async def transcribe(
        self,
        audio: PcmFloat32,
        *,
        language: str | None = None,
        prompt: str | None = None,
        prefix: str | None = None,
        word_timestamps: bool = True,
    ) -> AsrResult:
        if self._model is None:
            raise ModelError("WhisperRecognizer.start() was not called", model=self.name)
        audio = np.asarray(audio, dtype=np.float32).reshape(-1)
        if len(audio) == 0:
            raise InputError("no audio to transcribe")
        language = language or self.config.language or (None if self.multilingual else "en")
        request = _Request(audio, language, (prompt or "").strip(), (prefix or "").strip(), word_timestamps)
        return await asyncio.to_thread(self._transcribe_sync, request)

    def _transcribe_sync(self, request: _Request) -> AsrResult:
        started = time.perf_counter()
        with self._lock:
            waited_s = time.perf_counter() - started  # another decode held the model
            try:
                if request.duration_s <= SHORT_WINDOW_MAX_S:
                    short = self.name in SHORT_WINDOW_MODELS
                    window = "short" if short else "30s"
                    segment, lang, prob = self._decode_window(request, short)
                    if short and _suspicious(segment):  # retry the way Whisper was trained
                        # (in the detected language, whose probability is still the detection's)
                        segment, lang, _ = self._decode_window(replace(request, language=lang), False)
                        window = "short, retried with 30s"
                    if segment.compression_ratio == LOOPING_RATIO:
                        segment = _cut_loop(segment, lang)
                    segments = [segment]
                else:
                    window = "windowed"
                    segments, lang, prob = self._decode_long(request)
            except (InputError, ModelError):
                raise
            except Exception as err:  # CTranslate2 / tokenizer errors
                raise BackendError(f"decoding failed: {err}", backend=f"whisper:{self.name}") from err
        context = DecodeContext(lang, prob, request.language is not None, self._expected_languages())
        result = _finish(segments, context, request.duration_s, time.perf_counter() - started)
        # noise "in Nynorsk" must not become the language of the next unsure utterance
        if (prob >= LANGUAGE_MIN_PROB and result.text) or request.language is not None:
            self._last_language = lang
        result.attrs.update({"window": window, "waited_s": round(waited_s, 4)})
        return result

    def _expected_languages(self) -> tuple[str, ...]:
        if self.config.language:
            return (self.config.language,)
        return tuple(self.config.expected_languages) if self.multilingual else ("en",)

    # -- short audio: one encoder pass of the real length ---------------------------------------------
    def _encode(self, audio: PcmFloat32, short: bool) -> Any:
        model = self._model
        window_s = MAX_FRAMES * HOP_SAMPLES / SAMPLE_RATE_HZ
        pad_s = PAD_S if short else max(PAD_S, window_s - len(audio) / SAMPLE_RATE_HZ)
        padded = np.concatenate([audio, np.zeros(int(pad_s * SAMPLE_RATE_HZ), dtype=np.float32)])
        features = model.feature_extractor(padded)[:, :MAX_FRAMES]
        return model.encode(features)

    def _decode_window(self, request: _Request, short: bool) -> tuple[AsrSegment, str, float]:
        from faster_whisper.tokenizer import Tokenizer
        from faster_whisper.transcribe import get_suppressed_tokens

        model = self._model
        encoder_output = self._encode(request.audio, short)
        lang, prob = self._pick_language(encoder_output, request.language)
        tokenizer = Tokenizer(
            model.hf_tokenizer,
            model.model.is_multilingual,
            task="transcribe",
            language=lang if self.multilingual else None,
        )
        prefix_ids = (
            list(tokenizer.encode(" " + request.prefix))[-PREFIX_MAX_TOKENS:] if request.prefix else []
        )
        prompt_ids = model.get_prompt(
            tokenizer, self._prompt_tokens(tokenizer, lang, request.prompt), without_timestamps=True
        )
        prompt_ids = prompt_ids + prefix_ids
        budget = int(TOKENS_PER_S * request.duration_s) + 16
        max_length = min(model.max_length, len(prompt_ids) + budget)
        result = model.model.generate(
            encoder_output,
            [prompt_ids],
            beam_size=self.config.beam_size,
            max_length=max_length,
            return_scores=True,
            return_no_speech_prob=True,
            suppress_blank=not prefix_ids,
            suppress_tokens=get_suppressed_tokens(tokenizer, [-1]),
        )[0]
        generated = list(result.sequences_ids[0])
        if prefix_ids and generated[: len(prefix_ids)] == prefix_ids:
            generated = generated[len(prefix_ids) :]  # CTranslate2 returns the forced prefix too
        tokens = [t for t in generated if t < tokenizer.eot]
        avg_logprob = float(result.scores[0]) * len(tokens) / (len(tokens) + 1) if tokens else -10.0
        text = tokenizer.decode(tokens).strip()
        words: tuple[Word, ...] = ()
        if request.word_timestamps and tokens:
            words = self._align(tokenizer, prefix_ids, tokens, encoder_output, request)
        # never reached end-of-text, or repeats itself (also across the forced prefix)
        looping = len(prompt_ids) + len(generated) >= max_length or has_loop(f"{request.prefix} {text}")
        segment = AsrSegment(
            text=text,
            start_s=words[0].start_s if words else 0.0,
            end_s=request.duration_s,
            words=words,
            avg_logprob=avg_logprob,
            no_speech_prob=float(result.no_speech_prob),
            compression_ratio=LOOPING_RATIO if looping else compression_ratio(text),
        )
        return segment, lang, prob

    def _pick_language(self, encoder_output: Any, forced: str | None) -> tuple[str, float]:
        if forced is not None:
            return forced, 1.0
        ranked = self._model.model.detect_language(encoder_output)[0]
        token, prob = ranked[0]
        lang = token[2:-2]
        if prob < LANGUAGE_MIN_PROB and self._last_language is not None:
            return self._last_language, float(prob)
        return lang, float(prob)

    def _prompt_tokens(self, tokenizer: Any, lang: str, prompt: str) -> list[int]:
        text = prompt[-PROMPT_MAX_CHARS:]
        if lang in CHINESE_LANGUAGES:
            text = SIMPLIFIED_PROMPT + text
        return list(tokenizer.encode(" " + text)) if text else []

    def _align(
        self, tokenizer: Any, prefix_ids: list[int], tokens: list[int], encoder_output: Any, request: _Request
    ) -> tuple[Word, ...]:
        """Word timings of ``tokens`` (aligned together with the prefix, so they land after it)."""
        from faster_whisper.transcribe import merge_punctuations

        num_frames = len(request.audio) // HOP_SAMPLES
        alignment = self._model.find_alignment(tokenizer, [prefix_ids + tokens], encoder_output, num_frames)[
            0
        ]
        merge_punctuations(alignment, "\"'“¿([{-", "\"'.。,，!！?？:：”)]}、")
        words = []
        seen_tokens = 0
        for item in alignment:
            seen_tokens += len(item["tokens"])
            text = str(item["word"]).strip()
            if not text or seen_tokens <= len(prefix_ids):
                continue
            start = min(float(item["start"]), request.duration_s)
            end = min(max(float(item["end"]), start), request.duration_s)
            words.append(Word(text, round(start, 3), round(end, 3), float(item["probability"])))
        return tuple(words)

    # -- long audio: faster-whisper's own 30 s windowing ---------------------------------------------
    def _decode_long(self, request: _Request) -> tuple[list[AsrSegment], str, float]:
        initial = request.prompt
        if request.language in CHINESE_LANGUAGES:
            initial = SIMPLIFIED_PROMPT + initial
        pieces, info = self._model.transcribe(
            request.audio,
            language=request.language,
            beam_size=self.config.beam_size,
            word_timestamps=request.word_timestamps,
            initial_prompt=initial or None,
            prefix=request.prefix or None,
            vad_filter=True,
            condition_on_previous_text=False,
        )
        segments = [
            AsrSegment(
                text=s.text.strip(),
                start_s=float(s.start),
                end_s=float(s.end),
                words=tuple(
                    Word(w.word.strip(), float(w.start), float(w.end), float(w.probability))
                    for w in s.words or ()
                ),
                avg_logprob=float(s.avg_logprob),
                no_speech_prob=float(s.no_speech_prob),
                compression_ratio=float(s.compression_ratio),
            )
            for s in pieces  # the lazy generator is consumed here, in the worker thread
        ]
        return segments, str(info.language), float(info.language_probability)


def repaired_tokenizer(path: Path) -> Any:
    """The model's BPE tokenizer with any merge missing from its file put back, or None if intact.

    The whisper-base upload we install lacks the very first merge ("Ġ t"), so " the" and " to" encode as
    two odd tokens. Decoding is unaffected, but every text we *encode* (prompts, the forced prefix of
    streaming) would be off-distribution and derail the decoder ("like nd run nd"). Merges are ranked in
    the order of the ids they produce (256 upward), which tells where a missing one belongs.
    """
    import json

    import tokenizers

    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    model = data.get("model", {})
    vocab: dict[str, int] = model.get("vocab", {})
    merges: list[Any] = model.get("merges", [])
    if model.get("type") != "BPE" or not merges:
        return None
    as_pairs = [m.split(" ") if isinstance(m, str) else list(m) for m in merges]
    produced = {vocab.get(a + b) for a, b in as_pairs}
    first = min(i for i in produced if i is not None)
    fixed = list(as_pairs)
    for token_id in range(first - 1, -1, -1):  # ids just below the first produced one: merges lost at the top
        token = next((t for t, i in vocab.items() if i == token_id), None)
        split = _split_token(token, vocab, token_id) if token else None
        if split is None:
            break
        fixed.insert(0, split)
    if len(fixed) == len(as_pairs):
        return None
    model["merges"] = [" ".join(p) for p in fixed] if isinstance(merges[0], str) else fixed
    return tokenizers.Tokenizer.from_str(json.dumps(data))


def _split_token(token: str, vocab: dict[str, int], token_id: int) -> list[str] | None:
    """Two lower-id vocabulary tokens that join into ``token`` (a single byte is not a merge)."""
    for cut in range(1, len(token)):
        a, b = token[:cut], token[cut:]
        if vocab.get(a, token_id) < token_id and vocab.get(b, token_id) < token_id:
            return [a, b]
    return None


def _cut_loop(segment: AsrSegment, language: str) -> AsrSegment:
    """Keep a looping decode up to where it starts repeating itself (words are needed to cut)."""
    units = [normalize_text(w.text) for w in segment.words]
    cut = repetition_cut(units, min_block=3)
    if cut is None or not segment.words:
        return replace(segment, text="") if not segment.words else segment
    words = segment.words[:cut]
    return replace(segment, text=join_words(words, language), words=words, compression_ratio=1.0)


def _suspicious(segment: AsrSegment) -> bool:
    """A short-window decode that loops, ran out of length, or is unsure of itself."""
    return segment.compression_ratio > 2.4 or (bool(segment.text) and segment.avg_logprob < -1.0)


def _finish(
    segments: list[AsrSegment], context: DecodeContext, duration_s: float, elapsed_s: float
) -> AsrResult:
    lang, prob = context.language, context.language_probability
    kept: list[AsrSegment] = []
    dropped: list[DroppedSegment] = []
    for segment in segments:
        verdict = judge_segment(segment, context)
        if verdict is not None:
            dropped.append(DroppedSegment(segment, verdict.rule, verdict.detail))
            continue
        if lang in CHINESE_LANGUAGES:
            segment = _simplified(segment)
        kept.append(segment)
    joiner = "" if lang in ("zh", "yue", "ja") else " "
    text = joiner.join(s.text for s in kept).strip()
    summaries = tuple(f"{d.segment.text} [{d.rule}]" for d in dropped if d.segment.text)
    return AsrResult(text, lang, prob, tuple(kept), duration_s, elapsed_s, summaries, tuple(dropped))


def _simplified(segment: AsrSegment) -> AsrSegment:
    words = tuple(Word(to_simplified(w.text), w.start_s, w.end_s, w.probability) for w in segment.words)
    return AsrSegment(
        to_simplified(segment.text),
        segment.start_s,
        segment.end_s,
        words,
        segment.avg_logprob,
        segment.no_speech_prob,
        segment.compression_ratio,
    )
