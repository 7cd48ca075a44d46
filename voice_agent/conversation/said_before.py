"""What the person told us that a question is about, said back when the model gave no answer.

"The insurance guy's calling, which car did we end up going with?" after "update on the car: we walked
away from the Honda… the RAV4 is the one we're buying": when the 0.5B model says the question back twice,
"Sorry, I don't have a good answer" tells the person nothing, though the answer is in front of it. The
person's own statement that shares the most content with the question is said back instead ("You told me
…"); among equally close ones the latest, so a changed plan is said as it stands now. Nothing when the
turn asks nothing, or no statement shares a word with it.

Statements are the person's active clause records and the person's parts of a condensed earlier
conversation ("Earlier conversation (2026-12-02): User: … | Assistant: …"), which the window's old turns
become (``condense.py``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from voice_agent.conversation.constraints import parse_constraints
from voice_agent.conversation.echo import WEAK_KEYS, content_keys
from voice_agent.conversation.likings import says_liking
from voice_agent.conversation.recall_answer import said_back
from voice_agent.conversation.revised_plans import (
    REPLACED_BY,
    REVISES_PLAN,
    gives_replaced_name,
    without_revised,
)
from voice_agent.memory.records import MemoryRecord
from voice_agent.text.corrections import SELF_CORRECTION
from voice_agent.text.dates import CALENDAR_DATE
from voice_agent.text.questions import asks_or_requests, is_question
from voice_agent.text.sentences import sentences_of

_MAX_CHARS = 240
_CONDENSED = re.compile(r"^Earlier conversation \([^)]*\):\s*")
_PART = re.compile(r"(User|Assistant):\s*(.*?)\s*(?=\s\|\s(?:User|Assistant):|$)")


def person_statements(records: Sequence[MemoryRecord]) -> list[MemoryRecord]:
    """The person's active statements among ``records``: their clause records as they are, and one record
    per user part of a condensed earlier conversation (its shortening mark dropped).

    A part is dated and grouped as the utterance it was: the summary record is written when its turns
    leave the window, after all of them, so "I've signed up … on Tuesday afternoons" read from it would
    seem newer than the clause records of the later "… they've moved me to Thursday afternoons instead",
    and the two parts of one summary would seem one utterance. A part that holds a clause record's words
    takes that record's time and turn; the others keep the summary's order between them
    (``_dated_parts``)."""
    clauses = [r for r in records if r.role == "user" and r.status == "active" and r.kind != "summary"]
    out: list[MemoryRecord] = []
    for record in records:
        if record.role != "user" or record.status != "active":
            continue
        condensed = _CONDENSED.match(record.text)
        if condensed is None:
            if record.kind != "summary":
                out.append(record)
            continue
        parts = [
            said.rstrip(" …").strip()
            for who, said in _PART.findall(record.text[condensed.end() :])
            if who == "User" and said.rstrip(" …").strip()
        ]
        out.extend(_dated_parts(record, parts, clauses))
    return out


def _dated_parts(summary: MemoryRecord, parts: list[str], clauses: list[MemoryRecord]) -> list[MemoryRecord]:
    """The user parts of a condensed ``summary`` as records dated like the utterances they were: the
    time and turn of a clause record whose words a part holds; else a time just after the part before
    it (or just before the part after it), each part its own turn."""
    found = [_clause_of(part, clauses) for part in parts]
    times = [c.created_at if c is not None else None for c in found]
    for i in range(1, len(times)):  # after the part before it
        before = times[i - 1]
        if times[i] is None and before is not None:
            times[i] = before + 1e-3
    for i in reversed(range(len(times) - 1)):  # or before the part after it
        after = times[i + 1]
        if times[i] is None and after is not None:
            times[i] = after - 1e-3
    return [
        MemoryRecord(
            summary.conversation_id,
            part,
            source=clause.source if clause is not None and clause.source else f"{summary.id}#{i}",
            created_at=when if when is not None else summary.created_at - (len(parts) - i) * 1e-3,
        )
        for i, (part, clause, when) in enumerate(zip(parts, found, times, strict=True))
    ]


def _clause_of(part: str, clauses: list[MemoryRecord]) -> MemoryRecord | None:
    """A clause record whose words (eight characters or more) the condensed ``part`` holds."""
    flat = " ".join(part.split())
    for clause in clauses:
        words = " ".join(clause.text.split()).rstrip(" .。!！?？,，")
        if len(words) >= 8 and words in flat:
            return clause
    return None


def relevant_statement(question: str, records: Sequence[MemoryRecord], language: str) -> str:
    """The person's statement closest to ``question`` in content, said back; "" when there is none.

    The clauses of one utterance count together ("Change of plans for Easter, mate." shares Easter with
    the question, "we booked a little place up in Beechworth instead." says where): of the closest
    utterance, the clause that names something the question does not (a name, a number) is said back."""
    # (a Chinese request can carry the question: "他问我们台面到底定的啥子材料，你帮我回他一句嘛。")
    if not (is_question(question) or _ASKS_ZH.search(question)):
        return ""
    asked = stems(content_keys(question)) - WEAK_KEYS
    current = without_revised(person_statements(records))  # a changed plan as it stands now
    statements = [
        r
        for r in current
        if len(r.text.strip()) <= _MAX_CHARS and not is_question(r.text.strip())
        # (nor a request, which tells nothing of them: "You told me Suggest a board game for a rainy day.")
        and not asks_or_requests(r.text.strip())
        and not gives_replaced_name(r, current)  # (nor a name changed since)
    ]  # fmt: skip
    shared_by: dict[str, int] = {}
    for record in statements:
        source = record.source or record.id
        shared_by[source] = shared_by.get(source, 0) + len(asked & stems(content_keys(record.text)))
    best: tuple[int, float, int, int, int, int, str] | None = None
    for record in statements:
        text = record.text.strip()
        shared = shared_by[record.source or record.id]
        own = len(asked & stems(content_keys(text)))
        # (of one utterance, the clause of the change says what stands: "最后我们改成岩板了"; the one that
        # names what replaced the plan before all: "…the dinosaurs are out and it's an outer space party
        # instead", not "Well, bless his heart, Mason done changed his mind on me")
        replaced = int(REPLACED_BY.search(text) is not None)
        changed = int(REVISES_PLAN.search(text) is not None)
        score = (shared, record.created_at, replaced, int(_names_new(text, question)), changed, own, text)
        if shared and (best is None or score[:6] > best[:6]):
            best = score
    return said_back(_closest_sentence(best[6], asked), language) if best is not None else ""


def _closest_sentence(text: str, asked: set[str]) -> str:
    """Of a statement of several sentences (a story told in one breath), the one that shares the most
    with the question (the first of equals): a story is never said back whole."""
    sentences = [part.strip() for part in sentences_of(text) if part.strip()]
    # (a story that states a rule is kept whole, for the reply check to weigh against the rule: "上个礼拜
    # …伙计照旧冲咗壶菊普…" alone would name what "以后菊花茶…都唔好再掂" keeps off, unseen)
    # (nor one that corrects itself: a sentence before "Ah no wait, what am I saying…" names what was taken
    # back; said whole, only what stands is said, ``recall_answer.second_person``)
    if len(sentences) < 2 or SELF_CORRECTION.search(text) or any(parse_constraints(p) for p in sentences):
        return text
    # (of equals, one that holds a day or a liking before small talk: people open with the weather, "妈呀，
    # 长春这两天降温降得嘎嘎快", and tell what matters after it, "…6月14号礼拜六住进去开刀")
    return max(sentences, key=lambda part: (len(asked & stems(content_keys(part))), _tells_something(part)))


def _tells_something(sentence: str) -> bool:
    """Whether a sentence holds a day of a month or says what the person likes."""
    return CALENDAR_DATE.search(sentence) is not None or says_liking(sentence)


_ASKS_ZH = re.compile(r"啥|什么|哪|到底|多少|几[号点个天]")


_ENDING = re.compile(r"(?<=[a-z]{3})(?:ing|ed)$")
_NAMED = re.compile(r"(?<!^)(?<![.!?]\s)\b[A-Z][a-z]+|\d+|\[[A-Z]+:[0-9a-f]+\]")


def stems(keys: set[str]) -> set[str]:
    """English keys without -ing / -ed ("booking" and "booked" are one word here)."""
    return {_ENDING.sub("", key) for key in keys}


def _names_new(text: str, question: str) -> bool:
    """Whether ``text`` names something (a capitalised word inside the sentence, a number, a
    placeholder) that ``question`` does not."""
    return any(m.group(0) not in question for m in _NAMED.finditer(text.strip()))
