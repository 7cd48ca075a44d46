"""Which records name a day, for a query that asks for one.

"Can you write the Palace an email with the date of her hundredth birthday?" sits near every sentence
about the nan in an e5 space, and the one that gives the day ("She were born the day after Valentine's")
shares no word with it: it ranked seventh of seven and was left out of the memory block. A query that asks
for a day, or needs one in its answer (``text.dates.asks_for_day``), raises the statements that name a day
(``RetrievalParams.day_bonus``). Reading a text for a date costs about 30 µs, so each record is read once.
"""

from __future__ import annotations

from voice_agent.memory.records import MemoryRecord
from voice_agent.text.dates import holds_day

_CACHE_LIMIT = 200_000  # record ids whose answer is known (about 100 bytes each)


class DatedRecords:
    """``names_day(record)``, cached by record id (a record's text does not change)."""

    def __init__(self) -> None:
        self._known: dict[str, bool] = {}

    def names_day(self, record: MemoryRecord) -> bool:
        known = self._known.get(record.id)
        if known is None:
            if len(self._known) >= _CACHE_LIMIT:
                self._known.clear()
            known = self._known[record.id] = holds_day(record.text)
        return known
