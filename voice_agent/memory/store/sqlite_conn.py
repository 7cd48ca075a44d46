"""The one connection policy of every writer of ``memory.sqlite3`` (memory store, PII vault, turn log,
forget, purge, ingest), in this process and across processes (two kiosks, a CLI beside the server):

- every connection is opened by :func:`connect`: WAL journal, a busy timeout, ``secure_delete``;
- every write is one :func:`write_transaction`: ``BEGIN IMMEDIATE`` takes the write lock before the
  first statement (a deferred transaction that reads and then writes gets ``SQLITE_BUSY`` at once,
  without waiting, when another connection committed in between: that is how turns and erases were
  lost), and a busy or locked database is retried with backoff until a deadline, never given up on
  after one try;
- reads retry the same way (:func:`read`), and all of it runs in worker threads, never on the loop;
- an apsw connection is used by one thread at a time (:class:`Guarded`).
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, TypeVar

from voice_agent.errors import StoreError
from voice_agent.memory.store.sqlite_schema import migrate

T = TypeVar("T")
Synchronous = Literal["NORMAL", "FULL"]
log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5000  # SQLite's own wait for a lock, per statement
RETRY_DEADLINE_S = 60.0  # how long a transaction keeps retrying on a busy or locked database
_BACKOFF_FIRST_S = 0.005
_BACKOFF_MAX_S = 0.5


def connect(
    path: Path, *, synchronous: Synchronous, busy_timeout_ms: int = BUSY_TIMEOUT_MS, vectors: bool = True
) -> Any:
    """An apsw connection to ``path`` under the policy; ``vectors`` loads sqlite-vec."""
    try:
        import apsw
    except ImportError as err:  # pragma: no cover - a core dependency
        raise StoreError(f"the embedded store needs apsw: {err}") from err

    def setup() -> Any:
        conn = apsw.Connection(str(path))
        try:
            if vectors:
                _load_vectors(conn)
            conn.set_busy_timeout(busy_timeout_ms)
            if hasattr(conn, "transaction_mode"):  # a plain ``with conn:`` takes the write lock too
                conn.transaction_mode = "IMMEDIATE"
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute(f"PRAGMA synchronous={synchronous}")
            conn.execute("PRAGMA secure_delete=ON")
            conn.execute("PRAGMA foreign_keys=ON")
        except BaseException:
            conn.close()
            raise
        return conn

    try:
        return with_retry(setup, what=f"opening {path.name}")
    except apsw.Error as err:
        raise StoreError(f"cannot open the memory store {path}: {err}") from err


def _load_vectors(conn: Any) -> None:
    try:
        import sqlite_vec
    except ImportError as err:  # pragma: no cover - a core dependency
        raise StoreError(f"the embedded store needs sqlite-vec: {err}") from err
    conn.enable_load_extension(True)
    conn.load_extension(sqlite_vec.loadable_path())
    conn.enable_load_extension(False)


def is_busy(err: BaseException) -> bool:
    """A lock held by another connection or process: worth waiting for, never a reason to drop a write."""
    import apsw

    return isinstance(err, apsw.BusyError | apsw.LockedError)


def with_retry(fn: Callable[[], T], *, what: str, deadline_s: float = RETRY_DEADLINE_S) -> T:
    """``fn()``, again after a growing, jittered pause while the database is busy or locked, until
    ``deadline_s``; then a ``StoreError`` saying what could not be done."""
    give_up = time.monotonic() + deadline_s
    pause = _BACKOFF_FIRST_S
    attempts = 0
    while True:
        attempts += 1
        try:
            return fn()
        except Exception as err:
            if not is_busy(err):
                raise
            if time.monotonic() + pause > give_up:
                raise StoreError(
                    f"memory store stayed busy for {deadline_s:g} s ({attempts} tries) while {what}: {err}"
                ) from err
            if attempts == 3:
                log.info("memory store busy while %s; still retrying", what)
        time.sleep(pause * random.uniform(0.5, 1.5))
        pause = min(pause * 2, _BACKOFF_MAX_S)


def write_transaction(conn: Any, fn: Callable[[Any], T], *, deadline_s: float = RETRY_DEADLINE_S) -> T:
    """``fn(conn)`` as one ``BEGIN IMMEDIATE`` transaction, retried whole while the database is busy.

    Inside a transaction already open on ``conn`` (the vault rows of a record write), ``fn`` joins it as
    a savepoint and the outer transaction does the retrying. ``fn`` must not have effects outside the
    database: after a busy rollback it runs again from the start.
    """
    if conn.in_transaction:
        with conn:
            return fn(conn)

    def attempt() -> T:
        conn.execute("BEGIN IMMEDIATE")
        try:
            result = fn(conn)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        return result

    return with_retry(attempt, what="writing", deadline_s=deadline_s)


def read(conn: Any, fn: Callable[[Any], T], *, deadline_s: float = RETRY_DEADLINE_S) -> T:
    """``fn(conn)`` for reading, retried while the database is busy (e.g. during a WAL reset)."""
    return with_retry(lambda: fn(conn), what="reading", deadline_s=deadline_s)


def checkpoint(conn: Any) -> None:
    """Fold the WAL into the file and truncate it, so forgotten text does not linger there. Best effort:
    the erase has committed already, and a reader in another process may hold an old snapshot."""
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    except Exception as err:
        if not is_busy(err):
            raise
        log.info("WAL checkpoint after a forget deferred: %s", err)


class Guarded:
    """One apsw connection and the lock that keeps it to one thread at a time."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.lock = threading.Lock()

    def run(self, fn: Callable[[Any], T]) -> T:
        """``fn(conn)`` under the lock, retried while busy; use :meth:`write` for anything that writes."""
        return self._locked(lambda: read(self.conn, fn))

    def write(self, fn: Callable[[Any], T]) -> T:
        """``fn(conn)`` as one write transaction under the lock (see :func:`write_transaction`)."""
        return self._locked(lambda: write_transaction(self.conn, fn))

    def _locked(self, call: Callable[[], T]) -> T:
        import apsw

        with self.lock:
            try:
                return call()
            except apsw.Error as err:
                raise StoreError(f"memory store: {type(err).__name__}: {err}") from err


class LocalFile:
    """``<data_dir>/memory.sqlite3`` without the vector tables: where the PII vault lives when records
    are in Weaviate (raw values never go to a server). ``run(fn)`` calls ``fn(conn)`` under its lock."""

    def __init__(self, path: str | Path, *, synchronous: Synchronous = "FULL") -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = connect(self.path, synchronous=synchronous, vectors=False)
        with_retry(lambda: migrate(conn), what="migrating")
        self._guarded = Guarded(conn)

    def run(self, fn: Callable[[Any], T]) -> T:
        return self._guarded.run(fn)

    def write(self, fn: Callable[[Any], T]) -> T:
        return self._guarded.write(fn)

    def close(self) -> None:
        with self._guarded.lock:
            self._guarded.conn.close()
