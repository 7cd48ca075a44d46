"""Dislikes said as a gripe, in a shape the rule patterns do not read: "Dinnae get me started on that lo-fi
hip hop stuff", "Don't get me started on musicals" (the thing after "started on", without "that" or
"stuff"), or as anything rather than it: "I'd honestly rather run through a hailstorm than get on a
treadmill". Read by ``constraints`` in the person's own words (``avoid``)."""

from __future__ import annotations

import re

__all__ = ["GRIPE_EN", "RATHER_THAN_EN"]

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
