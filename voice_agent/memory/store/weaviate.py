"""Weaviate store (weaviate-client v4), for memory shared by many kiosks.

Isolation is Weaviate's native multi-tenancy: collection ``VoiceAgentMemory`` is multi-tenant, each
conversation is its own tenant (created on first write), and every data and query call goes through
``collection.with_tenant(name)``. The server rejects a request on that collection without a tenant, and
this adapter refuses one before any I/O (``TenantRequiredError``); there is no property filter that an
empty id could disable.

Two small non-tenant collections sit beside it: ``VoiceAgentFingerprint`` (loopback fingerprints:
a vector and the owner's opaque hash, nothing else) and ``VoiceAgentConversation`` (the tenant
registry: conversation id → tenant name, no text).

Writes are batches (``insert_many``); objects the server refuses are reported in ``WriteReport.failed``.
Weaviate has no transactions: records, then fingerprints, then status changes are written in that order.
Start a server for the contract suite with, e.g.::

    docker run -p 8080:8080 -p 50051:50051 cr.weaviate.io/semitechnologies/weaviate:1.28.2
    WEAVIATE_URL=http://localhost:8080 pytest tests/test_store_contract.py
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar
from urllib.parse import urlparse

import numpy as np

from voice_agent.errors import BackendError, DependencyMissingError, StoreError
from voice_agent.memory.keywords import indexed_text, keyword_text, query_terms
from voice_agent.memory.records import MemoryRecord
from voice_agent.memory.store.base import (
    FingerprintHit,
    StatusChange,
    StoreHit,
    StoreInfo,
    StoreQuery,
    Tenant,
    WriteBatch,
    WriteReport,
    tenant_of,
)

T = TypeVar("T")
MEMORY = "VoiceAgentMemory"
FINGERPRINTS = "VoiceAgentFingerprint"
REGISTRY = "VoiceAgentConversation"
_NAMESPACE = uuid.UUID("6f1c3f52-5a8e-4a44-9d55-3a1f6c0b7e21")
_RETURN = [
    "record_id", "conversation_id", "user_id", "source", "role", "kind", "text", "pii_tokens", "created_at",
    "importance", "status", "supersedes", "subject", "speaker", "token_count",
]  # fmt: skip


def _weaviate() -> Any:
    try:
        import weaviate
    except ImportError as err:
        raise DependencyMissingError("weaviate-client", "weaviate") from err
    return weaviate


def object_uuid(*parts: str) -> str:
    return str(uuid.uuid5(_NAMESPACE, "\x00".join(parts)))


class WeaviateStore:
    """``MemoryStore`` over a Weaviate server. ``client`` may be given (already connected)."""

    backend = "weaviate"

    def __init__(self, url: str | None = None, *, api_key: str | None = None, client: Any = None) -> None:
        if url is None and client is None:
            raise StoreError("WeaviateStore needs a URL or a client")
        self.url = url
        self._api_key = api_key
        self._client = client
        self._owns_client = client is None
        self._tenants: set[str] = set()
        self._seq = time.time_ns()
        self.dim = 0

    @classmethod
    def from_config(cls, memory: Any, env: Mapping[str, str] | None = None) -> WeaviateStore:
        import os

        env = os.environ if env is None else env
        key = env.get(memory.weaviate_api_key_env) if memory.weaviate_api_key_env else None
        return cls(memory.weaviate_url, api_key=key)

    # -- lifecycle -------------------------------------------------------------------------------
    async def open(self, *, dim: int, embedder: str) -> StoreInfo:
        return await asyncio.to_thread(self._open, dim, embedder)

    def _open(self, dim: int, embedder: str) -> StoreInfo:
        weaviate = _weaviate()
        if self._client is None:
            self._client = self._call(lambda: self._connect(weaviate), "connect")
        self.dim = dim
        self._call(lambda: self._ensure_collections(), "create collections")
        return StoreInfo("weaviate", dim, embedder, str(self.url or "client"))

    def _connect(self, weaviate: Any) -> Any:
        parsed = urlparse(self.url or "")
        if not parsed.hostname:
            raise StoreError(f"memory.weaviate_url {self.url!r} is not a URL like http://host:8080")
        secure = parsed.scheme == "https"
        auth = None
        if self._api_key:
            from weaviate.classes.init import Auth

            auth = Auth.api_key(self._api_key)
        return weaviate.connect_to_custom(
            http_host=parsed.hostname, http_port=parsed.port or (443 if secure else 8080), http_secure=secure,
            grpc_host=parsed.hostname, grpc_port=50051, grpc_secure=secure, auth_credentials=auth,
        )  # fmt: skip

    def _ensure_collections(self) -> None:
        from weaviate.classes.config import Configure, DataType, Property, Tokenization, VectorDistances

        def field(name: str, kind: Any = DataType.TEXT) -> Any:
            return Property(
                name=name, data_type=kind, tokenization=Tokenization.FIELD, index_searchable=False
            )

        def vectors() -> dict[str, Any]:
            index = Configure.VectorIndex.hnsw(distance_metric=VectorDistances.COSINE)
            if hasattr(Configure, "Vectors"):
                return {"vector_config": Configure.Vectors.self_provided(vector_index_config=index)}
            return {"vectorizer_config": Configure.Vectorizer.none(), "vector_index_config": index}

        collections = self._client.collections
        if not collections.exists(MEMORY):
            collections.create(
                MEMORY,
                multi_tenancy_config=Configure.multi_tenancy(
                    enabled=True, auto_tenant_creation=True, auto_tenant_activation=True
                ),
                properties=[
                    *(
                        field(n)
                        for n in ("record_id", "conversation_id", "user_id", "source", "role", "kind")
                    ),
                    *(field(n) for n in ("status", "supersedes", "superseded_by", "subject", "speaker")),
                    field("pii_tokens", DataType.TEXT_ARRAY),
                    Property(
                        name="text", data_type=DataType.TEXT, index_searchable=False, index_filterable=False
                    ),
                    Property(name="keywords", data_type=DataType.TEXT, tokenization=Tokenization.WORD),
                    Property(name="context", data_type=DataType.TEXT, tokenization=Tokenization.WORD),
                    Property(name="created_at", data_type=DataType.NUMBER),
                    Property(name="importance", data_type=DataType.NUMBER),
                    Property(name="token_count", data_type=DataType.INT),
                    Property(name="seq", data_type=DataType.INT),
                ],
                **vectors(),
            )
        if not collections.exists(FINGERPRINTS):
            collections.create(FINGERPRINTS, properties=[field("owner")], **vectors())
        if not collections.exists(REGISTRY):
            collections.create(
                REGISTRY,
                properties=[field("conversation_id"), field("tenant"), field("user_id")],
                **vectors(),
            )

    async def close(self) -> None:
        if self._client is not None and self._owns_client:
            await asyncio.to_thread(self._client.close)
        self._client = None

    # -- plumbing --------------------------------------------------------------------------------
    def _call(self, fn: Callable[[], T], what: str) -> T:
        """The one place vendor errors become ours."""
        try:
            return fn()
        except (StoreError, BackendError):
            raise
        except Exception as err:
            module = type(err).__module__
            if not module.startswith("weaviate"):
                raise
            retryable = "Connection" in type(err).__name__ or "Timeout" in type(err).__name__
            raise BackendError(
                f"{what}: {type(err).__name__}: {err}", backend="weaviate", retryable=retryable
            ) from err

    def _memory(self, tenant: Tenant) -> Any:
        """The memory collection scoped to ``tenant``: the only way this adapter reaches records."""
        if self._client is None:
            raise StoreError("the Weaviate store is not open")
        return self._client.collections.get(MEMORY).with_tenant(tenant.key)

    def _collection(self, name: str) -> Any:
        if self._client is None:
            raise StoreError("the Weaviate store is not open")
        return self._client.collections.get(name)

    def _register(self, tenant: Tenant) -> None:
        if tenant.key in self._tenants:
            return
        from weaviate.classes.data import DataObject
        from weaviate.classes.tenants import Tenant as WeaviateTenant

        memory = self._client.collections.get(MEMORY)
        existing = memory.tenants.get()
        if tenant.key not in existing:
            memory.tenants.create([WeaviateTenant(name=tenant.key)])
        props = {
            "conversation_id": tenant.conversation_id,
            "tenant": tenant.key,
            "user_id": tenant.user_id or "",
        }
        registry = self._collection(REGISTRY)
        registry.data.insert_many(
            [DataObject(properties=props, uuid=object_uuid("conv", tenant.conversation_id))]
        )
        self._tenants.add(tenant.key)

    # -- writes ----------------------------------------------------------------------------------
    async def write(self, tenant: Tenant, batch: WriteBatch) -> WriteReport:
        tenant = tenant_of(tenant, "write")
        return await asyncio.to_thread(self._call, lambda: self._write(tenant, batch), "write")

    def _write(self, tenant: Tenant, batch: WriteBatch) -> WriteReport:
        from weaviate.classes.data import DataObject

        for record in batch.records:
            if record.conversation_id != tenant.conversation_id:
                raise StoreError(
                    f"record {record.id} belongs to another conversation: cross-conversation write"
                )
        self._register(tenant)
        failed: list[tuple[str, str]] = []
        written = 0
        if batch.records:
            assert batch.vectors is not None
            objects = [
                DataObject(
                    properties=self._properties(tenant, record, context),
                    vector=[float(v) for v in batch.vectors[i]],
                    uuid=object_uuid("rec", record.id),
                )
                for i, (record, context) in enumerate(zip(batch.records, _contexts(batch), strict=True))
            ]
            result = self._memory(tenant).data.insert_many(objects)
            errors = getattr(result, "errors", {}) or {}
            failed += [(batch.records[i].id, getattr(e, "message", str(e))) for i, e in errors.items()]
            written = len(objects) - len(errors)
            self._write_fingerprints(tenant, batch, {batch.records[i].id for i in errors})
        changed = sum(self._change_status(tenant, change) for change in batch.status_changes)
        return WriteReport(written, changed, tuple(failed))

    def _properties(self, tenant: Tenant, record: MemoryRecord, context: str) -> dict[str, Any]:
        self._seq += 1
        return {
            "record_id": record.id, "conversation_id": tenant.conversation_id,
            "user_id": record.user_id or tenant.user_id or "", "source": record.source, "role": record.role,
            "kind": record.kind, "status": record.status, "supersedes": record.supersedes or "",
            "superseded_by": "", "subject": record.subject or "", "speaker": record.speaker or "",
            "pii_tokens": list(record.pii_tokens), "text": record.text, "keywords": indexed_text(record),
            "context": keyword_text(context), "created_at": record.created_at,
            "importance": record.importance, "token_count": record.token_count, "seq": self._seq,
        }  # fmt: skip

    def _write_fingerprints(self, tenant: Tenant, batch: WriteBatch, failed_ids: set[str]) -> None:
        from weaviate.classes.data import DataObject

        assert batch.vectors is not None
        objects = [
            DataObject(
                properties={"owner": tenant.hash},
                vector=[float(v) for v in np.asarray(vector, dtype=np.float32).reshape(-1)],
                uuid=object_uuid("fp", record_id),
            )
            for record_id, vector in batch.fingerprints.items()
            if record_id not in failed_ids
        ]
        if objects:
            self._collection(FINGERPRINTS).data.insert_many(objects)

    def _change_status(self, tenant: Tenant, change: StatusChange) -> int:
        from weaviate.classes.query import Filter

        memory = self._memory(tenant)
        found = memory.query.fetch_objects(
            filters=Filter.by_property("record_id").equal(change.record_id), limit=1
        )
        if not found.objects:
            return 0
        props: dict[str, Any] = {"status": change.status}
        if change.superseded_by:
            props["superseded_by"] = change.superseded_by
        memory.data.update(uuid=found.objects[0].uuid, properties=props)
        return 1

    # -- deletes ---------------------------------------------------------------------------------
    async def delete(self, tenant: Tenant, ids: Sequence[str] | None = None) -> int:
        tenant = tenant_of(tenant, "delete")
        return await asyncio.to_thread(self._call, lambda: self._delete(tenant, ids), "delete")

    def _delete(self, tenant: Tenant, ids: Sequence[str] | None) -> int:
        from weaviate.classes.query import Filter

        fingerprints = self._collection(FINGERPRINTS)
        if ids is None:
            count = len(
                self._memory(tenant)
                .query.fetch_objects(limit=10_000, return_properties=["record_id"])
                .objects
            )
            self._client.collections.get(MEMORY).tenants.remove([tenant.key])
            fingerprints.data.delete_many(where=Filter.by_property("owner").equal(tenant.hash))
            self._collection(REGISTRY).data.delete_by_id(object_uuid("conv", tenant.conversation_id))
            self._tenants.discard(tenant.key)
            return count
        if not ids:
            return 0
        result = self._memory(tenant).data.delete_many(
            where=Filter.by_property("record_id").contains_any(list(ids))
        )
        for record_id in ids:
            fingerprints.data.delete_by_id(object_uuid("fp", record_id))
        return int(getattr(result, "successful", 0) or 0)

    # -- reads -----------------------------------------------------------------------------------
    async def search(self, tenant: Tenant, query: StoreQuery) -> list[StoreHit]:
        tenant = tenant_of(tenant, "search")
        if tenant.key not in self._tenants and not await asyncio.to_thread(self._known, tenant):
            return []  # an unknown conversation has no memory (and no tenant to query)
        return await asyncio.to_thread(self._call, lambda: self._search(tenant, query), "search")

    def _known(self, tenant: Tenant) -> bool:
        existing = self._call(lambda: self._client.collections.get(MEMORY).tenants.get(), "tenants")
        if tenant.key in existing:
            self._tenants.add(tenant.key)
            return True
        return False

    def _search(self, tenant: Tenant, query: StoreQuery) -> list[StoreHit]:
        from weaviate.classes.query import MetadataQuery, Sort

        q = self._memory(tenant).query
        filters = build_filters(query)
        common = {"limit": query.limit, "filters": filters, "include_vector": query.with_vectors}
        if query.mode == "vector":
            assert query.vector is not None
            vector = [float(v) for v in np.asarray(query.vector, dtype=np.float32).reshape(-1)]
            result = q.near_vector(near_vector=vector, return_metadata=MetadataQuery(distance=True), **common)
        elif query.mode == "keyword":
            terms = query_terms(query.keywords or "")
            if not terms:
                return []
            result = q.bm25(
                query=" ".join(terms), query_properties=["keywords", f"context^{query.context_weight:g}"],
                return_metadata=MetadataQuery(score=True), **common,
            )  # fmt: skip
        else:
            result = q.fetch_objects(sort=Sort.by_property("seq", ascending=not query.newest_first), **common)
        return [_hit(obj, rank, query.mode) for rank, obj in enumerate(result.objects)]

    async def fingerprint_search(
        self, tenant: Tenant, vector: np.ndarray, *, limit: int = 5
    ) -> list[FingerprintHit]:
        tenant = tenant_of(tenant, "fingerprint_search")
        return await asyncio.to_thread(
            self._call, lambda: self._fingerprints(tenant, vector, limit), "loopback"
        )

    def _fingerprints(self, tenant: Tenant, vector: np.ndarray, limit: int) -> list[FingerprintHit]:
        from weaviate.classes.query import Filter, MetadataQuery

        result = self._collection(FINGERPRINTS).query.near_vector(
            near_vector=[float(v) for v in np.asarray(vector, dtype=np.float32).reshape(-1)],
            limit=limit,
            filters=Filter.by_property("owner").not_equal(tenant.hash),
            return_metadata=MetadataQuery(distance=True),
            return_properties=["owner"],
        )
        return [
            FingerprintHit(str(o.properties["owner"]), 1.0 - float(o.metadata.distance))
            for o in result.objects
        ]

    async def conversations(self) -> list[str]:
        def fetch() -> list[str]:
            objects = self._collection(REGISTRY).query.fetch_objects(limit=10_000).objects
            return sorted(str(o.properties["conversation_id"]) for o in objects)

        return await asyncio.to_thread(self._call, fetch, "conversations")


def build_filters(query: StoreQuery) -> Any:
    """The property filters of a query (status, kind, ids, sources, subject, date) — never the tenant,
    which is the collection scope itself."""
    from weaviate.classes.query import Filter

    parts = [Filter.by_property("status").contains_any(list(query.statuses))]
    for name, values in (("kind", query.kinds), ("record_id", query.ids), ("source", query.sources)):
        if values is not None:
            parts.append(Filter.by_property(name).contains_any(list(values) or ["\x00none"]))
    if query.subject is not None:
        parts.append(Filter.by_property("subject").equal(query.subject))
    if query.created_before is not None:
        parts.append(Filter.by_property("created_at").less_than(query.created_before))
    return parts[0] if len(parts) == 1 else Filter.all_of(parts)


def _contexts(batch: WriteBatch) -> list[str]:
    return list(batch.keyword_context) if batch.keyword_context is not None else [""] * len(batch.records)


def _hit(obj: Any, rank: int, mode: str) -> StoreHit:
    p = obj.properties
    vector = None
    raw_vector = getattr(obj, "vector", None)
    if raw_vector:
        values = raw_vector.get("default") if isinstance(raw_vector, dict) else raw_vector
        vector = tuple(float(v) for v in values) if values is not None else None
    record = MemoryRecord(
        id=str(p["record_id"]), conversation_id=str(p["conversation_id"]), user_id=p.get("user_id") or None,
        source=str(p.get("source") or ""), role=p.get("role") or "user", kind=p.get("kind") or "utterance",
        text=str(p.get("text") or ""), pii_tokens=tuple(p.get("pii_tokens") or ()),
        created_at=float(p.get("created_at") or 0.0), importance=float(p.get("importance") or 0.5),
        status=p.get("status") or "active", supersedes=p.get("supersedes") or None,
        subject=p.get("subject") or None, speaker=p.get("speaker") or None,
        token_count=int(p.get("token_count") or 0), vector=vector,
    )  # fmt: skip
    meta = obj.metadata
    distance = (
        float(meta.distance) if mode == "vector" and meta is not None and meta.distance is not None else None
    )
    score = float(meta.score) if mode == "keyword" and meta is not None and meta.score is not None else None
    return StoreHit(record, rank, distance=distance, bm25=score)
