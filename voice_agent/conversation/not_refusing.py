"""Chinese words that look like refusing something and are not (the constraint parser skips them).

- A craving: "一礼拜不吃两回冷面都难受" (going without it is what hurts) is a liking, no rule against
  "两回冷面都难受"; the "难受" in it is no reaction to food either.
  Said without 都 after a while gone without: "一天不喝浑身不得劲".
- A lone verb after 不爱: "刀口不爱长" is about a wound, not taste.
- A reaction said not to happen: "气都不带喘的" (not even out of breath) is no symptom.
- A bare verb after an order: "滑雪、滑冰、雪圈这些…千万别给我安排" refuses what was named before it, not
  "安排" (``constraint_shapes.LIST_REFUSED_ZH`` reads the list).
"""

from __future__ import annotations

import re

_UNWELL = "(?:都|就|便)(?:会)?(?:难受|不舒服|馋|想得慌|不得劲|受不了|睡不着|浑身|没劲|心慌)"
_CRAVING = re.compile(_UNWELL)
# Going without it for a while, then unwell, said without 都/就: "一天不喝浑身不得劲", "两天不吃心里发慌".
_WITHOUT_FOR = re.compile(r"(?:一|两|几|三)(?:天|日|顿|礼拜|星期|周|个月)$")
# (the thing named first: "一天不喝工夫茶浑身不得劲")
_UNWELL_BARE = re.compile(
    r"^[^，。,.！？!?；;]{0,6}?(?:浑身|全身|整个人|心里|嘴里)?(?:难受|不舒服|不得劲|没劲|发慌|心慌|发馋|没精神|犯困|痒痒)"
)
_CRAVING_SPAN = re.compile(rf"不(?:吃|喝|碰)[^，。,.！？!?；;]{{0,10}}?{_UNWELL}")
# A remedy taken for a pain is no cause of it: "我头痛到要吃芬必得", "took two Nurofen for the
# headache", "在医院吊了两天盐水" (a saline drip, no salt eaten).
_REMEDY_SPAN = re.compile(
    r"(?:痛|疼|难受|发烧|烧)(?:得|到)(?:要|得|只能|只好|直接)?(?:吃|吞|服)了?[^，。,.！？!?；;]{1,8}|"
    r"(?:吊|挂|打|输)了?[^，。,.！？!?；;]{0,4}?盐水|"  # (a drip in hospital: "在医院吊了两天盐水")
    r"\b(?:took|take|taking|popped|pop|swallowed|reached for)\s+(?:a couple of\s+|two\s+|some\s+|an?\s+)?"
    r"[A-Za-z]+\s+for\s+(?:the|my|a|his|her)\s+(?:headache|pain|migraine|fever|cramps|back|toothache)",
    re.IGNORECASE,
)
# What a thing is put in is no cause either: "不管是加在咖啡里还是珍奶里" (the milk in them is), "a drop
# of milk in my coffee".
_CARRIER_SPAN = re.compile(
    r"(?:加|放|掺|混|兑|倒|搁)(?:在|进|到)[^，。,.！？!?；;]{1,6}?(?:里|中)(?:面|头)?|"
    r"\b(?:in|into)\s+(?:my|his|her|their|our|a|the)\s+(?:morning\s+)?(?:coffee|tea|cuppa|porridge|cereal|brew)\b",
    re.IGNORECASE,
)
_BARE_VERBS = frozenset(("安排", "推荐", "报名", "报", "弄", "整", "找", "买", "约", "订"))


def not_refusing_zh(match: re.Match[str]) -> bool:
    """Whether a "不吃 / 不爱 / 别给我 X" match (its thing in group ``x``) refuses nothing."""
    thing = match.group("x").strip()
    verb = match.group(0)[: match.start("x") - match.start()]
    if thing in _BARE_VERBS or _described(match):
        return True
    went_without = _WITHOUT_FOR.search(match.string[: match.start()]) and _UNWELL_BARE.search(thing)
    if _PET_FIRST_ZH.search(_CLAUSE_ZH.split(match.string[max(0, match.start() - 24) : match.start()])[-1]):
        return True  # (a pet's, not the person's: "屋里那只猫最近不吃猫粮")
    return _CRAVING.search(thing) is not None or bool(went_without) or (verb == "不爱" and len(thing) < 2)


_CLAUSE_ZH = re.compile(r"[，。,.！？!?；;]")
# A thing described, not named: "最受不了就是那种绿色、浑身疙瘩、一口下去苦到心里的东西" (its colour and skin
# are no things to keep off; what it is may be said later, by its name).
_DESCRIBED_ZH = re.compile(r"^(?:就是|就)?(?:那种|这种|那类|这类|那一类|这一类)")
_DESCRIPTION_END_ZH = re.compile(r"[^。！？!?；;]{0,40}?的(?:东西|玩意儿?|物事|嘢)")


def _described(match: re.Match[str]) -> bool:
    """Whether the thing refused is only described, and named nowhere in its words."""
    return bool(_DESCRIBED_ZH.match(match.group("x"))) and bool(
        _DESCRIPTION_END_ZH.match(match.string, match.start("x"))
    )


# A pet as the clause's subject, just before the verb.
_PET_FIRST_ZH = re.compile(
    r"(?:猫|狗|猫咪|狗狗|猫猫|鸟|鹦鹉|兔子|仓鼠|金鱼|乌龟|狗子|主子)(?:儿|崽)?"
    r"(?:最近|这两天|这几天|这阵子|现在|又|也|都|就|还|老是|总是|一直|根本|死活)*$"
)


def without_non_causes(text: str) -> str:
    """``text`` less its cravings, the remedies taken for a pain and what a thing is put in, for reading
    reactions to food from it."""
    return _CARRIER_SPAN.sub("", _REMEDY_SPAN.sub("", _CRAVING_SPAN.sub("", text)))


# (not "差点没吐出来": that one happened)
_NOT_FELT_ZH = re.compile(r"(?<!差点)(?:不带|都不|也不|一点儿?都?不|从来?不|并不|没有?)$")


# A symptom said with its own cause just before it, no food or thing: "楼下夜市吵得人睡不着",
# "热得人一宿睡不着".
_OWN_CAUSE_ZH = re.compile(
    r"(?:吵|热|冷|闷|气|急|愁|烦|挤|晒|累|忙|冻|渴|饿|吓)得(?:人|我|俺|他|她|孩子|娃)?"
    r"(?:一宿|一夜|整夜|整晚|一晚上|晚上|半夜|都|直)?$"
)


def felt(symptom: re.Match[str]) -> bool:
    """Whether a symptom word found in a text is said to happen (not "气都不带喘的", nor 上火 of "小红书上火的
    那个奶油风": popular there), as a reaction (not "吵得人睡不着": the noise, no thing, kept them up)."""
    before = symptom.string[max(0, symptom.start() - 4) : symptom.start()]
    if _OWN_CAUSE_ZH.search(symptom.string[max(0, symptom.start() - 8) : symptom.start()]):
        return False
    return not (_NOT_FELT_ZH.search(before) or (symptom.group(0) == "上火" and before.endswith(_ONLINE_ZH)))


_ONLINE_ZH = ("书", "网", "音", "站", "圈", "博", "手")
