"""A cheap "is the sentence complete?" check on a (partial) transcript, for earlier endpointing.

Whisper punctuates what it hears. A transcript that ends in ``? ! 。 ？ ！``, or in a period after a
word that can end a sentence, is taken as a finished turn; one that ends in a comma, an ellipsis, a
conjunction, an article, a preposition or a filler ("and", "the", "to", "um", "因为", "的") is not, so
the endpointer keeps waiting for the full silence instead of cutting the person off mid-thought.
"""

from __future__ import annotations

import re

STRONG_END = ("?", "!", "。", "？", "！")
WEAK_END = (".",)
OPEN_END = (",", ";", ":", "-", "…", "...", "，", "、", "；", "：")
DANGLING_EN = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "but",
        "so",
        "because",
        "if",
        "when",
        "while",
        "although",
        "though",
        "unless",
        "until",
        "since",
        "than",
        "then",
        "to",
        "of",
        "in",
        "on",
        "at",
        "for",
        "with",
        "from",
        "by",
        "about",
        "into",
        "onto",
        "over",
        "under",
        "between",
        "like",
        "as",
        "my",
        "your",
        "his",
        "her",
        "our",
        "their",
        "its",
        "this",
        "that",
        "these",
        "those",
        "which",
        "who",
        "whom",
        "whose",
        "where",
        "what",
        "how",
        "why",
        "is",
        "are",
        "was",
        "were",
        "am",
        "be",
        "been",
        "being",
        "do",
        "does",
        "did",
        "have",
        "has",
        "had",
        "will",
        "would",
        "can",
        "could",
        "should",
        "may",
        "might",
        "must",
        "i",
        "you",
        "we",
        "they",
        "he",
        "she",
        "it",
        "um",
        "uh",
        "er",
        "erm",
        "hmm",
        "well",
        "also",
        "just",
        "really",
        "very",
        "not",
    ]
)
DANGLING_ZH = (
    "的",
    "和",
    "跟",
    "与",
    "或者",
    "还是",
    "但是",
    "可是",
    "因为",
    "所以",
    "如果",
    "然后",
    "就是",
    "那个",
    "这个",
    "嗯",
    "呃",
    "啊",
    "在",
    "把",
    "被",
    "是",
)
_WORD = re.compile(r"[\w']+", re.UNICODE)


def looks_complete(text: str) -> bool:
    """True when ``text`` reads like a finished sentence (see the module doc)."""
    t = text.strip().strip("\"'”’)」』")
    if not t:
        return False
    if t.endswith(OPEN_END):
        return False
    stem = t.rstrip("".join(STRONG_END + WEAK_END))
    if stem.endswith(DANGLING_ZH):
        return False
    words = _WORD.findall(stem.lower())
    if words and words[-1] in DANGLING_EN:
        return False
    return t.endswith(STRONG_END + WEAK_END)
