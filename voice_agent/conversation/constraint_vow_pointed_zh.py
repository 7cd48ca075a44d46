"""A Chinese vow about a thing only pointed at, named in the story before it: "我一个人干了一斤半小烧 … 打那
天起我就跟她拍了胸脯，这辈子那玩意儿我一滴都不碰了" keeps alcohol off; "这辈子再碰那一口白的我就是瓜娃子" too,
after "拼白酒".

The pointed thing (那玩意儿, 那东西, 那一口…的, 它) is the last known topic named in the six clauses
before the vow (not past a ride or a game in between); a vow of drops or drinking takes a drink
only. Nothing is read when no known topic is named before it (the thing may be a ride or a place:
read elsewhere, or not at all).
"""

from __future__ import annotations

import re

from voice_agent.conversation.constraint_terms import TOPICS, Topic
from voice_agent.conversation.constraint_topic_names import named_topics
from voice_agent.text.cjk import HAN_CLASS

__all__ = ["pointed_vows_zh"]

_POINTED = rf"(?:那玩意儿?|这玩意儿?|那东西|那个东西|那一?口(?:{HAN_CLASS}{{1,2}}的)?|它)"
_ABSTAIN = r"(?:不碰|不沾|不喝|不吃|戒了|碰都不碰|掰了|断了|拜拜了)"
_VOWS = (
    # "这辈子那玩意儿我一滴都不碰了"
    re.compile(
        rf"(?:这辈子|下半辈子|以后|往后|从此|打那以后|再也)[^，。！？；]{{0,4}}?{_POINTED}"
        rf"[^，。！？；]{{0,4}}?(?:一滴|一口|一点)?(?:都|也)?(?:再也)?{_ABSTAIN}"
    ),
    # "再碰那一口白的我就是瓜娃子", "再喝它一口我就不姓王"
    re.compile(rf"再(?:碰|喝|吃|沾)(?:一口)?{_POINTED}[^，。！？；]{{0,3}}?我就"),
)
_DRUNK = re.compile(r"喝(?:大了|多了|醉了?|断片|高了|趴了|吐了)")
_DRINKS = frozenset(("alcohol", "coffee", "caffeine", "tea", "fizzy", "milk", "dairy"))
_CLAUSE = re.compile(r"[，,。！？!?；;]")
# A thing done in between, which the pointing may mean instead: "我喝了一杯咖啡，然后坐了过山车，
# 这辈子那玩意儿…"
_DONE_BETWEEN = re.compile(r"(?:坐|玩|骑|爬|跳|开|蹦|滑|划)(?:了|过)")


def pointed_vows_zh(text: str) -> list[Topic]:
    """The known topics ``text`` vows off by pointing at them (see the module's docstring)."""
    out: list[Topic] = []
    for pattern in _VOWS:
        for match in pattern.finditer(text):
            vow = match.group(0)
            drink = "滴" in vow or "喝" in vow
            clauses = [c for c in _CLAUSE.split(text[: match.start()]) if c.strip()][-6:]
            for clause in reversed(clauses):
                if _DONE_BETWEEN.search(clause):
                    break
                topics = [t for t in named_topics(clause.lower()) if not drink or t.key in _DRINKS]
                # (drunk before it, the drink unnamed: "跟发小喝大了，胃出血…打那以后我跟那玩意儿彻底掰了")
                topics = topics or ([TOPICS["alcohol"]] if _DRUNK.search(clause) else [])
                if topics:
                    out += [t for t in topics if t not in out]
                    break
    return out
