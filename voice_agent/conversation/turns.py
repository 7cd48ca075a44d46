"""The turn log: every (scrubbed) user turn and spoken reply of a conversation, in order.

It lives in the same SQLite file as the memory store (its own table), so a conversation resumes after a
restart with its recent window. The window slides in blocks: turns before ``window_start`` have been
condensed into summary records, and the window only moves when it overflows, so the prompt prefix stays
identical (and cacheable) between slides.
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from voice_agent.errors import TenantRequiredError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS conversation_turns (
    conversation_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    turn_id TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
    text TEXT NOT NULL,
    created_at REAL NOT NULL,
    interrupted INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (conversation_id, seq)
);
CREATE TABLE IF NOT EXISTS conversation_windows (
    conversation_id TEXT PRIMARY KEY,
    window_start INTEGER NOT NULL DEFAULT 0
);
"""


# A user turn is logged as the LLM read it (date line and memory block included, so the next prompt
# extends this one for the LLM's cache); these are the parts the person did not say.
_PROMPT_ADDITIONS = re.compile(
    r"\A\(today is [^)\n]*\)\n|<memory>.*?</memory>\n*|\n\((?:Answer in English only\.|请只用中文回答。)\)\Z",
    re.S,
)


def said_words(text: str) -> str:
    """The person's own words of a logged user message."""
    return _PROMPT_ADDITIONS.sub("", text)


@dataclass(frozen=True)
class LoggedTurn:
    seq: int
    turn_id: str
    role: str
    text: str  # as the LLM read it
    created_at: float
    interrupted: bool = False

    @property
    def words(self) -> str:
        """What was said: the user's own words, or the reply as spoken."""
        return said_words(self.text) if self.role == "user" else self.text


class TurnLog:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._conn: Any = None
        self._lock = threading.Lock()

    async def open(self) -> None:
        await asyncio.to_thread(self._open)

    def _open(self) -> None:
        import apsw

        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = apsw.Connection(str(self.path))
        conn.setbusytimeout(5000)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute(_SCHEMA)
        self._conn = conn

    async def close(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            await asyncio.to_thread(conn.close)

    async def append(
        self, conversation_id: str, turn_id: str, role: str, text: str, *, interrupted: bool = False
    ) -> int:
        _require(conversation_id, "append turn")
        return await asyncio.to_thread(self._append, conversation_id, turn_id, role, text, interrupted)

    def _append(self, conversation_id: str, turn_id: str, role: str, text: str, interrupted: bool) -> int:
        # BEGIN IMMEDIATE: the write lock is taken (with the busy timeout) before the read of the next
        # seq. A deferred transaction would read first and then fail at once, without waiting, when a
        # memory write on the same file committed in between (SQLite's WAL snapshot rule).
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                row = self._conn.execute(
                    "SELECT COALESCE(MAX(seq), -1) + 1 FROM conversation_turns WHERE conversation_id = ?",
                    (conversation_id,),
                ).fetchone()
                seq = int(row[0])
                self._conn.execute(
                    "INSERT INTO conversation_turns VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (conversation_id, seq, turn_id, role, text, time.time(), int(interrupted)),
                )
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
            return seq

    async def window(self, conversation_id: str) -> list[LoggedTurn]:
        """The turns not yet condensed, oldest first."""
        _require(conversation_id, "read window")
        return await asyncio.to_thread(self._window, conversation_id)

    def _window(self, conversation_id: str) -> list[LoggedTurn]:
        with self._lock:
            start = self._window_start(conversation_id)
            rows = self._conn.execute(
                "SELECT seq, turn_id, role, text, created_at, interrupted FROM conversation_turns "
                "WHERE conversation_id = ? AND seq >= ? ORDER BY seq",
                (conversation_id, start),
            ).fetchall()
        return [LoggedTurn(int(r[0]), str(r[1]), str(r[2]), str(r[3]), float(r[4]), bool(r[5])) for r in rows]

    def _window_start(self, conversation_id: str) -> int:
        row = self._conn.execute(
            "SELECT window_start FROM conversation_windows WHERE conversation_id = ?", (conversation_id,)
        ).fetchone()
        return int(row[0]) if row else 0

    async def advance_window(self, conversation_id: str, new_start: int) -> None:
        _require(conversation_id, "advance window")
        await asyncio.to_thread(self._advance, conversation_id, new_start)

    def _advance(self, conversation_id: str, new_start: int) -> None:
        with self._lock, self._conn:
            self._conn.execute(
                "INSERT INTO conversation_windows VALUES (?, ?) ON CONFLICT(conversation_id) "
                "DO UPDATE SET window_start = MAX(window_start, excluded.window_start)",
                (conversation_id, new_start),
            )

    async def forget(self, conversation_id: str) -> int:
        _require(conversation_id, "forget turns")
        return await asyncio.to_thread(self._forget, conversation_id)

    def _forget(self, conversation_id: str) -> int:
        with self._lock, self._conn:
            count = int(
                self._conn.execute(
                    "SELECT COUNT(*) FROM conversation_turns WHERE conversation_id = ?", (conversation_id,)
                ).fetchone()[0]
            )
            self._conn.execute("DELETE FROM conversation_turns WHERE conversation_id = ?", (conversation_id,))
            self._conn.execute(
                "DELETE FROM conversation_windows WHERE conversation_id = ?", (conversation_id,)
            )
            return count

    async def purge_older_than(self, days: float) -> int:
        """Retention: delete logged turns older than ``days`` (every conversation); returns the count."""
        if days <= 0:
            raise ValueError(f"purge: days must be > 0, got {days}")
        return await asyncio.to_thread(self._purge, time.time() - days * 86400)

    def _purge(self, cutoff: float) -> int:
        with self._lock, self._conn:
            count = int(
                self._conn.execute(
                    "SELECT COUNT(*) FROM conversation_turns WHERE created_at < ?", (cutoff,)
                ).fetchone()[0]
            )
            self._conn.execute("DELETE FROM conversation_turns WHERE created_at < ?", (cutoff,))
            self._conn.execute(
                "DELETE FROM conversation_windows WHERE conversation_id NOT IN "
                "(SELECT DISTINCT conversation_id FROM conversation_turns)"
            )
            return count


def _require(conversation_id: str, operation: str) -> None:
    if not conversation_id or not conversation_id.strip():
        raise TenantRequiredError(operation)
