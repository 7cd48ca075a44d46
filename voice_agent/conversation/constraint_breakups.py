"""Things kept off, told as a falling-out with them: "me and anything made of natural rubber are not on
speaking terms", "me and anything with a caffeine kick have officially filed for divorce", "coffee and I
broke up years ago", "coconut's my kryptonite"; "医生话佢同芒果呢样嘢係死对头", "我跟香菜是死对头".

A falling-out is said of a person; said of a thing, it keeps the thing off for good. Read with the thing
where the figure puts it, stripped of "anything made of" and of the word for its effect ("a caffeine
kick" is caffeine). The kind is left to the caller, which reads the story around it.
"""

from __future__ import annotations

import re

from voice_agent.conversation.constraint_topic_names import named_topics
from voice_agent.text.cjk import HAN_CLASS

_I = re.IGNORECASE

# The thing, after what it may be wrapped in: "anything made of", "everything with a".
_WRAP_EN = (
    r"(?:(?:anything|everything|stuff|whatever)\s+(?:(?:that's\s+)?(?:made (?:of|from|with)|with|containing|"
    r"that has|that's got|cooked (?:in|with))\s+)?(?:a |an |any |the )?)?"
)
_THING_EN = r"(?P<x>(?!(?:but|and|so|that)\b)[a-z]+(?:[ -](?!and\b|i\b|me\b)[a-z]+){0,2}?)"
# What the thing does, not the thing: "a caffeine kick", "a sugar rush", "the gluten in it".
_EFFECT_EN = r"(?:\s+(?:kick|hit|buzz|jolt|rush|in it|in them))?"
_FALLEN_OUT_EN = (
    r"(?:are|'re|have|'ve|had)?\s*(?:now\s+|officially\s+|long\s+|well and truly\s+|finally\s+)?"
    r"(?:not on speaking terms|no longer on speaking terms|(?:filed for (?:a )?divorce|divorced|broken up|"
    r"broke up|split up|parted ways|fallen out|fell out|had a falling[- ]out)|(?:don't|do not|just don't) "
    r"get (?:along|on))\b"
)
_ME_AND_EN = re.compile(
    r"\b(?:me|i)\s+and\s+" + _WRAP_EN + _THING_EN + _EFFECT_EN + r"\s+" + _FALLEN_OUT_EN, _I
)
# The body that fell out with it: "My guts and anything made from wheat, barley or rye parted ways".
_MY_GUT_AND_EN = re.compile(
    r"\b(?:my|his|her)\s+(?:guts?|stomach|tummy|belly|body|insides|system)\s+and\s+"
    + _WRAP_EN
    + r"(?P<x>[a-z]+(?:,\s*[a-z]+){0,4}(?:,?\s+(?:or|and)\s+[a-z]+)?)\s+"
    + _FALLEN_OUT_EN,
    _I,
)
_AND_ME_EN = re.compile(
    r"(?:^|[,;:.!?]\s*|\b(?:but|and|so)\s+)"
    + _WRAP_EN
    + _THING_EN
    + _EFFECT_EN
    + r"\s+and\s+(?:i|me)\s+"
    + _FALLEN_OUT_EN,
    _I,
)
# "coconut's my kryptonite" (the contraction the enemy idiom does not read).
_ENEMY_SHORT_EN = re.compile(
    r"(?:^|[,;:.!?]\s*|\b(?:but|and|so|that)\s+)(?P<x>(?!(?:but|and|so|that)\b)[a-z]+(?:[ -][a-z]+)?)'s\s+"
    r"(?:now\s+|always been\s+)?"
    r"(?:my|his|her|our|their)\s+(?:(?:worst|sworn|mortal|number one|biggest|personal)\s+)?"
    r"(?:enemy|nemesis|kryptonite|arch-?enemy)\b",
    _I,
)
# People and pets fall out with us too: "me and my husband", "the cat's my nemesis".
_NOT_THINGS_EN = re.compile(
    r"^(?:he|she|they|we|you|it|him|her|them|this|that|(?:my|our|his|her) \w+|life|work|the world|everything|"
    r"anything|(?:the |my )?(?:kids?|husband|wife|partner|boyfriend|girlfriend|sister|brother|mum|mom|dad|"
    r"mother|father|boss|ex|cat|dog|neighbou?rs?|family|\w+-in-law|landlord|teacher))$",
    _I,
)
_THING_ZH = rf"(?P<x>{HAN_CLASS}{{1,6}}?)"
# "同芒果呢样嘢係死对头", "跟香菜是死对头", "和榴莲是冤家", "我同芒果真系八字唔夹" (the stars do not match).
_FOE_ZH = re.compile(
    r"(?:跟|同|和|与)(?![我你他她佢俺咱人])" + _THING_ZH + r"(?:呢样嘢|呢啲嘢|这东西|这玩意儿?|这样东西)?"
    r"(?:(?:係|是|就是|简直是|简直係|天生|真系|真是|真的)(?:一对)?)?"
    r"(?:死对头|冤家|天敌|仇人|死敌|八字不合|八字唔夹|八字相冲|相克)"
)


def breakup_matches(text: str) -> list[re.Match[str]]:
    """Each thing the person has fallen out with, as a match with the thing in group ``x``."""
    found = [*_ME_AND_EN.finditer(text), *_AND_ME_EN.finditer(text), *_ENEMY_SHORT_EN.finditer(text),
             *_MY_GUT_AND_EN.finditer(text)]  # fmt: skip
    found = [m for m in found if not _NOT_THINGS_EN.match(m.group("x").strip()) and not _named(text, m)]
    return found + list(_FOE_ZH.finditer(text))


def _named(text: str, match: re.Match[str]) -> bool:
    """A capitalised thing is someone's name ("Me and Dave fell out", "Tom and I broke up"), unless it is
    a known food or thing at the start of a sentence ("Coffee and I broke up years ago")."""
    start = match.start("x")
    if not text[start].isupper():
        return False
    at_sentence_start = not text[:start].strip() or text[:start].rstrip()[-1] in ".!?:;"
    return not (at_sentence_start and named_topics(match.group("x").lower()))
