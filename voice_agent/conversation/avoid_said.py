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


def avoid_explanation(noun_en: str, noun_zh: str, source: str, language: str) -> str:
    """The safe sentence's reason for keeping off ``noun``: said as a dislike, a vow, or plainly."""
    disliked = _DISLIKE.search(source) is not None
    vowed = not disliked and _VOW.search(source) is not None
    if language == "zh":
        if disliked:
            return f"你说过受不了{noun_zh}，所以{noun_zh}就算了。"
        if vowed:
            return f"你说过再也不碰{noun_zh}了，所以{noun_zh}就算了。"
        return f"你说过不想要{noun_zh}，所以{noun_zh}就算了。"
    if disliked:
        return f"You told me you can't stand {noun_en}, so no {noun_en}."
    if vowed:
        return f"You told me you're done with {noun_en}, so no {noun_en}."
    return f"You told me you don't want {noun_en}, so no {noun_en}."
