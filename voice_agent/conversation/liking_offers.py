"""Likings said as an offer that cannot be refused, beyond ``likings.ENTHUSIASM``: "put a proper comic in
front of me … and I'll read it twice", "hand me a crossword and I'm gone for the afternoon", "I carry my own
bottle of scotch bonnet sauce", "是真好那口酸", "就好这口"."""

from __future__ import annotations

import re

__all__ = ["OFFERED_LIKING"]

OFFERED_LIKING = re.compile(
    r"\b(?:put|plonk|stick|set|place)\s+(?:a|an|some|any|the|me\s+a)\s+[^.!?]{1,60}?\s+in\s+front\s+of\s+"
    r"(?:me|him|her|us)\b[^.!?]{0,90}?(?:\band\s+|,\s*)(?:i'll|i will|i'd|i could|he'll|she'll|we'll)\s+"
    r"(?:happily\s+|gladly\s+)?(?:read|eat|watch|play|listen|devour|finish|polish|be\s+(?:happy|gone|in\s+heaven|"
    r"lost|quiet|sorted))\b|"
    r"\b(?:hand|give|pass)\s+(?:me|him|her)\s+(?:a|an|some|any)\s+[^.!?]{1,60}?\band\s+"
    r"(?:i'll|i will|i'd|i could|he'll|she'll)\s+(?:happily\s+)?(?:read|eat|watch|play|listen|devour|finish|"
    r"be\s+(?:happy|gone|in\s+heaven|lost|quiet|sorted))\b|"
    r"\b(?:i|he|she)\s+(?:always\s+)?(?:carry|carries|bring|brings|pack|packs)\s+(?:my|his|her)\s+own\s+"
    r"(?:bottle|jar|tin|pot|stash|supply|sachets?)\s+of\b|"
    r"(?:就|真|最|特|贼|顶)好(?:那|这)一?口",
    re.IGNORECASE,
)
