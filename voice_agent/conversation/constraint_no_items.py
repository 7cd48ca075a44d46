"""Things refused as a list of "no X": "please, no rooftop bars, no cable cars, none of that"; "the
urologist has me on a low-oxalate thing now: no spinach, …, no dark chocolate, no beetroot"."""

from __future__ import annotations

import re

_I = re.IGNORECASE
# Things refused in a list: "please, no rooftop bars, no cable cars, none of that": two or more "no X"
# in one sentence, or one after "please".
_NO_ITEM_EN = re.compile(
    r"\bno (?P<x>[a-z][a-z -]{1,30}?)(?=\s*[,.;!]|\s*$|\s+(?:and|or|please|ever|either)\b)", _I
)
_PLEASE_NO_EN = re.compile(r"\bplease,?\s+no\s", _I)
_SOMEONES = re.compile(r"\b(?:i|i'm|me|my|we|our|us|he|she|his|her|they|their|house|home|diet)\b", _I)


_REFUSING_EN = re.compile(
    r"\b(?:please|ever|never|none of|nothing|not|don't|do not|no more|done with|either|means|meaning)\b", _I
)
NOT_A_THING_EN = frozenset((
    "problem", "problems", "worries", "worry", "idea", "clue", "way", "thanks", "doubt", "rush", "pressure",
    "matter", "time", "one", "more", "longer", "need", "chance", "kidding", "joke", "offence", "offense",
    "big deal", "reason", "luck", "room", "space", "sleep", "rest", "peace", "love", "fun", "money", "help",
    "hope", "sense", "choice", "mercy", "excuse", "excuses", "place", "job", "work", "news", "answer",
    "stress", "fuss", "drama", "bother", "hassle", "judgement", "judgment",
))  # fmt: skip


def _a_thing(said: str) -> bool:
    return said not in NOT_A_THING_EN and not said.startswith("other ")  # ("unless there's no other way")


def refused_items(text: str) -> list[re.Match[str]]:
    """The things a sentence refuses as a list of "no X" ("please, no rooftop bars, no cable cars, none
    of that"): after "please", or two or more with a word of refusal ("ever", "none of", "not")."""
    out: list[re.Match[str]] = []
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        items = [m for m in _NO_ITEM_EN.finditer(sentence) if _a_thing(m.group("x").lower())]
        # (three said in a row of someone's own rule need no other word: "has me on a low-oxalate thing now:
        # no spinach, …, no beetroot"; not a way of making things: "No nails, no screws, no glue")
        refusing = (len(items) >= 3 and _SOMEONES.search(sentence)) or (
            len(items) >= 2 and _REFUSING_EN.search(sentence)
        )
        if refusing or (items and _PLEASE_NO_EN.search(sentence)):
            out += items
    return out
