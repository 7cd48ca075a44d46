"""A speaker correcting themselves mid-sentence: "the twelfth of May, no wait, the twenty-first",
"下礼拜二早上八点来，呃不对不对，是礼拜四", "预算砍到十万——哦不对不对，十万是他一开始说的，后来又算了一遍，
八万". What stands is what follows the last correction; what precedes it was taken back. Said back whole,
such a sentence would tell the person the wrong value (a day or an amount).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from voice_agent.text.cjk import HAN_RE
from voice_agent.text.dates import DAYS as _DAYS
from voice_agent.text.dates import ORDINAL_WORD

# What follows "I mean" when it stresses rather than corrects: "Eurovision-mad, I mean properly".
FILLER_AFTER_I_MEAN = (
    "properly|literally|really|seriously|honestly|genuinely|truly|totally|completely|absolutely|obviously|"
    "it|that|like|who|come on|sure"
)
# That stress said after a statement, dropped when it is said back: "Jamie's Eurovision-mad, I mean properly".
STRESSING_I_MEAN = re.compile(rf",?\s+i mean,?\s+(?:{FILLER_AFTER_I_MEAN})\b[^,;:.!?]*", re.IGNORECASE)
SELF_CORRECTION = re.compile(
    r"\b(?:no,? wait|wait,? no|no,? sorry|sorry,? no|sorry,? (?:that's|that is) wrong|"
    r"(?:oh,? )?scratch that|actually no|no no|no,? (?:hang|hold) on|(?:hang|hold) on,? no|"
    # ("the twelfth, I mean the twenty-first"; not "Eurovision-mad, I mean properly")
    rf"i mean(?=[,\s])(?!,?\s+(?:{FILLER_AFTER_I_MEAN})\b)|"
    r"no,? my mistake|no,? correction)\b"
    r"|不对不对|不对，|不是不是|说错了|口误|我是说|哦不[，,]|啊不[，,]",
    re.IGNORECASE,
)


def after_correction(text: str) -> str | None:
    """What stands of ``text``: the words after its last self-correction (None: it has none), up to where
    a day taken back is named again ("是礼拜四，礼拜二我们要开会" stands as "是礼拜四"); "" when too
    little follows to say anything (a sentence cut off after "不对不对，是礼")."""
    found = list(SELF_CORRECTION.finditer(text))
    if not found:
        return None
    last = found[-1]
    rest = text[last.end() :].strip(" ,，、:：;；-—")
    taken_back = {m.group(0).lower() for m in _VALUE.finditer(text, 0, found[0].start())}
    first = _VALUE.match(rest)
    if first is not None and first.group(0).lower() in taken_back:
        # "十万是他一开始说的，后来…八万": the clause explaining the value taken back is no part of it
        cut = _CLAUSE_END.search(rest, first.end())
        rest = rest[cut.end() :].lstrip() if cut else ""
    named = (m for m in _VALUE.finditer(rest) if m.group(0).lower() in taken_back and m.start() > 0)
    again = next(named, None)
    if again is not None:
        rest = rest[: again.start()].rstrip(" ,，、")
    rest = _TRAILING_LINK.sub("", rest)
    enough = _VALUE.search(rest) is not None or (
        len(HAN_RE.findall(rest)) >= 3 if HAN_RE.search(rest) else len(rest.split()) >= 3
    )
    return rest if enough else ""


_TRAILING_LINK = re.compile(
    r"[\s,，]+(?:because|cause|cos|since|as|and|but|so|因为|所以|但是)$", re.IGNORECASE
)
# A day named: a weekday, a day of the month (in figures or words), 周X / 礼拜X / X号.
_DAY = re.compile(
    rf"\b(?:{_DAYS})\b|\b\d{{1,2}}(?:st|nd|rd|th)\b|\b{ORDINAL_WORD}\b|"
    r"(?:周|星期|礼拜)[一二三四五六日天]|[0-9一二三四五六七八九十]{1,3}号",
    re.IGNORECASE,
)
# An amount: "十万", "八万块", "200,000", "80k", "£500", "fifty quid" is left to the words.
_AMOUNT = re.compile(
    r"[0-9一二两三四五六七八九十百千]+(?:\.\d+)?[万千百]?(?:块钱?|元|万)|"
    r"\b\d[\d,]*(?:\.\d+)?\s*(?:k|grand|pounds?|dollars?|euros?|quid|bucks)\b|[£$€]\s?\d[\d,]*(?:\.\d+)?k?",
    re.IGNORECASE,
)
_VALUE = re.compile(f"{_DAY.pattern}|{_AMOUNT.pattern}", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[，,。.;；!！?？]")


def copied_correction(piece: str, quoted: Sequence[str]) -> str | None:
    """For a piece that copies a self-correction of a ``quoted`` line ("the twelfth of May no wait,
    sorry that's wrong the twenty first"): what stands after it ("" if nothing does); None otherwise."""
    marker = SELF_CORRECTION.search(piece)
    if marker is None or not any(marker.group(0).lower() in line.lower() for line in quoted):
        return None
    return after_correction(piece) or ""
