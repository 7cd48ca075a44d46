"""A Chinese story of a thing eaten and a bad reaction after it, told without the word 过敏.

- eaten, then the body's alarm in the same sentence: "细个偷吃了两口芒果，嘴巴肿得像腊肠，脖子手臂全是红疹，
  阿妈抱住我冲去医院打针" (芒果);
- the culprit named by whoever found it: "医生说就是里头那几颗油酥花生米整的" (花生米, not the dish eaten).

A swelling, a rash, a tight throat, a needle or an ambulance is the alarm; a full stomach or a happy face is
not, and nothing is read where no such alarm follows within the sentence.
"""

from __future__ import annotations

import re

from voice_agent.conversation.constraint_severity import BLOCKED_THROAT_ZH
from voice_agent.conversation.constraint_shapes import SYMPTOM_ZH
from voice_agent.text.cjk import HAN_CLASS

__all__ = ["gulp_stories_zh", "reaction_stories_zh"]

_THING = rf"(?P<x>(?:(?![了的就我你他她，。！？])(?:{HAN_CLASS})){{1,6}}?)"
_ALARM = (
    # (not a face swollen from laughing or crying: "脸都笑肿了")
    r"(?:(?:嘴巴?皮?|嘴唇|眼皮?|脸|舌头|喉咙|全身|身上)[^，。！？；]{0,3}(?<![笑哭])肿|(?<![笑哭])肿(?:得|成|起来|了)|"
    r"红疹|疹子|风团|"
    r"荨麻疹|喉咙[^，。！？；]{0,2}紧|"
    + BLOCKED_THROAT_ZH
    + r"|气都出不[赢来]|喘不上气|喘不过气|透不过气|上不来气|打针|急诊|抢救|"
    r"肾上腺素|休克|120|送医院|进了医院|冲去医院|拉到医院)"
)
_EATEN = re.compile(
    r"(?:偷吃了|吃了|吃咗|食咗|尝了|夹了|咬了|喝了|饮咗|吃过|舔了)"
    # (whose it was, before how much: "偷吃了隔壁阿婆一只水蜜桃")
    r"(?:(?:[^，。！？了]{1,6}?)?[一两几半][口筷块颗粒个勺啖杯片只碗]子?|一点点?|一小?口)?"
    rf"{_THING}(?=[，,]|$|。)"
    rf"(?=[^。！？]{{0,60}}?{_ALARM})"
)
_ALARM_RE = re.compile(_ALARM)
_CULPRIT = re.compile(
    r"(?:医生|大夫|医师)(?:说|讲|话)(?:就是|都是|是)?(?:里头|里面|里边|入面)?(?:那|这|嗰)?[几一两]?[颗粒块个口点]?"
    rf"{_THING}(?:整的|搞的|闹的|弄的|害的|引起的|搞出来的)"
)


# A mouthful gone down, then the body's answer in the same sentence: "一口牛奶下去，不出半拉钟头准得往厕所窜".
_GONE_DOWN = re.compile(
    rf"(?:一|半|两)[口杯碗勺瓶罐块]{_THING}(?:下去|下肚|落肚|进肚|入肚)(?=[^。！？]{{0,30}}?(?:{SYMPTOM_ZH}))"
)


def gulp_stories_zh(text: str) -> list[re.Match[str]]:
    """The things ``text`` tells went down just before the body answered ("一口牛奶下去…往厕所窜")."""
    return list(_GONE_DOWN.finditer(text))


def reaction_stories_zh(text: str) -> list[re.Match[str]]:
    """The things ``text`` tells were eaten before an alarm of the body (the culprit named, when one is)."""
    if _ALARM_RE.search(text) is None:
        return []
    culprits = list(_CULPRIT.finditer(text))
    if culprits:
        return culprits
    return list(_EATEN.finditer(text))
