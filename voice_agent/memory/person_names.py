"""Person names without a cue, in English and Chinese text, for the scrubber.

English (and other Latin, Greek, Cyrillic script) names are found three ways and joined:

- the PERSON entities of a spaCy parse, when the caller has one (``spans(text, doc=doc)``);
- lists of first names and surnames ranked in the top 500 of some country (from the names-dataset
  package, see ``scripts/build_name_lists.py``): a run of capitalised words holding a known name
  (``Steffen Mauer``, ``Crystal Murdock``), or a known first name alone (``Caroline``); common words
  that are also names (May, Will, Grace, Friday) and runs holding place words (Park, Street, Bridge)
  count only beside another name;
- a title before capitalised words: ``Dr. Okafor``, ``Mrs Patel``, ``Herr Schmidt``.

Chinese names are found in running text with jieba's part-of-speech tags (``nr``), checked against the
common surnames (single and compound), together with the cue and title rules of ``names_zh``; so
``白雅宁是一位43岁的…`` and ``主治医生刘德华`` are names without 我叫 or 老师.

A name found once is found again later in the same text: its first name, surname or (Chinese) given
name said alone. Across utterances the write path's ``KnownNames`` does the same from the vault.

``start()`` loads the lists (tens of ms) and, for Chinese, jieba's dictionary (about a second; jieba
caches its prefix dictionary on disk); the first call of ``spans`` starts what it needs if not done.
"""

from __future__ import annotations

import gzip
import logging
import re
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from voice_agent.errors import ModelError
from voice_agent.memory.name_cues import cued_name_spans
from voice_agent.memory.name_runs_en import (
    capitalised_runs,
    destination_before,
    mixed_case,
    sentence_start,
    title_before,
    verb_title_before,
    without_leading_words,
)
from voice_agent.memory.name_words_en import COMMON_EN, LEADING, PLACE
from voice_agent.memory.names_things_zh import is_thing
from voice_agent.memory.names_zh import (
    COMPOUND_SURNAMES,
    NOT_GIVEN,
    SINGLE_SURNAMES,
    chinese_name_spans,
    cued_any_spans,
)
from voice_agent.memory.names_zh_cues import chinese_cued_spans, person_slot
from voice_agent.memory.names_zh_words import COMMON, among_things, given_name_chars, is_everyday_word
from voice_agent.memory.names_zh_words import EVERYDAY_NOT_NAMES as _EVERYDAY
from voice_agent.memory.names_zh_words import NAME_TAGS as _NAME_TAGS
from voice_agent.text.cjk import HAN_CLASS, HAN_RE
from voice_agent.text.holidays import saints_days

Span = tuple[int, int]


_ARTICLE_BEFORE = re.compile(r"(?<![\w])(?:the|a|an)[ \t]+$")
_SURNAME_SHAPE = re.compile(r"(?:Ma?c|O['’]|Fitz)[A-Z][a-z]{2,}")
_NOT_PERSON_LABELS = frozenset({"GPE", "LOC", "NORP", "FAC", "ORG", "EVENT", "PRODUCT", "WORK_OF_ART"})
_CJK = HAN_RE
_COMMON_PREFIX = 100  # a dictionary frequency above which a surname-led start is a word (白天, 黄金, 马上)
_KIN = frozenset(
    ["老公", "老婆", "老爸", "老妈", "老伴", "老头", "老板", "小姐", "先生", "太太", "阿姨", "叔叔", "师傅"]
)
_NOT_GIVEN_TAGS = frozenset("xupcrmqyeofw")  # punctuation, particles, prepositions, pronouns, numbers…
_NOT_A_NAME_WORD = frozenset("vadmqrtfpcu")  # dictionary words of these kinds are never a name
_WORD = re.compile(r"[^\W\d_]+")
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
_ZH_BEFORE = '(?:^|(?<=[，。！？；：、\\s“”"（(])|' + "|".join(f"(?<={role})" for role in _ZH_ROLES) + ")"
_ZH_AFTER = (
    r"(?=是一位|是个|是我|今年|和|的|说|也|跟|给|打|在|来|去|已|还|会|要|就|都|被|把|带|，|。|、|！|？|$)"
)
# A run ending like a place (岳麓区, 高新区, 白云路) is a place even when it starts with a surname.
_ZH_PLACE_END = frozenset("区市省县镇乡村路街道站馆院店厂局园湾港桥寺庙")
_ZH_PLACED_NAME = re.compile(rf"{_ZH_BEFORE}(?P<name>{_ZH_SURNAME}{HAN_CLASS}{{2}}){_ZH_AFTER}")
_LOG = logging.getLogger(__name__)


