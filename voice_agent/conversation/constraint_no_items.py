"""Things refused as a list of "no X": "please, no rooftop bars, no cable cars, none of that"; "the
urologist has me on a low-oxalate thing now: no spinach, …, no dark chocolate, no beetroot"."""

from __future__ import annotations

import re

_I = re.IGNORECASE
# Things refused in a list: "please, no rooftop bars, no cable cars, none of that": two or more "no X"
# in one sentence, or one after "please".
# (and what goes on the list: "no meat, nothing non-veg, not even eggs"; "no onion or garlic either")
_LIST_END = r"(?=\s*[,.;!]|\s*$|\s+(?:and|or|please|ever|either)\b)"
# (not a bound: "no more than an hour's drive", "no later than six")
_NO_ITEM_EN = re.compile(
    rf"\bno (?!(?:more|less|fewer|longer|later|earlier|further|farther|sooner|bigger|higher)\s+than\b)"
    rf"(?P<x>[a-z][a-z -]{{1,30}}?){_LIST_END}",
    _I,
)
# What goes on such a list: "nothing non-veg", "not even eggs", "not even a stock cube" (one thing, not a
# circumstance: "not even a splash in a sauce", "not even in stock", "nothing made with atta")
_NOT_A_NAME = (
    r"(?:in|on|at|for|with|to|from|when|if|made|that|like|them|the|this|those|these|my|his|her|their|our)\b"
)
_EVEN_ITEM_EN = re.compile(
    rf"\b(?:nothing (?=non-)|not even (?:an? |any |one )?(?!{_NOT_A_NAME}))"
    rf"(?P<x>[a-z]+(?:[ -][a-z]+)?){_LIST_END}",
    _I,
)
# (and the list goes on without its own "no": "not even onion, garlic or mushrooms now"; not into what is
# allowed: "no coffee, just fruit, vegetables and water")
_AFTER = r"(?:please|ever|either|now|for now|at all|too|neither|whatsoever|anymore|any more)\b"
_NOT_LISTED = r"(?:no|not|nothing|just|only|but|except|apart|plus|so|then)\b"
_WORDS = rf"(?!{_NOT_LISTED})[a-z]+(?: (?!{_AFTER}|or\b|and\b)[a-z]+)?"
_TAIL_EN = re.compile(
    rf"(?:(?:,\s*|,?\s+(?:or|and)\s+){_WORDS}){{0,4}},?\s+(?:or|and)\s+{_WORDS}(?=\s*[,.;!]|\s*$|\s+{_AFTER})",
    _I,
)
_TAIL_ITEM = re.compile(rf"(?:,|\bor\b|\band\b)\s*(?P<x>(?!or\b|and\b){_WORDS})", _I)
_PLEASE_NO_EN = re.compile(r"\bplease,?\s+no\s", _I)
# Not the least of it, which refuses alone: "not one drop of booze while I'm on it", "not a crumb of gluten".
_NOT_A_DROP_EN = re.compile(
    r"\b(?:not|never) (?:one|a|a single|even a) (?:drop|sip|drip|bite|crumb|mouthful|morsel|trace) of "
    r"(?P<x>[a-z]+(?:[ -][a-z]+)?)(?=\s*[,.;!]|\s*$|\s+(?:while|when|until|till|for|during|and|or|in)\b|"
    # (a doorway it never passes: "not one drop of alcohol crosses our gate")
    r"\s+(?:crosses|passes|enters|comes (?:in|into|through)|gets (?:in|past|through)|touches)\s+"
    r"(?:our|my|his|her|their|the)\s+(?:gate|door|doorstep|threshold|lips|mouth|house|home|kitchen)\b)",
    _I,
)
# The thing kept away from the person, named in the middle: "keep that mint muck away from my gob".
_KEEP_AWAY_EN = re.compile(
    r"\b(?:keep|kept|keeping|get) (?:that|the|those|any|all|your)\s+"
    r"(?!(?:kids|children|people|men|women|guys|lads|girls|boys|dogs?|cats?|neighbou?rs?)\b)"  # (who)
    r"(?P<x>[a-z]+(?:[ -][a-z]+)??)(?:\s+(?:muck|stuff|rubbish|crap|junk|gunk|goop|things?))?\s+"
    r"(?:well\s+)?away from (?:me|us|him|her|(?:my|our|his|her) (?:gob|mouth|plate|face|food|table|lips))\b",
    _I,
)
# The animal whose every part is refused: "nothing from pig, not even those gummy sweets", "nothing off
# a pig".
_NOTHING_FROM_EN = re.compile(
    r"\b(?:nothing|not a thing|none of what comes)\s+(?:that\s+(?:ever\s+)?(?:comes?|came)\s+)?"
    r"(?:from|off|off of|out of)\s+(?:a\s+|the\s+)?(?P<x>pigs?|hogs?|swine)\b"
    r"(?!\s+(?:farms?|farmers?|pens?|sty|market|shop|race))",
    _I,
)
# Being without, told as a story: "woke up on a stoep with no shoes, no phone and one eyebrow", "we had no
# water, no signal" (not "make it with no onion, no garlic").
_WENT_WITHOUT_EN = re.compile(
    r"(?:\b(?:had|has|have|got|left)\s+(?:with\s+)?|"
    r"\b(?:woke|ended|came|found|turned|showed|was|were|got)\b[^.!?]{0,60}?\bwith\s+)$",
    _I,
)
_SOMEONES = re.compile(r"\b(?:i|i'm|me|my|we|our|us|he|she|his|her|they|their|house|home|diet)\b", _I)


