"""Chinese person names without a cue, for ``person_names.PersonNameFinder``.

Names are found in running text with jieba's dictionary tags (``nr``: a name; "oov": a run no
dictionary word holds, in running text most often a name), checked against the surnames
(``names_zh_surnames``), together with the cue and title rules of ``names_zh``, the nicknames and given
names of ``names_zh_cues`` and the rare or declared surnames of ``names_zh_rare``; so ``白雅宁是一位43岁
的…``, ``主治医生刘德华`` and ``全名禤海燕`` are names without 我叫 or 老师.

What reads as a name by its shape but is a word stays (``names_zh_words``, ``names_zh_everyday``,
``names_things_zh``): 师范, 祝酒词, 项目经理, "桃子的毛蹭到手上", "李子和梅子都很酸".

``start()`` loads jieba's dictionary (about a second; jieba caches its prefix dictionary on disk).
"""

from __future__ import annotations

import logging
import re
from typing import Any

from voice_agent.errors import ModelError
from voice_agent.memory.names_things_zh import SHOP_WORDS_ZH, is_thing
from voice_agent.memory.names_zh import (
    COMPOUND_SURNAMES,
    NOT_GIVEN,
    SINGLE_SURNAMES,
    chinese_name_spans,
    cued_any_spans,
)
from voice_agent.memory.names_zh_cues import chinese_cued_spans, person_slot, strong_person_slot
from voice_agent.memory.names_zh_everyday import everyday_run
from voice_agent.memory.names_zh_phrases import is_phrase_not_name, without_particle
from voice_agent.memory.names_zh_public import inside_public_figures
from voice_agent.memory.names_zh_rare import rare_surname_spans
from voice_agent.memory.names_zh_surnames import ALL_SINGLE_SURNAMES, function_char
from voice_agent.memory.names_zh_words import COMMON, among_things, given_name_chars, is_everyday_word
from voice_agent.memory.names_zh_words import EVERYDAY_NOT_NAMES as _EVERYDAY
from voice_agent.memory.names_zh_words import NAME_TAGS as _NAME_TAGS
from voice_agent.text.cjk import HAN_CLASS, HAN_RE

Span = tuple[int, int]

_CJK = HAN_RE
_COMMON_PREFIX = 100  # a dictionary frequency above which a surname-led start is a word (白天, 黄金, 马上)
_IN_WORD = 20  # a dictionary frequency from which a word the name's surname ends is said (晕车 34)
_RARE_GIVEN = 200  # a name-tagged word less frequent than this is a given name after a surname (志强 15)
_VERY_COMMON = 300  # … above which a word tagged as a name needs a strong person slot (师范 981, 李娜 438)
_KIN = frozenset(
    ["老公", "老婆", "老爸", "老妈", "老伴", "老头", "老板", "小姐", "先生", "太太", "阿姨", "叔叔", "师傅"]
)
_NOT_GIVEN_TAGS = frozenset("xupcrmqyeofw")  # punctuation, particles, prepositions, pronouns, numbers…
_NOT_A_NAME_WORD = frozenset("vadmqrtfpcu")  # dictionary words of these kinds are never a name
_ZH_SURNAME = f"(?:{'|'.join(sorted(COMPOUND_SURNAMES))}|[{''.join(sorted(SINGLE_SURNAMES))}])"
# A surname and two characters where a person stands: at the start of a sentence or after a word for
# a relative or a role, and before what follows a subject ("苏明远的女儿", "我妈妈马俊杰今年…").
_ZH_ROLE_WORDS = (
    "妈妈 爸爸 母亲 父亲 丈夫 妻子 老公 老婆 儿子 女儿 哥哥 姐姐 弟弟 妹妹 爷爷 "
    "奶奶 外公 外婆 同事 同学 朋友 邻居 患者 病人 医生 护士 家属 收件人 开户人 "
    "联系人 客户 经理 老板 室友 说 给 跟 和 与 找 问 让 请 告诉 认识 见到 "
    "通知 联系 感谢"
)
_ZH_ROLES = _ZH_ROLE_WORDS.split()
# Relatives and roles right before a full name with a surname of any kind ("我表哥揭志强买新房了").
_APPOSITION_WORDS = (
    "表哥 表姐 表弟 表妹 堂哥 堂姐 堂弟 堂妹 舅舅 舅妈 姑姑 姑父 姨妈 姨夫 叔叔 婶婶 公公 婆婆 岳父 岳母 "
    "女婿 儿媳 侄子 侄女 外甥 外甥女 孙子 孙女 闺女 老师 班主任 领导 上司 主管 组长 队长 校长 房东 "
    "师傅 徒弟 闺蜜 发小 细佬 家姐 阿哥 老豆 的 是 叫"
)
_APPOSITION = frozenset(_ZH_ROLES + _APPOSITION_WORDS.split())
_ZH_BEFORE = '(?:^|(?<=[，。！？；：、\\s“”"（(])|' + "|".join(f"(?<={role})" for role in _ZH_ROLES) + ")"
_ZH_AFTER = (
    r"(?=是一位|是个|是我|今年|和|的|说|也|跟|给|打|在|来|去|已|还|会|要|就|都|被|把|带|，|。|、|！|？|$)"
)
# A run ending like a place (岳麓区, 高新区, 白云路) is a place even when it starts with a surname.
_ZH_PLACE_END = frozenset("区市省县镇乡村路街道站馆院店厂局园湾港桥寺庙")
_ZH_PLACED_NAME = re.compile(rf"{_ZH_BEFORE}(?P<name>{_ZH_SURNAME}{HAN_CLASS}{{2}}){_ZH_AFTER}")
# What ends a verb said right after a one-character "given name": "毛蹭到手上", "单放你桌上".
_VERB_OBJECT = frozenset("到在了着过你我他她它")
_SHOP_AFTER = re.compile(rf"(?:{SHOP_WORDS_ZH})")
_CUE_BEFORE = re.compile(r"(?:叫|叫做|名叫|名字是|名字叫|姓名是|全名是?|全名叫)[ \t：:]?$")


