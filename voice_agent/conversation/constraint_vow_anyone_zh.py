"""A vow that no one can talk the person round, in Chinese: "张北那地界儿谁请我我都不去，给钱都不好使"
swears off 张北, "鬼片恐怖片这种东西，啥人请我都不去了" swears off 鬼片 and 恐怖片, and "坐在硬板凳上熬通宵
这种罪，这辈子再也不受了" swears off the hardship named, and "这辈子谁再撺掇我往牙上抹那玩意儿漂白，
我跟谁急" swears off 漂白 (read beside ``constraint_never_again_zh``)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from voice_agent.text.cjk import HAN_CLASS

_THING = rf"(?P<x>(?:(?![我你他她俺咱谁])(?:{HAN_CLASS})){{2,12}}?)"
_KIND = (
    r"(?:那地界儿?|那地方|那块儿?|那边|那儿|这种东西|那种东西|这种玩意儿?|那种玩意儿?|这种|那种|这类|那类)?"
)
# ("谁请我我都不去", "啥人请我都不去了", "给钱都不去", "八抬大轿抬我也不去")
_ANYONE = (
    r"(?:(?:谁|啥人|哪个|什么人|天王老子)(?:请|叫|喊|拉|约|求|劝)(?:我|俺)(?:我|俺)?|给钱|倒贴钱|钞票倒贴|"
    r"(?:八抬大轿|用轿子)抬(?:我|俺))(?:都|也)(?:不|不会|不得)再?(?:去|看|吃|玩|坐|碰|听|上)"
)
_ANYONE_ZH = re.compile(
    rf"(?:^|[，,。！!？?；;：:])(?:打那以后|从此以后?|从那以后|以后|往后)?(?:我|俺)?(?:就)?(?:撂下话了?|发过(?:毒)?誓|"
    rf"讲好了)?[，,：:]?{_THING}{_KIND}[，,]?(?:我|俺)?(?:是)?{_ANYONE}"
)
# A hardship never borne again: "…熬通宵这种罪，这辈子再也不受了".
_HARDSHIP_ZH = re.compile(
    rf"(?:^|[，,。！!？?；;：:]){_THING}(?:这种|那种|这份|那份)(?:罪|苦)[，,]?(?:我|俺)?(?:这辈子|以后|往后)?"
    r"(?:再也|再|打死也|说什么也)不(?:受|遭|吃)了"
)
# A thing of any kind, sworn off for someone: "这辈子再也不让她去遭那份罪考什么级了" (考级: 什么 inside the
# verb and its object says "any").
_ANY_KIND_FOR_ZH = re.compile(
    r"(?:再也|这辈子都?|以后都?)不(?:让|叫|给|准)(?:她|他|孩子|娃|闺女|儿子)[^，。！？；]{0,10}?"
    rf"(?P<v>考|学|报|上|打|参加|比)(?:什么|啥子?|劳什子)(?P<o>{HAN_CLASS}{{1,2}}?)了"
)
# Whoever asks again will have a fight: "这辈子谁再撺掇我往牙上抹那玩意儿漂白，我跟谁急".
_WHOEVER_AGAIN_ZH = re.compile(
    # ("这辈子啥人再劝我去扎针，我就跟伊翻面孔": Shanghainese 啥人, 伊, 翻面孔)
    r"(?:谁|啥人|哪个|什么人)(?:要是|敢)?再(?:让|叫|撺掇|逼|拉|劝|喊|带|忽悠|怂恿|请)(?:我|俺)(?:去)?"
    r"(?P<x>[^，,。！!？?；;：:]{2,16}?)[，,]?(?:我|俺)(?:就)?跟(?:谁|他|她|伊|啥人)"
    r"(?:急眼?|翻脸|翻面孔|拼命|没完|拼了|绝交)"
)
# (the thing after "that stuff": "往牙上抹那玩意儿漂白" is 漂白; "钻那布兜子里过夜" names nothing of its own)
_THAT_STUFF = re.compile(r"^.*?(?:那玩意儿?|那东西|那个)(?=.{2})")
_DESCRIBED = re.compile(r"[那这]")
_WHERE_BEFORE = re.compile(r"^.*(?:上|里|着)(?=.{2})")
_LEAD = re.compile(r"^(?:打那以后|从此以后?|从那以后|从那辰光起|以后|往后|我就|我)+")


def vowed_against_anyone_zh(text: str) -> Iterator[str]:
    """The things ``text`` swears off whoever asks, in the person's words."""
    yield from (m.group("v") + m.group("o") for m in _ANY_KIND_FOR_ZH.finditer(text))
    for match in _HARDSHIP_ZH.finditer(text):
        # (what is borne, after where: "坐在硬板凳上熬通宵" is 熬通宵)
        yield _WHERE_BEFORE.sub("", _LEAD.sub("", match.group("x")))
    for match in _WHOEVER_AGAIN_ZH.finditer(text):
        thing = _THAT_STUFF.sub("", match.group("x"))
        if not _DESCRIBED.search(thing):
            yield _WHERE_BEFORE.sub("", thing)
    for match in _ANYONE_ZH.finditer(text):
        thing = _LEAD.sub("", match.group("x"))
        # (two kinds said together: "鬼片恐怖片" is 鬼片 and 恐怖片)
        parts = re.findall(rf"{HAN_CLASS}+?片", thing) if thing.endswith("片") else [thing]
        yield from (part for part in (parts if "".join(parts) == thing else [thing]) if len(part) >= 2)
