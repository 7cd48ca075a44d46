"""Foods that name a colour: "奶油色的沙发", "咖啡色", "cream-coloured tiles", "a chocolate-brown sofa".

"清一色奶油色…我是真的受不了" is about walls and sofas, not dairy; a food word read as the thing it names
there would hold a dislike of cream against every dessert.
"""

from __future__ import annotations

import re

from voice_agent.text.cjk import HAN_CLASS

# After the food's word: 色 (or one or two characters then 色: 奶油白色, 奶茶色), not 色拉 (salad);
# "-coloured", " colour", "-brown".
_COLOUR_AFTER = re.compile(
    rf"{HAN_CLASS}{{0,2}}?色(?!拉)|[ -]colou?r(?:ed|s)?\b|-(?:brown|white|yellow|pink|green|red)\b",
    re.IGNORECASE,
)


def names_colour(text: str, end: int) -> bool:
    """Whether the food word that ends at ``end`` of ``text`` names a colour."""
    return _COLOUR_AFTER.match(text, end) is not None


# A look or a style, not the thing it is named after: "这种奶乎乎的风格", "奶油风", "that chocolate-box look".
_A_LOOK = re.compile(
    r"(?:风格|风|色调|配色|色系)\s*$|\b(?:look|style|aesthetic|colou?r scheme|decor)\s*$", re.IGNORECASE
)


def names_a_look(phrase: str) -> bool:
    """Whether ``phrase`` names a look or a style ("这种奶乎乎的风格"), which no food stands for."""
    return _A_LOOK.search(phrase.strip(" ，,。.!！")) is not None
