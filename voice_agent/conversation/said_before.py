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

from voice_agent.conversation.echo import content_keys
from voice_agent.conversation.recall_answer import said_back
from voice_agent.conversation.revised_plans import without_revised
from voice_agent.memory.records import MemoryRecord
from voice_agent.text.questions import is_question

_MAX_CHARS = 240
_CONDENSED = re.compile(r"^Earlier conversation \([^)]*\):\s*")
_PART = re.compile(r"(User|Assistant):\s*(.*?)\s*(?=\s\|\s(?:User|Assistant):|$)")


def person_statements(records: Sequence[MemoryRecord]) -> list[MemoryRecord]:
    """The person's active statements among ``records``: their clause records as they are, and one record
    per user part of a condensed earlier conversation (its shortening mark dropped)."""
    out: list[MemoryRecord] = []
    for record in records:
        if record.role != "user" or record.status != "active":
            continue
        condensed = _CONDENSED.match(record.text)
        if condensed is None:
            if record.kind != "summary":
                out.append(record)
            continue
        for who, said in _PART.findall(record.text[condensed.end() :]):
            said = said.rstrip(" …").strip()
            if who == "User" and said:
                out.append(
                    MemoryRecord(record.conversation_id, said, source=record.id, created_at=record.created_at)
                )
    return out


def relevant_statement(question: str, records: Sequence[MemoryRecord], language: str) -> str:
    """The person's statement closest to ``question`` in content, said back; "" when there is none."""
    if not is_question(question):
        return ""
    asked = content_keys(question)
    best: tuple[int, float, str] | None = None
    for record in without_revised(person_statements(records)):  # a changed plan as it stands now
        text = record.text.strip()
        if len(text) > _MAX_CHARS or is_question(text):
            continue
        shared = len(asked & content_keys(text))
        if shared and (best is None or (shared, record.created_at) > best[:2]):
            best = (shared, record.created_at, text)
    return said_back(best[2], language) if best is not None else ""
