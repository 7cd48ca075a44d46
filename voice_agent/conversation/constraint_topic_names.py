"""Where a sentence names a known topic: its keys found as whole words ("nuts", not "ice skating"), and
the narrowest topic where one name sits inside another. A Chinese name inside a word that means something
else is none (奶 in 喂奶, 咸 in 咸阳)."""

from __future__ import annotations

import functools
import re

from voice_agent.conversation.constraint_terms import TOPICS, Topic
from voice_agent.conversation.place_names_zh import CITY_RE
from voice_agent.text.cjk import has_han
from voice_agent.text.colour_names import names_colour


def named_topics(lowered: str) -> list[Topic]:
    """The topics ``lowered`` names, the narrowest where one name sits inside another: "羊肉" is lamb,
    not all meat; "red meat" is not chicken."""
    # (the cities named, found once for every topic's matches: 咸 in 咸阳 is no salt)
    cities = [m.span() for m in CITY_RE.finditer(lowered)] if has_han(lowered) else []
    spans = [
        (t, m.start(), m.end())
        for t in TOPICS.values()
        for k in t.keys
        for m in key_matches(lowered, k)
        if not _other_word(t, lowered, m, cities)
    ]
    named = [
        topic
        for topic, start, end in spans
        if not any(s <= start and end <= e and (e - s) > (end - start) for _, s, e in spans)
    ]
    return list(dict.fromkeys(named))


def _other_word(topic: Topic, lowered: str, match: re.Match[str], cities: list[tuple[int, int]]) -> bool:
    """A Chinese name inside a word that means something else (奶 in 喂奶 is feeding a baby, 蚕豆 in 蚕豆病
    is a condition): the exceptions the topic's term of the same text carries; a food named as a colour
    is none (奶油色的墙, "cream-coloured tiles"), nor a name inside a city's (``cities``: their spans)."""
    word = match.group(0)
    if names_colour(lowered, match.end()):
        return True
    if any(start <= match.start() and match.end() <= end for start, end in cities):
        return True
    # (the term of the same text, else the longest that starts the name: 炸 for "炸的" in "又吼又炸的课")
    starts = [term for term in topic.terms_zh if word.startswith(term.text)]
    if not starts:
        return False
    term = max(starts, key=lambda term: len(term.text))
    before, after = lowered[: match.start()], lowered[match.start() + len(term.text) :]
    return any(map(before.endswith, term.not_before)) or any(map(after.startswith, term.not_after))


def key_matches(lowered: str, key: str) -> list[re.Match[str]]:
    return list(_key_pattern(key).finditer(lowered))


@functools.cache
def _key_pattern(key: str) -> re.Pattern[str]:
    """A topic key's pattern, compiled once: the topics have more keys than ``re`` caches patterns, so
    building them per call recompiled every one of them for each sentence read (tens of milliseconds)."""
    if has_han(key):
        return re.compile(re.escape(key))
    # (not a pastime named after it: "ice skating", "an ice rink", "dairy farming" are no food)
    # (a food named by its -ing is food: "tahini dressing", "peanut icing", "egg pudding")
    return re.compile(
        rf"(?<![a-z]){re.escape(key)}(?:s|es)?(?![a-z])"
        rf"(?![ -](?!{_FOOD_ING}\b)(?:[a-z]+ing|rinks?|hockey)\b)"
    )


_FOOD_ING = "(?:dressing|icing|stuffing|filling|pudding|topping|frosting|seasoning|coating|dumpling)s?"
