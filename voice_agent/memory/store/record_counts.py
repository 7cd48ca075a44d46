"""How many records the store holds, in all and per conversation: counted once, then kept up to date by
this process's writes and deletes. Approximate on purpose (another process's writes are not seen): the
counts only choose a query plan (see ``sqlite_search.keyword_search``), never what a search returns.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

Reader = Callable[[Callable[[Any], int]], int]


class RecordCounts:
    def __init__(self, read: Reader, *, total: int | None = None) -> None:
        self._read = read
        self._total = total  # None: counted when first asked
        self._per_conversation: dict[str, int] = {}
        self._lock = threading.Lock()

    def share(self, conversation_id: str) -> float:
        """The conversation's share of all records (0 when the store is empty)."""
        total = self._total
        if total is None:
            total = self._read(lambda conn: int(conn.execute("SELECT count(*) FROM records").fetchone()[0]))
            with self._lock:
                if self._total is None:
                    self._total = total
                total = self._total
        own = self._per_conversation.get(conversation_id)
        if own is None:
            own = self._read(
                lambda conn: int(
                    conn.execute(
                        "SELECT count(*) FROM records WHERE conversation_id = ?", (conversation_id,)
                    ).fetchone()[0]
                )
            )
            with self._lock:
                own = self._per_conversation.setdefault(conversation_id, own)
        return min(1.0, own / total) if total > 0 else 0.0

    def added(self, conversation_id: str, count: int) -> None:
        with self._lock:
            if self._total is not None:
                self._total += count
            if conversation_id in self._per_conversation:
                self._per_conversation[conversation_id] += count

    def removed(self, conversation_id: str, count: int) -> None:
        """``count`` records of the conversation were deleted; it is counted again when next asked."""
        with self._lock:
            if self._total is not None:
                self._total = max(0, self._total - count)
            self._per_conversation.pop(conversation_id, None)
