"""Vector indexes in RAM beside the embedded store, one per conversation: an HNSW graph (usearch) for
large conversations, an exact matrix (``exact_index``) for the others.

SQLite stays the source of truth. An HNSW index is a cache of one tenant's vectors, persisted next to the
database file (``memory.sqlite3.ann/<tenant key>.usearch`` with a ``.json`` sidecar) and trusted only when
its sidecar names the same *generation* as SQLite: every write transaction that adds or removes a
tenant's vectors bumps that tenant's row in ``ann_generation`` (same transaction), and the in-memory
index follows after the commit. A file missing, unreadable, corrupt (CRC), of another generation or size
is rebuilt from ``records_vec`` in a background thread; meanwhile searches stay exact (the matrix the
conversation outgrew, else sqlite-vec's scan), so answers never depend on the index being there.
Small conversations (under ``min_records``) are searched over a matrix read from SQLite on first use,
checked against the generation on every search and never saved. Searches return candidate rowids with
cosine distances; the store still filters them in SQL, so a forgotten record never comes back.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from voice_agent.memory.store.base import StoreQuery
from voice_agent.memory.store.exact_index import ExactIndex
from voice_agent.memory.store.rescore import rescored
from voice_agent.memory.store.vector_rows import read_vectors, snapshot_retried

log = logging.getLogger(__name__)
T = TypeVar("T")
Reader = Callable[[Callable[[Any], T]], T]

FORMAT = 1
# Below this many records a conversation is searched exactly, over its vectors in RAM; from it on, an HNSW
# graph. Measured (384-d, one core, machine loaded by other work): the exact kernel costs ~0.1 ms CPU per
# 1,000 vectors (10k: 0.95 ms, 20k: 1.8 ms) with recall 1.0 and nothing to build or save; HNSW at 10k
# cost 1-2 ms at the search breadth below, plus seconds of build and a file. (sqlite-vec's scan, used
# before, grew ~12 ms per 1,000 records.)
DEFAULT_MIN_RECORDS = 20_000
DEFAULT_DTYPE = "f16"  # half the memory of f32 at the same recall@10; i8 lost recall without rescoring
CONNECTIVITY = 16
EXPANSION_ADD = 128
MIN_EXPANSION_SEARCH = 64
# The search explores this many times the candidates asked for. Measured on 100k vectors mixed from real
# e5 sentence vectors, real questions as queries (k=187): 2x gave recall@10 0.976 / recall@150 0.935,
# 4x 0.995 / 0.982 at 1.5x the time, 8x 0.998 / 0.995 at 3x.
SEARCH_BREADTH = 4
SAVE_EVERY = 2000  # changes between saves of a loaded index (and always on close)
_SCHEMA = "CREATE TABLE IF NOT EXISTS ann_generation (tenant TEXT PRIMARY KEY, generation INTEGER NOT NULL)"


@dataclass
class AnnChanges:
    """What one write transaction did to one tenant's vectors (filled inside the transaction)."""

    tenant: str
    added: list[tuple[int, np.ndarray]] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    generation: int = 0

    def __bool__(self) -> bool:
        return bool(self.added or self.removed)


@dataclass(frozen=True)
class Candidates:
    """An index's nearest rowids with cosine distances; ``complete``: they are every vector it holds."""

    pairs: list[tuple[int, float]]
    complete: bool


@dataclass
class _Entry:
    """One tenant's index while this process holds it."""

    index: Any = None  # usearch Index or ExactIndex, None while not (yet) built
    exact: bool = False  # an ExactIndex: read from SQLite on demand, never saved
    fallback: Any = None  # while its HNSW graph is built: the exact matrix it outgrew, kept current
    generation: int = -1
    building: bool = False
    backlog: list[AnnChanges] = field(default_factory=list)  # changes made while it was being built
    unsaved: int = 0
    evicted: bool = False  # dropped from RAM to make room (still saved), not forgotten
    lock: threading.Lock = field(default_factory=threading.Lock)


