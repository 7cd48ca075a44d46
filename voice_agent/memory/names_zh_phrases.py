"""Runs the Chinese name finder must not take for a person, read from the words around them:

- a measure word that is also a surname, after a pointing word or a numeral: "这段时间" (段), "那张照片" (张),
  "几冷几热" (冷, after 几: how many cold dishes);
- a festival: "万圣节", "感恩节" (a three-character run ending in 节);
- a given part that is 好 before a question particle: "列个采购单好伐", "帮我看看好吗" (好伐: all right?);
- a verb of wearing before what is worn: "都是戴白帽子的" (戴, a surname, wears a white cap);
- a reduplicated describing word: "白乎乎柴乎乎的肉" (柴乎乎: dry and stringy), "傻乎乎", "酸溜溜";
- a run ending in 叫 before more words, which is the naming verb: "那只柴柴叫麻糬" (柴叫 is no one);
- 连 (even) before a noun and a listing particle or 都 / 也: "连葱啊、蒜啊也不碰" (连葱 is no one).

Each was scrubbed as a [NAME] in a request ("帮我把这[NAME]的安排列一下"), so the model never read it."""

from __future__ import annotations

import re
from collections.abc import Mapping

from voice_agent.text.cjk import has_han

_POINTING = "这那哪每一两几某各"
# Surnames that are also measure words ("这段时间", "那张桌子", "一条路", "这项工作").
_MEASURE_SURNAMES = frozenset("段张条项门支台层届席顿")
_QUESTION_AFTER = re.compile(r"[伐吗吧啦呀哇不啊嘛]")
_WORN_AFTER = re.compile(
    r"[白黑红绿黄蓝灰花紫]?(?:帽|眼镜|口罩|头巾|手套|围巾|头盔|耳环|项链|手表|面纱|盖头)"
)
_REDUPLICATED = re.compile(
    r"(?:乎乎|短短|长长|茸茸|绒绒|软软|溜溜|巴巴|兮兮|滋滋|呼呼|嘟嘟|叽叽|唧唧|腾腾|哄哄|烘烘|咧咧|糊糊|蒙蒙|沉沉)$"
)


def is_phrase_not_name(text: str, start: int, end: int, tags: Mapping[str, str]) -> bool:
    """Whether the run ``text[start:end]`` is an everyday phrase by its neighbours, not a person
    (``tags``: the segmenter's dictionary of word kinds)."""
    run = text[start:end]
    before = text[start - 1] if start else ""
    if before == "几":
        return True
    if before and before in _POINTING and run[0] in _MEASURE_SURNAMES:
        # (a noun counted: "这段时间", "那张照片"; not "这张三是谁")
        return (tags.get(text[start + 1 : start + 3]) or "x")[:1] in ("n", "t")
    if (len(run) == 3 and run.endswith("节")) or _REDUPLICATED.search(run):
        return True
    if run[0] in "戴穿" and _WORN_AFTER.match(text, end - 1 if len(run) == 2 else end):
        return True
    if run.endswith("叫") and has_han(text[end : end + 1]):
        return True
    if run[0] == "连" and _even_noun(text, run, end, tags):
        return True
    return len(run) == 2 and run[1] == "好" and _QUESTION_AFTER.match(text, end) is not None


def _even_noun(text: str, run: str, end: int, tags: Mapping[str, str]) -> bool:
    """``run`` is 连 and a one-character noun, then a listing particle or 都 / 也 ("连葱啊", "连葱都")."""
    core = run.rstrip("啊呀")
    if len(core) != 2 or (tags.get(core[1]) or "x")[:1] != "n":
        return False
    return core != run or text[end : end + 1] in ("都", "也", "、", "啊", "呀")


_PARTICLE_END = "啦呀哦喔嘛咯囉"


def without_particle(text: str, span: tuple[int, int]) -> tuple[int, int]:
    """``span`` without a sentence particle glued to its end: "那只柴柴叫麻糬啦" names 麻糬."""
    start, end = span
    if end - start > 2 and text[end - 1] in _PARTICLE_END:
        return start, end - 1
    return span
