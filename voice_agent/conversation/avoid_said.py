"""How a dislike or a vow is said back: in the words people use for it.

"你说过不想要包饺子，所以我会避免包饺子。" is how a form reads; the person said "我是真烦包饺子", and
hears themselves in "你说过受不了包饺子，所以包饺子就算了。". A vow ("再也不碰除草剂了", "never again
with Ryanair") is said back as a vow, anything else as it was ("you don't want …").
"""

from __future__ import annotations

import re

_I = re.IGNORECASE
_DISLIKE = re.compile(
    r"\b(?:hate|hates|can't stand|cannot stand|can't bear|cannot bear|can't abide|cannot abide|loathe|"
    r"detest|dislike|not a fan|can't stick|sick of|fed up with|do my head in|does my head in)\b|"
    r"受不了|讨厌|烦|不喜欢|不爱|反感|腻|忍不了|看不惯|膈应|烦死|受够",
    _I,
)
_VOW = re.compile(
    r"\b(?:never again|never,? ever|never (?:going|gonna|touch|use|book|fly|do|set foot)|done with|"
    r"swore off|sworn off|finished with|not again)\b|"
    r"再也不|再不|以后(?:都)?不|这辈子(?:都)?不|打死(?:也|都)不|绝不|戒了",
    _I,
)


# How each is said back, by language: {n} is the thing kept off.
_SAID = {
    "dislike": ("You told me you can't stand {n}, so no {n}.", "你说过受不了{n}，所以{n}就算了。"),
    "vow": ("You told me it's never again with {n}, so no {n}.", "你说过再也不碰{n}了，所以{n}就算了。"),
    "": ("You told me you don't want {n}, so no {n}.", "你说过不想要{n}，所以{n}就算了。"),
}


def avoid_explanation(noun_en: str, noun_zh: str, source: str, language: str) -> str:
    """The safe sentence's reason for keeping off ``noun``: said as a dislike, a vow, or plainly."""
    said_as = "dislike" if _DISLIKE.search(source) else "vow" if _VOW.search(source) else ""
    zh = language == "zh"
    return _SAID[said_as][zh].format(n=noun_zh if zh else noun_en)
