"""The embedded default store: one SQLite file through apsw, vectors in sqlite-vec, keywords in FTS5.

Crash safety: WAL journal, ``synchronous=FULL`` by default, and every ``write`` is one transaction, so a
killed process loses at most the batch in flight. Deleted rows are zeroed (``secure_delete``) and the
WAL is checkpointed after a forget, so forgotten text does not linger in the file.

Threading: apsw connections must not be used by two threads at once, so there is one writer and two
reader connections, each behind its own lock (the vector and keyword searches of one retrieval run in
parallel); WAL lets reads proceed while a write is in progress.
Every public method runs its SQL in a worker thread (``asyncio.to_thread``).

Concurrency: every connection and every write follows ``sqlite_conn``'s policy (WAL, busy timeout,
``BEGIN IMMEDIATE``, retry with backoff while busy), shared with the vault and the turn log in this file,
so writers in this process and in others (a second kiosk, the CLI) wait for each other instead of failing.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from voice_agent.errors import StoreError
from voice_agent.memory.keywords import indexed_text, keyword_text
from voice_agent.memory.records import MemoryRecord
from voice_agent.memory.store import sqlite_archive
from voice_agent.memory.store.ann_index import DEFAULT_MIN_RECORDS, AnnChanges, AnnIndexes, open_indexes
from voice_agent.memory.store.base import (
    FingerprintHit,
    StoreHit,
    StoreInfo,
    StoreQuery,
    Tenant,
    WriteBatch,
    WriteReport,
    tenant_of,
)
from voice_agent.memory.store.record_cache import RecordCache
from voice_agent.memory.store.record_counts import RecordCounts
from voice_agent.memory.store.sqlite_conn import (
    BUSY_TIMEOUT_MS,
    Guarded,
    LocalFile,
    Synchronous,
    T,
    checkpoint,
    connect,
    with_retry,
)
from voice_agent.memory.store.sqlite_erase import fts_tenant, remaining, sweep_and_verify
from voice_agent.memory.store.sqlite_schema import SCHEMA_VERSION, ensure_vector_tables, migrate
from voice_agent.memory.store.sqlite_search import VEC_MAX_K, keyword_search, list_records, vector_search


class SqliteStore:
    """``MemoryStore`` over ``<data_dir>/memory.sqlite3``."""

    backend = "sqlite"

    def __init__(
        self,
        path: str | Path,
        *,
        synchronous: Synchronous = "FULL",
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
        ann_min_records: int | None = DEFAULT_MIN_RECORDS,
    ) -> None:
        self.path = Path(path)
        # Conversations with at least this many records search an HNSW index (None: exact scan only).
        self.ann_min_records = ann_min_records
        self.ann: AnnIndexes | None = None
        self.synchronous = synchronous
        self.busy_timeout_ms = busy_timeout_ms
        self._writer: Guarded | None = None
        self._readers: list[Guarded] = []
        self.dim = 0
        self.records = RecordCache()  # records already read (SQLite still filters every search)
        self.counts = RecordCounts(self.run_read)  # approximate: they choose query plans only

    # -- lifecycle -------------------------------------------------------------------------------
    async def open(self, *, dim: int, embedder: str) -> StoreInfo:
        return await asyncio.to_thread(self.open_sync, dim=dim, embedder=embedder)

    def open_sync(self, *, dim: int, embedder: str) -> StoreInfo:
        if self._writer is not None:
            raise StoreError("the memory store is already open")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        writer = connect(self.path, synchronous=self.synchronous, busy_timeout_ms=self.busy_timeout_ms)
        try:
            version = with_retry(lambda: migrate(writer), what="migrating")
            with_retry(
                lambda: ensure_vector_tables(writer, dim=dim, embedder=embedder), what="creating tables"
            )
            with_retry(lambda: AnnIndexes.install(writer), what="creating tables")
            with_retry(lambda: sqlite_archive.install(writer), what="creating tables")
        except Exception:
            writer.close()
            raise
        self._writer = Guarded(writer)
        # Two readers: the vector and the keyword search of one retrieval run side by side.
        self._readers = [
            Guarded(connect(self.path, synchronous=self.synchronous, busy_timeout_ms=self.busy_timeout_ms))
            for _ in range(2)
        ]
        self.dim = dim
        self.ann = open_indexes(
            self.path, dim, self.run_read,
            lambda: connect(self.path, synchronous=self.synchronous, busy_timeout_ms=self.busy_timeout_ms),
            min_records=self.ann_min_records,
        )  # fmt: skip
        counts = self._counts()
        self.counts = RecordCounts(self.run_read, total=counts["records"])  # counted once, at open
        return StoreInfo("sqlite", dim, embedder, str(self.path), version, counts)

    async def close(self) -> None:
        await asyncio.to_thread(self.close_sync)

    def close_sync(self) -> None:
        if self.ann is not None:
            self.ann.close()
            self.ann = None
        for guarded in (*self._readers, self._writer):
            if guarded is not None:
                with guarded.lock:
                    guarded.conn.close()
        self._readers = []
        self._writer = None
        self.records.clear()

    @property
    def local(self) -> Guarded:
        """The writer connection and its lock, for components keeping their own table in this file
        (the PII vault): ``local.run(fn)`` calls ``fn(conn)`` holding the lock, ``local.write(fn)`` as
        one write transaction."""
        return self._w()

    @property
    def connection(self) -> Any:
        """The writer connection, for components that keep their own table in this file (the PII
        vault). Use it only through :meth:`run_write`, which holds the writer lock."""
        return self._w().conn

    def run_write(self, fn: Callable[[Any], T]) -> T:
        """Run ``fn(conn)`` as one write transaction on the writer connection under its lock (blocking;
        call from a worker)."""
        return self._w().write(fn)

    def run_read(self, fn: Callable[[Any], T]) -> T:
        return self._r().run(fn)

    def _w(self) -> Guarded:
        if self._writer is None:
            raise StoreError("the memory store is not open")
        return self._writer

    def _r(self) -> Guarded:
        """A reader that is free right now, else the first one (its lock then queues the caller)."""
        if not self._readers:
            raise StoreError("the memory store is not open")
        for guarded in self._readers:
            if not guarded.lock.locked():
                return guarded
        return self._readers[0]

    def _counts(self) -> dict[str, int]:
        def count(conn: Any) -> dict[str, int]:
            records = conn.execute("SELECT count(*) FROM records").fetchone()[0]
            convs = conn.execute("SELECT count(*) FROM conversations").fetchone()[0]
            return {"records": int(records), "conversations": int(convs)}

        return self._w().run(count)

    # -- writes ----------------------------------------------------------------------------------
    async def write(self, tenant: Tenant, batch: WriteBatch) -> WriteReport:
        tenant = tenant_of(tenant, "write")
        return await asyncio.to_thread(self.write_sync, tenant, batch)

    def write_sync(
        self, tenant: Tenant, batch: WriteBatch, also: Callable[[Any], None] | None = None
    ) -> WriteReport:
        """One transaction: records, vectors, keywords, fingerprints, status changes, and ``also(conn)``
        (e.g. the vault entries of the same utterance) commit together or not at all."""
        tenant = tenant_of(tenant, "write")
        for record in batch.records:
            if record.conversation_id != tenant.conversation_id:
                raise StoreError(
                    f"record {record.id} belongs to conversation {record.conversation_id!r}, "
                    f"not to {tenant.conversation_id!r}: cross-conversation writes are refused"
                )
        if batch.vectors is not None and batch.records and batch.vectors.shape[1] != self.dim:
            raise StoreError(f"vectors have dimension {batch.vectors.shape[1]}, the store holds {self.dim}")
        ann = AnnChanges(tenant.key)

        def txn(conn: Any) -> WriteReport:
            self._touch_conversation(conn, tenant)
            failed = []
            written = 0
            for i, record in enumerate(batch.records):
                assert batch.vectors is not None
                context = batch.keyword_context[i] if batch.keyword_context is not None else ""
                fingerprint = batch.fingerprints.get(record.id)
                reason = self._insert(conn, tenant, record, batch.vectors[i], fingerprint, context, ann)
                if reason:
                    failed.append((record.id, reason))
                else:
                    written += 1
            changed = sum(self._change_status(conn, tenant, change, ann) for change in batch.status_changes)
            if also is not None:
                also(conn)
            if ann:
                AnnIndexes.bump(conn, ann)
            return WriteReport(written, changed, tuple(failed))

        report = self._w().write(txn)
        self.counts.added(tenant.conversation_id, report.written)
        if self.ann is not None:
            self.ann.apply(ann)
        return report

    @staticmethod
    def _touch_conversation(conn: Any, tenant: Tenant) -> None:
        now = time.time()
        conn.execute(
            "INSERT INTO conversations(id, tenant_key, user_id, created_at, updated_at) VALUES (?,?,?,?,?)"
            " ON CONFLICT(id) DO UPDATE SET updated_at = excluded.updated_at,"
            " user_id = coalesce(excluded.user_id, conversations.user_id)",
            (tenant.conversation_id, tenant.key, tenant.user_id, now, now),
        )

    def _insert(
        self,
        conn: Any,
        tenant: Tenant,
        record: MemoryRecord,
        vector: np.ndarray,
        fingerprint: np.ndarray | None,
        context: str = "",
        ann: AnnChanges | None = None,
    ) -> str | None:
        row = conn.execute("SELECT rid, conversation_id FROM records WHERE id = ?", (record.id,)).fetchone()
        if row is not None:
            if row[1] != tenant.conversation_id:
                return "id already used by another conversation"
            self._delete_rids(conn, [int(row[0])])
            if ann is not None:
                ann.removed.append(int(row[0]))
        cursor = conn.execute(
            "INSERT INTO records(id, conversation_id, user_id, source, role, kind, text, pii_tokens,"
            " created_at, importance, status, supersedes, subject, speaker, token_count)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) RETURNING rid",
            (
                record.id, tenant.conversation_id, record.user_id or tenant.user_id, record.source,
                record.role, record.kind, record.text, json.dumps(list(record.pii_tokens)),
                record.created_at, record.importance, record.status, record.supersedes, record.subject,
                record.speaker, record.token_count,
            ),
        )  # fmt: skip
        rid = int(cursor.fetchone()[0])
        blob = np.ascontiguousarray(vector, dtype=np.float32).tobytes()
        conn.execute(
            "INSERT INTO records_fts(rowid, tenant, body, context) VALUES (?, ?, ?, ?)",
            (rid, fts_tenant(tenant), indexed_text(record), keyword_text(context)),
        )
        conn.execute(
            "INSERT INTO records_vec(rid, tenant, status, kind, embedding) VALUES (?,?,?,?,?)",
            (rid, tenant.key, record.status, record.kind, blob),
        )
        if ann is not None:
            ann.added.append((rid, vector))
        if fingerprint is not None:
            print_blob = np.ascontiguousarray(fingerprint, dtype=np.float32).reshape(-1).tobytes()
            conn.execute(
                "INSERT INTO fingerprints(rid, owner, embedding) VALUES (?,?,?)",
                (rid, tenant.hash, print_blob),
            )
        if record.supersedes:
            conn.execute(
                "INSERT OR IGNORE INTO links(from_id, to_id, conversation_id, created_at) VALUES (?,?,?,?)",
                (record.id, record.supersedes, tenant.conversation_id, record.created_at),
            )
        return None

    @staticmethod
    def _change_status(conn: Any, tenant: Tenant, change: Any, ann: AnnChanges | None = None) -> int:
        row = conn.execute(
            "SELECT rid, status FROM records WHERE id = ? AND conversation_id = ?",
            (change.record_id, tenant.conversation_id),
        ).fetchone()
        if row is None:
            return 0
        rid = int(row[0])
        conn.execute(
            "UPDATE records SET status = ?, superseded_by = coalesce(?, superseded_by) WHERE rid = ?",
            (change.status, change.superseded_by, rid),
        )
        conn.execute("UPDATE records_vec SET status = ? WHERE rid = ?", (change.status, rid))
        sqlite_archive.follow_status(conn, tenant, rid, str(row[1]), change.status, ann)
        if change.superseded_by:
            conn.execute(
                "INSERT OR IGNORE INTO links(from_id, to_id, conversation_id, created_at) VALUES (?,?,?,?)",
                (change.superseded_by, change.record_id, tenant.conversation_id, time.time()),
            )
        return 1

    # -- deletes ---------------------------------------------------------------------------------
    async def delete(self, tenant: Tenant, ids: Sequence[str] | None = None) -> int:
        tenant = tenant_of(tenant, "delete")
        return await asyncio.to_thread(self.delete_sync, tenant, ids)

    def delete_sync(
        self, tenant: Tenant, ids: Sequence[str] | None = None, also: Callable[[Any], None] | None = None
    ) -> int:
        """One transaction: the records (all of the tenant's when ``ids`` is None) with their vectors,
        keywords and fingerprints, and ``also(conn)`` (e.g. the vault rows). Returns once committed."""
        tenant = tenant_of(tenant, "delete")
        ann = AnnChanges(tenant.key)

        def txn(conn: Any) -> int:
            if ids is None:
                rows = conn.execute(
                    "SELECT rid FROM records WHERE conversation_id = ?", (tenant.conversation_id,)
                ).fetchall()
            else:
                rows = []
                for chunk in _chunks(list(ids), 500):
                    marks = ",".join("?" * len(chunk))
                    rows += conn.execute(
                        f"SELECT rid FROM records WHERE conversation_id = ? AND id IN ({marks})",
                        (tenant.conversation_id, *chunk),
                    ).fetchall()
            rids = [int(r[0]) for r in rows]
            if ids is not None:  # summaries quoting a deleted record go too; their other sources return
                rids += sqlite_archive.cascade(conn, tenant, rids, ann)
            self._delete_rids(conn, rids)
            ann.removed += rids
            if ids is None:  # the whole conversation: nothing of it may remain in any table
                sweep_and_verify(conn, tenant)
                self._erase_index(conn, tenant)
            elif ann:
                AnnIndexes.bump(conn, ann)
            if also is not None:
                also(conn)
            return len(rids)

        removed = self._w().write(txn)
        self.records.drop_conversation(tenant.conversation_id)  # nothing forgotten stays in RAM
        self.counts.removed(tenant.conversation_id, removed)
        if self.ann is not None:  # a whole conversation drops its index; else the index follows
            self.ann.forget_tenant(tenant.key) if ids is None else self.ann.apply(ann)
        self._w().run(checkpoint)  # forgotten text must not survive in the WAL either
        return removed

    def _erase_index(self, conn: Any, tenant: Tenant) -> None:
        """Inside an erase: the index files go before the commit (a crash after it leaves none behind)
        and so does the generation row; the files are removed again after the commit."""
        AnnIndexes.erase(conn, tenant.key)
        if self.ann is not None:
            self.ann.forget_tenant(tenant.key)

    @staticmethod
    def _delete_rids(conn: Any, rids: list[int]) -> None:
        for rid in rids:
            conn.execute("DELETE FROM records_fts WHERE rowid = ?", (rid,))
            conn.execute("DELETE FROM records_vec WHERE rid = ?", (rid,))
            conn.execute("DELETE FROM fingerprints WHERE rid = ?", (rid,))
            sqlite_archive.forget_rid(conn, rid)
            conn.execute("DELETE FROM records WHERE rid = ?", (rid,))

    def remaining_sync(self, tenant: Tenant) -> dict[str, int]:
        """Rows of the tenant left in each table (after an erase: none)."""
        return self._r().run(lambda conn: remaining(conn, tenant_of(tenant, "remaining")))

    # -- reads -----------------------------------------------------------------------------------
    async def search(self, tenant: Tenant, query: StoreQuery) -> list[StoreHit]:
        tenant = tenant_of(tenant, "search")
        return await asyncio.to_thread(self.search_sync, tenant, query)

    def search_sync(self, tenant: Tenant, query: StoreQuery) -> list[StoreHit]:
        tenant = tenant_of(tenant, "search")
        if query.mode == "vector":
            # The index's candidates are found outside the reader lock: loading an index reads.
            near = self.ann.candidates(tenant.key, query) if self.ann is not None else None
            return self._r().run(
                lambda conn: vector_search(conn, tenant, query, self.dim, near, self.records)
            )
        if query.mode == "keyword":
            share = self.counts.share(tenant.conversation_id)
            return self._r().run(lambda conn: keyword_search(conn, tenant, query, self.records, share=share))
        return self._r().run(lambda conn: list_records(conn, tenant, query))

    async def fingerprint_search(
        self, tenant: Tenant, vector: np.ndarray, *, limit: int = 5
    ) -> list[FingerprintHit]:
        tenant = tenant_of(tenant, "fingerprint_search")
        return await asyncio.to_thread(self.fingerprint_search_sync, tenant, vector, limit=limit)

    def fingerprint_search_sync(
        self, tenant: Tenant, vector: np.ndarray, *, limit: int = 5
    ) -> list[FingerprintHit]:
        tenant = tenant_of(tenant, "fingerprint_search")
        blob = np.ascontiguousarray(vector, dtype=np.float32).reshape(-1).tobytes()

        def query(conn: Any) -> list[FingerprintHit]:
            rows = conn.execute(
                "SELECT owner, distance FROM fingerprints WHERE embedding MATCH ? AND k = ? AND owner != ?"
                " ORDER BY distance",
                (blob, min(limit, VEC_MAX_K), tenant.hash),
            ).fetchall()
            return [FingerprintHit(str(owner), 1.0 - float(dist)) for owner, dist in rows]

        return self._r().run(query)

    async def conversations(self) -> list[str]:
        return await asyncio.to_thread(
            lambda: self._r().run(
                lambda conn: [str(r[0]) for r in conn.execute("SELECT id FROM conversations ORDER BY id")]
            )
        )

    def integrity_check(self) -> list[str]:
        """SQLite's own integrity check plus FTS5's; an empty list means the file is sound."""

        def check(conn: Any) -> list[str]:
            problems = [str(r[0]) for r in conn.execute("PRAGMA integrity_check") if r[0] != "ok"]
            try:
                conn.execute("INSERT INTO records_fts(records_fts, rank) VALUES ('integrity-check', 1)")
            except Exception as err:
                problems.append(f"fts: {err}")
            return problems

        return self._w().run(check)


def _chunks(items: list[str], size: int) -> list[list[str]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


__all__ = ["SCHEMA_VERSION", "LocalFile", "SqliteStore"]
