"""Recalled records as the prompt shows them: grouped by speaker, a superseded one marked."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from voice_agent.memory.records import MemoryRecord, ScoredRecord

__all__ = ["render_recalled", "with_status_marker"]


def render_recalled(items: Sequence[ScoredRecord | MemoryRecord]) -> str:
    """The compact prompt form the token accounting assumes (``labels="grouped"``): each speaker's
    items under one label, in relevance order, one line per speaker::

        [NAME:3f0c9a12b4de]: I went to a support group | it was so powerful
        you: I like tea

    Superseded records carry a marker; records without a speaker are listed under their role."""
    groups: dict[str, list[str]] = {}
    for item in items:
        record = item.record if isinstance(item, ScoredRecord) else item
        label = record.speaker or record.role
        groups.setdefault(label, []).append(with_status_marker(record).text)
    return "\n".join(f"{label}: {' | '.join(texts)}" for label, texts in groups.items())


def with_status_marker(record: MemoryRecord) -> MemoryRecord:
    """A superseded record as it may be shown: its text marked, so it is never read as current."""
    if record.status == "active":
        return record
    return replace(record, text=f"[{record.status}] {record.text}")