_REFUSING_EN = re.compile(
    r"\b(?:please|ever|never|none of|nothing|not|don't|do not|no more|done with|either|means|meaning)\b", _I
)
NOT_A_THING_EN = frozenset((
    "problem", "problems", "worries", "worry", "idea", "clue", "way", "thanks", "doubt", "rush", "pressure",
    "matter", "time", "one", "more", "longer", "need", "chance", "kidding", "joke", "offence", "offense",
    "big deal", "reason", "luck", "room", "space", "sleep", "rest", "peace", "love", "fun", "money", "help",
    "hope", "sense", "choice", "mercy", "excuse", "excuses", "place", "job", "work", "news", "answer",
    "stress", "fuss", "drama", "bother", "hassle", "judgement", "judgment", "else", "much", "special",
    "fancy", "new", "wrong", "left", "once", "close", "yet", "really",
))  # fmt: skip


def _a_thing(said: str) -> bool:
    return said not in NOT_A_THING_EN and not said.startswith("other ")  # ("unless there's no other way")


def refused_items(text: str) -> list[re.Match[str]]:
    """The things a sentence refuses as a list of "no X" ("please, no rooftop bars, no cable cars, none
    of that"): after "please", or two or more with a word of refusal ("ever", "none of", "not")."""
    out: list[re.Match[str]] = []
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        found = [*_NO_ITEM_EN.finditer(sentence), *_EVEN_ITEM_EN.finditer(sentence)]
        found += [more for m in found for more in _going_on(sentence, m.end())]
        items = [m for m in found if _a_thing(m.group("x").lower())]
        if found and _WENT_WITHOUT_EN.search(sentence, 0, min(m.start() for m in found)):
            items = []
        # (three said in a row of someone's own rule need no other word: "has me on a low-oxalate thing now:
        # no spinach, …, no beetroot"; not a way of making things: "No nails, no screws, no glue")
        refusing = (len(items) >= 3 and _SOMEONES.search(sentence)) or (
            len(items) >= 2 and _REFUSING_EN.search(sentence)
        )
        if refusing or (items and _PLEASE_NO_EN.search(sentence)):
            out += items
        # (not water: "not even a sip of water during the day" is a fast's hours, read as the fast)
        out += [m for m in _NOT_A_DROP_EN.finditer(sentence) if m.group("x").lower() != "water"]
        out += [*_NOTHING_FROM_EN.finditer(sentence), *_KEEP_AWAY_EN.finditer(sentence)]
    return out


def _going_on(sentence: str, end: int) -> list[re.Match[str]]:
    """The items a refused item's list goes on with, after ``end``: ", garlic or mushrooms"."""
    tail = _TAIL_EN.match(sentence, end)
    if tail is None:
        return []
    return [m for m in _TAIL_ITEM.finditer(sentence, tail.start(), tail.end()) if m.group("x").strip()]
