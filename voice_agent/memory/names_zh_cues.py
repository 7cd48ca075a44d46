"""Chinese names as people say them about others: a nickname, a surname with a title, a given name alone.

``names_zh`` and the tagger in ``person_names`` find a full name (surname + given name) or one after 叫;
in everyday speech people mostly say:

- 老 / 小 + surname, 阿 + a character: 老周, 小邓, 阿辉 (not 小米, 老公, 阿姨: dictionary words);
- a surname and a title: 王阿姨, 李老师, 孙大爷, 赵医生, 张总 (only the surname is the name);
- the given name alone: 海燕说…, 跟丽娟打个电话, 宿舍的美玲和佳琪, and pet names 朵朵, 豆豆.

Each shape counts only where a person stands: at a sentence start or after a word that takes a person
(跟, 给, 问, 提醒, a role word), and before what a person does (说, 刚, 把, 今天 …), so 小米的新手机,
马上, 白天 and 黄山 stay words. ``tagged``: the text's words with their dictionary tag ("oov" for a word
no dictionary holds), ``tags``: the dictionary's tag of a word, ``freq``: its word frequencies.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from voice_agent.memory.names_zh import SINGLE_SURNAMES
from voice_agent.memory.names_zh_words import ROLE_WORDS
from voice_agent.text.cjk import HAN_CLASS, HAN_RE

Span = tuple[int, int]


def _words(text: str) -> list[str]:
    return text.split()


_COMMON_WORD = 100  # a dictionary frequency from which a two-character run is a word (小米 396, 老周 56)
_SPOKEN_WORD = 1000  # … unless a person's slot surrounds it on both sides (老马说: 270)
_TITLES = (
    "阿姨|老师|大爷|大妈|大娘|大叔|医生|大夫|叔叔|师傅|经理|主任|奶奶|爷爷|大哥|大姐|姐姐|哥哥|同学|先生|"
    "女士|太太|小姐|律师|教授|老板|总|姐|哥|叔|婶|嫂"
)
_BEFORE_PERSON = _words(
    """
    跟 给 和 与 同 问 问问 找 让 叫 请 被 把 向 对 提醒 告诉 通知 联系 感谢 谢谢 陪 等 帮 替 见 的 是
    同事 同学 朋友 邻居 室友 老公 老婆 丈夫 妻子 儿子 女儿 闺女 老大 老二 老三 表姐 表妹 表哥 表弟 堂姐
    堂妹 堂哥 堂弟 姐姐 妹妹 哥哥 弟弟 经理 老板 领导 师傅 宿舍 组
    """
)
_AFTER_PERSON = _words(
    """
    说 讲 问 刚 刚才 刚刚 今天 明天 昨天 晚上 早上 下午 上午 又 也 还 已经 把 要 想 在 从 打 打电话
    给 带 来 去 过来 回来 请 让 他 她 他妈 她妈 他爸 她爸 的 和 跟 姐 哥 都 就 才 可能 好像 发烧
    生病 结婚 上学 放学 下班 上班 回家 过生日
    """
)
_OBJECT_PRONOUNS = frozenset(("我", "你", "我们", "你们", "咱", "咱们"))
_CALL = frozenset(("叫", "喊", "称呼", "管"))
# What only a person does right after being named: a common word said as a nickname still counts (老马说).
_ACTS = _words("说 讲 刚 刚才 刚刚 打电话 把 让 又 也 还 已经")
# Dictionary tags of characters that never make a given name (verbs, pronouns, particles, numbers …).
_NOT_NAME_TAGS = frozenset("vrpudmqcyefo")
# Verbs the dictionary tags otherwise (换 is "nz") that end no given name: "我闺女新换的钢琴老师" is a newly
# changed teacher, not a daughter called 新换.
_ONLY_VERBS = frozenset("换买卖搬装拿交找借租送接扔丢")
_PUNCT = set("，。！？；：、“”\"'（）()《》 \t\n,.!?;:")
_TITLED = re.compile(rf"(?P<surname>[{''.join(sorted(SINGLE_SURNAMES))}])(?={_TITLES})")


def chinese_cued_spans(
    text: str,
    tagged: Sequence[tuple[str, str]],
    tags: Mapping[str, str],
    freq: Mapping[str, int],
) -> list[Span]:
    spans: list[Span] = []
    ends: dict[int, str] = {}  # the word that ends at each offset
    offset = 0
    for index, (word, tag) in enumerate(tagged):
        start, offset = offset, offset + len(word)
        ends[offset] = word
        after = tagged[index + 1][0] if index + 1 < len(tagged) else ""
        if tag == "oov" and after in _OBJECT_PRONOUNS:
            continue  # "闺女非问我想要啥": an unknown run right before "me" / "you" is a verb phrase
        person_before, person_after, edge_before, edge_after = _sides(tagged, index)
        slot = (
            (person_before or person_after)
            and (person_before or edge_before)
            and (person_after or edge_after)
        )
        if (
            word not in ROLE_WORDS
            and not _kin(word)
            and _given_name(word, tag, tags, freq, slot, person_before, person_after, edge_before)
            # (a name-tagged word after a weak person word, 的 or 见, needs a person word after it too:
            # "宿舍的美玲和佳琪", not "点那个味道的香薰蜡烛")
            and not (tag in ("nr", "nrfg") and _weak_before(tagged, index) and not person_after)
        ):
            spans.append((start, start + 2))
    for m in _NICKNAME.finditer(text):
        at = m.start()
        if at not in ends and at != 0:
            continue  # inside a word: 大小陈列
        if _kin(m.group()):
            continue
        before, rest = ends.get(at, ""), text[at + 2 :]
        slot_before = not before or before[-1] in _PUNCT or before in _BEFORE_PERSON
        acts = any(rest.startswith(w) for w in _ACTS)
        slot_after = acts or not rest or rest[0] in _PUNCT or any(rest.startswith(w) for w in _AFTER_PERSON)
        common = freq.get(m.group()) or 0
        if slot_before and slot_after and common < (_SPOKEN_WORD if acts else _COMMON_WORD):
            spans.append((at, at + 2))
    for m in _TITLED.finditer(text):
        at = m.start("surname")
        head = text[:at]
        if not head or head[-1] in _PUNCT or any(head.endswith(w) for w in _BEFORE_PERSON):
            spans.append((at, at + 1))
    return spans


def person_slot(tagged: Sequence[tuple[str, str]], index: int) -> bool:
    """Whether the word at ``index`` stands where a person does: a person word (跟, 问, 说, 刚 …) on one
    side and a person word or the clause's edge on the other ("跟丽娟打个电话", "海燕说", "宿舍的美玲和佳琪";
    not "在贺卡上", "几句祝福的话", "对麸质过敏")."""
    person_before, person_after, edge_before, edge_after = _sides(tagged, index)
    return (person_before or person_after) and (person_before or edge_before) and (person_after or edge_after)


# A word before that asks for a person, not any noun: "跟师傅说", not "是师范刚毕业" or "对桃子过敏".
_WEAK_BEFORE = frozenset(("和", "与", "同", "对", "把", "被", "向", "等", "见", "的", "是", "组"))
_STRONG_AFTER = frozenset(("说", "讲", "问", "刚才", "刚刚", "打电话", "告诉", "让"))


def strong_person_slot(tagged: Sequence[tuple[str, str]], index: int) -> bool:
    """A person slot that a common word (师范, 明白) does not stand in by chance: a word before that
    takes a person (跟, 给, 问, a role word; not 是, 和, 对, 的), or the clause's edge before and a
    speaking act after ("李娜说"): "听说是师范刚毕业" is the college, "跟李娜说" the person."""
    person_before, _, edge_before, _ = _sides(tagged, index)
    before = tagged[index - 1][0] if index else ""
    after = tagged[index + 1][0] if index + 1 < len(tagged) else ""
    if person_before and before not in _WEAK_BEFORE:
        return True
    if _beside_a_name(tagged, index):
        return True  # "我跟王芳、李娜去吃饭": listed with a person
    return edge_before and after in _STRONG_AFTER


_NAME_TAGS = frozenset(("nr", "nrfg", "nrt", "oov"))


def _beside_a_name(tagged: Sequence[tuple[str, str]], index: int) -> bool:
    """The word at ``index`` is joined by 、 or 和 to a word tagged as a name ("王芳、李娜")."""
    for step in (-1, 1):
        joint, beside = index + step, index + 2 * step
        if (
            0 <= beside < len(tagged)
            and tagged[joint][0] in ("、", "和", "跟")
            and tagged[beside][1] in _NAME_TAGS
        ):
            return True
    return False


def _weak_before(tagged: Sequence[tuple[str, str]], index: int) -> bool:
    """Whether the word before ``index`` takes a person only sometimes (``_WEAK_BEFORE``: 的, 和, 见 …)."""
    return index > 0 and tagged[index - 1][0] in _WEAK_BEFORE


def _sides(tagged: Sequence[tuple[str, str]], index: int) -> tuple[bool, bool, bool, bool]:
    """A person word before, after; the clause's edge before, after the word at ``index``."""
    before = tagged[index - 1][0] if index else ""
    after = tagged[index + 1][0] if index + 1 < len(tagged) else ""
    person_before, person_after = before in _BEFORE_PERSON, after in _AFTER_PERSON
    if before in _OBJECT_PRONOUNS or before in ("他", "她"):
        person_before = index >= 2 and tagged[index - 2][0] in _CALL  # "你叫我思远", "大家都喊她努尔"
    return person_before, person_after, not before or before[-1] in _PUNCT, not after or after[0] in _PUNCT