class ChineseNameFinder:
    """Chinese names with jieba's dictionary; thread-safe after ``start``."""

    def __init__(self) -> None:
        self._posseg: Any = None
        self._given_chars: frozenset[str] = frozenset()  # characters Chinese given names are made of

    @property
    def started(self) -> bool:
        return self._posseg is not None

    def start(self) -> None:
        if self._posseg is None:
            posseg = _load_jieba()
            self._given_chars = given_name_chars(posseg.dt.word_tag_tab)
            self._posseg = posseg

    def spans(self, text: str) -> list[Span]:
        if self._posseg is None:
            self.start()
        dictionary = self._posseg.dt
        tags, freq = dictionary.word_tag_tab, dictionary.tokenizer.FREQ
        spans = [span for span in chinese_name_spans(text) if self.plausible(text, span)]
        taken = SpanMarks(len(text))
        for span in spans:
            taken.take(span)
        for span in rare_surname_spans(text, tags, freq):  # "全名禤海燕", "姓揭…叫揭志强"
            if taken.free(span) and not is_thing(text, *span):
                spans.append(span)
                taken.take(span)
        words = self._tagged(text)
        for span in cued_any_spans(text):
            if taken.free(span) and (tags.get(text[span[0] : span[1]]) or "n")[:1] not in _NOT_A_NAME_WORD:
                spans.append(span)  # "他叫外卖了": a verb or an adverb after 叫 is no name
                taken.take(span)
        offset = 0
        for index, (word, _) in enumerate(words):
            start, offset = offset, offset + len(word)
            # "我表哥揭志强": failing the rest, a surname of the long list and a listed given name
            name = self._found(text, words, index, start) or self._apposed(words, index, start)
            if name and taken.free(name):
                spans.append(name)
                taken.take(name)
        for m in _ZH_PLACED_NAME.finditer(text):
            span = m.span("name")
            if taken.free(span) and not self._is_word(m.group("name")) and not is_thing(text, *span):
                spans.append(span)
                taken.take(span)
        for span in chinese_cued_spans(text, words, tags, freq):
            if taken.free(span) and not is_thing(text, span[0], span[1]):
                spans.append(span)
                taken.take(span)
        return [
            without_particle(text, span)
            for span in spans
            if text[span[0] : span[1]] not in _EVERYDAY
            and not self._inside_word(text, span)
            and not (text[span[0]] in SINGLE_SURNAMES and is_everyday_word(text, span, tags))
            and not (
                text[span[0] : span[0] + 2] in COMPOUND_SURNAMES
                and is_everyday_word(text, span, tags, surname_len=2)
            )
            and not (everyday_run(text[span[0] : span[1]]) and not _CUE_BEFORE.search(text, 0, span[0]))
            and not _told_surname(text, span)
            and not _SHOP_AFTER.match(text, span[1])  # "福寿康大药房", "李记面馆": a shop's name
            and not _moved_to(text, span)
            and not is_phrase_not_name(text, *span, tags)  # "这段时间", "万圣节", "采购单好伐"
            and not inside_public_figures(text, span)  # "郭靖黄蓉", "孔夫子旧书网"
        ]

    def _found(self, text: str, words: list[tuple[str, str]], index: int, start: int) -> Span | None:
        """The name the word at ``index`` (at ``start`` in ``text``) starts, or one whose surname the
        segmenter glued to its end; None for none."""
        word, flag = words[index]
        tags, freq = self._posseg.dt.word_tag_tab, self._posseg.dt.tokenizer.FREQ
        following = words[index + 1] if index + 1 < len(words) else None
        found = _chinese_name(word, flag, following)
        listed = flag in ("nr", "nrfg", "nrt") and found == len(word)
        if found and self._is_word(text[start : start + found], listed=listed):
            found = 0  # "白天鹅", "黄金周": a surname-led run that starts with a word
        if found and is_thing(text, start, start + found):
            found = 0  # "水果沙拉", "黄焖鸡": a dish, not a person
        if found == 2 and listed and (common := freq.get(word) or 0) >= COMMON:
            slot = strong_person_slot(words, index) if common >= _VERY_COMMON else person_slot(words, index)
            found = found if slot else 0  # "在贺卡上", "听说是师范刚毕业": a common word tagged as a name
        if found == len(word) and among_things(words, index):
            found = 0  # "汗蒸、桑拿那些": listed beside a thing, it is one
        if found and flag == "oov" and not person_slot(words, index) and not self._given_shape(word, found):
            found = 0  # "我们班毕旅决定": a run no dictionary holds, of characters no name is made of
        if not found and len(word) > 1 and word[-1] in SINGLE_SURNAMES and following:
            # "说谢 / 天宇": the segmenter glued the surname to the word before it.
            glued = _chinese_name(word[-1], "nr", following)
            if (
                following[1] in _NAME_TAGS
                and glued
                and not is_thing(text, start + len(word) - 1, start + len(word) - 1 + glued)
            ):
                found, start = glued, start + len(word) - 1
        if found and self._verb_given(text, start, found, listed):
            found = 0  # "桃子的毛蹭到手上", "把报销单放你桌上": a noun and a verb, not a name
        surname_len = len(word) if word in COMPOUND_SURNAMES else 1
        if found and is_everyday_word(text, (start, start + found), tags, surname_len=surname_len):
            found = 0  # "汤里", "叶都", "连水果都": a surname-led run that is everyday words
        return (start, start + found) if found else None

    def _verb_given(self, text: str, start: int, found: int, listed: bool) -> bool:
        """A one-character given part that is a verb no name is made of (蹭) or a verb with its
        complement or object right after it ("毛蹭到", "单放你")."""
        if listed or found != 2 or text[start : start + 2] in COMPOUND_SURNAMES:
            return False
        given = text[start + 1]
        if (self._posseg.dt.word_tag_tab.get(given) or "")[:1] != "v":
            return False
        return given not in self._given_chars or text[start + 2 : start + 3] in _VERB_OBJECT

    def _apposed(self, words: list[tuple[str, str]], index: int, start: int) -> Span | None:
        """A surname of the long list alone, after a relative or a role word (or 的, 是, the clause's
        edge), before a given name the dictionary knows ("我表哥揭 / 志强买新房了", "新来的揭 / 志强"):
        the surname is the person's whatever else the character means."""
        word = words[index][0]
        before = words[index - 1][0] if index else ""
        if (
            len(word) != 1
            or word not in ALL_SINGLE_SURNAMES
            or function_char(word)
            or not (before in _APPOSITION or not before or before[-1] in "，。！？；：、 ")
            or index + 1 >= len(words)
        ):
            return None
        given, given_flag = words[index + 1]
        freq = self._posseg.dt.tokenizer.FREQ
        if given_flag not in ("nr", "nrfg") or len(given) != 2 or given in _KIN:
            return None
        if (freq.get(given) or 0) >= _RARE_GIVEN or everyday_run(word + given) or given in _EVERYDAY:
            return None  # "花 / 祝福": a common word the dictionary tags as a name
        return (start, start + 1 + len(given))

    def plausible(self, text: str, span: Span) -> bool:
        """Whether a Chinese span of the cue and title rules (or a parser's) can be a name: not an
        everyday word before a title ("项目经理", "全科医生"), not a fruit or a dish, not a common noun
        the dictionary knows that no naming cue introduces."""
        run = text[span[0] : span[1]]
        cued = bool(_CUE_BEFORE.search(text, 0, span[0]))
        if (everyday_run(run) and not cued) or is_thing(text, *span):
            return False
        if cued or self._posseg is None:
            return True
        dictionary = self._posseg.dt
        tag = dictionary.word_tag_tab.get(run) or ""
        common = (dictionary.tokenizer.FREQ.get(run) or 0) >= _COMMON_PREFIX
        return not (common and tag[:1] in "nvadbs" and tag not in ("nr", "nrfg", "nrt"))

    def _given_shape(self, word: str, found: int) -> bool:
        """Whether the given part of a surname-led run (``word[1:found]``) is made of characters people's
        given names are made of (``_given_name_chars``)."""
        given = word[1:found] if word[:2] not in COMPOUND_SURNAMES else word[2:found]
        return bool(given) and all(ch in self._given_chars for ch in given)

    def _inside_word(self, text: str, span: Span) -> bool:
        """A name found where a word starts just before it ("照顾孙子": 照顾 + 孙子, not 顾孙子)."""
        start = span[0]
        if start == 0 or not _CJK.match(text[start - 1]):
            return False
        if any(text.endswith(role, 0, start) for role in _ZH_ROLES):
            return False  # "开户人马俊杰": the role word ends where the name starts (人马 is a word too)
        freq, tags = self._posseg.dt.tokenizer.FREQ, self._posseg.dt.word_tag_tab
        if (freq.get(text[start - 1 : start + 1]) or 0) >= _COMMON_PREFIX:
            return True
        # A less common word that no name is ("晕车晕得", "少年宫三楼"): a verb, a noun or a place word.
        for word in (text[start - 1 : start + 1], text[max(0, start - 2) : start + 1]):
            tag = tags.get(word) or ""
            if (
                len(word) >= 2
                and (freq.get(word) or 0) >= _IN_WORD
                and tag[:1] in "nvs"
                and tag not in _NAME_TAGS
            ):
                return True
        return False

    def _tagged(self, text: str) -> list[tuple[str, str]]:
        """Words of ``text`` with their dictionary tag; "oov" for a word the segmenter's HMM joined from
        characters no dictionary word holds — in running text most often a name. (jieba's own POS
        tagger runs a much slower Viterbi over every tag; the dictionary's tags are enough here.)"""
        tags = self._posseg.dt.word_tag_tab
        freq = self._posseg.dt.tokenizer.FREQ
        out = []
        for word in self._posseg.dt.tokenizer.cut(text, HMM=True):
            tag = tags.get(word)
            if tag is None:
                tag = "oov" if _CJK.match(word) and not freq.get(word) else "x"
            out.append((word, tag))
        return out

    def _is_word(self, name: str, *, listed: bool = False) -> bool:
        """Whether a surname-led run is ordinary words (马上, 高速路, 白天鹅) rather than a name: the run, or
        its first two (three) characters, is a common dictionary word. ``listed``: the dictionary itself
        tags the run as a name, so only its start is checked."""
        freq = self._posseg.dt.tokenizer.FREQ
        if not listed and freq.get(name):
            return True
        if name[:2] in COMPOUND_SURNAMES or len(name) < 3:
            return False
        if name[-1] in _ZH_PLACE_END:
            return True
        return (freq.get(name[:2]) or 0) >= _COMMON_PREFIX or (
            len(name) == 4 and (freq.get(name[:3]) or 0) >= _COMMON_PREFIX
        )


