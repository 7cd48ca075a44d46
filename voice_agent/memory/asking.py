"""Which recalled records tell nothing about the person: the assistant's own words, and the person's
questions and requests ("How long is a marathon?", "Name a famous painter."). Retrieval ranks them after
the person's statements (``RetrievalParams.asking_penalty``); an e5 query sits near any earlier question,
so without it a 100-token memory block held quiz questions instead of what the person had told."""

from __future__ import annotations

from typing import Protocol, TypeVar

from voice_agent.memory.records import MemoryRecord
from voice_agent.text.questions import asks_or_requests

_CACHE_LIMIT = 200_000  # record ids whose answer is known (about 100 bytes each)


class Scored(Protocol):
    record: MemoryRecord
    score: float


S = TypeVar("S", bound=Scored)


class AskingRecords:
    """``tells_nothing(record)``, cached by record id (a record's text does not change)."""

    def __init__(self) -> None:
        self._known: dict[str, bool] = {}

    def tells_nothing(self, record: MemoryRecord) -> bool:
        if record.role == "assistant":
            return True
        if record.kind != "utterance":
            return False
        known = self._known.get(record.id)
        if known is None:
            known = asks_or_requests(record.text)
            if len(self._known) >= _CACHE_LIMIT:
                self._known.clear()
            self._known[record.id] = known
        return known

    def rank_down(self, ranked: list[S], penalty: float, window: int) -> None:
        """Lower the score of each of the ``window`` best of ``ranked`` (best first) that tells nothing,
        and sort them again in place (what lies beyond the window cannot rise by it)."""
        head = ranked[:window]
        for candidate in head:
            if self.tells_nothing(candidate.record):
                candidate.score -= penalty
        ranked[:window] = sorted(head, key=lambda c: -c.score)
