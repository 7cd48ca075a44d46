"""Where someone is to be dropped off, met or collected, as the person told us: "直接七点四十到南京博物院西门
那个公交站旁边集合", "the coach is dropping them at the Morrisons car park on Bramley Road instead". A turn
that asks where to take or fetch someone ("跟他说清楚送到哪儿", "write her a text telling her where she
needs to go") is answered by that spot, not by the town the story is set in (``place_note``)."""

from __future__ import annotations

import re

__all__ = ["ASKS_MEETING", "meeting_point"]

_I = re.IGNORECASE
ASKS_MEETING = re.compile(
    r"\bwhere (?:she|he|they|i|we|you) (?:needs? to|should|has to|have to|must|is to|are to) "
    r"(?:go|be|meet|pick \w+ up|collect|drop)|"
    r"\bwhere to (?:go|pick \w+ up|collect|meet|drop \w+ off|drop off|wait)\b|"
    r"\bwhere (?:the|to) (?:pick-?up|drop-?off|meeting point)\b|"
    r"送到哪|送哪儿|送去哪|去哪(?:儿|里)?接|到哪(?:儿|里)?接|在哪(?:儿|里)?(?:集合|接|等|碰头|下车)",
    _I,
)
_SPOT_ZH = re.compile(
    r"(?:到|在)(?P<p>[^，,。！？!?；;到在]{2,24}?)(?:集合|碰头|见面|会合|等着?|接人|下车|上车|发车)"
)
_SPOT_EN = re.compile(
    r"\b(?:drop(?:ping)? (?:them|us|her|him|the kids|everyone)(?: off)?|drop(?:ping)? off|"
    r"pick(?:ing)? (?:them|her|him|the kids|everyone) up|collect(?:ing)? (?:them|her|him|the kids)|"
    r"meet(?:ing)?(?: up)?|drop-off (?:point )?is|pick-up (?:point )?is|meeting point is)\s+"
    r"(?:at|outside|by|from|in front of)\s+(?P<p>(?:the\s+)?[^.;!?]{3,70}?)"
    r"(?=\s*(?:instead\b|[.;!?]|$|,\s*(?:round|at about|about|around|at|by|so|and|but|which)\b))",
    _I,
)


def meeting_point(text: str) -> str:
    """The spot ``text`` says someone is to be dropped off, met or collected at, or ""."""
    for match in _SPOT_ZH.finditer(text):
        if text[max(0, match.start() - 1) : match.start()] not in ("不", "没"):  # ("不在学校集合")
            return match.group("p").strip()
    found = _SPOT_EN.search(text)
    return found.group("p").strip() if found else ""
