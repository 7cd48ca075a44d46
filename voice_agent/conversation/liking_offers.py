"""Likings said as an offer that cannot be refused, beyond ``likings.ENTHUSIASM``: "put a proper comic in
front of me … and I'll read it twice", "hand me a crossword and I'm gone for the afternoon", "I carry my own
bottle of scotch bonnet sauce", "是真好那口酸", "就好这口", "if you cut me I'd bleed cardamom",
"碰到桂花就没骨头的"."""

from __future__ import annotations

import re

__all__ = ["OFFERED_LIKING"]

OFFERED_LIKING = re.compile(
    r"\b(?:put|plonk|stick|set|place)\s+(?:a|an|some|any|the|me\s+a)\s+[^.!?]{1,60}?\s+in\s+front\s+of\s+"
    r"(?:me|him|her|us)\b[^.!?]{0,90}?(?:\band\s+|,\s*)(?:i'll|i will|i'd|i could|he'll|she'll|we'll)\s+"
    r"(?:happily\s+|gladly\s+)?(?:read|eat|watch|play|listen|devour|finish|polish|be\s+(?:happy|gone|in\s+heaven|"
    r"lost|quiet|sorted))\b|"
    r"\b(?:hand|give|pass)\s+(?:me|him|her)\s+(?:a|an|some|any|one of (?:those|them|these|the))\s+"
    r"[^.!?]{1,120}?\band\s+"
    r"(?:i'll|i will|i'd|i could|he'll|she'll)\s+(?:happily\s+)?(?:read|eat|watch|play|listen|devour|finish|"
    r"be\s+(?:happy|gone|in\s+heaven|lost|quiet|sorted))\b|"
    # ("give me one of those Korean thrillers with subtitles … and I'm a happy oke")
    r"\b(?:give|hand)\s+(?:me|him|her)\s+(?:a|an|some|any|one of (?:those|them|these|the))\s+[^.!?]{1,120}?"
    r"\band\s+(?:i'm|i am|he's|she's)\s+(?:a\s+)?"
    r"(?:happy|content|sorted|made up|in\s+heaven|over the moon)\b|"
    r"\b(?:i|he|she)\s+(?:always\s+)?(?:carry|carries|bring|brings|pack|packs)\s+(?:my|his|her)\s+own\s+"
    r"(?:bottle|jar|tin|pot|stash|supply|sachets?)\s+of\b|"
    # ("if you cut me I'd bleed cardamom", "碰到桂花就没骨头的", "闻到那股香就走不动路")
    r"\bif you (?:cut|opened|open) me(?: up)?,? (?:I'd|I would|you'd|you would) (?:bleed|find)\b|"
    r"(?:碰到|见到|见了|看到|闻到|遇到)[^，。！？,.!?]{1,10}就(?:没骨头|走不动(?:路|道)?|挪不动(?:腿|步)|迈不开腿)|"
    # ("这类片子重映我是一场都不落的")
    r"(?:一场|一集|一期|一部|一回|一次)都不(?:落|漏|错过|拉下)|场场不落|每场必(?:到|看)|"
    r"(?:就|真|最|特|贼|顶)好(?:那|这)一?口",
    re.IGNORECASE,
)
