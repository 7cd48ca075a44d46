"""Reading one conversation's vectors out of sqlite-vec, for the in-RAM indexes (``ann_index``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import apsw
import numpy as np

_GENERATION = "SELECT generation FROM ann_generation WHERE tenant = ?"
_SCAN = "SELECT rid, embedding FROM records_vec WHERE tenant = ?"  # reads every partition
_PARTITION = "SELECT rid, embedding FROM records_vec WHERE embedding MATCH ? AND k = ? AND tenant = ?"
PARTITION_MAX = 4096  # sqlite-vec's limit on k


def read_vectors(conn: Any, tenant: str, dim: int, *, expected: int) -> tuple[int, np.ndarray, np.ndarray]:
    """(generation, rowids, vectors) without a transaction: the generation is read first, so a write
    committed in between is newer than it and is replayed by the caller (adds and removes are idempotent).
    ``expected``: about how many vectors the tenant holds."""
    row = conn.execute(_GENERATION, (tenant,)).fetchone()
    rows = tenant_vectors(conn, tenant, dim, partition=expected < PARTITION_MAX)
    return (int(row[0]) if row else 0), *unpack(rows, dim)


def snapshot(conn: Any, tenant: str, dim: int) -> tuple[int, np.ndarray, np.ndarray]:
    with conn:  # one read transaction: the generation matches the vectors read
        row = conn.execute(_GENERATION, (tenant,)).fetchone()
        rows = tenant_vectors(conn, tenant, dim, partition=False)  # a graph's conversation is large
    return (int(row[0]) if row else 0), *unpack(rows, dim)


def snapshot_retried(
    open_reader: Callable[[], Any], tenant: str, dim: int, *, tries: int = 5
) -> tuple[int, np.ndarray, np.ndarray]:
    """``snapshot`` on a fresh reader connection. Beginning its read transaction can be refused at once
    while a writer holds the WAL index (SQLITE_BUSY without the busy handler, seen in CI while a delete
    committed): tried again, 20 ms apart and doubling, before the caller gives up."""
    for attempt in range(tries):
        conn = open_reader()
        try:
            return snapshot(conn, tenant, dim)
        except apsw.BusyError:
            if attempt == tries - 1:
                raise
        finally:
            conn.close()
        time.sleep(0.02 * 2**attempt)
    raise ValueError(f"tries must be >= 1, got {tries}")


def tenant_vectors(conn: Any, tenant: str, dim: int, *, partition: bool) -> list[Any]:
    """(rid, blob) rows of one tenant. sqlite-vec reads only the tenant's partition for a nearest-neighbour
    query, but every row of the table for a plain filter on it (1M records in 1,000 conversations: 50 ms
    against 17 s for one conversation's 1,000 vectors); so up to k's limit, "all neighbours" it is."""
    if partition:
        probe = np.zeros(dim, dtype=np.float32)
        probe[0] = 1.0
        rows: list[Any] = conn.execute(_PARTITION, (probe.tobytes(), PARTITION_MAX, tenant)).fetchall()
        if len(rows) < PARTITION_MAX:
            return rows
    return list(conn.execute(_SCAN, (tenant,)).fetchall())


def unpack(rows: list[Any], dim: int) -> tuple[np.ndarray, np.ndarray]:
    rids = np.fromiter((int(r[0]) for r in rows), dtype=np.uint64, count=len(rows))
    vectors = np.frombuffer(b"".join(bytes(r[1]) for r in rows), dtype=np.float32).reshape(len(rows), dim)
    return rids, vectors