def _read_list(filename: str, *, lines: bool = False) -> frozenset[str]:
    data = (Path(__file__).resolve().parent.parent / "defaults" / "names" / filename).read_bytes()
    text = gzip.decompress(data).decode("utf-8")
    return (
        frozenset(line.strip() for line in text.splitlines() if line.strip())
        if lines
        else frozenset(text.split())
    )


class PersonNameFinder:
    """Names in English and Chinese text; thread-safe after ``start``."""

    def __init__(self) -> None:
        self._first: frozenset[str] = frozenset()
        self._last: frozenset[str] = frozenset()
        self._words: frozenset[str] = frozenset()  # English adjectives, adverbs, verbs, stop words
        self._nouns: frozenset[str] = frozenset()
        self._places: frozenset[str] = frozenset()  # multi-word place names ("Buenos Aires")
        self._posseg: Any = None
        self._given_chars: frozenset[str] = frozenset()  # characters Chinese given names are made of
        self._lock = threading.Lock()

    def start(self, languages: Iterable[str] = ("en", "zh")) -> None:
        """Load the name lists (``en``) and jieba's dictionary (``zh``)."""
        wanted = set(languages)
        with self._lock:
            if "en" in wanted and not self._first:
                self._last = _read_list("last.txt.gz")
                self._words = _read_list("english.txt.gz")
                self._nouns = _read_list("nouns.txt.gz")
                self._places = _read_list("places.txt.gz", lines=True)
                self._first = _read_list("first.txt.gz")  # last: it marks the lists loaded
            if "zh" in wanted and self._posseg is None:
                posseg = _load_jieba()
                self._given_chars = given_name_chars(posseg.dt.word_tag_tab)
                self._posseg = posseg

    def spans(self, text: str, doc: Any = None) -> list[Span]:
        """Character spans of the person names in ``text``; ``doc``: its spaCy parse, if there is one."""
        found: list[Span] = []
        if _CJK.search(text):
            found += self.chinese_spans(text)
        if any("A" <= ch <= "Z" or ch > "\u00bf" for ch in text):
            found += self.latin_spans(text, doc)
        if not found:
            return []
        return _merge(found + _later_mentions(text, found))

    def latin_spans(self, text: str, doc: Any = None) -> list[Span]:
        if not self._first:
            self.start(["en"])
        spans: list[Span] = []
        persons, blocked = _Marks(len(text)), _Marks(len(text))
        if doc is not None:
            for ent in doc.ents:
                if ent.label_ in ("PERSON", "PER"):
                    start = without_leading_words(text, ent.start_char, ent.end_char)
                    if not self._not_a_person(text, start, ent.end_char):
                        spans.append((start, ent.end_char))
                        persons.take((start, ent.end_char))
                elif ent.label_ in _NOT_PERSON_LABELS:
                    blocked.take((ent.start_char, ent.end_char))
        for holiday in saints_days(text):
            blocked.take(holiday)
        for run in capitalised_runs(text):
            span = self._judge_run(text, run)
            if span is not None and not persons.covers(span) and blocked.free(span):
                spans.append(span)
        # The words around a name give it away whatever the name is (the parser's ORG or not).
        spans += cued_name_spans(text, self._is_common_or_place)
        return spans

    def chinese_spans(self, text: str) -> list[Span]:
        if self._posseg is None:
            self.start(["zh"])
        spans = list(chinese_name_spans(text))
        taken = _Marks(len(text))
        for span in spans:
            taken.take(span)
        words = self._tagged(text)
        freq = self._posseg.dt.tokenizer.FREQ
        tags = self._posseg.dt.word_tag_tab
        for span in cued_any_spans(text):
            if taken.free(span) and (tags.get(text[span[0] : span[1]]) or "n")[:1] not in _NOT_A_NAME_WORD:
                spans.append(span)  # "他叫外卖了": a verb or an adverb after 叫 is no name
                taken.take(span)
        offset = 0
        for index, (word, flag) in enumerate(words):
            start, offset = offset, offset + len(word)
            following = words[index + 1] if index + 1 < len(words) else None
            found = _chinese_name(word, flag, following)
            listed = flag in ("nr", "nrfg", "nrt") and found == len(word)
            if found and self._is_word(text[start : start + found], listed=listed):
                found = 0  # "白天鹅", "黄金周": a surname-led run that starts with a word
            if found and is_thing(text, start, start + found):
                found = 0  # "水果沙拉", "黄焖鸡": a dish, not a person
            if found == 2 and listed and (freq.get(word) or 0) >= COMMON and not person_slot(words, index):
                found = 0  # "在贺卡上", "几句祝福的话": a common word the dictionary tags as a name
            if found == len(word) and among_things(words, index):
                found = 0  # "汗蒸、桑拿那些": listed beside a thing, it is one
            if (
                found
                and flag == "oov"
                and not person_slot(words, index)
                and not self._given_shape(word, found)
            ):
                found = 0  # "我们班毕旅决定": a run no dictionary holds, of characters no name is made of
            if not found and len(word) > 1 and word[-1] in SINGLE_SURNAMES and following:
                # "说谢 / 天宇": the segmenter glued the surname to the word before it.
                glued = _chinese_name(word[-1], "nr", following)
                found, start = (glued, offset - 1) if following[1] in _NAME_TAGS and glued else (0, start)
            if found and is_everyday_word(
                text, (start, start + found), tags, surname_len=len(word) if word in COMPOUND_SURNAMES else 1
            ):
                found = 0  # "汤里", "叶都", "连水果都": a surname-led run that is everyday words
            if found and taken.free((start, start + found)):
                spans.append((start, start + found))
                taken.take((start, start + found))
        for m in _ZH_PLACED_NAME.finditer(text):
            span = m.span("name")
            if taken.free(span) and not self._is_word(m.group("name")) and not is_thing(text, *span):
                spans.append(span)
                taken.take(span)
        dictionary = self._posseg.dt
        for span in chinese_cued_spans(text, words, dictionary.word_tag_tab, dictionary.tokenizer.FREQ):
            if taken.free(span) and not is_thing(text, span[0], span[1]):
                spans.append(span)
                taken.take(span)
        return [
            span
            for span in spans
            if text[span[0] : span[1]] not in _EVERYDAY
            and not self._inside_word(text, span)
            and not (text[span[0]] in SINGLE_SURNAMES and is_everyday_word(text, span, tags))
            and not (
                text[span[0] : span[0] + 2] in COMPOUND_SURNAMES
                and is_everyday_word(text, span, tags, surname_len=2)
            )
        ]

    def _given_shape(self, word: str, found: int) -> bool:
        """Whether the given part of a surname-led run (``word[1:found]``) is made of characters people's
        given names are made of (``_given_name_chars``)."""
        given = word[1:found] if word[:2] not in COMPOUND_SURNAMES else word[2:found]
        return bool(given) and all(ch in self._given_chars for ch in given)

    def _inside_word(self, text: str, span: Span) -> bool:
        """A name found where a common word starts just before it ("照顾孙子": 照顾 + 孙子, not 顾孙子)."""
        start = span[0]
        if start == 0 or not _CJK.match(text[start - 1]):
            return False
        if any(text.endswith(role, 0, start) for role in _ZH_ROLES):
            return False  # "开户人马俊杰": the role word ends where the name starts (人马 is a word too)
        freq = self._posseg.dt.tokenizer.FREQ
        return (freq.get(text[start - 1 : start + 1]) or 0) >= _COMMON_PREFIX

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

    def plausible(self, text: str, span: Span) -> bool:
        """Whether a parser's PERSON span can be a name: the small English model also tags "Glad",
        "Nah" or "kinda nerve"; a single common word counts only when it is a listed name."""
        if not self._first:
            self.start(["en"])
        name = text[span[0] : span[1]]
        if _CJK.search(name):
            return True
        if not any(ch.isupper() for ch in name) or self._not_a_person(text, span[0], span[1]):
            return False
        words = [w.casefold().rstrip(".") for w in name.split()]
        if len(words) > 1 and words[-1] in PLACE:
            return False  # "Kenya High", "Moi Girls": a school or a place, not a person
        if len(words) > 1:
            return not all(w in COMMON_EN or w in LEADING or w in self._words for w in words)
        low = words[0]
        if low in COMMON_EN or low in LEADING:
            return False
        listed = name in self._first or name in self._last
        if low in self._words or (low in self._nouns and sentence_start(text, span[0])):
            return listed
        return True

    def _is_common(self, low: str) -> bool:
        return low in self._words or low in self._nouns or low in COMMON_EN or low in LEADING

    def _is_common_or_place(self, word: str) -> bool:
        low = word.casefold()
        return self._is_common(low) or low in PLACE or word in self._places

    def _known(self, word: str) -> bool:
        """A listed first name or surname that is not also a common word ("Lucky", "Glad", "May"), or a
        surname by its shape (MacLeod, McAllister, O'Neill, FitzGerald)."""
        low = word.casefold()
        if _SURNAME_SHAPE.fullmatch(word):
            return True
        return low not in COMMON_EN and low not in self._words and (word in self._first or word in self._last)

    def _not_a_person(self, text: str, start: int, end: int) -> bool:
        """The small NER's PERSON that is no one: a dropped-g word ("Fixin' to…", "De christenin' set…",
        a word no name is), or one word that names a place or a thing and no listed first name or surname
        ("fae Glasgow", "in Truro" is unknown and stays a name)."""
        span = text[start:end]
        words = list(_WORD.finditer(span))
        if any(self._dropped_g(text, m.start() + start, m.end() + start) for m in words):
            return True
        if len(words) == 1 and span not in self._first and destination_before(text, start, end):
            return True  # "we're off to Mauritius" (a surname too): where they go
        if (len(words) == 1 and span.casefold() in LEADING and span not in self._first) or any(
            s < end and start < e for s, e in saints_days(text)
        ):
            return True  # "Wat she can do ova dea?" (an opening word, in Pidgin), "the day after Valentine's"
        if len(words) != 1 or span in self._first or span in self._last:
            return False
        if title_before(text, start) and not verb_title_before(text, start):
            return False  # "Miss Manchester": a title makes it a person
        low = span.casefold()
        # (a plural too: "Gherkins, dill pickles, pickled onions, the lot")
        noun = low in self._nouns or (low.endswith("s") and low[:-1] in self._nouns)
        return noun and low not in self._words and span[:1].isupper()

    def _dropped_g(self, text: str, start: int, end: int) -> bool:
        """``text[start:end]`` is a word spoken without its final g ("fixin'", "somethin'")."""
        low = text[start:end].casefold()
        return (
            low.endswith("in")
            and text[end : end + 1] in ("'", "\u2019")
            and (low + "g" in self._words or low + "g" in self._nouns)
        )

    def _judge_run(self, text: str, run: list[tuple[int, int]]) -> Span | None:
        words = [text[a:b] for a, b in run]
        lowered = [w.casefold().rstrip(".") for w in words]
        titled = title_before(text, run[0][0])
        if titled and verb_title_before(text, run[0][0]) and len(run) == 1 and not self._known(words[0]):
            titled = not self._is_common_or_place(words[0])  # "miss Manchester a bit": the verb
        while run and lowered[0] in LEADING and not titled:
            run, words, lowered = run[1:], words[1:], lowered[1:]
        # At a sentence start, a capitalised word that is no known name is the sentence's ("Contact Ngozi").
        while (
            len(run) > 1
            and sentence_start(text, run[0][0])
            and self._is_common(lowered[0])
            and not self._known(words[0])
        ):
            run, words, lowered = run[1:], words[1:], lowered[1:]
        if not run:
            return None
        if titled:
            return run[0][0], run[-1][1]
        if _ARTICLE_BEFORE.search(text, 0, run[0][0]):
            return None  # "the Honda", "a Toyota": a thing, though its word is a surname somewhere
        if any(w in PLACE for w in lowered) or all(not mixed_case(w) for w in words):
            return None
        known = [w for w in words if self._known(w)]
        if len(run) == 1:
            # A listed first name that is also a word ("Caroline", "Art") only inside a sentence.
            starts = sentence_start(text, run[0][0])
            word_too = lowered[0] in self._words or lowered[0] in self._nouns
            first = words[0] in self._first and lowered[0] not in COMMON_EN
            return run[0] if first and (known or not starts) and not (word_too and starts) else None
        if text[run[0][0] : run[-1][1]] in self._places:
            return None  # "Buenos Aires", "Hong Kong": a place, though its words are names too
        if known or all(self._foreign(w, low) for w, low in zip(words, lowered, strict=True)):
            return run[0][0], run[-1][1]
        return None

    def _foreign(self, word: str, low: str) -> bool:
        """A capitalised word that is no English word, no common word and no place word: two or more in
        a row ("Tanses Yorulmaz", "Ευφροσύνη Στρατογιάννη") are taken for a name when unsure."""
        return (
            len(word) > 2
            and low not in self._words
            and low not in self._nouns
            and low not in COMMON_EN
            and low not in LEADING
            and low not in PLACE
            and not word.isupper()
        )


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
    """ "欧阳 / 娜娜", "白 / 雅宁", "诸葛 / 文博去": a surname the segmenter cut from the given name."""
    if following is None or not (word in COMPOUND_SURNAMES or (len(word) == 1 and word in SINGLE_SURNAMES)):
        return 0
    given, given_flag = following
    if given_flag == "oov":
        given = _trim_given(given)
    if not 1 <= len(given) <= 2 or not _CJK.fullmatch(given[0]):
        return 0
    if flag[:1] in _NOT_GIVEN_TAGS or given in _KIN:
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


