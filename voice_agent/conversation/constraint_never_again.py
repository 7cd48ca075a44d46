"""A person swearing off something for good, in their own words: "We are never, ever going camping
again", "I'm never connecting through Heathrow again"; "以后过年我是再也不开车回老家了", "打死也不自驾了",
"再也不坐大巴了". The thing is the activity itself ("camping", 开车) or what the verb takes (Heathrow, 大巴).
Each thing is read by ``constraints`` as its words say it (a known topic, else the phrase)."""

from __future__ import annotations

import re
from collections.abc import Iterator

_I = re.IGNORECASE
# "I am never, ever connecting through Heathrow again", "we're never going camping again", "I'm never
# flying with them again" (a pronoun is no thing: ``clean_object`` drops it).
NEVER_AGAIN_EN = re.compile(
    r"\b(?:i|we|he|she|they)(?:'m|'re|'s|\s+am|\s+are|\s+is|\s+will|'ll)?\s+never,?\s+(?:ever,?\s+)?"
    r"(?:be\s+)?(?:(?:going|go)\s+(?=[a-z]+ing\b))?"
    r"(?:(?P<act>[a-z]+ing)\b(?:\s+(?:through|via|with|on|at|in|to|into|by|from)\s+(?:the\s+)?"
    r"(?P<x>[a-z][a-z' -]{1,30}?))?|(?:going\s+(?:to|back to)|visiting|setting foot in)\s+(?:the\s+)?"
    r"(?P<place>[a-z][a-z' -]{1,30}?))\s+again\b",
    _I,
)
# Verbs whose -ing form is a pastime or a way of travelling: the thing itself ("camping", "cruising").
_ACTIVITY_VERBS = frozenset((
    "camping", "glamping", "caravanning", "skiing", "hiking", "cruising", "sailing", "driving", "flying",
    "cycling", "clubbing", "bowling", "karaoke", "busking", "hitchhiking", "backpacking", "fishing",
    "skating", "swimming", "diving", "running", "climbing", "gambling", "drinking", "smoking",
))  # fmt: skip
_PRONOUNS = frozenset(("them", "him", "her", "it", "that", "there", "those", "you"))
_SWORN_OFF_ZH = r"(?:再也不|打死也不|说什么也不|死活不|这辈子都?不)(?:会|想|要|敢)?再?"
# "再也不开车回老家了", "打死也不自驾了", "这辈子再也不坐大巴了", "再也不去那种地方了" (a pointing word is no
# thing).
NEVER_AGAIN_ZH = re.compile(
    _SWORN_OFF_ZH + r"(?:(?P<act>开车|自驾|坐船|坐飞机|坐夜车|爬山|露营|喝酒|抽烟|熬夜|蹦极|潜水|滑雪)"
    r"|(?:坐|乘|搭|住|去|吃|喝|用|报|找|点|买)(?P<x>[^，。,.！？!?；;了的]{1,8}?))(?=[了啦啊，。,.！？!?；;]|回|去|过|$)"
)


# Buying online sworn off, whatever was bought: "这辈子再也不在网上买家具了".
_ONLINE_ZH = re.compile(_SWORN_OFF_ZH + r"在?(?:网上(?:买|购物|下单)|网购)")


def never_again(text: str) -> Iterator[str]:
    """The things sworn off ("Heathrow", "camping", 开车, 大巴), in the person's words."""
    for match in NEVER_AGAIN_EN.finditer(text):
        act = (match.group("act") or "").lower()
        thing = match.group("x") or match.group("place")
        if thing:  # ("never flying with them again": that airline, not flying; unknown here)
            if thing.lower() not in _PRONOUNS:
                yield thing
        elif act in _ACTIVITY_VERBS:
            yield act
    for match in NEVER_AGAIN_ZH.finditer(text):
        yield match.group("act") or match.group("x")
    if _ONLINE_ZH.search(text):
        yield "网购"
