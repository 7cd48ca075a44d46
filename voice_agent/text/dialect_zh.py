"""Dialect verbs read as Mandarin ones, one character for one (offsets stay valid).

In Hubei, Hunan and Jiangxi speech 恰 is "eat" (武汉话 "硬是不恰鱼", 江西话 "萝卜莫恰", "恰饭"); the
constraint rules are written with 吃. 恰 keeps its Mandarin sense in 恰好, 恰恰, 恰当, 恰巧, 恰似, 恰如 and
恰到好处.
"""

from __future__ import annotations

import re

_QIA_EAT = re.compile(r"(?<!恰)恰(?![好恰当巧似如到])")


def mandarin_verbs(text: str) -> str:
    """``text`` with 恰 meaning "eat" written 吃 (the same length)."""
    return _QIA_EAT.sub("吃", text) if "恰" in text else text
