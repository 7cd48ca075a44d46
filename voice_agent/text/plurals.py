"""English plurals made singular, for keys: "peanuts" and "peanut" are one thing kept off."""

from __future__ import annotations

import re


def singular(phrase: str) -> str:
    """``phrase`` without its plural ending ("berries" → "berry", "peaches" → "peach")."""
    if phrase.endswith("ies") and len(phrase) > 4:
        return phrase[:-3] + "y"
    if re.search(r"(?:ss|sh|ch|x|o)es$", phrase):
        return phrase[:-2]
    return phrase[:-1] if phrase.endswith("s") and not phrase.endswith("ss") else phrase
