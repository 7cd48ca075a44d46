"""One contract for every MemoryStore backend: the embedded SQLite store always, Weaviate when
``WEAVIATE_URL`` points at a live server (reported as skipped otherwise).

Vectors here are deterministic random unit vectors: the contract is about isolation, filters, status,
deletion and fingerprints, not about embedding quality.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from voice_agent.errors import StoreError, TenantRequiredError
from voice_agent.memory.records import MemoryRecord
from voice_agent.memory.store.base import MemoryStore, StatusChange, StoreQuery, Tenant, WriteBatch
from voice_agent.memory.store.sqlite import SqliteStore

DIM = 16
RNG = np.random.default_rng(7)


def unit(seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal(DIM).astype(np.float32)
    return v / np.linalg.norm(v)


def tilted(v: np.ndarray, amount: float) -> np.ndarray:
    """``v`` turned away by a growing angle (towards a fixed orthogonal direction)."""
    ortho = unit(999) - float(unit(999) @ v) * v
    ortho /= np.linalg.norm(ortho)
    w = v + amount * ortho
    return (w / np.linalg.norm(w)).astype(np.float32)


def near(v: np.ndarray, noise: float = 0.05, seed: int = 0) -> np.ndarray:
    w = v + noise * np.random.default_rng(seed).standard_normal(DIM).astype(np.float32)
    return (w / np.linalg.norm(w)).astype(np.float32)


def rec(conv: str, text: str, **kw: Any) -> MemoryRecord:
    return MemoryRecord(conversation_id=conv, text=text, token_count=len(text) // 4, **kw)


@pytest.fixture(params=["sqlite", "weaviate"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[MemoryStore]:
    if request.param == "sqlite":
        backend: Any = SqliteStore(tmp_path / "memory.sqlite3")
    else:
        url = os.environ.get("WEAVIATE_URL")
        if not url:
            pytest.skip("WEAVIATE_URL is not set: no Weaviate server to run the contract against")
        from voice_agent.memory.store.weaviate import WeaviateStore

        backend = WeaviateStore(url)
    await backend.open(dim=DIM, embedder="test-random")
    yield backend
    await backend.close()


def conv_id() -> str:
    return f"conv-{uuid.uuid4().hex[:8]}"


async def test_every_call_needs_a_tenant(store: MemoryStore) -> None:
    for empty in ("", "   ", "\t\n"):  # an empty id is refused where the tenant is built
        with pytest.raises(TenantRequiredError):
            Tenant(empty)
    for tenant in (None, "", "  "):
        with pytest.raises(TenantRequiredError):
            await store.search(tenant, StoreQuery())  # type: ignore[arg-type]
        with pytest.raises(TenantRequiredError):
            await store.write(tenant, WriteBatch())  # type: ignore[arg-type]
        with pytest.raises(TenantRequiredError):
            await store.delete(tenant, ["x"])  # type: ignore[arg-type]
        with pytest.raises(TenantRequiredError):
            await store.fingerprint_search(tenant, unit(1))  # type: ignore[arg-type]


async def test_vector_search_is_scoped_and_ordered(store: MemoryStore) -> None:
    a, b = Tenant(conv_id()), Tenant(conv_id())
    target = unit(1)
    mine = [rec(a.conversation_id, f"a record {i}") for i in range(5)]
    vectors = np.stack([tilted(target, 0.2 * (i + 1)) for i in range(5)])
    await store.write(a, WriteBatch(mine, vectors))
    # The other conversation holds the exact query vector: it must never come back to A.
    canary = rec(b.conversation_id, "canary of b")
    await store.write(b, WriteBatch([canary], target[None, :]))
    hits = await store.search(a, StoreQuery(vector=target, limit=10))
    assert [h.record.conversation_id for h in hits] == [a.conversation_id] * 5
    distances = [h.distance for h in hits]
    assert all(d is not None for d in distances)
    assert distances == sorted(distances)  # type: ignore[type-var]
    assert hits[0].record.id == mine[0].id
    assert [h.rank for h in hits] == list(range(5))
    other = await store.search(b, StoreQuery(vector=target, limit=10))
    assert [h.record.id for h in other] == [canary.id]
    assert other[0].similarity == pytest.approx(1.0, abs=1e-4)


async def test_keyword_search_is_scoped(store: MemoryStore) -> None:
    a, b = Tenant(conv_id()), Tenant(conv_id())
    await store.write(
        a, WriteBatch([rec(a.conversation_id, "we adopted a greyhound named Pixel")], unit(2)[None])
    )
    await store.write(b, WriteBatch([rec(b.conversation_id, "the greyhound Pixel is mine")], unit(3)[None]))
    await store.write(a, WriteBatch([rec(a.conversation_id, "the weather was cold")], unit(4)[None]))
    hits = await store.search(a, StoreQuery(keywords="greyhound pixel", limit=10))
    assert [h.record.text for h in hits] == ["we adopted a greyhound named Pixel"]
    assert hits[0].bm25 is not None and hits[0].bm25 > 0
    assert await store.search(a, StoreQuery(keywords="the of and", limit=10)) == []  # stopwords only


async def test_filters_and_listing(store: MemoryStore) -> None:
    t = Tenant(conv_id())
    c = t.conversation_id
    records = [
        rec(c, "first utterance", source="turn-1", created_at=1000.0),
        rec(c, "a fact about tea", kind="fact", source="turn-2", subject="drink", created_at=2000.0),
        rec(c, "a decision", kind="decision", source="turn-3", created_at=3000.0),
    ]
    await store.write(t, WriteBatch(records, np.stack([unit(10), unit(11), unit(12)])))
    listed = await store.search(t, StoreQuery(limit=10))
    assert [h.record.text for h in listed] == [r.text for r in records]
    newest = await store.search(t, StoreQuery(limit=2, newest_first=True))
    assert [h.record.text for h in newest] == ["a decision", "a fact about tea"]
    facts = await store.search(t, StoreQuery(kinds=("fact", "decision"), limit=10))
    assert {h.record.kind for h in facts} == {"fact", "decision"}
    by_source = await store.search(t, StoreQuery(sources=("turn-1",), limit=10))
    assert [h.record.source for h in by_source] == ["turn-1"]
    by_subject = await store.search(t, StoreQuery(subject="drink", limit=10))
    assert [h.record.id for h in by_subject] == [records[1].id]
    old = await store.search(t, StoreQuery(created_before=2500.0, limit=10))
    assert {h.record.id for h in old} == {records[0].id, records[1].id}
    by_id = await store.search(t, StoreQuery(vector=unit(12), ids=(records[0].id,), limit=5))
    assert [h.record.id for h in by_id] == [records[0].id]
    assert await store.search(t, StoreQuery(ids=(), limit=5)) == []
    with_vectors = await store.search(t, StoreQuery(ids=(records[2].id,), with_vectors=True))
    assert with_vectors[0].record.vector is not None
    assert np.allclose(np.array(with_vectors[0].record.vector), unit(12), atol=1e-5)


async def test_status_changes_hide_superseded(store: MemoryStore) -> None:
    t = Tenant(conv_id())
    old = rec(t.conversation_id, "I prefer tea", kind="fact", subject="drink")
    new = rec(t.conversation_id, "I prefer coffee now", kind="fact", subject="drink", supersedes=old.id)
    await store.write(t, WriteBatch([old], unit(20)[None]))
    report = await store.write(
        t, WriteBatch([new], unit(21)[None], status_changes=[StatusChange(old.id, "superseded", new.id)])
    )
    assert report.written == 1 and report.status_changed == 1 and not report.failed
    active = await store.search(t, StoreQuery(vector=unit(20), limit=5))
    assert [h.record.id for h in active] == [new.id]
    both = await store.search(t, StoreQuery(vector=unit(20), limit=5, statuses=("active", "superseded")))
    assert {h.record.id: h.record.status for h in both} == {old.id: "superseded", new.id: "active"}
    assert [h.record.supersedes for h in both if h.record.id == new.id] == [old.id]
    missing = await store.write(t, WriteBatch(status_changes=[StatusChange("no-such-id", "deprecated")]))
    assert missing.status_changed == 0


async def test_delete_by_id_and_whole_tenant(store: MemoryStore) -> None:
    a, b = Tenant(conv_id()), Tenant(conv_id())
    ra = [rec(a.conversation_id, f"a{i}") for i in range(3)]
    rb = rec(b.conversation_id, "b0")
    await store.write(a, WriteBatch(ra, np.stack([unit(30 + i) for i in range(3)]), {ra[0].id: unit(30)}))
    await store.write(b, WriteBatch([rb], unit(40)[None]))
    # Deleting B's id through A's tenant deletes nothing.
    assert await store.delete(a, [rb.id]) == 0
    assert await store.delete(a, [ra[0].id]) == 1
    assert [h.record.id for h in await store.search(a, StoreQuery(limit=10))] == [ra[1].id, ra[2].id]
    assert await store.fingerprint_search(b, unit(30), limit=5) == []  # its fingerprint went with it
    assert a.conversation_id in await store.conversations()
    assert await store.delete(a, None) == 2
    assert await store.search(a, StoreQuery(limit=10)) == []
    assert a.conversation_id not in await store.conversations()
    assert [h.record.id for h in await store.search(b, StoreQuery(limit=10))] == [rb.id]


async def test_fingerprints_show_only_other_tenants_hash_and_similarity(store: MemoryStore) -> None:
    a, b = Tenant(conv_id()), Tenant(conv_id())
    secret = rec(a.conversation_id, "my PIN is [ID:0123456789ab]")
    chatter = rec(a.conversation_id, "hello there")
    # The fingerprint is a vector of its own (the whole utterance), not the record's.
    await store.write(a, WriteBatch([secret, chatter], np.stack([unit(52), unit(51)]), {secret.id: unit(50)}))
    hits = [h for h in await store.fingerprint_search(b, near(unit(50), 0.01), limit=5) if h.similarity > 0.9]
    assert len(hits) == 1
    assert hits[0].tenant_hash == a.hash and hits[0].tenant_hash != a.conversation_id
    assert hits[0].similarity > 0.95
    assert set(vars(hits[0])) == {"tenant_hash", "similarity"}
    assert all(h.tenant_hash != a.hash for h in await store.fingerprint_search(a, unit(50), limit=5))
    chatter_hits = await store.fingerprint_search(b, unit(51), limit=5)
    assert all(h.similarity < 0.9 for h in chatter_hits)  # chatter got no fingerprint


async def test_cross_conversation_write_is_refused(store: MemoryStore) -> None:
    a, b = Tenant(conv_id()), Tenant(conv_id())
    with pytest.raises(StoreError, match="cross-conversation"):
        await store.write(a, WriteBatch([rec(b.conversation_id, "sneaky")], unit(60)[None]))
    assert await store.search(b, StoreQuery(limit=5)) == []


async def test_unknown_conversation_reads_empty(store: MemoryStore) -> None:
    t = Tenant(conv_id())
    assert await store.search(t, StoreQuery(limit=5)) == []
    assert await store.search(t, StoreQuery(vector=unit(70), limit=5)) == []
    assert await store.search(t, StoreQuery(keywords="anything", limit=5)) == []
    assert await store.delete(t, ["nope"]) == 0


# -- embedded store specifics ------------------------------------------------------------------------
async def test_sqlite_persists_and_refuses_another_embedder(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite3"
    store = SqliteStore(path)
    info = await store.open(dim=DIM, embedder="e1")
    assert info.schema_version >= 1
    t = Tenant("c")
    await store.write(t, WriteBatch([rec("c", "kept across restarts")], unit(80)[None]))
    await store.close()
    reopened = SqliteStore(path)
    await reopened.open(dim=DIM, embedder="e1")
    assert [h.record.text for h in await reopened.search(t, StoreQuery())] == ["kept across restarts"]
    assert reopened.integrity_check() == []
    await reopened.close()
    with pytest.raises(StoreError, match="embedder"):
        await SqliteStore(path).open(dim=DIM * 2, embedder="e2")


def _all_bytes(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in folder.rglob("*") if p.is_file())


async def test_sqlite_forget_leaves_no_text_in_the_file(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite3"
    store = SqliteStore(path)
    await store.open(dim=DIM, embedder="e1")
    t = Tenant("c")
    await store.write(t, WriteBatch([rec("c", "zanzibar-marmalade-canary")], unit(81)[None]))
    await store.write(t, WriteBatch([rec("c", "something else")], unit(82)[None]))
    await store.delete(t, None)
    await store.close()
    assert b"zanzibar-marmalade-canary" not in _all_bytes(tmp_path)


async def test_sqlite_erase_sweeps_orphans_and_leaves_nothing_of_the_conversation(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "memory.sqlite3")
    await store.open(dim=DIM, embedder="e1")
    t, other = Tenant("c"), Tenant("d")
    first = rec("c", "my cello lessons are on Fridays")
    await store.write(t, WriteBatch([first], unit(83)[None], {first.id: unit(84)}))
    await store.write(t, WriteBatch([rec("c", "second thought")], unit(85)[None]))
    await store.write(other, WriteBatch([rec("d", "someone else's note")], unit(86)[None]))
    # An orphan: the record row gone, its vector, keywords and fingerprint left (an older version, a
    # hand-edited file). Erasing the conversation must still leave nothing of it.
    store.run_write(lambda conn: conn.execute("DELETE FROM records WHERE id = ?", (first.id,)))
    assert set(store.remaining_sync(t)) == {"records", "conversations", "records_vec", "fingerprints",
                                            "records_fts"}  # fmt: skip
    assert await store.delete(t, None) == 1
    assert store.remaining_sync(t) == {}
    assert set(store.remaining_sync(other)) == {"records", "conversations", "records_vec", "records_fts"}
    await store.close()


# -- Weaviate adapter without a server: does it scope every call to the tenant, build filters and
# -- batches right, and report refused objects? The fake is the client library's surface (the network
# -- edge), recording calls; it keeps objects per tenant so results are real.
class _Objects:
    def __init__(self, objects: list[Any]) -> None:
        self.objects = objects


class _Obj:
    def __init__(self, uuid_: str, properties: dict[str, Any], vector: Any) -> None:
        self.uuid = uuid_
        self.properties = properties
        self.vector = vector
        self.metadata = type("M", (), {"distance": 0.0, "score": 1.0})()


class _FakeCollection:
    def __init__(self, client: _FakeClient, name: str, tenant: str | None = None) -> None:
        self.client, self.name, self.tenant = client, name, tenant
        self.data = self
        self.query = self
        self.tenants = self

    # scoping
    def with_tenant(self, tenant: str) -> _FakeCollection:
        return _FakeCollection(self.client, self.name, tenant)

    def _log(self, op: str, **kw: Any) -> None:
        self.client.calls.append((self.name, self.tenant, op, kw))

    def _bucket(self) -> dict[str, _Obj]:
        if self.name == "VoiceAgentMemory" and self.tenant is None:
            raise AssertionError("a multi-tenant collection was used without a tenant")
        return self.client.objects.setdefault((self.name, self.tenant), {})

    # tenants
    def get(self) -> dict[str, Any]:
        return dict.fromkeys(self.client.tenant_names)

    def create(self, tenants: list[Any]) -> None:
        self.client.tenant_names.update(t.name for t in tenants)

    def remove(self, names: list[str]) -> None:
        self.client.tenant_names.difference_update(names)
        self.client.objects.pop((self.name, names[0]), None)

    # data
    def insert_many(self, objects: list[Any]) -> Any:
        self._log("insert_many", count=len(objects))
        errors = {}
        for i, o in enumerate(objects):
            if "REFUSE" in str(o.properties.get("text", "")):
                errors[i] = type("E", (), {"message": "refused by the fake server"})()
            else:
                self._bucket()[str(o.uuid)] = _Obj(str(o.uuid), dict(o.properties), o.vector)
        return type("R", (), {"errors": errors})()

    def update(self, uuid: str, properties: dict[str, Any]) -> None:
        self._log("update", properties=properties)
        self._bucket()[str(uuid)].properties.update(properties)

    def delete_many(self, where: Any) -> Any:
        self._log("delete_many", where=where)
        return type("R", (), {"successful": 0})()

    def delete_by_id(self, uuid: str) -> None:
        self._log("delete_by_id")

    # queries
    def near_vector(self, **kw: Any) -> _Objects:
        self._log("near_vector", **kw)
        return _Objects(list(self._bucket().values())[: kw["limit"]])

    def bm25(self, **kw: Any) -> _Objects:
        self._log("bm25", **kw)
        return _Objects([])

    def fetch_objects(self, **kw: Any) -> _Objects:
        self._log("fetch_objects", **kw)
        return _Objects(list(self._bucket().values())[: kw.get("limit") or 100])


class _FakeCollections:
    def __init__(self, client: _FakeClient) -> None:
        self.client = client

    def exists(self, name: str) -> bool:
        return name in self.client.created

    def create(self, name: str, **kw: Any) -> None:
        self.client.created[name] = kw

    def get(self, name: str) -> _FakeCollection:
        return _FakeCollection(self.client, name)


class _FakeClient:
    def __init__(self) -> None:
        self.calls: list[tuple[str, str | None, str, dict[str, Any]]] = []
        self.created: dict[str, dict[str, Any]] = {}
        self.objects: dict[tuple[str, str | None], dict[str, _Obj]] = {}
        self.tenant_names: set[str] = set()
        self.collections = _FakeCollections(self)

    def close(self) -> None:
        pass


def _flat(f: Any) -> set[tuple[str, str, Any]]:
    """A Weaviate filter tree as {(property, operator, value)}."""
    if hasattr(f, "filters"):
        return set().union(*(_flat(x) for x in f.filters))
    value = tuple(f.value) if isinstance(f.value, list) else f.value
    return {(f.target, f.operator.value, value)}


async def test_weaviate_adapter_scopes_every_record_call_to_the_tenant() -> None:
    pytest.importorskip("weaviate")
    from voice_agent.memory.store.weaviate import FINGERPRINTS, MEMORY, WeaviateStore

    client = _FakeClient()
    store = WeaviateStore(client=client)
    await store.open(dim=DIM, embedder="test-random")
    mt = client.created[MEMORY]["multi_tenancy_config"]
    assert mt.enabled and mt.autoTenantCreation
    assert "multi_tenancy_config" not in client.created[FINGERPRINTS]

    t = Tenant("conversation/with odd chars")
    good, bad = rec(t.conversation_id, "kept"), rec(t.conversation_id, "REFUSE me")
    report = await store.write(
        t, WriteBatch([good, bad], np.stack([unit(1), unit(2)]), {good.id: unit(1), bad.id: unit(2)})
    )
    assert report.written == 1
    assert report.failed == ((bad.id, "refused by the fake server"),)
    assert t.key in client.tenant_names and t.key.startswith("t_") and "/" not in t.key

    await store.search(t, StoreQuery(vector=unit(1), kinds=("fact",), limit=3))
    await store.search(t, StoreQuery(keywords="kept records", limit=3))
    await store.search(t, StoreQuery(limit=3, newest_first=True))
    await store.delete(t, [good.id])
    record_calls = [c for c in client.calls if c[0] == MEMORY]
    assert record_calls and all(tenant == t.key for _, tenant, _, _ in record_calls)
    fingerprint_inserts = [c for c in client.calls if c[0] == FINGERPRINTS and c[2] == "insert_many"]
    assert [c[3]["count"] for c in fingerprint_inserts] == [1]  # the refused record got no fingerprint

    near_call = next(c[3] for c in record_calls if c[2] == "near_vector")
    assert near_call["limit"] == 3 and near_call["return_metadata"].distance
    assert _flat(near_call["filters"]) == {
        ("status", "ContainsAny", ("active",)),
        ("kind", "ContainsAny", ("fact",)),
    }
    bm25_call = next(c[3] for c in record_calls if c[2] == "bm25")
    assert bm25_call["query"] == "kept records" and bm25_call["query_properties"][0] == "keywords"

    hits = await store.fingerprint_search(Tenant("someone else"), unit(1), limit=2)
    fp_query = next(c[3] for c in client.calls if c[0] == FINGERPRINTS and c[2] == "near_vector")
    assert _flat(fp_query["filters"]) == {("owner", "NotEqual", Tenant("someone else").hash)}
    assert fp_query["return_properties"] == ["owner"]
    assert all(set(vars(h)) == {"tenant_hash", "similarity"} for h in hits)
    with pytest.raises(TenantRequiredError):
        await store.search(Tenant(""), StoreQuery())
    await store.close()


def test_weaviate_missing_client_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from voice_agent.errors import DependencyMissingError
    from voice_agent.memory.store import weaviate as adapter

    monkeypatch.setitem(sys.modules, "weaviate", None)  # as if weaviate-client were not installed
    with pytest.raises(DependencyMissingError, match=r"voice-agent\[weaviate\]"):
        adapter._weaviate()
