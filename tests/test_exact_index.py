"""Small conversations are searched exactly over their vectors in RAM: the same answers as sqlite-vec's
scan, following writes and forgets of this process and of another, and handing over to the HNSW graph
once the conversation outgrows the threshold. The store's reads stay proportional to their answer."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from voice_agent.memory.records import MemoryRecord
from voice_agent.memory.store.base import StatusChange, StoreQuery, Tenant, WriteBatch
from voice_agent.memory.store.exact_index import ExactIndex
from voice_agent.memory.store.sqlite import SqliteStore
from voice_agent.memory.store.sqlite_erase import fts_tenant
from voice_agent.memory.store.sqlite_search import filters, keyword_search

pytest.importorskip("usearch")

DIM = 24
TENANT = Tenant("a-few-weeks")
STATUSES = ("active", "superseded")
MATCH = f'tenant:"{fts_tenant(TENANT)}" AND {{body context}}: ("roses" OR "garden")'


def unit_rows(count: int, seed: int) -> np.ndarray:
    rows = np.random.default_rng(seed).normal(size=(count, DIM))
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


async def open_store(path: Path, *, min_records: int | None = 500) -> SqliteStore:
    store = SqliteStore(path, synchronous="NORMAL", ann_min_records=min_records)
    await store.open(dim=DIM, embedder="test")
    if store.ann is not None:
        store.ann.background = False
    return store


async def fill(store: SqliteStore, vectors: np.ndarray, words: str = "clause") -> list[str]:
    records = [
        MemoryRecord(TENANT.conversation_id, f"{words} {i}", source=f"s{i}") for i in range(len(vectors))
    ]
    await store.write(TENANT, WriteBatch(records, vectors))
    return [r.id for r in records]


async def top(store: SqliteStore, vector: np.ndarray, k: int = 10) -> list[str]:
    hits = await store.search(TENANT, StoreQuery(vector=vector, limit=k, statuses=STATUSES))
    return [h.record.id for h in hits]


def test_the_matrix_finds_what_brute_force_finds_after_adds_and_removes() -> None:
    rows = unit_rows(300, 0)
    index = ExactIndex(DIM, capacity=4)  # grows as rows arrive
    keys = np.arange(1000, 1300, dtype=np.uint64)
    index.add(keys, rows)
    for key in keys[::3]:
        index.remove(int(key))
    index.remove(5)  # unknown: nothing happens
    kept = [i for i in range(300) if i % 3]
    assert len(index) == len(kept) and not index.contains(1000) and index.contains(1001)
    for query in unit_rows(10, 1):
        expected = [int(keys[i]) for i in sorted(kept, key=lambda i: -float(rows[i] @ query))[:15]]
        found = index.search(query, 15)
        assert [int(k) for k in found.keys] == expected
        assert np.allclose(found.distances, [1 - float(rows[k - 1000] @ query) for k in expected], atol=1e-5)
    assert len(index.search(unit_rows(1, 2)[0], 1000).keys) == len(kept)


async def test_small_conversations_search_in_ram_with_the_scans_answers(tmp_path: Path) -> None:
    vectors, queries = unit_rows(200, 3), unit_rows(12, 4)
    ram = await open_store(tmp_path / "ram.sqlite3")
    scan = await open_store(tmp_path / "scan.sqlite3", min_records=None)
    try:
        await fill(ram, vectors)
        await fill(scan, vectors)
        for query in queries:
            by_ram = await ram.search(TENANT, StoreQuery(vector=query, limit=10, statuses=STATUSES))
            by_scan = await scan.search(TENANT, StoreQuery(vector=query, limit=10, statuses=STATUSES))
            assert [h.record.text for h in by_ram] == [h.record.text for h in by_scan]
            assert np.allclose([h.distance for h in by_ram], [h.distance for h in by_scan], atol=1e-5)
        assert ram.ann is not None and ram.ann.loaded(exact=True) == {TENANT.key: 200}
        assert ram.ann.loaded() == {} and ram.ann.builds == 0  # no HNSW graph, no file
        folder = tmp_path / "ram.sqlite3.ann"
        assert not folder.exists()
        # Fewer records than asked: the whole conversation comes back, from RAM.
        assert len(await top(ram, queries[0], k=500)) == 200
    finally:
        await ram.close()
        await scan.close()


async def test_the_matrix_follows_this_and_another_process(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite3"
    store = await open_store(path)
    other = await open_store(path, min_records=None)  # a second writer (the CLI), without indexes
    try:
        old = await fill(store, unit_rows(50, 5))
        probe = unit_rows(1, 6)[0]
        await top(store, probe)  # loads the matrix
        (mine,) = await fill(store, probe[None, :])
        assert (await top(store, probe))[0] == mine
        await store.delete(TENANT, [mine])
        assert mine not in await top(store, probe, k=100)
        (theirs,) = await fill(other, probe[None, :])  # not seen by this process's index until reloaded
        assert (await top(store, probe))[0] == theirs
        await other.delete(TENANT, [theirs, old[0]])
        found = await top(store, probe, k=100)
        assert theirs not in found and old[0] not in found and len(found) == 49
        assert store.ann is not None and store.ann.loaded(exact=True) == {TENANT.key: 49}
    finally:
        await store.close()
        await other.close()


async def test_a_growing_conversation_moves_to_the_hnsw_graph(tmp_path: Path) -> None:
    store = await open_store(tmp_path / "g.sqlite3", min_records=100)
    try:
        await fill(store, unit_rows(60, 7))
        await top(store, unit_rows(1, 8)[0])
        assert store.ann is not None and store.ann.loaded(exact=True) == {TENANT.key: 60}
        ids = await fill(store, unit_rows(60, 9), words="later")
        assert store.ann.loaded(exact=True) == {TENANT.key: 120}  # writes follow while it is small
        assert (await top(store, unit_rows(60, 9)[5]))[0] == ids[5]
        assert store.ann.loaded() == {TENANT.key: 120} and store.ann.loaded(exact=True) == {}
        assert store.ann.builds == 1
    finally:
        await store.close()


async def test_the_matrix_answers_while_the_graph_is_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await open_store(tmp_path / "b.sqlite3", min_records=100)
    ann = store.ann
    assert ann is not None
    try:
        await fill(store, unit_rows(80, 14))
        await top(store, unit_rows(1, 15)[0])  # the matrix
        release, original = threading.Event(), ann._build

        def held(tenant: str, entry: object) -> None:
            release.wait(60)
            original(tenant, entry)  # type: ignore[arg-type]

        monkeypatch.setattr(ann, "_build", held)
        ann.background = True
        later = await fill(store, unit_rows(40, 16), words="later")  # 120 records: past the threshold
        probe = unit_rows(40, 16)[3]
        assert (await top(store, probe))[0] == later[3]  # starts the build
        query = StoreQuery(vector=probe, limit=10, statuses=STATUSES)
        during_build = ann.candidates(TENANT.key, query)
        assert during_build is not None and during_build.pairs  # the matrix, not sqlite-vec's scan
        fresh = unit_rows(1, 17)[0]
        (written,) = await fill(store, fresh[None, :], words="meanwhile")
        assert (await top(store, fresh))[0] == written  # the matrix follows writes during the build
        assert ann.loaded() == {} and ann.builds == 0
        release.set()
        ann.wait(timeout=60)
        assert ann.loaded() == {TENANT.key: 121} and ann.builds == 1
        assert (await top(store, fresh))[0] == written and (await top(store, probe))[0] == later[3]
    finally:
        release.set()
        await store.close()


async def test_filtered_out_candidates_fall_back_to_the_scan(tmp_path: Path) -> None:
    store = await open_store(tmp_path / "s.sqlite3")
    try:
        ids = await fill(store, unit_rows(40, 10))
        changes = [StatusChange(i, "deprecated") for i in ids[:35]]
        await store.write(TENANT, WriteBatch(status_changes=changes))
        hits = await store.search(TENANT, StoreQuery(vector=unit_rows(1, 11)[0], limit=10, statuses=STATUSES))
        assert sorted(h.record.id for h in hits) == sorted(ids[35:])
    finally:
        await store.close()


async def test_keyword_search_ranks_in_fts_then_fetches_only_what_it_returns(tmp_path: Path) -> None:
    """Many matches, some of them filtered out: the bounded path answers as the full join does."""
    store = await open_store(tmp_path / "k.sqlite3")
    try:
        texts = [f"the garden {'roses ' * (i % 5)}and tulips number {i}" for i in range(400)]
        records = [MemoryRecord(TENANT.conversation_id, t, source=f"s{i}") for i, t in enumerate(texts)]
        await store.write(TENANT, WriteBatch(records, unit_rows(400, 12)))
        dropped = [StatusChange(r.id, "deprecated") for r in records[::2]]
        await store.write(TENANT, WriteBatch(status_changes=dropped))
        for limit in (5, 150, 190, 300):
            query = StoreQuery(keywords="roses in the garden", limit=limit, statuses=STATUSES)
            fast = store.run_read(lambda conn, q=query: keyword_search(conn, TENANT, q))
            where, params = filters(TENANT, query, alias="r")
            full = store.run_read(
                lambda conn, q=query, w=where, ps=params: conn.execute(
                    "SELECT r.id, bm25(records_fts, 0.0, 1.0, ?) AS score FROM records_fts JOIN records r"
                    f" ON r.rid = records_fts.rowid WHERE records_fts MATCH ? AND {w} ORDER BY score LIMIT ?",
                    (q.context_weight, MATCH, *ps, q.limit),
                ).fetchall()
            )  # fmt: skip
            assert len(fast) == min(limit, 200)
            assert [h.record.id for h in fast] == [row[0] for row in full]
    finally:
        await store.close()


async def test_fetching_by_rowid_never_walks_the_conversation(tmp_path: Path) -> None:
    store = await open_store(tmp_path / "p.sqlite3")
    try:
        query = StoreQuery(vector=unit_rows(1, 13)[0], limit=5, statuses=STATUSES, kinds=("utterance",))
        where, params = filters(TENANT, query, alias="r", lookup=True)
        plan = store.run_read(
            lambda conn: conn.execute(
                f"EXPLAIN QUERY PLAN SELECT r.id FROM records r WHERE r.rid IN (?,?,?) AND {where}",
                (1, 2, 3, *params),
            ).fetchall()
        )
        details = " ".join(str(row[-1]) for row in plan)
        assert "PRIMARY KEY" in details and "records_by_conv" not in details
    finally:
        await store.close()


async def test_a_matrix_holds_its_own_conversation_only_small_or_past_the_partition_read(
    tmp_path: Path,
) -> None:
    """Vectors are read from the tenant's partition (a nearest-neighbour query, up to sqlite-vec's k
    limit of 4,096) or, past it, by a filtered scan: either way only that conversation's."""
    store = await open_store(tmp_path / "two.sqlite3", min_records=10_000)
    small = Tenant("small-one")
    try:
        await fill(store, unit_rows(4100, 18))
        await store.write(
            small,
            WriteBatch([MemoryRecord(small.conversation_id, f"s {i}") for i in range(30)], unit_rows(30, 19)),
        )
        probe = unit_rows(1, 20)[0]
        assert len(await top(store, probe, k=50)) == 50
        hits = await store.search(small, StoreQuery(vector=probe, limit=50, statuses=STATUSES))
        assert len(hits) == 30 and all(h.record.conversation_id == "small-one" for h in hits)
        assert store.ann is not None and store.ann.loaded(exact=True) == {TENANT.key: 4100, small.key: 30}
    finally:
        await store.close()
