"""What Whisper says when nobody spoke, and how to recognise it; Chinese script normalisation.

Whisper was trained on subtitled video, so on noise, music or silence it "hears" something anyway, and
what it hears differs between CPUs (int8 kernels round differently): closing credits ("Thanks for
watching", "字幕由Amara.org社区提供"), a token repeated ("1.5% %, 1.5% %, 1.5% %"), or words in a language
it is unsure of. A list of known outputs cannot keep up with that, so most rules look at the *shape* of a
segment and at what the decoder said about itself. Each rule is small and named; the first that fires
drops the segment and its name and detail travel with the result (``AsrResult.dropped_segments``):

- ``empty``: no text at all;
- ``no-speech``: the decoder's no-speech probability is high and its log-probability weak (Whisper's own
  rule, with thresholds that also catch the milder cases seen on noise);
- ``repeated-ngram``: the segment is one phrase said three or more times in a row (a word: four);
- ``compression``: the text compresses too well for speech (a loop), with a lower bar for short text,
  where zlib's overhead hides repetition;
- ``no-words``: numbers (maybe with a unit) and symbols, mostly symbols or heard on weak audio;
- ``unsure-language``: the language was detected, with little confidence, and is not one we expect;
- ``known-phrase`` / ``stock-phrase-weak-audio``: credits that are never speech to us, and short stock
  phrases ("thank you", "bye") when the audio was weak.
"""

from __future__ import annotations

import re
import unicodedata
import zlib
from collections.abc import Callable
from dataclasses import dataclass

from voice_agent.asr.base import AsrSegment
from voice_agent.text.cjk import HAN, KANA, char_class

# normalised (lowercase, no punctuation, single spaces) phrases that are credits, never speech to us
KNOWN_PHRASES = (
    "thanks for watching",
    "thank you for watching",
    "thank you so much for watching",
    "please subscribe",
    "like and subscribe",
    "subscribe to my channel",
    "dont forget to subscribe",
    "subtitles by the amara org community",
    "subtitles by",
    "transcription by castingwords",
    "captions by",
    "字幕由",
    "字幕提供",
    "字幕志愿者",
    "中文字幕",
    "请不吝点赞",
    "点赞订阅",
    "订阅转发",
    "打赏支持",
    "明镜与点点",
    "谢谢观看",
    "感谢观看",
    "感谢您的观看",
    "优优独播剧场",
    "ご視聴ありがとうございました",
    "시청해주셔서 감사합니다",
)
# real phrases too, but also Whisper's favourite output on noise: kept only when the audio is clear
WEAK_PHRASES = (
    "thank you",
    "thanks",
    "you",
    "bye",
    "bye bye",
    "okay",
    "so",
    "oh",
    "uh",
    "um",
    "hmm",
    "谢谢",
    "嗯",
)

# no-speech: Whisper's own rule is 0.6 / -1.0; on noise it also says 0.57 / -0.61, while real speech
# (LibriVox, piper voices, streaming tails) stays below 0.2 no-speech probability
NO_SPEECH_PROB = 0.5
LOW_LOGPROB = -0.5
# compression: Whisper's own loop threshold, and a lower one for short text (real sentences under
# 160 bytes compress at most ~1.3, disfluent ones ~1.5; zlib's overhead hides repetition there)
MAX_COMPRESSION_RATIO = 2.4
SHORT_TEXT_BYTES = 160
SHORT_TEXT_MIN_BYTES = 24
MAX_SHORT_COMPRESSION_RATIO = 1.6
# repeated-ngram: one phrase said this many times in a row, making up most of the segment
NGRAM_MIN_REPEATS = 3
WORD_MIN_REPEATS = 4  # "no, no, no" is speech; "you you you you" is not
CHARACTER_MIN_REPEATS = 6  # 对对对 and 谢谢谢谢 are speech too
REPEAT_MIN_SHARE = 0.8
# unsure-language: a detection at least this sure is believed even when the language is unexpected
LANGUAGE_SURE_PROB = 0.8
# weak audio: the decoder doubts there was speech, or is unsure of its words
WEAK_NO_SPEECH_PROB = 0.2
WEAK_LOGPROB = -0.6
NUMBERS_WEAK_LOGPROB = -0.4  # numbers alone: below this, with a no-speech hint, not speech

_PUNCT = re.compile(r"[^\w\s]", re.UNICODE)
_SPACES = re.compile(r"\s+")
# a number, maybe with a short unit attached ("1.5kg", "50%", "12:30"); a unit on its own after one ("cm")
_DIGITS_ONE_BY_ONE = re.compile(r"(?:\d[\s.,;:-]+){3,}\d[\s.,;:!?-]*")  # four or more single digits
_NUMBER_TOKEN = re.compile(r"[\W_]*\d[\d.,:]*(?:[^\W\d_]{1,3})?[\W_]*")
_UNIT_TOKEN = re.compile(r"[^\W\d_]{1,3}[\W_]*")


