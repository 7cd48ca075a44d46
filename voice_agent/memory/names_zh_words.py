"""Chinese runs shaped like names that the sentence uses as everyday words.

jieba's dictionary tags many common words as person names (师傅, 贺卡, 祝福, 温馨, 段子, 张罗, 宁可 are
``nr``), and a surname followed by any character reads as a name by its shape (连 in "连牛油火锅底料都不碰",
汤 in "汤里放点啥", 叶 in "芹菜叶都不行"). Scrubbed, "想在贺卡上写几句祝福的话" reaches the model as
"想在[NAME]上写几句[NAME]的话", and the person's question loses its point. A run is a word, not a person:

- a role or a relation (师傅, 师兄, 闺蜜): who the person is, not their name;
- 连 + a word + 都 / 也: the "even …" construction (连水果都得烫), not the surname 连;
- a given part holding a pronoun (下周我妈 → 周我妈) or a character the dictionary knows only as a
  function word (里, 都, 前, 度: 汤里, 叶都, 明前, 池度);
- a common dictionary word tagged as a name (frequency ≥ ``COMMON``) that no person slot surrounds:
  "李娜说" and "跟李娜" keep 李娜, "在贺卡上" and "几句祝福的话" are words (``names_zh_cues.person_slot``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

ROLE_WORDS = frozenset(
    [
        "师傅",
        "师兄",
        "师姐",
        "师哥",
        "师弟",
        "师妹",
        "师父",
        "师母",
        "和尚",
        "王爷",
        "闺蜜",
        "宝宝",
        "宝贝",
        "老乡",
        "同乡",
        "伙计",
        "老伙计",
        "发小",
    ]
)
COMMON = 50  # a dictionary frequency from which a name-tagged two-character word is an everyday word
_EVEN = re.compile(r"[^，。！？；,.!?;]{0,12}?[都也]")
_PRONOUNS = frozenset("我你他她它咱您")
# Dictionary tags of a character that is only a function word: adverb, locative, measure, numeral,
# particle, preposition, conjunction, pronoun, modal.
_FUNCTION_TAGS = frozenset("dfqmupcry")


def is_everyday_word(
    text: str, span: tuple[int, int], tags: Mapping[str, str], *, surname_len: int = 1
) -> bool:
    """Whether the surname-led run ``text[span]`` is an everyday word rather than a person's name."""
    start, end = span
    run = text[start:end]
    if run in ROLE_WORDS:
        return True
    given = run[surname_len:]
    if run[0] == "连" and surname_len == 1 and _EVEN.match(text, end):
        return True
    if any(ch in _PRONOUNS for ch in given):
        return True
    return len(given) == 1 and (tags.get(given) or "x")[:1] in _FUNCTION_TAGS
