"""Chinese runs shaped like names that the sentence uses as everyday words.

jieba's dictionary tags many common words as person names (师傅, 贺卡, 祝福, 温馨, 段子, 张罗, 宁可 are
``nr``), and a surname followed by any character reads as a name by its shape (连 in "连牛油火锅底料都不碰",
汤 in "汤里放点啥", 叶 in "芹菜叶都不行"). Scrubbed, "想在贺卡上写几句祝福的话" reaches the model as
"想在[NAME]上写几句[NAME]的话", and the person's question loses its point. A run is a word, not a person:

- a role or a relation (师傅, 师兄, 闺蜜): who the person is, not their name;
- 连 + a word + 都 / 也: the "even …" construction (连水果都得烫), not the surname 连;
- a given part holding a pronoun (下周我妈 → 周我妈) or a character the dictionary knows only as a
  function word (里, 都, 前, 度: 汤里, 叶都, 明前, 池度);
- in Cantonese, 仲 ("still, also": 仲流埋鼻血, 仲未食) before a verb: the adverb, not the rare surname;
- a common dictionary word tagged as a name (frequency ≥ ``COMMON``) that no person slot surrounds:
  "李娜说" and "跟李娜" keep 李娜, "在贺卡上" and "几句祝福的话" are words (``names_zh_cues.person_slot``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from voice_agent.memory.names_zh import SINGLE_SURNAMES
from voice_agent.text.cjk import HAN_RE
from voice_agent.text.dialect_zh import cantonese

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
# Everyday words the segmenter's dictionary lacks (微信 is read as an unknown run, so a name where a
# person could stand: "写个请假的微信给主管") or tags as a name (乔迁 "nr", 乔 a surname): never a name.
EVERYDAY_NOT_NAMES = frozenset(
    [
        "微信",
        "乔迁",
        "支付宝",
        "淘宝",
        "抖音",
        "快手",
        "微博",
        "网红",
        "外卖",
        "快递",
        "朋友圈",
        "群聊",
        "视频",
        "打卡",
        "高铁",
        "动车",
        "地铁",
        "网购",
        "直播",
        "红包",
        "二维码",
        "扫码",
        "充电宝",
        "共享单车",
        "滴滴",
        "美团",
        "拼多多",
        "小红书",
        "健身房",
        "核酸",
        "疫苗",
    ]
)
COMMON = 50  # a dictionary frequency from which a name-tagged two-character word is an everyday word
_EVEN = re.compile(r"[^，。！？；,.!?;]{0,12}?[都也]")
_PRONOUNS = frozenset("我你他她它咱您")
# Dictionary tags of a character that is only a function word: adverb, locative, measure, numeral,
# particle, preposition, conjunction, pronoun, modal.
_FUNCTION_TAGS = frozenset("dfqmupcry")
_CANTONESE_ADVERB_SURNAMES = frozenset("仲")
# Cantonese particles no given name holds: "中学戴咗两年" (咗: done), "嗰啲", "佢嘅".
_CANTONESE_PARTICLES = frozenset("咗啲嘅喺嘢嚟咩嘞喇噉咁")
# What 仲 ("still, also") most often stands before in Cantonese: verbs and negations (仲有, 仲未, 仲流).
_AFTER_CANTONESE_ADVERB = frozenset(
    "有要係系未唔冇食去话話想喺嚟流好多可会會使得记記睇做讲講搞返识識叫痛痒癢"
)


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
    if any(ch in _PRONOUNS or ch in _CANTONESE_PARTICLES for ch in given) or given in _NEVER_GIVEN:
        return True  # "对猫毛过敏": 毛 is a surname, 过敏 no given name
    if run[0] in _CANTONESE_ADVERB_SURNAMES and given[:1] in _AFTER_CANTONESE_ADVERB and cantonese(text):
        return True
    return len(given) == 1 and (tags.get(given) or "x")[:1] in _FUNCTION_TAGS


# Words after a surname character that are what happens to a body, never a given name.
# (and what is done to teeth: "全麻洗牙" is no 麻洗牙)
_NEVER_GIVEN_TEXT = "过敏 过敏性 不耐受 发炎 发烧 发痒 感冒 咳嗽 拉肚子 胀气 起疹子 红肿 过期 难受 疼 痒 肿"
_NEVER_GIVEN = frozenset(f"{_NEVER_GIVEN_TEXT} 洗牙 拔牙 补牙 种牙".split(" "))


# jieba tags of person names, and "oov": a run no dictionary word holds (most often a name)
NAME_TAGS = frozenset({"nr", "nrfg", "nrt", "oov"})
_GIVEN_CHAR_MIN = 3  # names in the dictionary a character must stand in, after the surname, to count


def given_name_chars(tags: dict[str, str]) -> frozenset[str]:
    """The characters that stand after the surname in at least ``_GIVEN_CHAR_MIN`` of the dictionary's
    person names (jieba tags about 40k surname-led words ``nr``): 伟, 芳, 磊, 娟 are, 旅 is not (1)."""
    counts: dict[str, int] = {}
    for word, tag in tags.items():
        if tag == "nr" and 2 <= len(word) <= 3 and word[0] in SINGLE_SURNAMES:
            for ch in word[1:]:
                counts[ch] = counts.get(ch, 0) + 1
    return frozenset(ch for ch, n in counts.items() if n >= _GIVEN_CHAR_MIN)


def among_things(words: Sequence[tuple[str, str]], index: int) -> bool:
    """Whether the word at ``index`` stands in a list (joined by 、) beside a dictionary word that is no
    name ("汗蒸、桑拿", "白切鸡、豉油鸡"): the items of one list are of one kind. A list of names
    ("张伟、李娜") or of unknown runs keeps them."""
    for step in (-1, 1):
        joint, beside = index + step, index + 2 * step
        if not (0 <= beside < len(words)) or words[joint][0] != "、":
            continue
        word, flag = words[beside]
        if HAN_RE.match(word) and flag not in NAME_TAGS and flag[:1] in "nv":
            return True
    return False
