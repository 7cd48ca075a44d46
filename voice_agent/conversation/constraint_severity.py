"""A reaction that closed the airway or swelled the face is an allergy, however the reader that found the
thing first named it: "嘴肿到好似香肠咁，颈都红晒，喘唔到气，即刻抱佢去打针" after a first mango pudding
is no intolerance, and a reply that says "对芒果不耐受" tells the person we did not listen.

A stomach that swells or a night without sleep stays an intolerance: only the signs of an immune reaction
(face, lips, tongue or throat swelling; not breathing; an EpiPen or adrenaline) count: wheezing and
hives stay what the reader made them, as the readers of English have always read them.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from voice_agent.conversation.constraints import Constraint

_AIRWAY_EN = re.compile(
    r"\b(?:throat (?:\w+ )?(?:clos|swell|swole|tight)\w*|(?:lips?|face|tongue|eyes?|mouth) (?:\w+ ){0,2}"
    r"(?:swell|swole|swollen|puff|blew up|blown up|ballooned)\w*|puffy[- ]faced|anaphyla\w*|"
    r"epi-?pens?|adrenaline (?:shot|jab|pen)|(?:couldn't|could not|can't|cannot) breathe)\b",
    re.IGNORECASE,
)
# A throat stuffed shut: "喉咙口像塞了团棉花" (also an alarm in ``constraint_story_zh``).
BLOCKED_THROAT_ZH = r"喉咙口?(?:像|好像)?(?:被)?[塞堵]"
_AIRWAY_ZH = re.compile(
    r"(?:嘴|嘴巴|嘴巴皮|嘴皮|嘴唇|脸|眼睛|舌头|喉咙)(?:周围|四周|一圈|边上)?(?:都|就|马上|一下)?肿|肿成|肿到|喉咙(?:发紧|收紧|紧)|"
    + BLOCKED_THROAT_ZH
    + r"|气都出不[赢来]|喘不上|喘唔到|喘不过|"
    r"透不过气|透唔到气|上不来气|呼吸困难|休克|肾上腺素"
)


def severe_as_allergies(found: list[Constraint], text: str) -> list[Constraint]:
    """``found`` with each intolerance made an allergy when ``text`` tells an immune reaction."""
    if not any(c.kind == "intolerance" for c in found):
        return found
    if not immune_reaction(text):
        return found
    return [_as_allergy(c) if c.kind == "intolerance" else c for c in found]


def immune_reaction(text: str) -> bool:
    """Whether ``text`` tells a sign of an immune reaction (a swollen face or throat, no breath)."""
    return _AIRWAY_EN.search(text) is not None or _AIRWAY_ZH.search(text) is not None


def _as_allergy(constraint: Constraint) -> Constraint:
    key = constraint.key
    if key.startswith("intolerance:"):
        key = "allergy:" + key.removeprefix("intolerance:")
    return replace(constraint, kind="allergy", key=key)
