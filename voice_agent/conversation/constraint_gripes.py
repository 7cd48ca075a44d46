"""Dislikes said as a gripe, in shapes the rule patterns do not read: "Dinnae get me started on that lo-fi
hip hop stuff", "Don't get me started on musicals" (the thing after "started on", without "that" or
"stuff"), and a kind of thing refused as a habit whatever it is: "宫斗宅斗的一概不看", "格子衬衫他从来不穿"
(the thing named first). Each is read by ``constraints`` in the person's own words (``avoid``)."""

from __future__ import annotations

import re

from voice_agent.text.cjk import HAN_CLASS

__all__ = ["GRIPE_EN", "HABIT_REFUSED_ZH"]

GRIPE_EN = re.compile(
    r"\b(?:don't|dont|do not|dinnae|didnae|don't even|do not even)\s+(?:even\s+)?get me started on\s+"
    r"(?:that|those|these|the|all that|all those)?\s*"
    r"(?P<x>[a-z][a-z'-]*(?:\s+[a-z][a-z'-]*){0,3}?)(?:\s+(?:stuff|things?|nonsense|rubbish|malarkey|rot))?"
    r"(?=\s*[.,;:!?—-]|\s+(?:again|either|please)\b|$)",
    re.IGNORECASE,
)
_THING = r"(?:(?![我你他她它们在不没最])" + HAN_CLASS + r")"
HABIT_REFUSED_ZH = re.compile(
    rf"(?:^|[，,。！？!?；;：:])(?P<x>{_THING}{{2,8}}?)(?:的|这些|这类|之类的?|那种)?(?:[他她我俺]们?)?"
    r"(?:一概|一律|统统|从来|坚决|压根儿?|向来)都?不(?:看|听|穿|戴|去|玩|用|碰)"
)
