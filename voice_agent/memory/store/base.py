"""The memory store contract: every backend (embedded SQLite, Weaviate) passes one contract test suite.

Isolation is the first rule: every read and write names its tenant (the conversation, optionally the
user). There is no default tenant; a call without one raises ``TenantRequiredError`` before any I/O.
The only cross-tenant operation is the loopback fingerprint search, which returns other tenants'
opaque hashes and similarities, never text or ids.

Four core operations plus an open/close lifecycle::

    write(tenant, batch)            records + vectors + fingerprints + status changes, atomically
    search(tenant, query)           vector (with distances), keyword (BM25), filters, or plain listing
    delete(tenant, ids | None)      forget records (all of the tenant's when ids is None)
    fingerprint_search(tenant, v)   loopback: (other tenant's hash, similarity), never text

``conversations()`` lists tenants for maintenance (retention purge, export of everything).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol, runtime_checkable

import numpy as np

from voice_agent.errors import TenantRequiredError
from voice_agent.memory.records import KINDS, STATUSES, MemoryRecord, Status

SearchMode = Literal["vector", "keyword", "list"]


@dataclass(frozen=True)
class Tenant:
    """Who a store call acts for. Build it with :func:`tenant_of`, which refuses an empty id."""

    conversation_id: str
    user_id: str | None = None

    def __post_init__(self) -> None:
        # An empty id never means "every conversation", wherever the tenant was built.
        if not isinstance(self.conversation_id, str) or not self.conversation_id.strip():
            raise TenantRequiredError("tenant")

    @property
    def key(self) -> str:
        """The backend tenant name: conversation-scoped, filesystem and Weaviate safe."""
        return tenant_key(self.conversation_id)

    @property
    def hash(self) -> str:
        """An opaque, stable id of this tenant, the only thing other tenants ever see of it."""
        return hashlib.sha256(f"voice-agent-tenant:{self.conversation_id}".encode()).hexdigest()[:32]


def tenant_key(conversation_id: str) -> str:
    # Weaviate tenant names allow [A-Za-z0-9_-]{1,64}; conversation ids may hold anything.
    digest = hashlib.sha256(conversation_id.encode("utf-8")).hexdigest()[:40]
    return f"t_{digest}"


def tenant_of(tenant: Tenant | str | None, operation: str) -> Tenant:
    """The checked tenant of a call; an empty or missing conversation id raises ``TenantRequiredError``."""
    if isinstance(tenant, str):
        tenant = Tenant(tenant)
    if tenant is None or not isinstance(tenant, Tenant) or not tenant.conversation_id.strip():
        raise TenantRequiredError(operation)
    return tenant


@dataclass(frozen=True)
class StatusChange:
    """Mark an existing record superseded/deprecated (or active again), optionally naming its successor."""

    record_id: str
    status: Status
    superseded_by: str | None = None


@dataclass(frozen=True)
class WriteBatch:
    """One atomic write: new records (each with its vector), fingerprints, and status changes."""

    records: Sequence[MemoryRecord] = ()
    vectors: np.ndarray | None = None  # (len(records), dim) float32, L2-normalised, row per record
    # Loopback fingerprints: record id -> vector (e.g. the whole utterance's), stored apart from the text.
    fingerprints: Mapping[str, np.ndarray] = field(default_factory=dict)
    status_changes: Sequence[StatusChange] = ()
    # Per record, optional: words of the exchange it came from, indexed for BM25 at a lower weight
    # (never stored as text, never returned).
    keyword_context: Sequence[str] | None = None

    def __post_init__(self) -> None:
        if self.keyword_context is not None and len(self.keyword_context) != len(self.records):
            raise ValueError("keyword_context needs one entry per record")
        if self.records and (self.vectors is None or len(self.vectors) != len(self.records)):
            raise ValueError("a write batch needs one vector per record")
        unknown = set(self.fingerprints) - {r.id for r in self.records}
        if unknown:
            raise ValueError(f"fingerprints for records not in the batch: {sorted(unknown)[:3]}")
        for change in self.status_changes:
            if change.status not in STATUSES:
                raise ValueError(f"unknown status {change.status!r}")


@dataclass(frozen=True)
class WriteReport:
    written: int
    status_changed: int = 0
    failed: tuple[tuple[str, str], ...] = ()  # (record id, reason) for objects the backend refused


@dataclass(frozen=True)
class StoreQuery:
    """A search within one tenant. With a vector: nearest neighbours; with keywords: BM25; with neither:
    a listing in insertion order (``newest_first`` reverses it). Filters apply to every mode."""

    vector: np.ndarray | None = None
    keywords: str | None = None
    limit: int = 20
    statuses: tuple[Status, ...] = ("active",)
    kinds: tuple[str, ...] | None = None
    ids: tuple[str, ...] | None = None
    sources: tuple[str, ...] | None = None
    subject: str | None = None
    context_weight: float = 0.3  # BM25 weight of the exchange words relative to the record's own
    created_before: float | None = None
    newest_first: bool = False
    with_vectors: bool = False

    def __post_init__(self) -> None:
        if self.vector is not None and self.keywords is not None:
            raise ValueError("a store query is either by vector or by keywords; fuse them in retrieve.py")
        if self.limit < 1:
            raise ValueError("limit must be at least 1")
        for status in self.statuses:
            if status not in STATUSES:
                raise ValueError(f"unknown status {status!r}")
        for kind in self.kinds or ():
            if kind not in KINDS:
                raise ValueError(f"unknown kind {kind!r}")

    @property
    def mode(self) -> SearchMode:
        if self.vector is not None:
            return "vector"
        return "keyword" if self.keywords is not None else "list"


@dataclass(frozen=True)
class StoreHit:
    record: MemoryRecord
    rank: int  # 0-based rank within this result list
    distance: float | None = None  # cosine distance (vector mode)
    bm25: float | None = None  # BM25 relevance, higher is better (keyword mode)

    @property
    def similarity(self) -> float | None:
        return None if self.distance is None else 1.0 - self.distance


@dataclass(frozen=True)
class FingerprintHit:
    """A loopback match: which other tenant (opaque hash) and how similar. Never text, never ids."""

    tenant_hash: str
    similarity: float


@dataclass
class StoreInfo:
    backend: str
    dim: int
    embedder: str
    location: str
    schema_version: int = 0
    counts: dict[str, int] = field(default_factory=dict)


@runtime_checkable
class MemoryStore(Protocol):
    """A tenant-isolated record + vector + keyword store. All methods are async and safe to call from
    the event loop: blocking I/O runs in worker threads."""

    async def open(self, *, dim: int, embedder: str) -> StoreInfo: ...

    async def close(self) -> None: ...

    async def write(self, tenant: Tenant, batch: WriteBatch) -> WriteReport: ...

    async def search(self, tenant: Tenant, query: StoreQuery) -> list[StoreHit]: ...

    async def delete(self, tenant: Tenant, ids: Sequence[str] | None = None) -> int: ...

    async def fingerprint_search(
        self, tenant: Tenant, vector: np.ndarray, *, limit: int = 5
    ) -> list[FingerprintHit]: ...

    async def conversations(self) -> list[str]: ...
