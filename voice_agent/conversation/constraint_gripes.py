"""Dislikes said as a gripe, in a shape the rule patterns do not read: "Dinnae get me started on that lo-fi
hip hop stuff", "Don't get me started on musicals", "Don't be talking to me about lilies" (the thing after
"started on", without "that" or "stuff"), or as anything rather than it: "I'd honestly rather run through a
hailstorm than get on a treadmill", or as their own nightmare ("Okay, my absolute nightmare: karaoke.",
"Camping is my idea of hell", "my pet hate is open-plan offices"), or one more thing after a dislike ("I
just can't stand trivia, … Same with Trivial Pursuit at Christmas"). Read by ``constraints`` in the person's
own words (``avoid``)."""

from __future__ import annotations

import re

from voice_agent.text.cjk import HAN_CLASS

__all__ = ["gripes"]

GRIPE_EN = re.compile(
    r"\b(?:don't|dont|do not|dinnae|didnae|don't even|do not even)\s+(?:even\s+)?"
    r"(?:get me started on|(?:be\s+)?talk(?:ing)? to me about)\s+"
    r"(?:that|those|these|the|all that|all those)?\s*"
    r"(?P<x>[a-z][a-z'-]*(?:\s+[a-z][a-z'-]*){0,3}?)(?:\s+(?:stuff|things?|nonsense|rubbish|malarkey|rot))?"
    r"(?=\s*[.,;:!?—-]|\s+(?:again|either|please)\b|$)",
    re.IGNORECASE,
)
RATHER_THAN_EN = re.compile(
    r"\b(?:i'd|i would|we'd|we would|he'd|he would|she'd|she would)\s+(?:\w+\s+)?(?:much\s+)?rather\s+"
    r"[^.!?]{3,60}?\s+than\s+(?:(?:get|go|sit|be)\s+(?:on|in|through|at|to)\s+|(?:do|eat|have|use|ride|watch)\s+)?"
    r"(?:a|an|the|that|those|one of those)?\s*"
    # (no thing named: "rather chew through a stubby holder than do another one")
    r"(?!(?:another|other|nother|one|it|them|that|this)\b)"
    # (a thing, not a way to spend the time: "rather stay in than go out tonight")
    r"(?!(?:go|get|be|stay|sit|do|make|take|wait|pay|spend|work|sleep|stand|walk|run|see|come|leave)\b)"
    r"(?![a-z]{3,}ed\b)"  # (nor a state: "I'd rather be puffed than trapped")
    r"(?P<x>[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2}?)(?=\s*[.,;:!?—–-]|$)",
    re.IGNORECASE,
)
_MY_HELL = (
    r"my\s+(?:absolute\s+|worst\s+|personal\s+|biggest\s+|total\s+|living\s+|actual\s+|number one\s+)*"
    r"(?:nightmare|pet hate|pet peeve|idea of hell|idea of a nightmare|kryptonite)"
)
_HELL_THING = r"(?P<x>[a-z][a-z'-]*(?:\s+[a-z][a-z'-]*){0,3}?)"
_NIGHTMARE_EN = re.compile(
    # "my absolute nightmare: karaoke", "my pet hate is open-plan offices"
    rf"\b{_MY_HELL}\s*(?::|—|–|-|\bis\b|\bhas to be\b|\bwould be\b|\bwas\b)\s*(?:the\s+|any\s+|a\s+)?"
    rf"{_HELL_THING}(?=\s*[.,;:!?—–]|\s+(?:and|but|because|honestly)\b|$)",
    re.IGNORECASE,
)
_HELL_FIRST_EN = re.compile(
    # "camping is my idea of hell" (the thing first in its clause)
    rf"(?:^|[.!?;:,]\s*|\b(?:honestly|but|and|so|oh|okay|look)\s+)(?:the\s+|a\s+)?{_HELL_THING}\s+"
    rf"(?:is|are|was|were)\s+(?:honestly\s+|genuinely\s+|just\s+|literally\s+)?{_MY_HELL}\b",
    re.IGNORECASE,
)


_SAME_WITH_EN = re.compile(
    r"\b(?:can't|cannot|can not) (?:stand|bear|abide|stomach)\b[^.!?]{0,240}[.!?]\s+(?:and\s+|oh,?\s+)?"
    r"(?:the\s+)?same (?:with|goes for|for)\s+(?:the\s+|that\s+|any\s+)?"
    r"(?P<x>[A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*){0,2}?)(?=\s*[.,;:!?]|\s+(?:at|in|on|too|as well|and)\b|$)",
    re.IGNORECASE,
)