@dataclass(frozen=True)
class DecodeContext:
    """What the decoder knew about the whole decode, beyond one segment."""

    language: str = ""
    language_probability: float = 1.0
    language_forced: bool = True  # given by the caller or config: nothing was detected
    expected_languages: tuple[str, ...] = ()  # empty: any language is expected


@dataclass(frozen=True)
class Verdict:
    """Why a segment is not speech: the rule's name and what it saw."""

    rule: str
    detail: str


# a rule gets the segment and the decode's context; it returns what it saw, or None to keep the segment
Rule = Callable[[AsrSegment, DecodeContext], str | None]


def normalize_text(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    text = _PUNCT.sub("", text.replace("'", "").replace("’", ""))
    return _SPACES.sub(" ", text).strip()


def weak_audio(segment: AsrSegment) -> bool:
    return segment.no_speech_prob > WEAK_NO_SPEECH_PROB or segment.avg_logprob < WEAK_LOGPROB


def compression_ratio(text: str) -> float:
    data = text.encode("utf-8")
    return len(data) / max(1, len(zlib.compress(data)))


def rule_empty(segment: AsrSegment, context: DecodeContext) -> str | None:
    return None if normalize_text(segment.text) else "no words in the text"


def rule_no_speech(segment: AsrSegment, context: DecodeContext) -> str | None:
    if segment.no_speech_prob > NO_SPEECH_PROB and segment.avg_logprob < LOW_LOGPROB:
        return (
            f"no_speech_prob {segment.no_speech_prob:.2f} > {NO_SPEECH_PROB} "
            f"with avg_logprob {segment.avg_logprob:.2f} < {LOW_LOGPROB}"
        )
    return None


def repeated_run(
    units: list[str], *, unit_min_repeats: int = WORD_MIN_REPEATS
) -> tuple[list[str], int] | None:
    """An n-gram said back to back often enough (``NGRAM_MIN_REPEATS``; a single unit
    ``unit_min_repeats``) to make up most of ``units``: the n-gram and its count, or None."""
    total = len(units)
    latest_start = int(total * (1 - REPEAT_MIN_SHARE))  # a later run cannot cover the share
    for size in range(1, total // NGRAM_MIN_REPEATS + 1):
        needed = unit_min_repeats if size == 1 else NGRAM_MIN_REPEATS
        for start in range(min(latest_start, total - size) + 1):
            gram = units[start : start + size]
            repeats = 1
            while units[start + repeats * size : start + (repeats + 1) * size] == gram:
                repeats += 1
            if repeats >= needed and repeats * size >= REPEAT_MIN_SHARE * total:
                return gram, repeats
    return None


def rule_repeated_ngram(segment: AsrSegment, context: DecodeContext) -> str | None:
    units = speech_units(segment.text)
    # a Chinese character is not a word: 谢谢谢谢 is "thanks, thanks"
    by_character = bool(units) and len(units[0]) == 1 and not units[0].isascii()
    run = repeated_run(units, unit_min_repeats=CHARACTER_MIN_REPEATS if by_character else WORD_MIN_REPEATS)
    if run is None:
        return None
    gram, repeats = run
    return f"{' '.join(gram)!r} {repeats} times in a row"


def rule_compression(segment: AsrSegment, context: DecodeContext) -> str | None:
    if segment.compression_ratio > MAX_COMPRESSION_RATIO:
        return f"compression ratio {segment.compression_ratio:.2f} > {MAX_COMPRESSION_RATIO}"
    size = len(segment.text.encode("utf-8"))
    if SHORT_TEXT_MIN_BYTES <= size <= SHORT_TEXT_BYTES:
        ratio = compression_ratio(segment.text)
        if ratio > MAX_SHORT_COMPRESSION_RATIO:
            return f"compression ratio {ratio:.2f} > {MAX_SHORT_COMPRESSION_RATIO} on {size} bytes"
    return None


def only_numbers(text: str) -> bool:
    """Numbers (with a short unit: "1.5kg", "1,5 cm", "50%") and symbols, no word."""
    after_number = False
    for token in text.split():
        if _NUMBER_TOKEN.fullmatch(token):
            after_number = True
        elif after_number and _UNIT_TOKEN.fullmatch(token):
            after_number = False
        elif any(ch.isalnum() for ch in token):
            return False
    return True


def rule_no_words(segment: AsrSegment, context: DecodeContext) -> str | None:
    """Numbers and symbols only: dropped when symbols outnumber the rest ("1.5% %, 1.5% %"), or when
    the audio was weak ("1.5kg" on noise). A clearly spoken number ("25.", "50%", "5 kg") stays."""
    text = unicodedata.normalize("NFKC", segment.text)
    if not only_numbers(text):
        return None
    content = sum(ch.isalnum() for ch in text)
    symbols = sum(not ch.isalnum() and not ch.isspace() for ch in text)
    if symbols > content:
        return f"no word: {symbols} symbols, {content} digits or letters"
    # A number alone needs both signs of weak audio: a PIN said clearly ("2, 4, 6, 8.") can carry a
    # no_speech_prob of 0.3, but the decoder is sure of its digits. Digits said one by one ("2. 4. 6.
    # 8.": a PIN, a phone number read out) are speech whatever the decoder's doubt: noise gives
    # quantities ("1.5kg"), and a kiosk dropping a spoken PIN sent the visitor away.
    if _DIGITS_ONE_BY_ONE.fullmatch(text.strip()):
        return None
    if segment.no_speech_prob > WEAK_NO_SPEECH_PROB and segment.avg_logprob < NUMBERS_WEAK_LOGPROB:
        return (
            f"no word, only numbers, on weak audio (no_speech_prob {segment.no_speech_prob:.2f}, "
            f"avg_logprob {segment.avg_logprob:.2f})"
        )
    return None


def rule_unsure_language(segment: AsrSegment, context: DecodeContext) -> str | None:
    if context.language_forced or not context.expected_languages:
        return None
    if context.language in context.expected_languages or context.language_probability >= LANGUAGE_SURE_PROB:
        return None
    return (
        f"language {context.language!r} detected with p={context.language_probability:.2f} "
        f"< {LANGUAGE_SURE_PROB}, expected {'/'.join(context.expected_languages)}"
    )


def rule_known_phrase(segment: AsrSegment, context: DecodeContext) -> str | None:
    norm = normalize_text(segment.text)
    compact = norm.replace(" ", "")
    for phrase in KNOWN_PHRASES:
        if phrase in norm or (not phrase.isascii() and phrase.replace(" ", "") in compact):
            return f"subtitle credit {phrase!r}"
    return None


def rule_stock_phrase(segment: AsrSegment, context: DecodeContext) -> str | None:
    norm = normalize_text(segment.text)
    if norm in WEAK_PHRASES and weak_audio(segment):
        return (
            f"stock phrase {norm!r} on weak audio (no_speech_prob {segment.no_speech_prob:.2f}, "
            f"avg_logprob {segment.avg_logprob:.2f})"
        )
    return None


RULES: tuple[tuple[str, Rule], ...] = (
    ("empty", rule_empty),
    ("no-speech", rule_no_speech),
    ("repeated-ngram", rule_repeated_ngram),
    ("compression", rule_compression),
    ("no-words", rule_no_words),
    ("unsure-language", rule_unsure_language),
    ("known-phrase", rule_known_phrase),
    ("stock-phrase-weak-audio", rule_stock_phrase),
)


def judge_segment(segment: AsrSegment, context: DecodeContext | None = None) -> Verdict | None:
    """The first rule that says ``segment`` is not speech, or None to keep it."""
    for name, rule in RULES:
        detail = rule(segment, context or DecodeContext())
        if detail is not None:
            return Verdict(name, detail)
    return None


def hallucination_reason(segment: AsrSegment, context: DecodeContext | None = None) -> str | None:
    """The name of the rule that drops ``segment``, or None to keep it."""
    verdict = judge_segment(segment, context)
    return verdict.rule if verdict is not None else None


_UNSPACED_SCRIPT = re.compile(char_class(KANA, HAN))  # written without spaces between words


def speech_units(text: str) -> list[str]:
    """Words, or characters for scripts written without spaces (for repetition checks)."""
    norm = normalize_text(text)
    if _UNSPACED_SCRIPT.search(norm):
        return [ch for ch in norm if not ch.isspace()]
    return norm.split()


def repetition_cut(units: list[str], *, min_block: int = 3) -> int | None:
    """Where a decoding loop starts: the end of the first copy of a block of at least ``min_block``
    units that is immediately repeated ("what is the weather what is the weather ..."), or None."""
    n = len(units)
    for i in range(n):
        for k in range(min_block, (n - i) // 2 + 1):
            if units[i : i + k] == units[i + k : i + 2 * k]:
                return i + k
    return None


def has_loop(text: str) -> bool:
    units = speech_units(text)
    block = 4 if units and len(units[0]) == 1 and not units[0].isascii() else 3
    return repetition_cut(units, min_block=block) is not None


CHINESE_LANGUAGES = ("zh", "yue")
SIMPLIFIED_PROMPT = "以下是普通话的句子，使用简体中文。"


def to_simplified(text: str) -> str:
    """Traditional → Simplified characters (character level, no regional word swaps)."""
    import zhconv

    converted: str = zhconv.convert(text, "zh-hans")
    return converted
