"""Keeping going through a long shift or a long day ("What can I drink and snack on to keep me going around
3am?", "how do I keep my energy up and not be flagging by seven?", "熬夜加班怎么提神？"): a kind of
``suggestion_kinds`` of its own, asked before drinks and snacks, whose options keep a person awake without
caffeine (water, fruit, something with protein, daylight and a short walk): a cup of chamomile tea is no
answer to a 3am slump, and coffee is what many such people were told to cut out."""

from __future__ import annotations

import re

from voice_agent.conversation.suggestion_option import RequestKind
from voice_agent.conversation.suggestion_option import option as _o

__all__ = ["ENERGY"]

ENERGY = RequestKind(
    "energy",
    re.compile(
        r"^energy$|\b(?:keep (?:my|me|our|your) energy up|keep (?:me|us) going|(?:stop|not be|avoid) (?:me )?"
        r"flagging|(?:3|three) ?am slump|afternoon slump|(?:get|getting) through (?:the|that) \w* ?slump|"
        r"stay (?:awake|alert)|pick-me-up)\b|提神|犯困|扛困|撑(?:过|住)|熬(?:个)?夜|精神头",
        re.IGNORECASE,
    ),
    (
        _o(
            "a caffeine-free pick-me-up: a big glass of cold water, a banana and a handful of nuts, "
            "then ten minutes' walk in fresh air",
            "banana",
            "nuts",
        ),
        _o(
            "a caffeine-free pick-me-up: a big glass of cold water, an apple and some oatcakes with hummus, "
            "then ten minutes' walk in fresh air",
            "apple",
            "oats",
            "sesame",
            "chickpea",
        ),
        _o("a caffeine-free pick-me-up: a big glass of cold water and a ten-minute walk in fresh air"),
    ),
    (
        _o("不含咖啡因的提神办法：一大杯温水、一根香蕉加一小把坚果，再出去走十分钟透透气", "香蕉", "坚果"),
        _o("不含咖啡因的提神办法：一大杯温水、一个苹果，再用凉水洗把脸、走动十分钟", "苹果"),
        _o("不含咖啡因的提神办法：一大杯温水，再出去走十分钟透透气"),
    ),
)
