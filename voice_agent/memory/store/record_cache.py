"""Records already read, kept in RAM so a search does not rebuild them from SQLite on every query.

Building a :class:`MemoryRecord` from its row costs more than finding the row (150 rows: ~0.1 ms of SQL,
~1 ms of Python), and the same records come back query after query in one conversation. So a fetch asks
SQLite only which of the candidate rowids still pass the query's filters, with each row's ``id`` and
``status`` (the one column a record changes after it is written), and builds only the rows it has not
seen. SQLite still decides every time what is returned: a record deleted or filtered out is never served
from here, whoever changed the file (this process or another). A cached row counts only when its ``id``
matches (a rowid can be reused after a delete), and a changed status replaces the cached one.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from itertools import islice

from voice_agent.memory.records import MemoryRecord, Status

DEFAULT_CAPACITY = 20_000  # records (text and metadata, never vectors): ~0.5 KB each, ~10 MB in all


class RecordCache:
    """rowid → record (without its vector). Reads take no lock; puts and evictions do."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        if capacity < 1:
            raise ValueError(f"capacity must be at least 1, got {capacity}")
        self.capacity = capacity
        self._records: dict[int, MemoryRecord] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._records)

    def current(self, rid: int, record_id: str, status: Status) -> MemoryRecord | None:
        """The cached record of ``rid`` when it is the same record (``record_id``), with ``status``."""
        record = self._records.get(rid)
        if record is None or record.id != record_id:
            return None
        if record.status != status:
            record = replace(record, status=status)
            self._records[rid] = record
        return record

    def put(self, rid: int, record: MemoryRecord) -> None:
        if record.vector is not None:
            record = replace(record, vector=None)
        with self._lock:
            self._records[rid] = record
            if len(self._records) > self.capacity:  # the oldest half goes (amortised O(1) per put)
                for old in list(islice(self._records, len(self._records) - self.capacity // 2)):
                    self._records.pop(old, None)

    def drop_conversation(self, conversation_id: str) -> None:
        """Forget what this process holds of a conversation (after its records were deleted)."""
        with self._lock:
            gone = [rid for rid, record in self._records.items() if record.conversation_id == conversation_id]
            for rid in gone:
                self._records.pop(rid, None)

    def clear(self) -> None:
        with self._lock:
            self._records.clear()
