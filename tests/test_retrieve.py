"""Hybrid retrieval on a real SQLite store, with hand-made vectors (the ranking logic, not the embedder)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from voice_agent.config import MemoryConfig
from voice_agent.memory.budget import budget_for_turn, token_budget
from voice_agent.memory.language import estimate_tokens
from voice_agent.memory.recalled_text import render_recalled
from voice_agent.memory.records import MemoryRecord
from voice_agent.memory.retrieve import RetrievalParams, Retriever
from voice_agent.memory.store.base import StatusChange, StoreHit, StoreQuery, Tenant, WriteBatch
from voice_agent.memory.store.sqlite import SqliteStore

DIM = 8
T = Tenant("conv")


def axis(i: int, lean: float = 0.0, towards: int = 7) -> np.ndarray:
    v = np.zeros(DIM, dtype=np.float32)
    v[i] = 1.0
    v[towards] += lean
    return v / np.linalg.norm(v)


def rec(text: str, **kw: object) -> MemoryRecord:
    return MemoryRecord("conv", text, token_count=estimate_tokens(text), **kw)  # type: ignore[arg-type]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    s = SqliteStore(tmp_path / "memory.sqlite3")
    await s.open(dim=DIM, embedder="hand-made")
    yield s
    await s.close()


async def put(store: SqliteStore, items: list[tuple[MemoryRecord, np.ndarray]]) -> None:
    await store.write(T, WriteBatch([r for r, _ in items], np.stack([v for _, v in items])))


PLAIN = RetrievalParams(
    overlap_weight=0, importance_weight=0, pinned_kind_bonus=0, recency_weight=0, same_source_penalty=1.0
)


def test_token_budget_from_latency() -> None:
    assert token_budget(1000, 200, 1.5, 500) == 500  # 1200 tokens affordable, capped
    assert token_budget(1000, 800, 1.5, 500) == 300
    assert token_budget(1000, 1200, 1.5, 500) == 0  # already late: nothing
    assert token_budget(1000, 0, 0.2, 500) == 200
    assert budget_for_turn(MemoryConfig(), 900) == 150  # seed rate 150 tokens / 100 ms
    assert budget_for_turn(MemoryConfig(), 900, tokens_per_ms=0.5) == 64  # the floor
    assert budget_for_turn(MemoryConfig(), 500, tokens_per_ms=0.5) == 250
    assert budget_for_turn(MemoryConfig(budget_floor_tokens=0), 1200) == 0  # no floor: nothing
    assert budget_for_turn(MemoryConfig(budget_floor_tokens=900), 1200) == 500  # floor within the cap
    with pytest.raises(ValueError):
        token_budget(1000, -1, 1.5, 500)
    with pytest.raises(ValueError):
        token_budget(float("nan"), 0, 1.5, 500)


async def test_hybrid_fusion_finds_what_either_list_finds(store: SqliteStore) -> None:
    by_meaning = rec("she loves the ocean")
    by_word = rec("the quokka exhibit opened")
    noise = [rec(f"unrelated note number {i}") for i in range(6)]
    await put(
        store,
        [(by_meaning, axis(0)), (by_word, axis(1)), *[(n, axis(2 + i % 5)) for i, n in enumerate(noise)]],
    )
    retriever = Retriever(store, PLAIN)
    result = await retriever.retrieve(T, "quokka", axis(0, lean=0.1), budget_tokens=500)
    top_two = {item.record.id for item in result.items[:2]}
    assert top_two == {by_meaning.id, by_word.id}
    assert "bm25" in next(i.why for i in result.items if i.record.id == by_word.id)
    assert "vector" in next(i.why for i in result.items if i.record.id == by_meaning.id)
    keyword_only = await retriever.retrieve(T, "quokka", None, budget_tokens=500)
    assert [i.record.id for i in keyword_only.items] == [by_word.id]


async def test_budget_packs_best_first_and_says_what_was_cut(store: SqliteStore) -> None:
    records = [rec(f"memory item number {i} with some words in it") for i in range(10)]
    await put(store, [(r, axis(0, lean=0.2 * i)) for i, r in enumerate(records)])
    params = replace(PLAIN, keyword_k=0, labels="per_item", item_overhead_tokens=0)
    result = await Retriever(store, params).retrieve(T, "", axis(0), budget_tokens=40)
    cost = records[0].token_count + estimate_tokens("user: ")
    assert result.tokens_used <= 40
    assert len(result.items) == 40 // cost
    assert [i.record.id for i in result.items] == [r.id for r in records[: len(result.items)]]
    assert result.cut_counts()["over_budget"] == 10 - len(result.items)
    assert result.tokens_used == sum(c for c in [cost] * len(result.items))
    assert all(c.reason == "over_budget" and c.tokens == cost for c in result.cut)
    nothing = await Retriever(store, params).retrieve(T, "", axis(0), budget_tokens=0)
    assert nothing.items == [] and nothing.tokens_used == 0


async def test_grouped_labels_are_charged_once_per_speaker(store: SqliteStore) -> None:
    speaker = "[NAME:0123456789ab]"
    records = [rec(f"fact {i} about the garden", speaker=speaker) for i in range(4)]
    await put(store, [(r, axis(0, lean=0.1 * i)) for i, r in enumerate(records)])
    grouped = await Retriever(store, replace(PLAIN, keyword_k=0)).retrieve(T, "", axis(0), 500)
    per_item = await Retriever(store, replace(PLAIN, keyword_k=0, labels="per_item")).retrieve(
        T, "", axis(0), 500
    )
    label = estimate_tokens(f"{speaker}: ")
    assert per_item.tokens_used - grouped.tokens_used == 3 * label
    rendered = render_recalled(grouped.items)
    assert rendered.count(speaker) == 1 and all(r.text in rendered for r in records)
    assert estimate_tokens(rendered) <= grouped.tokens_used


async def test_near_duplicates_are_cut(store: SqliteStore) -> None:
    a = rec("I bought new running shoes yesterday")
    b = rec("I bought new running shoes yesterday!")
    c = rec("The shoes are purple")
    await put(store, [(a, axis(0)), (b, axis(0, lean=0.01)), (c, axis(0, lean=0.5))])
    result = await Retriever(store, PLAIN).retrieve(T, "running shoes", axis(0), 500)
    ids = [i.record.id for i in result.items]
    assert len({a.id, b.id} & set(ids)) == 1 and c.id in ids
    assert result.cut_counts()["duplicate"] == 1


async def test_superseded_records_are_left_out_or_marked(store: SqliteStore) -> None:
    old = rec("my favourite drink is tea", kind="fact", subject="drink")
    new = rec("my favourite drink is coffee", kind="fact", subject="drink")
    await put(store, [(old, axis(0)), (new, axis(0, lean=0.3))])
    await store.write(T, WriteBatch(status_changes=[StatusChange(old.id, "superseded", new.id)]))
    result = await Retriever(store, PLAIN).retrieve(T, "favourite drink", axis(0), 500)
    assert [i.record.id for i in result.items] == [new.id]
    assert result.cut_counts()["superseded"] == 1
    shown = await Retriever(store, replace(PLAIN, show_superseded=True)).retrieve(
        T, "favourite drink", axis(0), 500
    )
    marked = {i.record.id: i for i in shown.items}
    assert set(marked) == {old.id, new.id} and "superseded" in marked[old.id].why
    assert "[superseded] my favourite drink is tea" in render_recalled(shown.items)


async def test_threshold_cuts_weak_vector_only_matches(store: SqliteStore) -> None:
    close, far = rec("alpha"), rec("beta")
    await put(store, [(close, axis(0)), (far, axis(3))])
    result = await Retriever(store, replace(PLAIN, min_similarity=0.5)).retrieve(T, "", axis(0), 500)
    assert [i.record.id for i in result.items] == [close.id]
    assert result.cut_counts()["below_threshold"] == 1


async def test_same_turn_penalty_spreads_the_budget_over_turns(store: SqliteStore) -> None:
    turn_a = [rec(f"clause {i} of a long turn", source="A") for i in range(3)]
    turn_b = rec("clause 0 of another one", source="B")  # same length as the others
    await put(
        store, [*[(r, axis(0, lean=0.05 * i)) for i, r in enumerate(turn_a)], (turn_b, axis(0, lean=0.3))]
    )
    base = replace(PLAIN, keyword_k=0, labels="per_item", item_overhead_tokens=0)
    two_items = 2 * (turn_a[0].token_count + estimate_tokens("user: "))
    flat = await Retriever(store, base).retrieve(T, "", axis(0), two_items)
    spread = await Retriever(store, replace(base, same_source_penalty=0.25)).retrieve(
        T, "", axis(0), two_items
    )
    assert {i.record.source for i in flat.items} == {"A"}
    assert {i.record.source for i in spread.items} == {"A", "B"}


async def test_context_neighbours_come_from_the_same_turn(store: SqliteStore) -> None:
    turn = [rec("we drove to the lake", source="T1"), rec("it took three hours", source="T1")]
    other = rec("something else entirely", source="T2")
    await put(store, [(turn[0], axis(0)), (turn[1], axis(4)), (other, axis(5))])
    params = replace(PLAIN, keyword_k=0, vector_k=1, context_parents=1, context_window=1)
    result = await Retriever(store, params).retrieve(T, "", axis(0), 500)
    assert [i.record.id for i in result.items] == [turn[0].id, turn[1].id]
    assert "context" in result.items[1].why


async def test_result_reports_tokens_and_timings(store: SqliteStore) -> None:
    await put(store, [(rec("a note"), axis(0))])
    result = await Retriever(store).retrieve(T, "note", axis(0), 100)
    info = result.info()
    assert info["tokens_used"] == result.tokens_used and info["budget_tokens"] == 100
    assert info["items"] == 1 and set(info["cut"]) == {
        "over_budget",
        "below_threshold",
        "duplicate",
        "superseded",
    }
    assert {"search", "rerank", "pack", "total"} <= set(info["timings_ms"])


class _Watched:
    """The real store, noting which searches have started (the test's only addition)."""

    def __init__(self, store: SqliteStore) -> None:
        self.store = store
        self.keyword_started = asyncio.Event()
        self.modes: list[str] = []

    async def search(self, tenant: Tenant, query: StoreQuery) -> list[StoreHit]:
        self.modes.append(query.mode)
        if query.mode == "keyword":
            self.keyword_started.set()
        return await self.store.search(tenant, query)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


async def test_the_keyword_search_runs_while_the_query_is_still_being_embedded(store: SqliteStore) -> None:
    by_meaning = rec("she loves the ocean")
    by_word = rec("the quokka exhibit opened")
    await put(store, [(by_meaning, axis(0)), (by_word, axis(1))])
    watched = _Watched(store)

    async def embedding() -> np.ndarray:  # the vector arrives only once the keyword search has begun
        await watched.keyword_started.wait()
        return axis(0, lean=0.1)

    retriever = Retriever(watched, PLAIN)
    result = await asyncio.wait_for(retriever.retrieve(T, "quokka", embedding(), 500), timeout=30)
    assert watched.modes == ["keyword", "vector"]
    assert {i.record.id for i in result.items[:2]} == {by_meaning.id, by_word.id}  # both lists still fused
    assert result.timings_ms["vector_wait"] >= 0 and "keyword_search" in result.timings_ms


async def test_a_failed_embedding_fails_the_retrieval_and_stops_the_keyword_search(
    store: SqliteStore,
) -> None:
    await put(store, [(rec("the quokka exhibit opened"), axis(1))])

    async def broken() -> np.ndarray:
        raise RuntimeError("embedder crashed")

    with pytest.raises(RuntimeError, match="embedder crashed"):
        await Retriever(store, PLAIN).retrieve(T, "quokka", broken(), 500)
    pending = [t for t in asyncio.all_tasks() if t is not asyncio.current_task() and not t.done()]
    assert pending == []  # nothing left running in the background


async def test_the_persons_statements_rank_before_their_questions_and_the_assistants_words(
    store: SqliteStore,
) -> None:
    """A question or request of the person's ("How long is a marathon?", "Name a famous painter.") and
    the assistant's words tell nothing about the person: a statement of theirs comes first, though the
    embedding puts the question nearer ("what should I put on for a long drive?" is near any question)."""
    asked = rec("How long is a marathon?", kind="utterance")
    ordered = rec("Name a famous painter.", kind="utterance")
    answered = rec("A marathon is about 42 kilometres.", kind="utterance", role="assistant")
    told = rec("Ninety percent of what I play is soul music.", kind="utterance")
    await put(store, [(asked, axis(0)), (ordered, axis(0, lean=0.1)), (answered, axis(0, lean=0.15)),
                      (told, axis(0, lean=0.4))])  # fmt: skip
    query = "What should I play on a long drive?"
    flat = await Retriever(store, replace(PLAIN, asking_penalty=0.0)).retrieve(T, query, axis(0), 500)
    assert flat.items[0].record.id == asked.id
    result = await Retriever(store, PLAIN).retrieve(T, query, axis(0), 500)
    assert result.items[0].record.id == told.id
    assert {i.record.id for i in result.items} == {asked.id, ordered.id, answered.id, told.id}  # kept, later


async def test_a_query_asking_for_a_day_ranks_statements_naming_one_higher(store: SqliteStore) -> None:
    about = rec("me nan is still sharp as a tack and beats me at dominoes")
    dated = rec("she were born the day after Valentine's in Barnsley")
    await put(store, [(about, axis(0)), (dated, axis(0, lean=0.3))])
    params = replace(PLAIN, keyword_k=0, day_bonus=0.2)
    asks = "Write the Palace an email with the date of her hundredth birthday."
    ranked = await Retriever(store, params).retrieve(T, asks, axis(0), 500)
    assert [i.record.id for i in ranked.items] == [dated.id, about.id]
    other = await Retriever(store, params).retrieve(T, "What games does she like?", axis(0), 500)
    assert [i.record.id for i in other.items] == [about.id, dated.id]  # no day asked: meaning alone
    off = await Retriever(store, replace(params, day_bonus=0.0)).retrieve(T, asks, axis(0), 500)
    assert [i.record.id for i in off.items] == [about.id, dated.id]
