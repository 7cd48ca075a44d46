"""The embedded store's read shortcuts on a real SQLite file: records reused from RAM must never outlive
what SQLite says (status, deletes, reused rowids), and the cheaper keyword plan for a conversation
holding most of the file must rank exactly like the scoped one."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from voice_agent.memory.keywords import query_terms, stem_overlap, term_overlap, term_stems, word_set
from voice_agent.memory.language import estimate_tokens
from voice_agent.memory.records import MemoryRecord
from voice_agent.memory.retrieve import RetrievalParams, Retriever
from voice_agent.memory.store.base import StatusChange, StoreQuery, Tenant, WriteBatch
from voice_agent.memory.store.record_cache import RecordCache
from voice_agent.memory.store.sqlite import SqliteStore
from voice_agent.memory.store.sqlite_search import keyword_search

DIM = 8
BIG, SMALL = Tenant("big-conversation"), Tenant("small-conversation")
BOTH: tuple[Any, ...] = ("active", "superseded")
WORDS = ["garden", "tea", "river", "piano", "bicycle", "ocean", "mountain", "letter", "candle"]
WORDS += ["violin", "market", "winter"]


def vectors(count: int, seed: int) -> np.ndarray:
    rows = np.random.default_rng(seed).normal(size=(count, DIM)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def records(conversation: str, count: int, seed: int) -> list[MemoryRecord]:
    rng = np.random.default_rng(seed)
    texts = [" ".join(rng.choice(WORDS, size=int(rng.integers(3, 7)))) for _ in range(count)]
    return [
        MemoryRecord(conversation, t, source=f"t{i}", token_count=estimate_tokens(t))
        for i, t in enumerate(texts)
    ]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    s = SqliteStore(tmp_path / "memory.sqlite3")
    await s.open(dim=DIM, embedder="hand-made")
    yield s
    await s.close()


async def put(store: SqliteStore, tenant: Tenant, batch: list[MemoryRecord], seed: int) -> None:
    await store.write(tenant, WriteBatch(batch, vectors(len(batch), seed)))


async def test_cached_records_follow_status_changes_and_deletes(store: SqliteStore) -> None:
    batch = records(BIG.conversation_id, 30, seed=1)
    await put(store, BIG, batch, seed=1)
    query = StoreQuery(vector=vectors(1, 9)[0], limit=30, statuses=BOTH)
    first = await store.search(BIG, query)
    assert len(first) == 30 and len(store.records) == 30  # every record built once, now held
    target = first[0].record
    await store.write(BIG, WriteBatch([], None, status_changes=(StatusChange(target.id, "superseded"),)))
    again = {h.record.id: h.record for h in await store.search(BIG, query)}
    assert again[target.id].status == "superseded"  # SQLite's status, not the cached one
    active_only = await store.search(BIG, StoreQuery(vector=query.vector, limit=30, statuses=("active",)))
    assert target.id not in {h.record.id for h in active_only}
    await store.delete(BIG, [target.id])
    assert len(store.records) == 0  # a delete drops what RAM held of the conversation
    assert target.id not in {h.record.id for h in await store.search(BIG, query)}
    keyword = StoreQuery(keywords=target.text, limit=30, statuses=BOTH)
    assert target.id not in {h.record.id for h in await store.search(BIG, keyword)}


async def test_a_reused_rowid_never_serves_the_old_record(store: SqliteStore) -> None:
    old = records(BIG.conversation_id, 3, seed=2)
    await put(store, BIG, old, seed=2)
    query = StoreQuery(keywords=" ".join(WORDS), limit=10, statuses=BOTH)
    assert {h.record.id for h in await store.search(BIG, query)} == {r.id for r in old}
    last = old[-1]
    # Deleting the highest rowid lets SQLite hand the same rowid to the next insert; a stale cache
    # entry for that rowid is planted to prove the id check (the delete itself also clears the cache).
    rid = store.run_read(
        lambda c: c.execute("SELECT rid FROM records WHERE id = ?", (last.id,)).fetchone()[0]
    )
    await store.delete(BIG, [last.id])
    store.records.put(int(rid), last)
    new = MemoryRecord(BIG.conversation_id, "violin lessons on winter evenings", token_count=8)
    await put(store, BIG, [new], seed=3)
    new_rid = store.run_read(
        lambda c: c.execute("SELECT rid FROM records WHERE id = ?", (new.id,)).fetchone()[0]
    )
    assert new_rid == rid
    found = {h.record.id: h.record for h in await store.search(BIG, StoreQuery(keywords="violin winter"))}
    assert last.id not in found and found[new.id].text == new.text


async def test_keyword_plan_for_a_dominant_conversation_ranks_like_the_scoped_one(store: SqliteStore) -> None:
    await put(store, BIG, records(BIG.conversation_id, 400, seed=4), seed=4)
    await put(store, SMALL, records(SMALL.conversation_id, 40, seed=5), seed=5)
    assert store.counts.share(BIG.conversation_id) > 0.8 > store.counts.share(SMALL.conversation_id)
    for text in ("garden tea", "piano violin winter", "ocean", "market candle letter river"):
        for tenant in (BIG, SMALL):
            query = StoreQuery(keywords=text, limit=25, statuses=BOTH)

            def search(conn: Any, share: float, t: Tenant = tenant, q: StoreQuery = query) -> list[Any]:
                hits = keyword_search(conn, t, q, RecordCache(), share=share)
                return [(h.record.id, round(h.bm25 or 0.0, 9)) for h in hits]

            scoped = store.run_read(lambda c: search(c, 0.0))
            # share=1.0 forces the plan even for the small conversation: its fallback must decide.
            assert store.run_read(lambda c: search(c, 1.0)) == scoped
            assert scoped and (tenant == SMALL or len(scoped) == 25)
            hits = await store.search(tenant, query)  # the store's own choice of plan
            assert [h.record.id for h in hits] == [rid for rid, _ in scoped]


async def test_counts_follow_writes_and_deletes(store: SqliteStore) -> None:
    await put(store, BIG, records(BIG.conversation_id, 30, seed=6), seed=6)
    assert store.counts.share(BIG.conversation_id) == 1.0
    small = records(SMALL.conversation_id, 10, seed=7)
    await put(store, SMALL, small, seed=7)
    assert store.counts.share(SMALL.conversation_id) == pytest.approx(10 / 40)
    await store.delete(SMALL, None)
    assert store.counts.share(SMALL.conversation_id) == 0.0
    assert store.counts.share(BIG.conversation_id) == 1.0


async def test_packing_accounts_for_every_candidate_when_the_budget_fills(store: SqliteStore) -> None:
    await put(store, BIG, records(BIG.conversation_id, 200, seed=8), seed=8)
    params = RetrievalParams(vector_k=100, keyword_k=100, dedupe_jaccard=0.99)
    for budget in (0, 7, 40, 120, 5000):
        result = await Retriever(store, params).retrieve(BIG, "garden piano", vectors(1, 10)[0], budget)
        packed = {item.record.id for item in result.items}
        cut = [c.record_id for c in result.cut]
        assert len(cut) == len(set(cut)) and not packed & set(cut)
        assert len(packed) + len(cut) == result.candidates  # nothing lost when the rest is cut at once
        assert result.tokens_used <= budget
        left = budget - result.tokens_used
        assert all(c.tokens > left for c in result.cut if c.reason == "over_budget")


def test_query_stems_computed_once_score_like_term_overlap() -> None:
    pairs = [
        ("When did Melanie paint a sunrise?", "Melanie painted the sunrise over the lake"),
        ("painting paints painted", "She paints every day"),
        ("What does [PHONE:7f3a9c2e10] belong to?", "call me at [PHONE:7f3a9c2e10]"),
        ("我喜欢猫", "她说我喜欢猫和狗"),
        ("the a of", "anything at all"),
    ]
    for query, text in pairs:
        assert stem_overlap(term_stems(query_terms(query)), text) == term_overlap(query, text)
    assert word_set("The cat, the CAT and the dog") == frozenset({"the", "cat", "and", "dog"})