def _later_mentions(text: str, found: Sequence[Span]) -> list[Span]:
    """Other mentions in ``text`` of the parts of the names found ("Steffen Mauer … Steffen")."""
    parts: set[str] = set()
    for a, b in found:
        name = text[a:b]
        if _CJK.search(name):
            parts.add(name)
            if len(name) == 3 and name[:2] not in COMPOUND_SURNAMES:
                parts.add(name[1:])  # the given name alone: 雅宁
        else:
            parts.update(w for w in re.findall(r"[^\W\d_][\w'’-]+", name) if len(w) >= 3)
    parts -= {p for p in parts if p.casefold() in COMMON_EN or p.casefold() in LEADING}
    out: list[Span] = []
    for chinese in (True, False):
        group = sorted((p for p in parts if bool(_CJK.search(p)) == chinese), key=len, reverse=True)
        if not group:
            continue
        alternatives = "|".join(re.escape(p) for p in group)
        pattern = alternatives if chinese else rf"(?<![^\W\d_])(?:{alternatives})(?![^\W\d_])"
        out += [m.span() for m in re.finditer(pattern, text)]
    return out


def _merge(spans: list[Span]) -> list[Span]:
    merged: list[Span] = []
    for a, b in sorted(spans):
        if merged and a < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return merged


class _Marks:
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
