"""A stomach that acts up after a thing, told without a symptom's name: "现在沾一点辣椒、剁椒，肚子里就跟点了
把火一样" (the thing is what was touched; the stomach's burning, churning or thunder is the reaction), read
by ``constraint_shapes.symptom_matches``. Not a stomach that is full or warm after it ("吃了一碗面，肚子就
饱了")."""

from __future__ import annotations

import re

from voice_agent.text.cjk import HAN_CLASS

__all__ = ["STOMACH_ZH"]

_ITEM = rf"(?![一点口滴])(?:{HAN_CLASS}){{1,5}}?"
STOMACH_ZH = re.compile(
    r"(?:沾|吃|喝|碰|饮|食)(?:上|了|到)?(?:一点点|一点儿?|一丁点儿?|点儿?|一口|一啖|一滴|几口)"
    rf"(?P<x>{_ITEM}(?:、{_ITEM})*)[，,]?(?:我的?|俺的?|个)?(?:肚子|肚|胃|肠子?)(?:里头|里面|里)?"
    r"(?:就|便|马上|立马|即刻)(?![^，。！？]{0,4}(?:饱|舒服|暖和|暖|踏实|满足|好了))"
)
