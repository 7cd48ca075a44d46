"""Dislikes said as a gripe, in a shape the rule patterns do not read: "Dinnae get me started on that lo-fi
hip hop stuff", "Don't get me started on musicals" (the thing after "started on", without "that" or
"stuff"), or as anything rather than it: "I'd honestly rather run through a hailstorm than get on a
treadmill", or as their own nightmare ("Okay, my absolute nightmare: karaoke.", "Camping is my idea of
hell", "my pet hate is open-plan offices"). Read by ``constraints`` in the person's own words (``avoid``)."""

from __future__ import annotations

import re

__all__ = ["GRIPE_EN", "RATHER_THAN_EN", "nightmares"]

GRIPE_EN = re.compile(
    r"\b(?:don't|dont|do not|dinnae|didnae|don't even|do not even)\s+(?:even\s+)?get me started on\s+"
    r"(?:that|those|these|the|all that|all those)?\s*"
    r"(?P<x>[a-z][a-z'-]*(?:\s+[a-z][a-z'-]*){0,3}?)(?:\s+(?:stuff|things?|nonsense|rubbish|malarkey|rot))?"
    r"(?=\s*[.,;:!?—-]|\s+(?:again|either|please)\b|$)",
    re.IGNORECASE,
)
RATHER_THAN_EN = re.compile(
    r"\b(?:i'd|i would|we'd|we would|he'd|he would|she'd|she would)\s+(?:\w+\s+)?(?:much\s+)?rather\s+"
    r"[^.!?]{3,60}?\s+than\s+(?:(?:get|go|sit|be)\s+(?:on|in|through|at|to)\s+|(?:do|eat|have|use|ride|watch)\s+)?"
    r"(?:a|an|the|that|those|one of those)?\s*"
    # (a thing, not a way to spend the time: "rather stay in than go out tonight")
    r"(?!(?:go|get|be|stay|sit|do|make|take|wait|pay|spend|work|sleep|stand|walk|run|see|come|leave)\b)"
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


def nightmares(text: str) -> list[re.Match[str]]:
    """The things ``text`` calls the person's own nightmare, pet hate or idea of hell (group ``x``)."""
    return [*_NIGHTMARE_EN.finditer(text), *_HELL_FIRST_EN.finditer(text)]
