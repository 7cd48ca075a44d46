"""Chinese names whose surname the other rules do not know: a rare surname, or one the speaker spells out.

People tell an assistant about someone with an uncommon surname in a few telling ways, and the sentence
says it is a name even where no list of common surnames does:

- a rare surname, whose character starts no everyday word, before a given name: "新老师阚雨桐",
  "我细佬禤家明而家喺顺德" (``names_zh_surnames.RARE_SURNAMES``);
- a surname the speaker declares: "姓禤，示字旁那个禤，全名禤海燕", "亓是个特别少见的姓": every later
  run of that character and a given name is the person, unless the two start an everyday word
  ("姓高，高兴认识你");
- any surname of the traditional list right after a naming cue: "叫揭志强", "全名仉佳禾", "名叫花木兰"
  (not "叫司机过来", "叫花子": a common word starts the run).

A given name is one or two characters that are no particle or pronoun (的, 说, 我), no title (老师, 医生:
"禤医生" is the surname and a title) and, for two, no everyday word ("阚强调": 阚 stressed something;
"阚丽明天来": 明天 is the day). ``tags``: the dictionary's tag of each word, ``freq``: its frequency.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from voice_agent.memory.names_zh_everyday import everyday_run
from voice_agent.memory.names_zh_surnames import (
    ALL_COMPOUND_SURNAMES,
    RARE_SURNAMES,
    cued_surname,
)
from voice_agent.text.cjk import HAN_CLASS, is_han

Span = tuple[int, int]

_NOT_GIVEN = "的了是在和与跟给到从对把被就也都还很又再不没有吗呢吧啊呀哦嗯说讲去来我你他她它们这那个姓氏"
# Dictionary tags of a character that is no part of a given name: adverb, preposition, conjunction,
# particle, modal, pronoun, interjection.
_FUNCTION_TAGS = frozenset("dpcuyre")
# Tags of a two-character word that ends a surname's run instead of being its given name (明天, 强调).
_WORD_TAGS = frozenset("tdvpcrmqfu")
_TITLES = (
    "老师", "先生", "女士", "小姐", "同学", "医生", "大夫", "经理", "教授", "律师", "阿姨", "叔叔", "师傅",
    "老", "总", "姐", "哥", "叔", "婶", "嫂", "伯", "姨", "工", "局", "处", "科", "主任", "老板", "护士",
)  # fmt: skip
_COMMON_START = 100  # a dictionary frequency from which a surname and the next character are a word
_CUE = re.compile(r"(?:叫做|名叫|叫|(?:全名|本名|真名|原名|大名|学名|姓名)(?:是|叫)?|名字(?:是|叫))[ \t：:]?")
_DECLARED = re.compile(rf"(?<![百贵同])姓(?![名氏啥什谁甚么])(?P<surname>{HAN_CLASS})")
_DECLARED_AFTER = re.compile(
    rf"(?P<surname>{HAN_CLASS})(?:是个|是一个|这个|是)[^，。！？,.!?]{{0,8}}?姓(?![名氏])"
)


def declared_surnames(text: str) -> set[str]:
    """Characters (or compound surnames) the speaker says are a surname: "姓禤", "复姓尉迟",
    "亓是个特别少见的姓"."""
    found: set[str] = set()
    for m in _DECLARED.finditer(text):
        at = m.start("surname")
        if text[at : at + 2] in ALL_COMPOUND_SURNAMES:
            found.add(text[at : at + 2])
        elif m.group("surname") not in _NOT_GIVEN:
            found.add(m.group("surname"))
    for m in _DECLARED_AFTER.finditer(text):
        if m.group("surname") not in _NOT_GIVEN and m.start() > 0 and not is_han(text[m.start() - 1]):
            found.add(m.group("surname"))  # "，亓是个特别少见的姓": the character starts its clause
    return found


def rare_surname_spans(text: str, tags: Mapping[str, str], freq: Mapping[str, int]) -> list[Span]:
    """Names led by a rare surname, a declared one, or any listed surname right after a naming cue."""
    declared = declared_surnames(text)
    spans: list[Span] = []
    cue_ends = {m.end() for m in _CUE.finditer(text)}
    for at, char in enumerate(text):
        if not is_han(char) or (at and text[at - 1] == "姓"):
            continue  # "姓阚": the surname told, no name yet
        if text[at : at + 2] in declared:
            surname = 2
        elif char in RARE_SURNAMES or char in declared:
            surname = 1
        elif at in cue_ends:
            surname = cued_surname(text[at : at + 2])
        else:
            continue
        given = _given_length(text, at + surname, tags, freq) if surname else 0
        if not given:
            continue
        run = text[at : at + surname + given]
        if _in_word(text, at, run, tags, freq):
            continue  # "跋扈嚣张", "芮城县": the character belongs to a word around it
        start_freq = freq.get(run[: surname + 1]) or 0
        if char not in RARE_SURNAMES and (
            everyday_run(run) or start_freq >= (_COMMON_START if at in cue_ends else 1)
        ):
            continue  # "姓高，高兴认识你", "姓裘，裘皮大衣", "叫司机过来": the run starts a word
        if at in cue_ends and _common_noun(run[:2], tags, freq):
            continue  # "叫医生来", "叫司机": a common noun after 叫
        spans.append((at, at + surname + given))
    return spans


def _given_length(text: str, at: int, tags: Mapping[str, str], freq: Mapping[str, int]) -> int:
    """How many characters of ``text`` from ``at`` are a given name after a surname: 0, 1 or 2."""
    if not _given_char(text, at, tags):
        return 0
    if not _given_char(text, at + 1, tags):
        return 1
    pair = text[at : at + 2]
    tag = tags.get(pair)
    if tag and tag[:1] in _WORD_TAGS and (freq.get(pair) or 0) >= 3:
        return 0  # "阚强调": the surname alone, then a verb
    after = text[at + 1 : at + 3]
    after_tag = tags.get(after)
    if len(after) == 2 and (after_tag or "x")[:1] in _WORD_TAGS and (freq.get(after) or 0) >= _COMMON_START:
        return 1  # "阚丽明天来": 明天 is the day
    return 2


def _given_char(text: str, at: int, tags: Mapping[str, str]) -> bool:
    char = text[at : at + 1]
    if not char or not is_han(char) or char in _NOT_GIVEN:
        return False
    if any(text.startswith(title, at) for title in _TITLES):
        return False
    return (tags.get(char) or "n")[:1] not in _FUNCTION_TAGS


def _in_word(text: str, at: int, run: str, tags: Mapping[str, str], freq: Mapping[str, int]) -> bool:
    """Whether the surname at ``text[at]`` ends a dictionary word that starts just before it (跋扈) or
    starts, with the characters after it, a word that is no name (芮城: a place)."""
    if at and is_han(text[at - 1]) and freq.get(text[at - 1 : at + 1]):
        return True
    return any(
        freq.get(run[:n]) and (tags.get(run[:n]) or "x") not in ("nr", "nrfg", "nrt")
        for n in range(2, len(run) + 1)
    )


def _common_noun(word: str, tags: Mapping[str, str], freq: Mapping[str, int]) -> bool:
    tag = tags.get(word) or ""
    return tag[:1] == "n" and tag not in ("nr", "nrfg", "nrt") and (freq.get(word) or 0) >= _COMMON_START
