"""Which records name a day, for a query that asks for one or plans something on a date.

"Can you write the Palace an email with the date of her hundredth birthday?" sits near every sentence
about the nan in an e5 space, and the one that gives the day ("She were born the day after Valentine's")
shares no word with it: it ranked seventh of seven and was left out of the memory block. A query that asks
for a day, or needs one in its answer (``text.dates.asks_for_day``), raises the statements that name a day
(``RetrievalParams.day_bonus``). A query that plans something on a date of the calendar ("the Boks play
at Ellis Park on Saturday 6 September … what do we need to sort out?") raises the statements that name one
too ("the ACL reconstruction on my right knee, Friday the 22nd of August, six weeks on crutches"): what the
person has on near that day may change the plan. Only a date of a month counts there, so "the Lions were
kak on Saturday" is not raised. Reading a text for a date costs about 30 µs, so each record is read once.
"""

from __future__ import annotations

from collections.abc import Callable

from voice_agent.memory.records import MemoryRecord
from voice_agent.text.dates import CALENDAR_DATE, asks_for_day, holds_day

_CACHE_LIMIT = 200_000  # record ids whose answer is known (about 100 bytes each)


def day_wanted(query: str) -> str:
    """ "day": ``query`` asks for a day or needs one; "date": it names a date of the calendar; "": neither."""
    if asks_for_day(query):
        return "day"
    return "date" if CALENDAR_DATE.search(query) else ""


class DatedRecords:
    """``fits(record, wanted)``, each record read once for each question (cached by record id: a record's
    text does not change)."""

    def __init__(self) -> None:
        self._day: dict[str, bool] = {}
        self._date: dict[str, bool] = {}

    def fits(self, record: MemoryRecord, wanted: str) -> bool:
        """Whether ``record`` names what ``day_wanted`` found the query wants: any day, or a date."""
        if wanted == "date":
            return self.names_day(record) and _cached(self._date, record, _names_date)
        return wanted == "day" and self.names_day(record)

    def names_day(self, record: MemoryRecord) -> bool:
        return _cached(self._day, record, holds_day)


def _names_date(text: str) -> bool:
    return CALENDAR_DATE.search(text) is not None


def _cached(known: dict[str, bool], record: MemoryRecord, read: Callable[[str], bool]) -> bool:
    answer = known.get(record.id)
    if answer is None:
        if len(known) >= _CACHE_LIMIT:
            known.clear()
        answer = known[record.id] = read(record.text)
    return answer
