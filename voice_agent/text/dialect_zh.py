"""Dialect verbs read as Mandarin ones, one character for one (offsets stay valid).

In Hubei, Hunan and Jiangxi speech 恰 is "eat" (武汉话 "硬是不恰鱼", 江西话 "萝卜莫恰", "恰饭"); the
constraint rules are written with 吃. 恰 keeps its Mandarin sense in 恰好, 恰恰, 恰当, 恰巧, 恰似, 恰如 and
恰到好处. In Cantonese 食 is "eat" ("我食几粒就喉咙痛", "食咗半个榴莲"); in a Cantonese sentence it is read
as 吃, except in the words Mandarin shares (食物, 零食, 美食, 素食…).
"""

from __future__ import annotations

import re

_QIA_EAT = re.compile(r"(?<!恰)恰(?![好恰当巧似如到])")
# Characters that mark a sentence as Cantonese (咗 done, 唔 not, 嘅 of, 啲 some, 嘢 thing, 佢 he / she).
CANTONESE_MARKS = frozenset("咗唔嘅啲嘢佢冇喺㗎晒咁嚟")
# Cantonese words of eating and drinking that Mandarin food words miss: 糖水 (sweet soup), 餸 (a dish),
# 食饭 / 食碗 / 食咗 (eat), 饮嘢 / 饮杯 (drink).
CANTONESE_FOOD_TALK = r"糖水|餸|食(?:饭|嘢|乜|咩|碗|个|啲|咗)|饮(?:嘢|乜|咩|杯|啲)"
_SIK_EAT = re.compile(r"(?<![零饮美粮素主甜肉面饭熟冷伙进节禁绝觅消])食(?![物品堂材欲用谱疗量指言])")


def cantonese(text: str) -> bool:
    """Whether ``text`` carries a character only Cantonese writes."""
    return any(ch in CANTONESE_MARKS for ch in text)


# Words of not standing a thing and of driving, said in the south and the south-west, as Mandarin ones of the
# same length: 顶唔顺 / 顶唔住 / 受唔住 (Cantonese), 遭不住 (Sichuanese) are 受不了; 揸车 (Cantonese) is 开车;
# 好怕 ("我真系好怕揸车") is 最怕; 真系 (Cantonese) and 硬是 (Sichuanese) are 真是; 吃勿消 (Shanghainese) is
# 受不了, and 不欢喜 不喜欢; 腻歪 (Beijing) is 讨厌; 整不了 (Dongbei, "香菜那玩意儿我是真整不了") and 不来事
# (Shanghainese, "就是羊肉不来事") are 受不了; 戒脱 (Shanghainese, "葱蒜也一道戒脱") is 戒掉; 最憎 就系 嗰啲
# (Cantonese, "我最憎就系嗰啲钢丝牙套") are 最恨 就是 那些.
_SAME_LENGTH = {"顶唔顺": "受不了", "顶唔住": "受不了", "受唔住": "受不了", "遭不住": "受不了",
                "吃勿消": "受不了", "整不了": "受不了", "不来事": "受不了", "戒脱": "戒掉",
                "不欢喜": "不喜欢", "腻歪": "讨厌", "最憎": "最恨", "就系": "就是", "嗰啲": "那些",
                "揸车": "开车", "好怕": "最怕", "真系": "真是", "硬是": "真是"}  # fmt: skip
_SAME_LENGTH_RE = re.compile("|".join(_SAME_LENGTH))


def mandarin_verbs(text: str) -> str:
    """``text`` with 恰 (and, in Cantonese, 食) meaning "eat" written 吃, and the words of ``_SAME_LENGTH``
    as Mandarin ones (the same length)."""
    text = _SAME_LENGTH_RE.sub(lambda m: _SAME_LENGTH[m.group(0)], text)
    if "恰" in text:
        text = _QIA_EAT.sub("吃", text)
    if "食" in text and cantonese(text):
        text = _SIK_EAT.sub("吃", text)
    return text
