"""What Whisper says when nobody spoke, and how to recognise it; Chinese script normalisation.

Whisper was trained on subtitled video, so on noise or silence it often "hears" closing credits:
"Thanks for watching", "字幕由Amara.org社区提供", "请不吝点赞 订阅 转发 打赏支持明镜与点点栏目".
A segment is dropped when its text is one of those, when the decoder itself says there was no speech
(no_speech_prob with a low log-probability, the rule Whisper uses), or when it loops (compression ratio).
"""

from __future__ import annotations

import re
import unicodedata

from voice_agent.asr.base import AsrSegment

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

NO_SPEECH_PROB = 0.6
LOW_LOGPROB = -1.0
MAX_COMPRESSION_RATIO = 2.4
WEAK_NO_SPEECH_PROB = 0.2
WEAK_LOGPROB = -0.6

_PUNCT = re.compile(r"[^\w\s]", re.UNICODE)
_SPACES = re.compile(r"\s+")


def normalize_text(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    text = _PUNCT.sub("", text.replace("'", "").replace("’", ""))
    return _SPACES.sub(" ", text).strip()


def hallucination_reason(segment: AsrSegment) -> str | None:
    """Why ``segment`` should be dropped, or None to keep it."""
    norm = normalize_text(segment.text)
    if not norm:
        return "empty"
    if segment.compression_ratio > MAX_COMPRESSION_RATIO:
        return "repetitive"
    if segment.no_speech_prob > NO_SPEECH_PROB and segment.avg_logprob < LOW_LOGPROB:
        return "no speech"
    compact = norm.replace(" ", "")
    for phrase in KNOWN_PHRASES:
        if phrase in norm or (not phrase.isascii() and phrase.replace(" ", "") in compact):
            return f"known hallucination ({phrase})"
    weak_audio = segment.no_speech_prob > WEAK_NO_SPEECH_PROB or segment.avg_logprob < WEAK_LOGPROB
    if norm in WEAK_PHRASES and weak_audio:
        return "weak audio, stock phrase"
    return None


def speech_units(text: str) -> list[str]:
    """Words, or characters for scripts written without spaces (for repetition checks)."""
    norm = normalize_text(text)
    if any("\u3040" <= ch <= "\u9fff" for ch in norm):
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