# A kind of thing disliked, then listed after a colon: "I can't stand anything snug up around my throat:
# turtlenecks, mock necks, those roll-neck sweaters".
_ANYTHING_LISTED_EN = re.compile(
    r"\b(?:can't|cannot|can not) (?:stand|bear|abide|stomach|wear|tolerate)\s+anything\b[^.:;!?]{0,60}:\s*"
    r"(?P<x>[^.!?:;]{3,120})",
    re.IGNORECASE,
)


# The thing first, then the one thing not stomached: "Mushrooms are the one thing I just cannot stomach".
_THE_ONE_THING_EN = re.compile(
    r"(?:^|[.!?;:,]\s*|\b(?:honestly|but|and|so|oh)\s+)(?P<x>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,2}?)\s+"
    r"(?:is|are) (?:the|one) (?:one |only |single )?things? (?:that )?(?:i|he|she|we|they) (?:just |really |"
    r"absolutely |simply )?(?:can't|cannot|can not|won't|will not|couldn't) (?:stomach|stand|eat|bear|abide|"
    r"do|touch|face)\b",
    re.IGNORECASE,
)


# What the person cannot stand, said with 对 first: "我对那种嘴巴发出来的声音真是受不了" (遭不住 and 硬是
# are read as 受不了 and 真是, ``dialect_zh``).
_TOWARDS_ZH = re.compile(
    rf"对(?!我|你|他|她|人|此|这事|那事)(?:那种|这种)?(?P<x>{HAN_CLASS}{{1,12}}?)"
    r"(?:真是|真的|实在|就是|是|特别|最|完全)?(?:受不了|吃不消|忍不了|没法忍|忍受不了)"
)
# The one thing not stood, named after it: "我这人什么都吃,就一样儿受不了,螺蛳粉", "唯独一样东西碰不得：榴莲".
_ONE_THING_ZH = re.compile(
    r"(?:就|只有|唯独|就是)(?:一样儿?|一样东西|一个东西|一种)(?:东西)?(?:我)?(?:真|实在)?"
    r"(?:受不了|吃不了|吃不来|不吃|接受不了|碰不得|不能碰|扛不住)[，,:：]\s*"
    rf"(?P<x>{HAN_CLASS}{{2,8}}?)(?=[，,。；;！!]|$)"
)
# "this noise" after "I can't stand", of the thing got just before: "弄了个那种机械键盘，青轴的，一打字咔哒
# 咔哒…我这人就受不了这动静" (机械键盘).
_THIS_NOISE_ZH = re.compile(r"受不了(?:这|那)(?:个)?(?:动静|声音|声儿|响动|味儿?|玩意儿?)")
_GOT_BEFORE_ZH = re.compile(
    rf"(?:弄了|买了|搞了|装了|带了|养了|换了)(?:个|台|只|条|套)?(?:那种|这种)?(?P<x>{HAN_CLASS}{{2,6}}?)"
    r"(?=[，,。；;！!]|$)"
)


def gripes(text: str) -> list[re.Match[str]]:
    """The things ``text`` gripes about in the shapes above (group ``x``): "don't get me started on",
    "rather … than", the person's own nightmare, pet hate or idea of hell, "same with" after a dislike,
    "can't stand anything …:" and its list, "X is the one thing I cannot stomach", 对X受不了, 就一样受不了，X,
    and 受不了这动静 of the thing got just before."""
    return [
        *GRIPE_EN.finditer(text),
        *RATHER_THAN_EN.finditer(text),
        *_NIGHTMARE_EN.finditer(text),
        *_HELL_FIRST_EN.finditer(text),
        *_SAME_WITH_EN.finditer(text),
        *_ANYTHING_LISTED_EN.finditer(text),
        *_THE_ONE_THING_EN.finditer(text),
        *_TOWARDS_ZH.finditer(text),
        *_ONE_THING_ZH.finditer(text),
        *_got_before(text),
    ]


def _got_before(text: str) -> list[re.Match[str]]:
    """The thing got just before each "受不了这动静" (``_THIS_NOISE_ZH``)."""
    found = []
    for noise in _THIS_NOISE_ZH.finditer(text):
        got = list(_GOT_BEFORE_ZH.finditer(text, 0, noise.start()))
        found += got[-1:]
    return found
