"""A thing that spoils the person's mood or meal, told by its least amount: "one rubbery bite of mushroom and
my whole mood is spoilt for the day", "a single sip of that stuff and my evening's ruined". No body reacts,
so it is kept off (a dislike), not an intolerance."""

from __future__ import annotations

import re

__all__ = ["SPOILT_EN"]

SPOILT_EN = re.compile(
    r"\b(?:one|a single|a|just one|even one|the smallest|the tiniest)\s+(?:[a-z]+\s+)?"
    r"(?:bite|mouthful|forkful|spoonful|taste|sip|whiff|sniff|crumb)\s+(?:of\s+|o'\s*)"
    r"(?!(?:(?:those|that|the|any)\s+)?(?:things?|stuff|it|them)\b)(?:those\s+|that\s+|the\s+|any\s+)?"
    r"(?P<x>[a-z]+(?:[ -][a-z]+)?)\s*,?\s+and\s+(?:(?:my|the|our)\s+(?:whole\s+|entire\s+)?"
    r"(?:mood|day|evening|night|appetite|meal|dinner|lunch|breakfast|weekend)(?:'s|\s+is|\s+was|\s+gets|\s+got)\s+"
    r"(?:[a-z]+\s+)?(?:spoilt|spoiled|ruined|gone|wrecked|shot|over|done|dead)\b"
    # (or the person retching at it: "one bite o' mincemeat and I'm gipping like the cat wi' a furball")
    r"|(?:i'm|i am)\s+(?:\w+\s+)?(?:gipping|gagging|retching|heaving|boaking|boking|dry-heaving)\b)",
    re.IGNORECASE,
)