_NICKNAME = re.compile(rf"[老小][{''.join(sorted(SINGLE_SURNAMES))}]|阿{HAN_CLASS}")
# 阿 + a kinship word is a relative, not a nickname: 陪我阿爷去饮茶, 阿嬷九十岁了 (dialects say these).
_KIN_AFTER_A = frozenset("爷嬷婆公妈爸姨叔伯哥姐妹弟嫂奶爹娘舅妗姑婶")


def _kin(word: str) -> bool:
    return len(word) == 2 and word[0] == "阿" and word[1] in _KIN_AFTER_A


def _given_name(
    word: str,
    tag: str,
    tags: Mapping[str, str],
    freq: Mapping[str, int],
    slot: bool,
    person_before: bool,
    person_after: bool,
    edge_before: bool,
) -> bool:
    """海燕, 美玲 (tagged a name), 佳琪 (no dictionary word, made of characters a name is made of), 朵朵
    and 豆豆 (a pet name said twice), each where a person stands: ``slot``, a person word (跟, 说 …) on
    one side and a person word or the clause's edge on the other ("跟闺蜜去", "对麸质过敏", "拉稀，" are
    not: one side only, or no person word)."""
    if len(word) != 2 or not HAN_RE.fullmatch(word[0]) or not HAN_RE.fullmatch(word[1]):
        return False
    common = freq.get(word) or 0
    if tag == "nrt":
        return slot  # a transliteration: "喊她努尔", not "病人扎针都…"
    if tag in ("nr", "nrfg") and common < 200:
        return person_before or person_after  # the dictionary knows it as a name: one side is enough
    if tag == "oov":
        return (
            slot
            and not any((tags.get(ch) or "x")[0] in _NOT_NAME_TAGS for ch in word)
            and word[1] not in _ONLY_VERBS
        )
    if word[0] != word[1] or tag[:1] in "vd":
        return False  # 回回都是: a doubled verb or adverb ("every time"), not a pet name
    return common < _COMMON_WORD and (person_before or edge_before) and person_after