# Moving somewhere, the place named alone: "我公司搬到张江了", "调到武汉那边", "住到黄岛附近".
_MOVED_TO = re.compile(r"(?:搬到|搬去|搬来|调到|调去|迁到|住到|落户到?)$")
_PLACE_AFTER = re.compile(r"(?:了|啦|去了|来了|那边|这边|那儿|附近|一带|[，,。！!？?；;]|$)")


def _moved_to(text: str, span: Span) -> bool:
    """A two-character run right after a verb of moving and before the clause ends or "那边" / "附近": a
    place ("搬到张江了"), not a person ("搬到张伟家" goes on with 家)."""
    return (
        span[1] - span[0] == 2
        and _MOVED_TO.search(text, 0, span[0]) is not None
        and _PLACE_AFTER.match(text, span[1]) is not None
    )


def _told_surname(text: str, span: Span) -> bool:
    """A surname alone right after 姓 ("我姓李", "复姓澹台"): the surname told, no person named."""
    run = text[span[0] : span[1]]
    told = run in COMPOUND_SURNAMES or (len(run) == 1 and run in SINGLE_SURNAMES)
    return told and span[0] > 0 and text[span[0] - 1] == "姓"


def _chinese_name(word: str, flag: str, following: tuple[str, str] | None) -> int:
    """Length of the name starting at ``word`` (0 for none), from jieba's tag and the surname list."""
    if flag == "oov":
        word = _trim_given(word)  # "文博去": the name, not the verb after it
    joined = _with_given_name(word, flag, following)
    if joined:
        return joined
    if flag in _NAME_TAGS and 2 <= len(word) <= 4:
        if word[:2] in COMPOUND_SURNAMES or (word[0] in SINGLE_SURNAMES and len(word) <= 3):
            return len(word)
        if flag == "nrt" and len(word) >= 3:
            return len(word)  # a transliterated foreign name
    return 0


