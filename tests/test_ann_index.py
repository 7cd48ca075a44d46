"""The HNSW index beside the embedded store: it agrees with the exact scan, follows writes and forgets,
and is rebuilt from SQLite when its file is missing, corrupt or out of date."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from voice_agent.memory.records import MemoryRecord
from voice_agent.memory.store.base import StoreQuery, Tenant, WriteBatch
from voice_agent.memory.store.sqlite import SqliteStore

pytest.importorskip("usearch")

DIM = 32
TENANT = Tenant("long-life")
STATUSES = ("active", "superseded")


def clustered(count: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centers = rng.normal(size=(12, DIM))
    rows = centers[rng.integers(0, 12, count)] + 0.6 * rng.normal(size=(count, DIM))
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


async def open_store(path: Path, *, min_records: int | None = 100) -> SqliteStore:
    store = SqliteStore(path, synchronous="NORMAL", ann_min_records=min_records)
    await store.open(dim=DIM, embedder="test")
    if store.ann is not None:
        store.ann.background = False  # build in the caller: deterministic tests
    return store


async def fill(store: SqliteStore, vectors: np.ndarray, tenant: Tenant = TENANT) -> list[str]:
    records = [
        MemoryRecord(tenant.conversation_id, f"clause {i}", source=f"s{i}") for i in range(len(vectors))
    ]
    await store.write(tenant, WriteBatch(records, vectors))
    return [r.id for r in records]


async def top(store: SqliteStore, vector: np.ndarray, k: int = 10, tenant: Tenant = TENANT) -> list[str]:
    hits = await store.search(tenant, StoreQuery(vector=vector, limit=k, statuses=STATUSES))
    return [h.record.id for h in hits]


async def test_ann_agrees_with_the_exact_scan(tmp_path: Path) -> None:
    vectors, queries = clustered(600, 0), clustered(20, 1)
    ann_store = await open_store(tmp_path / "a.sqlite3")
    exact_store = await open_store(tmp_path / "e.sqlite3", min_records=None)
    try:
        assert exact_store.ann is None
        await fill(ann_store, vectors)
        await fill(exact_store, vectors)
        overlap = []
        for query in queries:
            near = await top(ann_store, query)
            exact_texts = [h.record.text for h in await exact_store.search(
                TENANT, StoreQuery(vector=query, limit=10, statuses=STATUSES))]  # fmt: skip
            near_texts = [h.record.text for h in await ann_store.search(
                TENANT, StoreQuery(vector=query, limit=10, statuses=STATUSES))]  # fmt: skip
            assert len(near) == 10
            overlap.append(len(set(near_texts) & set(exact_texts)) / 10)
        assert ann_store.ann is not None and ann_store.ann.loaded() == {TENANT.key: 600}
        assert np.mean(overlap) >= 0.98
    finally:
        await ann_store.close()
        await exact_store.close()


async def test_small_conversations_keep_the_exact_scan(tmp_path: Path) -> None:
    store = await open_store(tmp_path / "m.sqlite3", min_records=1000)
    try:
        ids = await fill(store, clustered(50, 2))
        assert (await top(store, clustered(1, 3)[0]))[0] in ids
        assert store.ann is not None and store.ann.loaded() == {} and store.ann.builds == 0
    finally:
        await store.close()


async def test_index_follows_writes_and_forgets(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite3"
    store = await open_store(path)
    try:
        await fill(store, clustered(300, 4))
        probe = clustered(1, 5)[0]
        await top(store, probe)  # builds the index
        assert store.ann is not None and store.ann.builds == 1
        (new_id,) = await fill(store, probe[None, :])
        assert (await top(store, probe))[0] == new_id  # found through the index, no rebuild
        assert store.ann.builds == 1 and store.ann.loaded()[TENANT.key] == 301
        assert await store.delete(TENANT, [new_id]) == 1
        assert new_id not in await top(store, probe, k=50)
        assert store.ann.loaded()[TENANT.key] == 300
    finally:
        await store.close()
    # Written and forgotten by a process without the index: the saved file is stale and is rebuilt.
    plain = await open_store(path, min_records=None)
    (ghost,) = await fill(plain, probe[None, :])
    await plain.delete(TENANT, [ghost])
    await plain.close()
    store = await open_store(path)
    try:
        assert ghost not in await top(store, probe, k=50)
        assert store.ann is not None and store.ann.builds == 1
    finally:
        await store.close()


@pytest.mark.parametrize("damage", ["delete", "corrupt", "truncate"])
async def test_a_missing_or_damaged_index_is_rebuilt_with_the_same_answers(
    tmp_path: Path, damage: str
) -> None:
    path = tmp_path / "r.sqlite3"
    queries = clustered(8, 7)
    store = await open_store(path)
    await fill(store, clustered(400, 6))
    before = [await top(store, q) for q in queries]
    await store.close()  # saves the index
    index_file = Path(f"{path}.ann") / f"{TENANT.key}.usearch"
    assert index_file.is_file()

    store = await open_store(path)  # a sound file is loaded, not rebuilt
    assert [await top(store, q) for q in queries] == before
    assert store.ann is not None and store.ann.builds == 0
    await store.close()

    if damage == "delete":
        index_file.unlink()
    elif damage == "corrupt":
        blob = bytearray(index_file.read_bytes())
        for offset in range(64, len(blob), 997):
            blob[offset] ^= 0xFF
        index_file.write_bytes(bytes(blob))
    else:
        index_file.write_bytes(index_file.read_bytes()[:100])
    store = await open_store(path)
    try:
        assert [await top(store, q) for q in queries] == before
        assert store.ann is not None and store.ann.builds == 1
    finally:
        await store.close()


async def test_forgetting_a_whole_conversation_removes_its_index_files(tmp_path: Path) -> None:
    path = tmp_path / "f.sqlite3"
    store = await open_store(path)
    other = Tenant("someone-else")
    try:
        await fill(store, clustered(200, 8))
        await fill(store, clustered(200, 9), tenant=other)
        await top(store, clustered(1, 10)[0])
        await top(store, clustered(1, 10)[0], tenant=other)
        await store.close()
        store = await open_store(path)
        folder = Path(f"{path}.ann")
        assert (folder / f"{TENANT.key}.usearch").is_file()
        await store.delete(TENANT, None)
        assert not (folder / f"{TENANT.key}.usearch").exists()
        generation_rows = store.run_read(
            lambda conn: conn.execute(
                "SELECT count(*) FROM ann_generation WHERE tenant = ?", (TENANT.key,)
            ).fetchone()[0]
        )
        assert generation_rows == 0 and store.remaining_sync(TENANT) == {}
        assert await top(store, clustered(1, 10)[0]) == []
        assert len(await top(store, clustered(1, 10)[0], tenant=other)) == 10
    finally:
        await store.close()


async def test_writes_during_a_background_build_are_not_lost(tmp_path: Path) -> None:
    store = await open_store(tmp_path / "b.sqlite3")
    try:
        assert store.ann is not None
        store.ann.background = True
        old = await fill(store, clustered(3000, 11))
        probes = clustered(5, 12)
        assert len(await top(store, probes[0])) == 10  # starts the build; this search is exact
        fresh = await fill(store, probes)  # committed while the index is (maybe) being built
        assert await store.delete(TENANT, old[:2]) == 2
        store.ann.wait(timeout=120)
        assert store.ann.loaded() == {TENANT.key: 3003} and store.ann.builds == 1
        for probe, record_id in zip(probes, fresh, strict=True):
            assert (await top(store, probe))[0] == record_id
        forgotten = set(old[:2])
        for query in clustered(10, 13):
            assert not forgotten & set(await top(store, query, k=150))
    finally:
        await store.close()


def test_the_index_library_leaves_llama_cpp_working() -> None:
    """usearch 2.26 (numkong) made llama.cpp fail to read any GGUF vocabulary in the same process
    (std::bad_cast): the pinned version must not."""
    import subprocess
    import sys

    from _llm_support import smollm2_gguf

    pytest.importorskip("llama_cpp")
    code = (
        "import usearch.index, llama_cpp, sys\nllama_cpp.Llama(sys.argv[1], vocab_only=True, verbose=False)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(smollm2_gguf())],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-500:]


def test_graph_candidates_are_ranked_in_float32() -> None:
    """Whatever precision the CPU's float16 kernel has, the candidates come back in the exact order of
    their stored vectors' cosine distance, computed in float32."""
    from usearch.index import Index

    from voice_agent.memory.store.rescore import rescored

    rng = np.random.default_rng(7)
    vectors = rng.standard_normal((500, 16)).astype(np.float32)
    index = Index(ndim=16, metric="cos", dtype="f16")
    index.add(np.arange(500), vectors)
    query = rng.standard_normal(16).astype(np.float32)
    keys = np.asarray(index.search(query, 50).keys)
    pairs = rescored(index, keys, query)
    stored = vectors[keys].astype(np.float16).astype(np.float32)
    expected = 1 - stored @ query / (np.linalg.norm(stored, axis=1) * np.linalg.norm(query))
    assert [k for k, _ in pairs] == [int(keys[i]) for i in np.argsort(expected, kind="stable")]
    assert np.allclose([d for _, d in pairs], np.sort(expected), atol=1e-5)
    assert rescored(index, np.asarray([], dtype=np.uint64), query) == []
