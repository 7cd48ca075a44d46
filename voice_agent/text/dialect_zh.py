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


def mandarin_verbs(text: str) -> str:
    """``text`` with 恰 (and, in Cantonese, 食) meaning "eat" written 吃 (the same length)."""
    if "恰" in text:
        text = _QIA_EAT.sub("吃", text)
    if "食" in text and cantonese(text):
        text = _SIK_EAT.sub("吃", text)
    return text
