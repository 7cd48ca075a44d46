"""What the person told us that a request is about, said after a reply that used none of it.

"Our Cerys is Doctor Who daft, always has been." … ten turns later "Cerys finishes at Swansea Uni this
July… I want to get her something special for her graduation. Any ideas?": the statement is recalled and
sits in the prompt, yet the 0.5B default model answers "Cerys is a popular choice for graduation." The
liking, day, change and place ties (``reply_fallbacks``) each need the fact read as that kind first; most
of what people tell us in passing is read as none of them ("Since Barry retired he's turned the spare room
into a clock hospital", "Me and Shaz only do co-op games these days"). So when a reply to a request or a
question ends without one distinctive word of the remembered statement that the request shares the most
with (a name, a thing, a place: not "mum", "week" or "help"), that statement is said back after it, in one
sentence: "You told me your Cerys is Doctor Who daft, always has been."

Only a statement that speaks well or plainly of things is said back this way. A story of something that
went wrong ("Had two sips of some hazy IPA at a brewery tap… lips blew up"), a rule, a dislike or a vow
("Never again…") names what the person must not be offered: said back after a reply, it reads as one more
suggestion of it. Those are the constraint guard's and the opening's to say. The whole utterance is
weighed: "See that mattress I got off Gumtree…?" is the first sentence of a bed-bug story.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from voice_agent.conversation.constraints import ConstraintSet, parse_constraints
from voice_agent.conversation.echo import WEAK_KEYS, asks_of_you, content_keys, open_request
from voice_agent.conversation.likings import SPEAKS_ILL, says_liking, uses_liking
from voice_agent.conversation.recall_answer import said_back
from voice_agent.conversation.reminders import asks_for_suggestion
from voice_agent.conversation.revised_plans import REVISES_PLAN, without_revised
from voice_agent.conversation.said_before import person_statements, stems
from voice_agent.conversation.writing import WRITES_TO
from voice_agent.memory.records import MemoryRecord
from voice_agent.text.cjk import HAN_RE
from voice_agent.text.placeholders import PLACEHOLDER_RE
from voice_agent.text.questions import is_question
from voice_agent.text.sentences import sentences_of

_I = re.IGNORECASE
# Words a request shares with a statement without being about the same thing (on top of
# ``echo.WEAK_KEYS``): "help", "find", "something", "going", "back".
_COMMON_TEXT_EN = (
    "them their going went back help find time something look actually make made want need thing things "
    "think know good great nice lovely really just still also even ever some would could should will been "
    "have were your ours about over after before then than when what which where while with from into onto "
    "this that these those there here very much more most only other same such give take come came "
    # counts and turns of time say nothing of what a statement is about ("three days straight last week")
    "three four five seven eight nine eleven twelve twenty thirty hundred first second third last next "
    "took straight easy full whole"
)
_COMMON_EN = frozenset(_COMMON_TEXT_EN.split())
# A sentence that says something went wrong, or what the person does not do: said back after a reply,
# it names what they must not be offered.
_UNTOWARD = re.compile(
    r"\b(?:never|not|no|nothing|none|nor|without|allerg\w*|hives|rash|sick|vomit\w*|threw up|ambulance|"
    r"a&e|hospital|swell\w*|swollen|blister\w*|itch\w*|puff\w*|bloat\w*|cramp\w*|ill|poorly|"
    r"nause\w*|migraine\w*|headaches?|"
    # a thing that broke or a match that was lost: "the AC in my truck finally gave out", "Sligo Rovers
    # lost again on Friday"
    r"gave out|give out|broke|broken|breaks down|packed (?:in|up)|conked out|flooded|burst|leak\w*|stolen|"
    r"lost|losing|beaten|thrashed|hammered|relegated)\b|n't\b|"
    r"不|没|别|再也|过敏|拉肚子|拉稀|吐|疼|痛|痒|肿|胀|难受|医院|急诊|忽悠|坑|输了|坏了|坏掉|漏水|停电",
    _I,
)
# Small talk of the moment (the weather, today), no fact worth saying back days later: "这两天兰州风大，阳台上
# 晾的被单都刮跑了一条" shares only the city with "从兰州坐火车去上海…".
_OF_THE_MOMENT = re.compile(
    r"\b(?:weather|raining|rained|snowing|snowed|freezing|roasting|boiling|today|tonight|this morning|"
    r"yesterday)\b|天气|下雨|下雪|风大|刮风|零下|今天|今儿|这两天|昨天|昨儿|"
    # a result of the weekend's match: "The Toon got a point at Villa Park", "the Pies got up by a point"
    r"\b(?:won|drew|got a point|got up by|scraped)\b[^.!?]{0,40}\b(?:point|points|goals?|nil|on (?:saturday|"
    r"sunday|friday)|at home|away)\b|\bgot a point\b",
    _I,
)
# An utterance that tells of the body harmed, in any of its sentences: its other sentences name what did it
# ("上年饮咗一杯菊花茶" of "…成块面即刻肿到好似猪头…去到急诊打咗针").
_HARMED = re.compile(
    r"\b(?:allerg\w*|anaphyla\w*|epipen|hives|ambulance|a&e|emergency room|swelled|swollen|vomit\w*|"
    r"threw up)\b|"
    r"过敏|急诊|风团|肿|吐了|呕|打针|打咗针|住院|送医|拉肚子|喉咙发紧",
    _I,
)
# An utterance that swears off something, in any of its sentences.
_SWORN_OFF = re.compile(r"\bnever again\b|\b(?:dinnae|don't|do not) get me started\b|再也|这辈子|打死", _I)
_MAX_CHARS = {"en": 200, "zh": 90}


def asks_something(turn: str) -> bool:
    """Whether ``turn`` asks a question or requests something (a suggestion, a plan, a message)."""
    return (
        is_question(turn)
        or "?" in turn
        or "？" in turn
        or open_request(turn)
        or asks_of_you(turn)
        or asks_for_suggestion(turn)
        or WRITES_TO.search(turn) is not None
    )


def related_statement(turn: str, records: Sequence[MemoryRecord], language: str) -> str:
    """The sentence of the person's remembered statements (``records``: what was recalled and pinned)
    that shares the most strong words with ``turn``, said back ("You told me …"); "" when the turn asks
    nothing, no statement shares a strong word with it, or the ones that do must not be said back (a
    story of something that went wrong, a rule, a vow, a plan changed since, a question)."""
    if not asks_something(turn):
        return ""
    asked = strong_keys(turn)
    if not asked:
        return ""
    speaking = "zh" if language == "zh" else "en"
    by_utterance: dict[str, list[MemoryRecord]] = {}
    for record in without_revised(person_statements(records), constraints_stand=False):
        by_utterance.setdefault(record.source or record.id, []).append(record)
    best: tuple[int, bool, float] | None = None
    chosen = ""
    for clauses in by_utterance.values():
        sentences = [s.strip() for c in clauses for s in (sentences_of(c.text) or [c.text]) if s.strip()]
        whole = " ".join(c.text for c in clauses)
        if (
            not sentences
            or parse_constraints(whole)
            or _HARMED.search(whole)
            or any(_swears_off(s) for s in sentences)
        ):
            continue
        when = max(c.created_at for c in clauses)
        for sentence in sentences:
            if not _sayable(sentence, speaking):
                continue
            shared = len(asked & strong_keys(sentence))
            score = (shared, says_liking(sentence), when)
            if shared and (best is None or score > best):
                best, chosen = score, sentence
    return said_back(chosen, speaking) if chosen else ""


def strong_keys(text: str) -> set[str]:
    """The content keys of ``text`` that say what it is about: not the everyday words a request shares
    with any story (``WEAK_KEYS``, ``_COMMON_EN``), nor English words shorter than four letters."""
    names = {m.group(0).lower() for m in PLACEHOLDER_RE.finditer(text)}  # (a scrubbed name is one key)
    return names | {
        key
        for key in stems(content_keys(PLACEHOLDER_RE.sub(" ", text)))
        if key not in WEAK_KEYS and key not in _COMMON_EN and not (key.isascii() and len(key) < 4)
    }


def _swears_off(sentence: str) -> bool:
    """Whether a sentence of an utterance states a rule or speaks ill of something."""
    return bool(_SWORN_OFF.search(sentence) or SPEAKS_ILL.search(sentence) or parse_constraints(sentence))


def _sayable(sentence: str, language: str) -> bool:
    """A sentence in the reply's language, short enough to say after it, that tells of nothing gone
    wrong, refused or changed, nor only of the moment, and asks for nothing ("Name a planet with rings."
    is a request)."""
    return (
        bool(HAN_RE.search(sentence)) == (language == "zh")
        and len(sentence) <= _MAX_CHARS[language]
        and not _UNTOWARD.search(sentence)
        and not _OF_THE_MOMENT.search(sentence)
        and not REVISES_PLAN.search(sentence)
        and not asks_something(sentence)
    )


def related_tie(related: str, said: str, turn: str, constraints: ConstraintSet) -> str:
    """``related`` (said back) when the reply ``said`` named nothing distinctive of it and it breaks no
    constraint; else ""."""
    if not related or not said.strip() or constraints.check(related) is not None:
        return ""
    # (a name still scrubbed is rendered for the person when spoken: compared, the rest of it is)
    body = PLACEHOLDER_RE.sub(" ", _TOLD.sub("", related))
    return "" if uses_liking(said, body, turn) else related


_TOLD = re.compile(r"^(?:You told me |你告诉过我，)")
