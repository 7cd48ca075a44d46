"""Words of the person's own home: a statement about it ("we finally moved down to Geelong", "我们家前年搬到
武清了"), the start of a journey the turn says itself, and of the places a recalled statement names, the
one rented or bought ahead of the one posted to ("调到北京总部" beside "房子租在回龙观龙泽那一片")."""

from __future__ import annotations

import re

# The start of the journey said in the turn: "I'm going up from London again", "我们从郑州出发".
SETS_OFF_FROM = re.compile(
    r"\b(?:from|out of|based in|live in|living in)\s+[A-Z]|从[^，。？！?,]{1,8}?(?:出发|过去|走|去)"
)
# A statement about the person's own home: "we finally moved down to Geelong", "我们家前年搬到武清了"
# (not "Mum and Dad … moved to Kirkcudbright", "我爸妈…在海南琼海买了套小房子").
OWN_HOME = re.compile(
    r"\b(?:we|i|we've|i've|we're|i'm|our|my family)\b|"
    r"(?:我们|我家|咱们|咱家|俺们|俺家|额们|额家|阿拉|我)(?!爸|妈|父|母|婆|公|爷|奶|姥|外|儿|女|姐|哥|弟|妹|老|闺|舅|姨|姑|叔|伯)",
    re.IGNORECASE,
)
# A place said as where the home is: "房子租在回龙观", "住在大学路那边", "we're renting in Leith".
_HOME_AT = re.compile(
    r"(?:租|住|买|安家|家)(?:在|到)?(?:了)?$|\b(?:renting|rent|live|living|bought|own)\s+(?:in|at|on)\s+$"
)


def home_first(named: list[tuple[int, str, str]]) -> str:
    """Of ``named`` (rank, place, the statement naming it first, else ""), in the order recalled: the best
    ranked, a statement's place said as where the home is before another statement's of its rank (within
    one statement, ``ranked_places`` has ordered them); "" for none."""
    if not named:
        return ""

    def key(found: tuple[int, str, str]) -> tuple[int, bool]:
        rank, place, text = found
        at = text.find(place)
        return rank, not (text and at > 0 and _HOME_AT.search(text[max(0, at - 6) : at]))

    return min(named, key=key)[1]
