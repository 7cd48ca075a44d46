"""Kinds of ``suggestion_kinds`` for keeping well.

- A medicine for pain or a fever at home ("What can I take for the pain?"): paracetamol, unless the person
  reacts to it.
- Keeping going through a long shift or a long day ("What can I drink and snack on to keep me going around
  3am?", "how do I keep my energy up and not be flagging by seven?", "熬夜加班怎么提神？"), asked before
  drinks and snacks: options that keep a person awake without caffeine (water, fruit, something with
  protein, daylight and a short walk). A cup of chamomile tea is no answer to a 3am slump, and coffee is
  what many such people were told to cut out.
"""

from __future__ import annotations

import re

from voice_agent.conversation.suggestion_option import RequestKind
from voice_agent.conversation.suggestion_option import option as _o

__all__ = ["ENERGY", "MEDICINE"]

_I = re.IGNORECASE

ENERGY = RequestKind(
    "energy",
    re.compile(
        r"^energy$|\b(?:keep (?:my|me|our|your) energy up|keep (?:me|us) going|(?:stop|not be|avoid) (?:me )?"
        r"flagging|(?:3|three) ?am slump|afternoon slump|(?:get|getting) through (?:the|that) \w* ?slump|"
        r"stay (?:awake|alert)|pick-me-up)\b|提神|犯困|扛困|撑(?:过|住)|熬(?:个)?夜|精神头",
        _I,
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

MEDICINE = RequestKind(
    "medicine",
    re.compile(
        r"\b(?:medicines?|painkillers?|pain relief|pain relievers?|"
        r"take for (?:the|my|his|her|a|this) (?:\w+ )?(?:pain|headache|fever|ache|sprain|migraine))\b|"
        r"止痛药|止疼药|退烧药|吃(?:什么|啥|点什么)药",
        _I,
    ),
    (
        _o(
            "paracetamol (acetaminophen), at the dose on the pack, checked with a pharmacist",
            "paracetamol",
        ),
    ),
    (_o("对乙酰氨基酚（扑热息痛），按说明书的剂量，先问问药剂师", "对乙酰氨基酚", "扑热息痛"),),
)