class AnnIndexes:
    """Per-tenant HNSW indexes in ``directory``; ``read(fn)`` runs ``fn(conn)`` on a reader connection."""

    def __init__(
        self,
        directory: Path,
        dim: int,
        read: Reader[Any],
        open_reader: Callable[[], Any],
        *,
        min_records: int = DEFAULT_MIN_RECORDS,
        dtype: str = DEFAULT_DTYPE,
        max_loaded_vectors: int = 2_000_000,
        threads: int = 1,
        background: bool = True,
    ) -> None:
        self.directory = directory
        self.dim = dim
        self.min_records = min_records
        self.dtype = dtype
        self.max_loaded_vectors = max_loaded_vectors
        self.threads = threads
        self.background = background  # False: builds run in the caller (tests, benchmarks)
        self._read = read  # short queries on the store's reader connections
        self._open_reader = open_reader  # a connection of its own for a build's long read
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self._counts: dict[str, int] = {}
        self._lock = threading.Lock()
        self._files_lock = threading.Lock()  # one writer of index files at a time
        self._builders: list[threading.Thread] = []
        self.builds = 0  # rebuilds from SQLite (for tests and the bench)

    # -- the store's hooks ----------------------------------------------------------------------
    @staticmethod
    def install(conn: Any) -> None:
        conn.execute(_SCHEMA)

    @staticmethod
    def bump(conn: Any, changes: AnnChanges) -> None:
        """Inside the write transaction: the tenant's vectors changed, so every index file is stale."""
        row = conn.execute(
            "INSERT INTO ann_generation(tenant, generation) VALUES (?, 1) ON CONFLICT(tenant)"
            " DO UPDATE SET generation = generation + 1 RETURNING generation",
            (changes.tenant,),
        ).fetchone()
        changes.generation = int(row[0])

    @staticmethod
    def erase(conn: Any, tenant: str) -> None:
        """Inside an erase of the whole conversation: its generation row goes with it."""
        conn.execute("DELETE FROM ann_generation WHERE tenant = ?", (tenant,))

    def apply(self, changes: AnnChanges) -> None:
        """After the commit: the loaded index (if any) follows; a build in progress replays it later."""
        if not changes:
            return
        with self._lock:
            if changes.tenant in self._counts:
                self._counts[changes.tenant] += len(changes.added) - len(changes.removed)
            entry = self._entries.get(changes.tenant)
        if entry is None:
            return
        with entry.lock:
            if entry.building:
                entry.backlog.append(changes)
                if entry.fallback is not None:
                    _apply(entry.fallback, changes)
                return
            if entry.index is not None:
                _apply(entry.index, changes)
                entry.generation = changes.generation
                entry.unsaved += len(changes.added) + len(changes.removed)
        # Saved off the write's thread: a large index takes a moment.
        if not entry.exact and entry.unsaved >= SAVE_EVERY:
            entry.unsaved = 0
            threading.Thread(target=self._save, args=(changes.tenant, entry), daemon=True).start()

    def forget_tenant(self, tenant: str) -> None:
        """The whole conversation was deleted: drop its index and files."""
        with self._files_lock:
            with self._lock:
                self._entries.pop(tenant, None)
                self._counts.pop(tenant, None)
            for path in self._paths(tenant):
                path.unlink(missing_ok=True)

    # -- search ---------------------------------------------------------------------------------
    def candidates(self, tenant: str, query: StoreQuery) -> Candidates | None:
        """Nearest rowids for a store query, when its tenant has an index and the query suits one (no
        filter that could leave too few of them: those take sqlite-vec's scan)."""
        if query.vector is None or query.kinds:
            return None
        if query.ids or query.sources or query.subject or query.created_before:
            return None
        vector = np.ascontiguousarray(query.vector, dtype=np.float32).reshape(-1)
        if vector.shape[0] != self.dim:
            return None  # the exact path raises the clear error
        return self._search(tenant, vector, query.limit + max(16, query.limit // 4))

    def search(self, tenant: str, vector: np.ndarray, k: int) -> list[tuple[int, float]] | None:
        """Up to ``k`` (rowid, cosine distance) pairs, nearest first; None: use sqlite-vec's scan."""
        found = self._search(tenant, vector, k)
        return None if found is None else found.pairs

    def _search(self, tenant: str, vector: np.ndarray, k: int) -> Candidates | None:
        entry = self._ready(tenant)
        if entry is None:
            return None
        with entry.lock:
            exact = entry.exact or entry.building
            index = entry.fallback if entry.building else entry.index
            if index is None:
                return None
            if not exact:
                if len(index) == 0:
                    return None
                index.expansion_search = max(MIN_EXPANSION_SEARCH, int(SEARCH_BREADTH * k))
            size = len(index)
            matches = index.search(vector, min(k, size), threads=1) if size else None
            if matches is None:
                return Candidates([], complete=True)
            if exact:
                pairs = [
                    (int(key), float(dist)) for key, dist in zip(matches.keys, matches.distances, strict=True)
                ]
            else:
                pairs = rescored(index, np.asarray(matches.keys), vector)
        return Candidates(pairs, complete=len(pairs) >= size)

    def _ready(self, tenant: str) -> _Entry | None:
        exact = self._count(tenant) < self.min_records
        with self._lock:
            entry = self._entries.get(tenant)
            fresh = True
            if entry is not None and entry.exact and not exact and not entry.building:
                # Outgrew the matrix: an HNSW graph is built, and the matrix answers until it is ready.
                entry = self._entries[tenant] = _Entry(building=True, fallback=entry.index)
            elif entry is None:
                entry = self._entries[tenant] = _Entry(building=True, exact=exact)
            else:
                self._entries.move_to_end(tenant)
                fresh = False
        if entry.exact:
            if fresh or (not entry.building and entry.generation != self._generation(tenant)):
                self._load_exact(tenant, entry)
        elif fresh:
            self._load_or_build(tenant, entry)
        if entry.building:
            return entry if entry.fallback is not None else None
        return entry if entry.index is not None else None

    def _load_exact(self, tenant: str, entry: _Entry) -> None:
        """A small conversation's vectors into a matrix (in the caller: it is quick). The generation is
        read first: a write committed meanwhile is replayed from the backlog (adds and removes are
        idempotent), never lost."""
        with entry.lock:
            entry.building = True
        expected = self._count(tenant)  # over k's limit: the partition read would come back short

        def read(conn: Any) -> tuple[int, np.ndarray, np.ndarray]:
            return read_vectors(conn, tenant, self.dim, expected=expected)

        try:
            generation, rids, vectors = self._read(read)
        except Exception:
            log.exception("reading one conversation's vectors failed; sqlite-vec's scan stays in use")
            with self._lock:
                if self._entries.get(tenant) is entry:
                    del self._entries[tenant]
            return
        index = ExactIndex(self.dim, capacity=max(64, len(rids)))
        if len(rids):
            index.add(rids, vectors)
        with self._lock:
            self._counts[tenant] = len(rids)
        with entry.lock:
            entry.index, entry.generation = index, generation
            self._replay(entry)
            entry.building = False
        self._evict()

    def _count(self, tenant: str) -> int:
        with self._lock:
            known = self._counts.get(tenant)
        if known is not None:
            return known
        count = int(
            self._read(
                lambda conn: conn.execute(
                    "SELECT count(*) FROM records r JOIN conversations c ON c.id = r.conversation_id"
                    " WHERE c.tenant_key = ?",
                    (tenant,),
                ).fetchone()[0]
            )
        )
        with self._lock:
            self._counts.setdefault(tenant, count)
            return self._counts[tenant]

    # -- load / build ---------------------------------------------------------------------------
    def _load_or_build(self, tenant: str, entry: _Entry) -> None:
        """A sound file of the current generation is loaded now; anything else is rebuilt (in the
        background unless ``background`` is False)."""
        generation = self._generation(tenant)
        index = self._load(tenant, generation)
        if index is not None:
            with entry.lock:
                entry.index, entry.generation, entry.building = index, generation, False
                entry.fallback = None
                self._replay(entry)
            self._evict()
            return
        if not self.background:
            self._build(tenant, entry)
            return
        thread = threading.Thread(target=self._build, args=(tenant, entry), name="ann-build", daemon=True)
        self._builders.append(thread)
        thread.start()

    def _generation(self, tenant: str) -> int:
        row = self._read(
            lambda conn: conn.execute(
                "SELECT generation FROM ann_generation WHERE tenant = ?", (tenant,)
            ).fetchone()
        )
        return int(row[0]) if row else 0

    def _load(self, tenant: str, generation: int) -> Any:
        index_path, meta_path = self._paths(tenant)
        try:
            meta = json.loads(meta_path.read_text())
            if (meta.get("format"), meta.get("generation"), meta.get("dim"), meta.get("dtype")) != (
                FORMAT, generation, self.dim, self.dtype,
            ):  # fmt: skip
                return None
            blob = index_path.read_bytes()
            if zlib.crc32(blob) != meta.get("crc32") or len(blob) != meta.get("bytes"):
                log.warning("ANN index %s is corrupt: rebuilding it from SQLite", index_path.name)
                return None
            index = self._new_index()
            index.load(blob)
            if len(index) != self._count(tenant) or len(index) != meta.get("count"):
                return None
            return index
        except FileNotFoundError:
            return None
        except Exception as err:  # unreadable or truncated: SQLite has everything
            log.warning("ANN index %s unreadable (%s): rebuilding it from SQLite", index_path.name, err)
            return None

    def _build(self, tenant: str, entry: _Entry) -> None:
        """Build from SQLite: the vectors and their generation are read in one read transaction."""
        try:
            generation, rids, vectors = snapshot_retried(self._open_reader, tenant, self.dim)
            index = self._new_index()
            if len(rids):
                index.add(rids, vectors, threads=self.threads)
            self.builds += 1
            with self._lock:
                self._counts[tenant] = len(rids)
            with entry.lock:
                entry.index, entry.generation = index, generation
                self._replay(entry)
                entry.building, entry.fallback = False, None
            self._save(tenant, entry)
            self._evict()
        except Exception:
            log.exception("ANN index build failed for one conversation; exact search stays in use")
            with self._lock:
                if self._entries.get(tenant) is entry:
                    del self._entries[tenant]

    @staticmethod
    def _replay(entry: _Entry) -> None:
        """Changes committed during the build (newer than its snapshot) are applied in order."""
        for changes in entry.backlog:
            if changes.generation > entry.generation:
                _apply(entry.index, changes)
                entry.generation = changes.generation
                entry.unsaved += len(changes.added) + len(changes.removed)
        entry.backlog.clear()

    def _new_index(self) -> Any:
        from usearch.index import Index

        return Index(
            ndim=self.dim, metric="cos", dtype=self.dtype, connectivity=CONNECTIVITY,
            expansion_add=EXPANSION_ADD, expansion_search=MIN_EXPANSION_SEARCH,
        )  # fmt: skip

    # -- persistence ----------------------------------------------------------------------------
    def _paths(self, tenant: str) -> tuple[Path, Path]:
        return self.directory / f"{tenant}.usearch", self.directory / f"{tenant}.json"

    def _save(self, tenant: str, entry: _Entry) -> None:
        """Write the index, then its sidecar (both atomically): a crash in between leaves a sidecar
        that does not match, so the next start rebuilds."""
        index_path, meta_path = self._paths(tenant)
        with self._files_lock, entry.lock:
            if entry.index is None or entry.building or entry.exact:
                return
            with self._lock:  # forgotten meanwhile: its vectors must not come back to disk
                if tenant not in self._entries and not entry.evicted:
                    return
            self.directory.mkdir(parents=True, exist_ok=True)
            blob = bytes(entry.index.save())
            meta = {
                "format": FORMAT, "generation": entry.generation, "dim": self.dim, "dtype": self.dtype,
                "count": len(entry.index), "bytes": len(blob), "crc32": zlib.crc32(blob),
                "saved_at": time.time(),
            }  # fmt: skip
            entry.unsaved = 0
            _atomic_write(index_path, blob)
            _atomic_write(meta_path, json.dumps(meta).encode())

    def _evict(self) -> None:
        """Keep at most ``max_loaded_vectors`` in RAM: the least recently searched indexes are saved
        and dropped (they load again from their files on the next search)."""
        while True:
            with self._lock:
                loaded = sum(len(e.index) for e in self._entries.values() if e.index is not None)
                if loaded <= self.max_loaded_vectors or len(self._entries) <= 1:
                    return
                tenant, entry = next(iter(self._entries.items()))
                if entry.building:
                    self._entries.move_to_end(tenant)
                    continue
                del self._entries[tenant]
                entry.evicted = True
            if entry.unsaved and not entry.exact:
                self._save(tenant, entry)

    def wait(self, timeout: float | None = None) -> None:
        """Wait for background builds (tests, benchmarks, close)."""
        for thread in list(self._builders):
            thread.join(timeout)
        self._builders = [t for t in self._builders if t.is_alive()]

    def close(self) -> None:
        """Save what changed; a build still running is abandoned (its result is never saved, and the
        next start rebuilds), so closing never waits for it."""
        with self._lock:
            entries = list(self._entries.items())
        for tenant, entry in entries:
            if entry.unsaved and not entry.exact:
                self._save(tenant, entry)
        with self._lock:
            self._entries.clear()
            self._counts.clear()

    def loaded(self, *, exact: bool = False) -> dict[str, int]:
        """Tenant key → vectors in its loaded HNSW index (``exact``: in its exact matrix instead), for
        tests and the bench."""
        with self._lock:
            return {
                t: len(e.index) for t, e in self._entries.items() if e.index is not None and e.exact == exact
            }


def open_indexes(
    db_path: Path,
    dim: int,
    read: Reader[Any],
    open_reader: Callable[[], Any],
    *,
    min_records: int | None = DEFAULT_MIN_RECORDS,
) -> AnnIndexes | None:
    """The indexes of the store at ``db_path`` (in ``<db_path>.ann/``), or None: disabled
    (``min_records`` None) or usearch not installed — then every search is the exact scan."""
    if min_records is None:
        return None
    try:
        import usearch.index  # noqa: F401
    except ImportError:
        log.info("usearch is not installed: memory search stays exact")
        return None
    return AnnIndexes(Path(f"{db_path}.ann"), dim, read, open_reader, min_records=min_records)


def _apply(index: Any, changes: AnnChanges) -> None:
    for rid in changes.removed:
        if index.contains(rid):
            index.remove(rid)
    fresh = [(rid, vector) for rid, vector in changes.added if not index.contains(rid)]
    if fresh:
        keys = np.array([rid for rid, _ in fresh], dtype=np.uint64)
        index.add(keys, np.stack([np.asarray(v, dtype=np.float32) for _, v in fresh]), threads=1)


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    with open(tmp, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
