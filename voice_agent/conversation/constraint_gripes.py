"""Dislikes said as a gripe, in a shape the rule patterns do not read: "Dinnae get me started on that lo-fi
hip hop stuff", "Don't get me started on musicals" (the thing after "started on", without "that" or
"stuff"). Read by ``constraints`` in the person's own words (``avoid``)."""

from __future__ import annotations

import re

__all__ = ["GRIPE_EN"]

GRIPE_EN = re.compile(
    r"\b(?:don't|dont|do not|dinnae|didnae|don't even|do not even)\s+(?:even\s+)?get me started on\s+"
    r"(?:that|those|these|the|all that|all those)?\s*"
    r"(?P<x>[a-z][a-z'-]*(?:\s+[a-z][a-z'-]*){0,3}?)(?:\s+(?:stuff|things?|nonsense|rubbish|malarkey|rot))?"
    r"(?=\s*[.,;:!?—-]|\s+(?:again|either|please)\b|$)",
    re.IGNORECASE,
)
