"""apsw connections of the embedded store: opened with its pragmas and sqlite-vec, kept to one thread at a
time, and the vault-only file used when records live in Weaviate."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, TypeVar

from voice_agent.errors import StoreError
from voice_agent.memory.store.sqlite_schema import migrate

T = TypeVar("T")
Synchronous = Literal["NORMAL", "FULL"]


def connect(path: Path, *, synchronous: Synchronous, busy_timeout_ms: int) -> Any:
    try:
        import apsw
        import sqlite_vec
    except ImportError as err:  # pragma: no cover - both are core dependencies
        raise StoreError(f"the embedded store needs apsw and sqlite-vec: {err}") from err
    try:
        conn = apsw.Connection(str(path))
        conn.enable_load_extension(True)
        conn.load_extension(sqlite_vec.loadable_path())
        conn.enable_load_extension(False)
        conn.set_busy_timeout(busy_timeout_ms)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={synchronous}")
        conn.execute("PRAGMA secure_delete=ON")
        conn.execute("PRAGMA foreign_keys=ON")
    except apsw.Error as err:
        raise StoreError(f"cannot open the memory store {path}: {err}") from err
    return conn


class Guarded:
    """One apsw connection and the lock that keeps it to one thread at a time."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.lock = threading.Lock()

    def run(self, fn: Callable[[Any], T]) -> T:
        import apsw

        with self.lock:
            try:
                return fn(self.conn)
            except apsw.Error as err:
                raise StoreError(f"memory store: {type(err).__name__}: {err}") from err


class LocalFile:
    """``<data_dir>/memory.sqlite3`` without the vector tables: where the PII vault lives when records
    are in Weaviate (raw values never go to a server). ``run(fn)`` calls ``fn(conn)`` under its lock."""

    def __init__(self, path: str | Path, *, synchronous: Synchronous = "FULL") -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = connect(self.path, synchronous=synchronous, busy_timeout_ms=5000)
        migrate(conn)
        self._guarded = Guarded(conn)

    def run(self, fn: Callable[[Any], T]) -> T:
        return self._guarded.run(fn)

    def close(self) -> None:
        with self._guarded.lock:
            self._guarded.conn.close()
