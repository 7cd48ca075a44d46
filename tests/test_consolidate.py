"""Consolidation end to end with real components: spaCy clauses, the MiniLM embedder, the PII scrubber,
and the SQLite store in a temporary data directory."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from voice_agent.config import load_config
from voice_agent.memory.consolidate import consolidate
from voice_agent.memory.consolidate_plan import Policy, turn_ids
from voice_agent.memory.service import Memory
from voice_agent.memory.store import sqlite_archive
from voice_agent.memory.store.base import StoreQuery, Tenant
from voice_agent.memory.writes import WriteRequest

pytestmark = pytest.mark.slow

DAY = 86400.0
START = 1_700_000_000.0
POLICY = Policy(horizon_days=0, keep_recent=2)
# Three old days of talk; day 2 holds the dog's allergy among other things.
DAYS = [
    [
        "I started a pottery class at the community centre on Tuesday.",
        "The teacher showed us how to center clay on the wheel.",
        "My first bowl collapsed twice but the third one held.",
        "Wow, thanks!",
    ],
    [
        "My dog Rex is allergic to chicken, so I buy him salmon kibble.",
        "The vet said Rex should lose two kilos before summer.",
        "We walk along the river every morning at seven.",
    ],
    [
        "My sister Maria Gonzalez moved to Madrid for a new job at a bank.",
        "She starts on the 3rd of March and already found a flat near the park.",
        "I will visit her in May when the tickets are cheaper.",
    ],
]


@pytest.fixture
async def memory(tmp_path: Path, parts: tuple[Any, Any]) -> AsyncIterator[Memory]:
    embedder, chunker = parts
    config = load_config(data_dir=tmp_path / "data", env={"VOICE_AGENT_MEMORY__EMBEDDER": "minilm"})
    m = await Memory.open(config, embedder=embedder, chunker=chunker, env={})
    yield m
    await m.close()


async def _talk(memory: Memory, conversation: str = "c1") -> None:
    for day, lines in enumerate(DAYS):
        for n, line in enumerate(lines):
            when = START + day * DAY + n * 60
            await memory.remember(
                WriteRequest(conversation, "user", line, source=f"D{day}:{n}", created_at=when)
            )
    # Two recent turns (kept as they are by keep_recent) and a pinned fact from long ago.
    await memory.remember(
        WriteRequest(
            conversation, "user", "Today I repaired the bike.", source="R:1", created_at=START + 9 * DAY
        )
    )
    await memory.remember(
        WriteRequest(
            conversation, "user", "Tomorrow I go swimming.", source="R:2", created_at=START + 9 * DAY + 60
        )
    )


def _count(memory: Memory, sql: str, *args: Any) -> int:
    return int(memory.store.run_read(lambda c: c.execute(sql, args).fetchone()[0]))  # type: ignore[attr-defined]


async def test_consolidation_condenses_old_clauses_and_keeps_their_sources(memory: Memory) -> None:
    await _talk(memory)
    fact = await memory.remember_item(
        "c1", "fact", "My blood type is AB negative.", source="F1", importance=0.9
    )
    before = await memory.list("c1", limit=500)
    old_utterances = [r for r in before if r.kind == "utterance" and not r.source.startswith("R:")]
    vec_before = _count(memory, "SELECT count(*) FROM records_vec")

    report = await consolidate(memory, "c1", policy=POLICY)

    assert report.summaries_written >= 3  # at least one per day
    assert report.records_consolidated == len(old_utterances)
    assert (
        report.records_after == report.records_before - report.records_consolidated + report.summaries_written
    )
    after = {r.id: r for r in await memory.list("c1", limit=500)}
    summaries = [r for r in after.values() if r.kind == "summary"]
    links = memory.store.run_read(  # type: ignore[attr-defined]
        lambda c: sqlite_archive.sources_of(c, Tenant("c1"), [s.id for s in summaries])
    )
    linked = [s for ids in links.values() for s in ids]
    assert sorted(linked) == sorted(r.id for r in old_utterances)  # every source, once
    assert all(after[i].status == "consolidated" for i in linked)  # still on disk, text intact
    assert {after[i].text for i in linked} == {r.text for r in old_utterances}
    # The searched index shrank: sources' vectors moved to the archive.
    assert _count(memory, "SELECT count(*) FROM records_vec") == vec_before - len(linked) + len(summaries)
    assert _count(memory, "SELECT count(*) FROM records_archive") == len(linked)
    # Recent records and the pinned fact are untouched.
    assert all(after[r.id].status == "active" for r in before if r.source.startswith("R:"))
    assert after[fact.id].status == "active" and after[fact.id].kind == "fact"
    assert [p.id for p in await memory.pinned("c1")] == [fact.id]
    # Small talk is a source, not quoted; the day's facts are.
    day0 = next(s for s in summaries if "D0:0" in turn_ids(s))
    assert "pottery" in day0.text and "Wow" not in day0.text
    assert all("Gonzalez" not in s.text for s in summaries)  # built from scrubbed text only


async def test_pinned_items_are_never_consolidated_even_when_old(memory: Memory) -> None:
    await _talk(memory)
    old_fact = await memory.remember(
        WriteRequest(
            "c1",
            "user",
            "My blood type is AB negative.",
            kind="fact",
            source="F0",
            created_at=START,
            chunked=False,
        ),
    )
    await consolidate(memory, "c1", policy=POLICY)
    stored = {r.id: r for r in await memory.list("c1", limit=500)}
    assert stored[old_fact[0].id].status == "active"
    assert [p.id for p in await memory.pinned("c1")] == [old_fact[0].id]


async def test_consolidation_is_idempotent(memory: Memory) -> None:
    await _talk(memory)
    first = await consolidate(memory, "c1", policy=POLICY)
    listing = sorted((r.id, r.status) for r in await memory.list("c1", limit=500))
    second = await consolidate(memory, "c1", policy=POLICY)
    assert first.summaries_written > 0
    assert second.summaries_written == 0 and second.records_consolidated == 0
    assert sorted((r.id, r.status) for r in await memory.list("c1", limit=500)) == listing
    dry = await consolidate(memory, "c1", policy=POLICY, dry_run=True)
    assert dry.summaries_written == 0


async def test_dry_run_changes_nothing(memory: Memory) -> None:
    await _talk(memory)
    listing = sorted((r.id, r.status) for r in await memory.list("c1", limit=500))
    dry = await consolidate(memory, "c1", policy=POLICY, dry_run=True)
    assert dry.summaries_written >= 3 and dry.groups and "pottery" in dry.groups[0]["text"]
    assert sorted((r.id, r.status) for r in await memory.list("c1", limit=500)) == listing


async def test_old_fact_is_still_recalled_after_consolidation(memory: Memory) -> None:
    await _talk(memory)
    await consolidate(memory, "c1", policy=POLICY)
    result = await memory.recall("c1", "What is my dog allergic to?", budget_tokens=200)
    assert result.items, "nothing recalled"
    # The index found the day's summary; the prompt gets the clause that answers, read from disk.
    top = result.items[0].record
    assert "chicken" in top.text and top.source == "D1:0" and top.kind == "utterance"
    stored = {r.id: r for r in await memory.list("c1", limit=500)}
    assert stored[top.id].status == "consolidated"  # only the view says active
    assert all(item.record.kind != "summary" or "chicken" not in item.record.text for item in result.items)
    keyword = await memory.recall("c1", "pottery wheel clay", budget_tokens=200)
    assert any("clay" in item.record.text for item in keyword.items)


async def test_forgetting_a_source_removes_it_from_every_summary(memory: Memory) -> None:
    await _talk(memory)
    await consolidate(memory, "c1", policy=POLICY)
    removed = await memory.forget("c1", query="my dog Rex is allergic to chicken")
    assert removed >= 2  # the source clause and the summary quoting it
    stored = await memory.list("c1", limit=500)
    assert not any("chicken" in r.text for r in stored)
    # The day's other clauses are back, active and searchable, and condense again without it.
    walks = [r for r in stored if "river" in r.text]
    assert walks and all(r.status == "active" for r in walks)
    again = await consolidate(memory, "c1", policy=POLICY)
    assert again.summaries_written >= 1
    summaries = [r for r in await memory.list("c1", limit=500) if r.kind == "summary"]
    assert any("river" in s.text for s in summaries) and not any("chicken" in s.text for s in summaries)
    result = await memory.recall("c1", "What is my dog allergic to?", budget_tokens=500)
    assert not any("chicken" in item.record.text for item in result.items)


async def test_forget_by_id_cascades_and_restore_is_deleting_the_summary(memory: Memory) -> None:
    await _talk(memory)
    await consolidate(memory, "c1", policy=POLICY)
    summary = next(r for r in await memory.list("c1", limit=500) if r.kind == "summary" and "March" in r.text)
    sources = memory.store.run_read(  # type: ignore[attr-defined]
        lambda c: sqlite_archive.sources_of(c, Tenant("c1"), [summary.id])
    )[summary.id]
    # Restore: deleting the summary brings its sources back as they were (vectors included).
    assert await memory.forget("c1", ids=[summary.id]) == 1
    stored = {r.id: r for r in await memory.list("c1", limit=500)}
    assert all(stored[s].status == "active" for s in sources)
    hits = await memory.store.search(
        Tenant("c1"), StoreQuery(vector=memory.embedder.embed_queries(["sister job in Madrid"])[0], limit=3)
    )
    assert any(h.record.id in sources for h in hits)
    # Forgetting one source by id removes the summary that quotes it.
    await consolidate(memory, "c1", policy=POLICY)
    summary = next(r for r in await memory.list("c1", limit=500) if r.kind == "summary" and "March" in r.text)
    one = memory.store.run_read(  # type: ignore[attr-defined]
        lambda c: sqlite_archive.sources_of(c, Tenant("c1"), [summary.id])
    )[summary.id][0]
    assert await memory.forget("c1", ids=[one]) == 2
    ids = {r.id for r in await memory.list("c1", limit=500)}
    assert summary.id not in ids and one not in ids


async def test_erasing_the_conversation_leaves_no_archived_vector(memory: Memory) -> None:
    await _talk(memory)
    await _talk(memory, "c2")
    await consolidate(memory, "c1", policy=POLICY)
    await memory.forget("c1")
    assert memory.store.remaining_sync(Tenant("c1")) == {}  # type: ignore[attr-defined]
    assert _count(memory, "SELECT count(*) FROM records_archive") == 0
    assert len(await memory.list("c2", limit=500)) > 0


async def test_idle_consolidation_waits_for_the_critical_path(memory: Memory) -> None:
    import asyncio

    from voice_agent.config import ConsolidationConfig
    from voice_agent.memory.consolidate import IdleConsolidator
    from voice_agent.scheduling import CriticalPathScheduler

    await _talk(memory)
    scheduler = CriticalPathScheduler(max_deferral_s=30.0)
    section = ConsolidationConfig(horizon_days=0, keep_recent=2, every_turns=3)
    idle = IdleConsolidator(memory, section, scheduler)
    idle.after_turn("c1")
    idle.after_turn("c1")  # turns 1 and 2: not due
    assert not idle._tasks
    scheduler.hold("turn-3", kind="reply")
    idle.after_turn("c1")  # the third: due, but waits while the turn's critical path is open
    await asyncio.sleep(0.3)
    assert not [r for r in await memory.list("c1", limit=500) if r.kind == "summary"]  # still waiting
    scheduler.release("turn-3")
    await idle.wait()
    assert idle.runs == 1
    assert [r for r in await memory.list("c1", limit=500) if r.kind == "summary"]
    idle.after_turn("c1")
    idle.after_turn("c1")
    assert not idle._tasks
    idle.after_turn("c1")  # turn 6: due again (nothing left to do)
    await idle.wait()
    assert idle.runs == 2


async def test_consolidation_refuses_a_store_without_the_archive() -> None:
    from voice_agent.errors import InputError

    class Remote:
        backend = "weaviate"
        store = None

    remote = Remote()
    remote.store = remote  # type: ignore[assignment]
    with pytest.raises(InputError, match="embedded store"):
        await consolidate(remote, "c1")


async def test_export_holds_the_clauses_and_an_import_keeps_everything_forgettable(
    memory: Memory, tmp_path: Path, parts: tuple[Any, Any]
) -> None:
    await _talk(memory)
    clauses = sorted(r.text for r in await memory.list("c1", limit=500))
    await consolidate(memory, "c1", policy=POLICY)
    document = await memory.export("c1")
    exported = document["records"]
    assert sorted(r["text"] for r in exported) == clauses  # no summary, every clause
    assert {r["status"] for r in exported} == {"active"}
    embedder, chunker = parts
    config = load_config(data_dir=tmp_path / "other", env={"VOICE_AGENT_MEMORY__EMBEDDER": "minilm"})
    other = await Memory.open(config, embedder=embedder, chunker=chunker, env={})
    try:
        report = await other.import_(document)
        assert report.imported == len(clauses)
        again = await consolidate(other, "c1", policy=POLICY)
        assert again.summaries_written >= 3
    finally:
        await other.close()


async def test_cli_consolidate_reports_and_dry_run_changes_nothing(
    tmp_path: Path,
    parts: tuple[Any, Any],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import asyncio
    import json

    from voice_agent.cli import main

    embedder, chunker = parts
    data = tmp_path / "data"
    config = load_config(data_dir=data, env={"VOICE_AGENT_MEMORY__EMBEDDER": "minilm"})
    m = await Memory.open(config, embedder=embedder, chunker=chunker, env={})
    await _talk(m)
    await m.close()
    monkeypatch.setenv("VOICE_AGENT_MEMORY__EMBEDDER", "minilm")
    common = ["--data-dir", str(data), "--json", "--horizon-days", "0", "--keep-recent", "2"]

    def run(*extra: str) -> dict[str, Any]:
        capsys.readouterr()
        assert main(["memory", "consolidate", *common, *extra]) == 0
        return dict(json.loads(capsys.readouterr().out))

    dry = (await asyncio.to_thread(run, "--dry-run"))["conversations"][0]
    assert dry["dry_run"] and dry["summaries_written"] >= 3 and dry["records_after"] < dry["records_before"]
    done = (await asyncio.to_thread(run))["conversations"][0]
    assert done["summaries_written"] == dry["summaries_written"]
    assert done["records_after"] == dry["records_after"]
    again = (await asyncio.to_thread(run))["conversations"][0]
    assert again["summaries_written"] == 0
