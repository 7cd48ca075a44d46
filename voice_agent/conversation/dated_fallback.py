"""A day the person told us, said back when the model gave no answer to "which day was it?".

"我得跟领导请个假去考试，你记得是哪天吗？" after "科目三总算约上了，下个月二十六号上午…": the statement
shares no word with the question (考试 / 科目三), so the recall answer cannot pick it, and the 0.5B
model may say the question back twice. Instead of "抱歉，这个我一时答不上来", the reply check says back
the person's statement that holds a date: the one among the recalled statements that shares a word with
the question, else the only one that holds a date at all. Nothing when the question asks no day or
date, or when several statements hold one and none shares a word with the question (which one it was is
not clear).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from voice_agent.conversation.echo import content_keys
from voice_agent.conversation.recall_answer import said_back
from voice_agent.conversation.revised_plans import the_change, without_revised
from voice_agent.memory.records import MemoryRecord
from voice_agent.text.cjk import has_han
from voice_agent.text.corrections import after_correction
from voice_agent.text.dates import ASKS_DAY, CALENDAR_DATE, DAY_NAME, DAYS, HOLDS_DATE, RECALLS_DAY
from voice_agent.text.holidays import holiday_date
from voice_agent.text.placeholders import PLACEHOLDER_SHAPE_RE
from voice_agent.text.questions import is_question
from voice_agent.text.sentences import sentences_of

_MAX_CHARS = 160
# The words of a day's name, which tie no statement to a question by themselves: "这礼拜天还得回宝鸡喝喜酒"
# is not about "下个礼拜六想带娃去动物园" (the keys of ``content_keys``: words, and pairs of Han characters).
_DAY_KEY = re.compile(r"^(?:礼拜|星期|[拜期周][一二三四五六日天])$")
# A weekday alone, no calendar day: "Sunday dinners are about to get loud again".
_WEEKDAY = re.compile(rf"^(?:{DAYS})$|^(?:周|星期|礼拜)[一二三四五六日天]$", re.IGNORECASE)


# A weekday said of a day: "it's a Friday", "that falls on a Sunday", "正好是个礼拜五".
_WHICH_WEEKDAY = re.compile(
    rf"\b(?:is|'s|falls|lands|be)\s+(?:on\s+)?(?:a\s+|the\s+)?(?:{DAYS})\b|是个?(?:周|星期|礼拜)[一二三四五六日天]",
    re.IGNORECASE,
)


def recalled_day(question: str, records: Sequence[MemoryRecord], language: str) -> str:
    """For a question that asks to be reminded of a day ("which date was it again?", "是哪天来着？"), the
    person's dated statement that shares a word with it, said back at once (no LLM: a small model gives a
    date of its own, "April 29" for the 30th); "" otherwise."""
    if not RECALLS_DAY.search(question):
        return ""
    return dated_statement(question, records, language, shared_only=True)


def dated_statement(
    question: str, records: Sequence[MemoryRecord], language: str, *, shared_only: bool = False
) -> str:
    """The person's statement that holds the day ``question`` asks about, said back; "" when the
    question asks for no day, or which statement it is is not clear (``shared_only``: only one that
    shares a word with the question)."""
    asks = ASKS_DAY.search(question)
    # A Chinese day word asks even inside a statement: "问我到底是哪天，我得给她个准信儿。"
    if asks is None or not (is_question(question) or has_han(asks.group(0))):
        return ""
    text = dated_text(question, records, shared_only=shared_only)
    return said_back(text, language) if text else ""


def near_date_statement(question: str, records: Sequence[MemoryRecord], language: str) -> str:
    """For a plan on a date of the calendar ("the Boks play at Ellis Park on Saturday 6 September … what do
    we need to sort out?"), the person's statement that names a date of their own, said back ("You told me
    … the ACL reconstruction on your right knee, Friday the 22nd of August."): what they have on near it
    may change the plan. "" when the question names no such date, or which statement it is is unclear."""
    if not CALENDAR_DATE.search(question):
        return ""
    text = dated_text(question, [r for r in records if CALENDAR_DATE.search(r.text)])
    return said_back(text, language) if text else ""


def dated_text(question: str, records: Sequence[MemoryRecord], *, shared_only: bool = False) -> str:
    """The person's own words that hold a day, for ``question``: the dated statement that shares a word
    with it, else the only dated one (unless ``shared_only``); "" when none or which one is unclear. A
    plan changed since is not one of them: "我买了这周六晚上的话剧票" after "…票给我们改到周日下午两点了"
    would be said back as the day (``revised_plans``)."""
    # (a plan that named a constraint too is said back no more: "…羊蝎子，都跟那家清真肉铺订好了")
    records = without_revised(records, constraints_stand=False)
    dated: list[str] = []
    sources: dict[str, str] = {}
    said_with: dict[str, set[str]] = {}  # the content of each utterance, over its clause records
    later: set[str] = set()  # the days of a long utterance after its first, said back only for a word shared
    summaries = [r.text for r in records if r.kind == "summary"]
    for record in records:
        if record.role != "user" or record.kind == "summary" or record.status != "active":
            continue
        text = record.text.strip()
        key = record.source or text
        said_with.setdefault(key, set()).update(content_keys(text))
        stands = after_correction(text)  # "the twelfth, no wait, the twenty-first": only the second
        if stands is not None:
            text = stands
        # (a whole utterance, from a condensed turn: the clause with its day, each of them when it holds
        # several: "the technician can only come next Thursday" and "we start the climb on 14 March")
        pieces = _dated_pieces(text) if len(text) > _MAX_CHARS else [text]
        later.update(pieces[1:])
        for piece in pieces:
            _add_dated(piece, key, summaries, dated, sources, said_with)
    # A clause and the whole utterance it came from (a condensed earlier turn) are one statement.
    dated = [t for t in dated if not any(t != o and t.rstrip(".。") in o for o in dated)]
    asked = {key for key in content_keys(question) if not (_DAY_KEY.match(key) or DAY_NAME.fullmatch(key))}
    # (a clause "it's the 30th of April at the golf club" shares no word with "Dad's leaving party", the
    # clause beside it from the same utterance, "Dad's retirement do is finally sorted", does)
    sharing = [text for text in dated if asked & said_with[sources[text]]]
    # ...but of two days of one utterance, the one whose own words the question shares ("the climb" of
    # "for the Kinabalu trip … counting back from the climb"), not the day the aircon man comes
    own_words = distinctive_keys(question)
    own = [text for text in sharing if own_words & distinctive_keys(text)]
    if own:
        sharing = [text for text in sharing if text in own or not _calendar(text)]
    else:
        dated = [text for text in dated if text not in later]
        sharing = [text for text in sharing if text not in later]
    if sharing:
        chosen = _one_utterance(sharing, sources)
    elif (
        len({sources[text] for text in dated}) == 1
        and not shared_only
        # (not a weekday of another week for a question that names its own day: "这礼拜天还得回宝鸡喝喜酒"
        # for "下个礼拜六想带娃去动物园")
        and (any(_calendar(text) for text in dated) or not HOLDS_DATE.search(question))
    ):
        # (the clauses of one utterance are one statement: "医生说二宝预产期就是明年一月九号" and
        # "我一查正好是个礼拜五")
        chosen = _one_utterance(dated, sources)
    else:
        return ""
    # a change said from what replaced the plan: not why the old one fell through ("北门在修路"), nor the
    # day it had ("刚接到通知，周四兰州要起沙尘，…改到下周一下午三点" is said from "改到…")
    return the_change(chosen)


def _add_dated(
    text: str,
    key: str,
    summaries: list[str],
    dated: list[str],
    sources: dict[str, str],
    said_with: dict[str, set[str]],
) -> None:
    """Add ``text`` (said in utterance ``key``) to ``dated`` when it holds a day (a holiday's day given:
    "born the day after Valentine's" (15 February)), with the words of the summary that quotes it."""
    if not text or is_question(text):
        return
    if not HOLDS_DATE.search(text):
        on_holiday = holiday_date(text)
        if not on_holiday:
            return
        text = (
            f"{text.rstrip('.。 ')}（{on_holiday}）"
            if has_han(text)
            else f"{text.rstrip('. ')} ({on_holiday})"
        )
    if text in dated:
        return
    dated.append(text)
    sources[text] = key
    for summary in summaries:  # the turn's summary quotes the clause with the rest of what was said
        if text.rstrip(".。") in summary:
            said_with[key] |= content_keys(summary)


def _dated_pieces(text: str) -> list[str]:
    """From a statement too long to say back, each sentence that holds a day (those with a calendar day
    first), cut down to the clauses around its day when it is long too ("Big news though — my daughter is
    getting married on Saturday, May 17th, at a vineyard …, and …" → "my daughter is getting married on
    Saturday, May 17th")."""
    sentences = [sentence for sentence in sentences_of(text) if HOLDS_DATE.search(sentence)]
    # (a calendar day before a weekday said in passing: "…the 13th of September", not "…half of Sunday with
    # a mop" of the sentence before)
    sentences.sort(key=lambda sentence: not _names_calendar_day(sentence))
    pieces = []
    for sentence in sentences:
        piece = _short_piece(sentence)
        if piece:
            pieces.append(piece)
    return pieces


def _short_piece(sentence: str) -> str:
    """``sentence``, or the clauses around its days when it is too long to say back; "" when they are too."""
    if len(sentence) <= _MAX_CHARS:
        return sentence
    days = list(HOLDS_DATE.finditer(sentence))
    first, last = days[0].start(), days[-1].end()
    cuts = [m.end() for m in _CLAUSE_CUT.finditer(sentence, 0, first)]
    # (a Chinese clause says the day only: "…同学聚会总算定下来了，12月20号礼拜六晚上，先在…" keeps the
    # one before)
    start = cuts[-2] if has_han(sentence) and len(cuts) > 1 else cuts[-1] if cuts else 0
    end = _CLAUSE_END.search(sentence, last)
    piece = sentence[start : end.start() if end else len(sentence)].strip(" ,，")
    if len(piece) > _MAX_CHARS:  # (the clause of its first day: "we start the climb on 14 March")
        commas = [m.end() for m in _COMMA.finditer(sentence, 0, first)]
        end = _CLAUSE_END.search(sentence, days[0].end())
        piece = sentence[commas[-1] if commas else start : end.start() if end else len(sentence)].strip(
            " ,，"
        )
    return piece if len(piece) <= _MAX_CHARS else ""


def _names_calendar_day(sentence: str) -> bool:
    """Whether a sentence names a day by more than its weekday ("the 13th", "12月20号", "下周")."""
    return any(not DAY_NAME.fullmatch(day.group(0).strip()) for day in HOLDS_DATE.finditer(sentence))


# Where a clause ends before a day (a dash, a semicolon, a Chinese comma) and after it (a comma and the next
# clause, or the sentence's end).
_CLAUSE_CUT = re.compile(r"\s[\u2014\u2013-]\s|[;；：，]|:\s")
_COMMA = re.compile(r"[,，]\s*")
# (and a new clause of the person's after "and": "…on Saturday the 13th of September and we've the boat…")
_CLAUSE_END = re.compile(
    r",\s+(?:and|so|but|at|in|with|which|where|because)\b|\s+and\s+(?=(?:we|i|we've|i've|we're|i'm)\b)|"
    r"[.;!?。；！？，]",
    re.IGNORECASE,
)


def _one_utterance(dated: list[str], sources: dict[str, str]) -> str:
    """The first dated text, with the other dated clauses of its utterance after it: a clause that names a
    weekday only goes with a calendar day when it says which weekday that day is ("我一查正好是个礼拜五";
    not "so Sunday dinners are about to get loud again" beside "the twins turn eleven on July 22nd")."""
    same = [text for text in dated if sources[text] == sources[dated[0]]]
    if any(_calendar(text) for text in same):
        same = [text for text in same if _calendar(text) or _WHICH_WEEKDAY.search(text)]
    # (a month said in passing is no day beside a day of it: "十月了还三十度" beside "10月22号回华西复查")
    if any(not _month_only(text) for text in same):
        same = [text for text in same if not _month_only(text)]
    if len(same) == 1:
        return same[0]
    if has_han(same[0]):
        return "，".join(text.rstrip("。，, ") for text in same) + "。"
    return " ".join(text if text.rstrip()[-1:] in ".!?" else text.rstrip() + "." for text in same)


def names_day_of(said: str, day: str) -> bool:
    """Whether ``said`` names a day that ``day`` (the person's dated words) names: one of its date
    words ("15 February", "九月初九", "Friday"), its date given by a holiday included."""
    lowered = said.lower()
    words = [m.group(0).lower().removeprefix("the ") for m in HOLDS_DATE.finditer(day)]
    return any(word and word in lowered for word in words)


_MONTH_ALONE = re.compile(
    r"^(?:1[0-2]|[1-9]|十[一二]?|[一二三四五六七八九])月(?:份)?$|^(?:january|february|march|april|may|june|july|"
    r"august|september|october|november|december)$",
    re.IGNORECASE,
)


def _month_only(text: str) -> bool:
    """Whether the only days ``text`` names are whole months ("十月了还三十度")."""
    days = [m.group(0).strip() for m in HOLDS_DATE.finditer(text)]
    return bool(days) and all(_MONTH_ALONE.match(day) for day in days)


def _calendar(text: str) -> bool:
    """Whether ``text`` names a day of the calendar, not only a weekday."""
    return any(not _WEEKDAY.match(m.group(0).strip()) for m in HOLDS_DATE.finditer(text))


# Words too common to tie a statement to a turn ("and", "with", "help", "write"): ``content_keys`` keeps
# them, as its other readers compare whole restatements.
_COMMON_TEXT = (
    "and but nor not with without from into onto about over under after before than when where who whom "
    "why all out off very much more most also too even still only own other another such same each every "
    "give help write make tell want need get got going gonna know think like can't don't won't please "
    "thanks thank bit lot lots thing things something anything way time day days week next last"
)
_COMMON = frozenset(_COMMON_TEXT.split(" "))


def distinctive_keys(text: str) -> set[str]:
    """The content keys of ``text`` that can tie two texts (no "and", "help" or "next"), and its
    placeholders whole."""
    placeholders = {m.group(0) for m in PLACEHOLDER_SHAPE_RE.finditer(text)}
    return (content_keys(PLACEHOLDER_SHAPE_RE.sub(" ", text)) - _COMMON) | placeholders
