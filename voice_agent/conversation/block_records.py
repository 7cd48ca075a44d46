"""Which recalled and pinned records the prompt shows (the turn, its speculation and the prefill use the
same)."""

from __future__ import annotations

from collections.abc import Sequence

from voice_agent.conversation.echo import only_questions, shares_content
from voice_agent.conversation.revised_plans import without_revised
from voice_agent.conversation.turns import LoggedTurn
from voice_agent.memory.records import MemoryRecord


def block_records(
    records: Sequence[MemoryRecord],
    pinned: Sequence[MemoryRecord],
    window: Sequence[LoggedTurn],
    recent_window_turns: int,
    turn: str = "",
    *,
    unrelated_questions: bool = True,
) -> list[MemoryRecord]:
    """The recalled records the memory block shows. It quotes what the person said: the assistant's own
    earlier words are left out (measured: a small model copies them back as its answer), and so is what
    the recent window already shows word for word (the same clause twice costs prompt-reading time,
    nothing else), and so is a plan that a later statement changed (``revised_plans``). Pinned records have
    their own block. Without ``unrelated_questions``, the person's
    earlier questions that share no content word with ``turn`` are left out too (measured: a small model
    answers them again instead of this turn)."""
    pinned_ids = {r.id for r in pinned}
    shown = {t.turn_id for t in window[-recent_window_turns:]} if recent_window_turns else set()
    kept = [
        r
        for r in records
        if r.id not in pinned_ids and r.role != "assistant" and not (r.source and r.source in shown)
    ]
    kept = without_revised(kept, pinned)  # a plan changed later is not shown as the plan
    if unrelated_questions or not turn:
        return kept
    return [r for r in kept if not only_questions(r.text) or shares_content(r.text, turn)]


def shown_pinned(pinned: Sequence[MemoryRecord]) -> list[MemoryRecord]:
    """The pinned records the prompt shows: all but a plan that a later pinned statement changed
    (``revised_plans``). "It's always the last Sunday of the month, 8pm, on Zoom" pinned, then "change of
    plan for the family call … last Saturday, 4pm … switching to Google Meet": both were shown, and the
    0.5B model wrote the old plan into the message for the family group. One that states a constraint
    stays (an allergy holds whatever the change); the record stays in the store."""
    return without_revised(pinned)
