"""Which recalled records the prompt's memory block shows (the turn and its speculation use the same)."""

from __future__ import annotations

from collections.abc import Sequence

from voice_agent.conversation.turns import LoggedTurn
from voice_agent.memory.records import MemoryRecord


def block_records(
    records: Sequence[MemoryRecord],
    pinned: Sequence[MemoryRecord],
    window: Sequence[LoggedTurn],
    recent_window_turns: int,
) -> list[MemoryRecord]:
    """The recalled records the memory block shows. It quotes what the person said: the assistant's own
    earlier words are left out (measured: a small model copies them back as its answer), and so is what
    the recent window already shows word for word (the same clause twice costs prompt-reading time,
    nothing else). Pinned records have their own block."""
    pinned_ids = {r.id for r in pinned}
    shown = {t.turn_id for t in window[-recent_window_turns:]} if recent_window_turns else set()
    return [
        r
        for r in records
        if r.id not in pinned_ids and r.role != "assistant" and not (r.source and r.source in shown)
    ]
