"""The turn log: every (scrubbed) user turn and spoken reply of a conversation, in order.

It lives in the same SQLite file as the memory store (its own table), so a conversation resumes after a
restart with its recent window. Its connection and writes follow the store's connection policy
(``sqlite_conn``: WAL, busy timeout, ``BEGIN IMMEDIATE``, retry while busy): a turn is never lost because
another writer, in this process or another, held the file at that moment.

The window slides in blocks: turns before ``window_start`` have been condensed into summary records, and
the window only moves when it overflows, so the prompt prefix stays identical (and cacheable) between
slides.
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from voice_agent.errors import StoreError, TenantRequiredError
from voice_agent.memory.store.sqlite_conn import connect, read, write_transaction

T = TypeVar("T")

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
# the notes after the words: what to suggest given the constraints, and the reply language.
_PROMPT_ADDITIONS = re.compile(
    r"\A\(today is [^)\n]*\)\n|<memory>.*?</memory>\n*|(?:\n\((?:Answer in English only\.|请只用中文回答。|"
    r"Suggest (?:only options without|something other than|one [^()\n]* without) [^()\n]*\.|"
    r"只推荐不含[^()\n]*的选择。|推荐[^()\n]*以外的选择。|推荐一个不含[^()\n]*。|"
    r"Answer with what I told you in mind\.|请结合我告诉你的情况回答。|Suggest one specific [^()\n]*|"
    r"推荐一个具体的[^()\n]*|For example: [^()\n]*|比如：[^()\n]*)\))+\Z",
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
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = connect(self.path, synchronous="NORMAL", vectors=False)
        try:
            write_transaction(conn, lambda c: c.execute(_SCHEMA))
        except BaseException:
            conn.close()
            raise
        self._conn = conn

    def _write(self, fn: Callable[[Any], T]) -> T:
        """``fn(conn)`` as one write transaction (blocking; call from a worker thread)."""
        return self._locked(lambda conn: write_transaction(conn, fn))

    def _read(self, fn: Callable[[Any], T]) -> T:
        return self._locked(lambda conn: read(conn, fn))

    def _locked(self, call: Callable[[Any], T]) -> T:
        import apsw

        with self._lock:
            if self._conn is None:
                raise StoreError("the turn log is not open")
            try:
                return call(self._conn)
            except apsw.Error as err:
                raise StoreError(f"turn log: {type(err).__name__}: {err}") from err

    async def close(self) -> None:
        await asyncio.to_thread(self._close)

    def _close(self) -> None:
        with self._lock:
            conn, self._conn = self._conn, None
            if conn is not None:
                conn.close()

    async def append(
        self, conversation_id: str, turn_id: str, role: str, text: str, *, interrupted: bool = False
    ) -> int:
        _require(conversation_id, "append turn")
        return await asyncio.to_thread(self._append, conversation_id, turn_id, role, text, interrupted)

    def _append(self, conversation_id: str, turn_id: str, role: str, text: str, interrupted: bool) -> int:
        def txn(conn: Any) -> int:
            row = conn.execute(
                "SELECT COALESCE(MAX(seq), -1) + 1 FROM conversation_turns WHERE conversation_id = ?",
                (conversation_id,),
            ).fetchone()
            seq = int(row[0])
            conn.execute(
                "INSERT INTO conversation_turns VALUES (?, ?, ?, ?, ?, ?, ?)",
                (conversation_id, seq, turn_id, role, text, time.time(), int(interrupted)),
            )
            return seq

        return self._write(txn)

    async def window(self, conversation_id: str) -> list[LoggedTurn]:
        """The turns not yet condensed, oldest first."""
        _require(conversation_id, "read window")
        return await asyncio.to_thread(self._window, conversation_id)

    def _window(self, conversation_id: str) -> list[LoggedTurn]:
        def query(conn: Any) -> list[Any]:
            # One statement, one snapshot: the window start and the turns agree.
            return conn.execute(
                "SELECT seq, turn_id, role, text, created_at, interrupted FROM conversation_turns "
                "WHERE conversation_id = ? AND seq >= COALESCE((SELECT window_start FROM "
                "conversation_windows WHERE conversation_id = ?), 0) ORDER BY seq",
                (conversation_id, conversation_id),
            ).fetchall()

        rows = self._read(query)
        return [LoggedTurn(int(r[0]), str(r[1]), str(r[2]), str(r[3]), float(r[4]), bool(r[5])) for r in rows]

    async def every_turn(self, conversation_id: str) -> list[LoggedTurn]:
        """Every logged turn of the conversation, condensed ones too, oldest first."""
        _require(conversation_id, "read turns")

        def query(conn: Any) -> list[Any]:
            return conn.execute(
                "SELECT seq, turn_id, role, text, created_at, interrupted FROM conversation_turns "
                "WHERE conversation_id = ? ORDER BY seq",
                (conversation_id,),
            ).fetchall()

        rows = await asyncio.to_thread(self._read, query)
        return [LoggedTurn(int(r[0]), str(r[1]), str(r[2]), str(r[3]), float(r[4]), bool(r[5])) for r in rows]

    async def advance_window(self, conversation_id: str, new_start: int) -> None:
        _require(conversation_id, "advance window")
        await asyncio.to_thread(self._advance, conversation_id, new_start)

    def _advance(self, conversation_id: str, new_start: int) -> None:
        self._write(
            lambda conn: conn.execute(
                "INSERT INTO conversation_windows VALUES (?, ?) ON CONFLICT(conversation_id) "
                "DO UPDATE SET window_start = MAX(window_start, excluded.window_start)",
                (conversation_id, new_start),
            )
        )

    async def rewrite(self, conversation_id: str, texts: dict[int, str]) -> None:
        """Replace the text of logged turns (by ``seq``): what the person asked to forget leaves the
        window the LLM reads, not only the memory."""
        _require(conversation_id, "rewrite turns")
        if texts:
            await asyncio.to_thread(self._rewrite, conversation_id, texts)

    def _rewrite(self, conversation_id: str, texts: dict[int, str]) -> None:
        def txn(conn: Any) -> None:
            for seq, text in texts.items():
                conn.execute(
                    "UPDATE conversation_turns SET text = ? WHERE conversation_id = ? AND seq = ?",
                    (text, conversation_id, seq),
                )

        self._write(txn)

    async def forget(self, conversation_id: str) -> int:
        _require(conversation_id, "forget turns")
        return await asyncio.to_thread(self._forget, conversation_id)

    def _forget(self, conversation_id: str) -> int:
        def txn(conn: Any) -> int:
            count = int(
                conn.execute(
                    "SELECT COUNT(*) FROM conversation_turns WHERE conversation_id = ?", (conversation_id,)
                ).fetchone()[0]
            )
            conn.execute("DELETE FROM conversation_turns WHERE conversation_id = ?", (conversation_id,))
            conn.execute("DELETE FROM conversation_windows WHERE conversation_id = ?", (conversation_id,))
            return count

        return self._write(txn)

    async def purge_older_than(self, days: float) -> int:
        """Retention: delete logged turns older than ``days`` (every conversation); returns the count."""
        if days <= 0:
            raise ValueError(f"purge: days must be > 0, got {days}")
        return await asyncio.to_thread(self._purge, time.time() - days * 86400)

    def _purge(self, cutoff: float) -> int:
        def txn(conn: Any) -> int:
            count = int(
                conn.execute(
                    "SELECT COUNT(*) FROM conversation_turns WHERE created_at < ?", (cutoff,)
                ).fetchone()[0]
            )
            conn.execute("DELETE FROM conversation_turns WHERE created_at < ?", (cutoff,))
            conn.execute(
                "DELETE FROM conversation_windows WHERE conversation_id NOT IN "
                "(SELECT DISTINCT conversation_id FROM conversation_turns)"
            )
            return count

        return self._write(txn)


def _require(conversation_id: str, operation: str) -> None:
    if not conversation_id or not conversation_id.strip():
        raise TenantRequiredError(operation)
