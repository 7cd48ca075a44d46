"""Cheap per-utterance language detection and token estimates (no models, microseconds).

The ASR usually reports a language too; this is for text that arrives without one (CLI, imports,
LoCoMo) and for mixed utterances. Scripts decide first (Han → ``zh``, kana → ``ja``, Hangul → ``ko``,
Cyrillic → ``ru``, ...); Latin text is voted on with a few stopwords per language, ``en`` by default.
"""

from __future__ import annotations

import re

# The shared budget rule, defined in voice_agent.text.cjk (re-exported: memory code imports it from here).
from voice_agent.text.cjk import estimate_tokens as estimate_tokens
from voice_agent.text.cjk import is_cjk as is_cjk
from voice_agent.text.placeholders import PLACEHOLDER_SHAPE_RE

# PII placeholders like [PHONE:7f3a9c2e10]: their Latin letters say nothing about the language.
PLACEHOLDER_RE = PLACEHOLDER_SHAPE_RE

_LATIN_WORD_RE = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ']+")

# Whole-word stopwords that are frequent in speech and rare in the other listed languages.
_STOPWORD_TEXT: dict[str, str] = {
    "en": "the and is are was you i my it that this to of with have what don't i'm it's",
    "es": "el la los las que es y de en por para con una pero muy está yo",
    "fr": "le la les est et des une pour dans pas avec je vous c'est mais très",
    "de": "der die das und ist nicht ich sie mit ein eine auch sehr wir",
    "it": "il che di è per una non sono della gli anche molto ho",
    "pt": "o os que é não uma com para muito também eu você está",
}
_STOPWORDS = {lang: frozenset(words.split()) for lang, words in _STOPWORD_TEXT.items()}


def _script_counts(text: str) -> dict[str, int]:
    counts = {"han": 0, "kana": 0, "hangul": 0, "cyrillic": 0, "arabic": 0, "latin": 0}
    for ch in text:
        code = ord(ch)
        if 0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF or 0xF900 <= code <= 0xFAFF:
            counts["han"] += 1
        elif 0x3040 <= code <= 0x30FF:
            counts["kana"] += 1
        elif 0xAC00 <= code <= 0xD7AF or 0x1100 <= code <= 0x11FF:
            counts["hangul"] += 1
        elif 0x0400 <= code <= 0x04FF:
            counts["cyrillic"] += 1
        elif 0x0600 <= code <= 0x06FF:
            counts["arabic"] += 1
        elif ch.isalpha() and code < 0x0250:
            counts["latin"] += 1
    return counts


def _latin_language(words: list[str]) -> str:
    lowered = [w.lower() for w in words]
    votes = {lang: sum(1 for w in lowered if w in stop) for lang, stop in _STOPWORDS.items()}
    best = max(votes, key=lambda lang: votes[lang])
    # English wins ties and texts without any stopword (names, short commands).
    return best if votes[best] > votes["en"] else "en"


def detect_language(text: str) -> str:
    """ISO 639-1 code of the utterance's main language; ``"und"`` when it has no letters at all.

    A Han character weighs as much as a Latin word, so "我喜欢用 Python 写代码" is Chinese.
    """
    text = PLACEHOLDER_RE.sub(" ", text)
    counts = _script_counts(text)
    words = _LATIN_WORD_RE.findall(text)
    latin_words = len(words)
    if counts["kana"] > 0 and counts["kana"] + counts["han"] >= latin_words:
        return "ja"
    if counts["hangul"] > 0 and counts["hangul"] >= latin_words:
        return "ko"
    if counts["han"] > 0 and counts["han"] >= latin_words:
        return "zh"
    other = {"cyrillic": "ru", "arabic": "ar"}
    for script, code in other.items():
        if counts[script] > counts["latin"]:
            return code
    if latin_words == 0:
        return "und" if counts["han"] == 0 else "zh"
    return _latin_language(words)


def normalize_language(language: str | None) -> str | None:
    """Map ASR/config spellings onto the codes the chunker knows (``zh-CN``, ``yue``, ``cmn`` → ``zh``)."""
    if language is None:
        return None
    code = language.strip().lower().replace("_", "-")
    if not code:
        return None
    base = code.split("-", 1)[0]
    if base in {"zh", "yue", "cmn", "wuu", "chinese"}:
        return "zh"
    if base in {"en", "english"}:
        return "en"
    return base
