"""A smell the person cannot bear, for turns about things put on the body or burnt in a room.

"Since small I cannot tahan the smell of coconut" keeps coconut off a food turn; it matters as much for
"recommend a routine and some products, shampoo, mask, leave-in and oil": what is kept off is the scent.
"""

from __future__ import annotations

import re

_I = re.IGNORECASE
_SMELL = re.compile(r"\b(?:smell|smells|scent|whiff|stink|odou?r|fragrance)\b|味道|气味|香味|闻到|一闻", _I)
_SCENTED = re.compile(
    r"\b(?:shampoos?|conditioners?|hair masks?|leave-in|hair oils?|lotions?|body creams?|moisturi[sz]ers?|"
    r"soaps?|body wash|shower gel|candles?|perfumes?|fragrances?|diffusers?|air fresheners?|deodorants?|"
    r"skin ?care|hair ?care|toiletries|bath bombs?|hand cream|"
    # (or how a room feels: "make the shop feel warm and welcoming … ideas for the atmosphere")
    r"atmosphere|ambien[cs]e|cosy|cozy|feel (?:warm|welcoming|homely|inviting))\b|"
    r"洗发水|护发素|发膜|护发精油|护肤|身体乳|香薰|蜡烛|香水|沐浴露|洗面奶|护手霜|氛围|温馨",
    _I,
)


def scent_matters(stated: str, user_text: str) -> bool:
    """Whether the statement (``stated``: the clauses that state a thing kept off) is about its smell and
    the turn asks about scented things (shampoo, candles, perfume, 洗发水, 香薰)."""
    return bool(_SCENTED.search(user_text) and _SMELL.search(stated))