def _with_given_name(word: str, flag: str, following: tuple[str, str] | None) -> int:
    """ "欧阳 / 娜娜", "白 / 雅宁", "诸葛 / 文博去", "禤 / 海燕": a surname the segmenter cut from the
    given name."""
    if following is None or not (word in COMPOUND_SURNAMES or (len(word) == 1 and word in SINGLE_SURNAMES)):
        return 0
    given, given_flag = following
    if given_flag == "oov":
        given = _trim_given(given)
    if not 1 <= len(given) <= 2 or not _CJK.fullmatch(given[0]) or given in NOT_GIVEN:
        return 0  # "亓 / 是个少见的姓": a verb or a particle after the surname is no given name
    if (flag != "oov" and flag[:1] in _NOT_GIVEN_TAGS) or given in _KIN:
        return 0  # "和 / 老公": a conjunction before a kinship word the dictionary tags as a name
    # The given name tagged as a name ("郑 / 宇航"), or a surname the tagger took for a name followed by
    # a content word ("姚 / 建国", "董 / 立新").
    if given_flag in _NAME_TAGS or (
        (flag == "nr" or word in COMPOUND_SURNAMES) and given_flag[:1] not in _NOT_GIVEN_TAGS
    ):
        return len(word) + len(given)
    return 0


def _trim_given(word: str) -> str:
    trimmed = word.rstrip(NOT_GIVEN)
    return trimmed if len(trimmed) >= 1 else word


class SpanMarks:
    """Which characters of a text are already taken by a span: each check and mark is O(span)."""

    def __init__(self, size: int) -> None:
        self._marks = bytearray(size)

    def take(self, span: Span) -> None:
        self._marks[span[0] : span[1]] = b"\x01" * (span[1] - span[0])

    def free(self, span: Span) -> bool:
        return self._marks.find(1, span[0], span[1]) == -1

    def covers(self, span: Span) -> bool:
        return span[1] > span[0] and self._marks.find(0, span[0], span[1]) == -1


def _load_jieba() -> Any:
    try:
        import jieba
        import jieba.posseg
    except ImportError as err:
        raise ModelError("jieba is not installed: pip install jieba==0.42.1", model="jieba") from err
    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()  # builds (or reads the cached) prefix dictionary once
    return jieba.posseg
