"""Consolidation for long lives: old utterance clauses condense into summary records, with their sources.

    report = await consolidate(memory, "conv-1", policy=Policy(horizon_days=30))

Each group of old clauses (``consolidate_plan``) becomes one ``summary`` record, written in one store
transaction with: its vector (the embedder on the summary text), the sources' status set to
``consolidated`` (their vectors leave the searched index for the archive; text and keywords stay on
disk, so they can be restored, exported, and forgotten), and ``links`` from the summary to every
source. Retrieval searches ``active`` records only, so the index grows with summaries, not clauses.

Forgetting keeps summaries honest (``store/sqlite_archive.py``): deleting a source deletes the
summaries quoting it and restores their other sources; ``forget --query`` also reaches the sources
inside a matched summary (:func:`sources_meant`). Restoring a summary's clauses = deleting the summary.

Needs the embedded store (links and the archive live in its SQLite file); Weaviate refuses clearly.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from voice_agent.errors import InputError
from voice_agent.memory.consolidate_plan import (
    Group,
    Policy,
    cutoff_time,
    plan_groups,
    summarise,
    summary_record,
)
from voice_agent.memory.embed import aembed_passages
from voice_agent.memory.keywords import term_overlap
from voice_agent.memory.records import MemoryRecord
from voice_agent.memory.scrub import PLACEHOLDER_RE
from voice_agent.memory.store import sqlite_archive
from voice_agent.memory.store.base import StatusChange, StoreQuery, Tenant, WriteBatch, tenant_of
from voice_agent.memory.surface import embedding_text

PAGE = 4000  # eligible records read at once (a year of daily talk is ~10 pages)
GROUPS_PER_STEP = 16  # groups embedded and written per step; a caller may pause between steps
# Wraps each step: the idle scheduler's background slot (waits while a turn's critical path is open).
StepGuard = Callable[[], contextlib.AbstractAsyncContextManager[None]]
log = logging.getLogger(__name__)


@dataclass
class ConsolidationReport:
    conversation_id: str
    dry_run: bool
    records_before: int = 0  # active records (what retrieval searches)
    records_after: int = 0
    summaries_written: int = 0
    records_consolidated: int = 0
    clauses_quoted: int = 0  # sources whose text the summaries hold (the rest: small talk, duplicates)
    seconds: float = 0.0
    groups: list[dict[str, Any]] = field(default_factory=list)  # dry run: what would be written

    def to_json(self) -> dict[str, Any]:
        return {
            "conversation_id": self.conversation_id,
            "dry_run": self.dry_run,
            "records_before": self.records_before,
            "records_after": self.records_after,
            "summaries_written": self.summaries_written,
            "records_consolidated": self.records_consolidated,
            "clauses_quoted": self.clauses_quoted,
            "seconds": round(self.seconds, 3),
            **({"groups": self.groups} if self.dry_run else {}),
        }


def _embedded_store(store: Any) -> Any:
    if not hasattr(store, "write_sync") or not hasattr(store, "run_read"):
        raise InputError(
            f"memory consolidation needs the embedded store (memory.store = 'sqlite'); "
            f"this one is {getattr(store, 'backend', type(store).__name__)!r}"
        )
    return store


async def consolidate(
    memory: Any,
    conversation_id: str,
    *,
    policy: Policy | None = None,
    dry_run: bool = False,
    guard: StepGuard | None = None,
) -> ConsolidationReport:
    """Condense the conversation's old clauses (``memory``: a ``Memory``, for its store and embedder).
    Each step (a few groups: embed, one transaction) runs inside ``guard()`` when given."""
    policy = policy or Policy()
    tenant = tenant_of(conversation_id, "consolidate")
    store = _embedded_store(memory.store)
    report = ConsolidationReport(tenant.conversation_id, dry_run)
    started = time.perf_counter()
    report.records_before = await _active_count(store, tenant)
    cutoff = await _cutoff(store, tenant, policy)
    while cutoff is not None:
        records, vectors = await _eligible(store, tenant, cutoff)
        groups = plan_groups(records, vectors, policy)
        if len(records) == PAGE and groups:  # the page may end inside a day: that day waits
            last_day = _day(records[-1])
            groups = [g for g in groups if _day(g.records[0]) != last_day] or groups[:1]
        if not groups:
            break
        if dry_run:
            report.groups = [_describe(g, policy) for g in groups[:50]]
            report.summaries_written = len(groups)
            report.records_consolidated = sum(len(g.records) for g in groups)
            break
        for start in range(0, len(groups), GROUPS_PER_STEP):
            step = groups[start : start + GROUPS_PER_STEP]
            async with guard() if guard is not None else contextlib.nullcontext():
                await _write_step(memory, store, tenant, step, policy, report)
        if len(records) < PAGE:
            break
    report.records_after = report.records_before - report.records_consolidated + report.summaries_written
    if not dry_run:
        report.records_after = await _active_count(store, tenant)
    report.seconds = time.perf_counter() - started
    return report


async def _write_step(
    memory: Any, store: Any, tenant: Tenant, groups: list[Group], policy: Policy, report: ConsolidationReport
) -> None:
    summaries = [summarise(g, policy) for g in groups]
    records = [summary_record(g, s) for g, s in zip(groups, summaries, strict=True)]
    if policy.vector == "text":
        vectors = await aembed_passages(memory.embedder, [embedding_text(r.text) for r in records])
    else:
        vectors = np.stack([_unit_mean(g.vectors) for g in groups])
    changes = [StatusChange(rid, "consolidated") for g in groups for rid in g.ids]

    def links(conn: Any) -> None:
        for group, record in zip(groups, records, strict=True):
            sqlite_archive.link(conn, tenant, record.id, group.ids, record.created_at)

    batch = WriteBatch(records=records, vectors=np.asarray(vectors, dtype=np.float32), status_changes=changes)
    await asyncio.to_thread(store.write_sync, tenant, batch, links)
    report.summaries_written += len(records)
    report.records_consolidated += len(changes)
    report.clauses_quoted += sum(len(s.quoted) for s in summaries)


def _unit_mean(vectors: np.ndarray) -> np.ndarray:
    mean = np.asarray(vectors, dtype=np.float32).mean(axis=0)
    norm = float(np.linalg.norm(mean))
    return mean / norm if norm > 0 else mean


async def _active_count(store: Any, tenant: Tenant) -> int:
    def count(conn: Any) -> int:
        row = conn.execute(
            "SELECT count(*) FROM records WHERE conversation_id = ? AND status = 'active'",
            (tenant.conversation_id,),
        ).fetchone()
        return int(row[0])

    return int(await asyncio.to_thread(store.run_read, count))


async def _cutoff(store: Any, tenant: Tenant, policy: Policy) -> float | None:
    """By creation time, not insertion order: summaries are inserted late but dated by their sources."""

    def newest(conn: Any) -> list[float]:
        rows = conn.execute(
            "SELECT created_at FROM records WHERE conversation_id = ? AND status = 'active'"
            " AND kind != 'summary' ORDER BY created_at DESC LIMIT ?",
            (tenant.conversation_id, max(1, policy.keep_recent)),
        ).fetchall()
        return [float(r[0]) for r in rows]

    return cutoff_time(await asyncio.to_thread(store.run_read, newest), policy)


async def _eligible(store: Any, tenant: Tenant, cutoff: float) -> tuple[list[MemoryRecord], np.ndarray]:
    hits = await store.search(
        tenant,
        StoreQuery(
            limit=PAGE, kinds=("utterance",), statuses=("active",), created_before=cutoff, with_vectors=True
        ),
    )
    records = [h.record for h in hits if h.record.vector is not None]
    if not records:
        return [], np.zeros((0, 1), dtype=np.float32)
    return records, np.asarray([r.vector for r in records], dtype=np.float32)


def _day(record: MemoryRecord) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(record.created_at))


def _describe(group: Group, policy: Policy) -> dict[str, Any]:
    summary = summarise(group, policy)
    return {"day": _day(group.records[0]), "sources": len(group.records), "text": summary.text}


# -- forgetting -------------------------------------------------------------------------------------------
async def sources_meant(
    store: Any,
    tenant: Tenant,
    chosen: list[str],
    scrubbed: str,
    vector: np.ndarray,
    close: Callable[[float], bool],
) -> list[str]:
    """For a forget request: the sources inside the chosen summaries that the request means (a
    placeholder it names, most of its words, or ``close`` in meaning by their archived vectors). When a
    summary matched but no single source does, its most similar source goes: the summary said it."""
    if not hasattr(store, "run_read") or not chosen:
        return []
    by_summary = await asyncio.to_thread(
        store.run_read, lambda c: sqlite_archive.archived_sources(c, tenant, chosen)
    )
    wanted = {f"[{k}:{h}]" for k, h in PLACEHOLDER_RE.findall(scrubbed)}
    query = np.asarray(vector, dtype=np.float32).reshape(-1)
    meant: list[str] = []
    for sources in by_summary.values():
        scored = []
        for record, source_vector in sources:
            similarity = float(source_vector @ query) if source_vector.shape == query.shape else 0.0
            overlap = term_overlap(scrubbed, record.text)
            if (wanted & set(record.pii_tokens)) or overlap >= 0.6 or close(similarity):
                meant.append(record.id)
            scored.append((similarity + overlap, record.id))
        if scored and not any(record.id in meant for record, _ in sources):
            meant.append(max(scored)[1])
    return meant


async def unconsolidated(store: Any, tenant: Tenant, records: list[MemoryRecord]) -> list[MemoryRecord]:
    """For an export: consolidation is how the index is kept small, not what was said. The clauses go
    out as they were (active) and the summaries built from them stay behind; an import condenses them
    again in its own idle time, with links it can keep."""
    if not hasattr(store, "run_read"):
        return records
    summaries = [r.id for r in records if r.kind == "summary"]
    linked = await asyncio.to_thread(
        store.run_read, lambda c: sqlite_archive.sources_of(c, tenant, summaries)
    )
    return [
        r.with_(status="active") if r.status == "consolidated" else r for r in records if r.id not in linked
    ]


def policy_from_config(section: Any, **overrides: Any) -> Policy:
    """The ``[memory.consolidation]`` section as a plan policy (``overrides``: None means keep)."""
    values = {
        "horizon_days": section.horizon_days,
        "keep_recent": section.keep_recent,
        "max_clauses": section.max_clauses,
        "max_tokens": section.max_tokens,
        "topic_similarity": section.topic_similarity,
        "duplicate_overlap": section.duplicate_overlap,
    }
    values.update({k: v for k, v in overrides.items() if v is not None})
    return Policy(**values)


class IdleConsolidator:
    """Consolidation in idle time: after every ``every_turns``-th turn of a conversation, a background task
    condenses what became old, one step at a time, each step waiting for the critical path to clear
    (``scheduling.CriticalPathScheduler.background``). Never awaited by a turn; stopping it is safe (every
    step is one transaction)."""

    def __init__(self, memory: Any, section: Any, scheduler: Any) -> None:
        self.memory = memory
        self.section = section
        self.scheduler = scheduler
        self.policy = policy_from_config(section)
        self.runs = 0  # finished runs (for tests and traces)
        self._turns: dict[str, int] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}

    @property
    def usable(self) -> bool:
        store = getattr(self.memory, "store", None)
        return bool(self.section.enabled) and hasattr(store, "write_sync") and hasattr(store, "run_read")

    def after_turn(self, conversation_id: str) -> None:
        if not self.usable or conversation_id in self._tasks:
            return
        seen = self._turns[conversation_id] = self._turns.get(conversation_id, 0) + 1
        if seen % self.section.every_turns:
            return
        task = asyncio.get_running_loop().create_task(self._run(conversation_id))
        self._tasks[conversation_id] = task
        task.add_done_callback(lambda _t: self._tasks.pop(conversation_id, None))

    async def _run(self, conversation_id: str) -> None:
        def guard() -> contextlib.AbstractAsyncContextManager[None]:
            return self.scheduler.background("memory.consolidate", group=f"consolidate:{conversation_id}")

        try:
            async with guard():  # even the first look waits for a quiet moment
                pass
            report = await consolidate(self.memory, conversation_id, policy=self.policy, guard=guard)
            self.runs += 1
            if report.summaries_written:
                log.info("consolidated %s", report.to_json())
        except Exception:  # background work: logged, never raised into a turn
            log.exception("memory consolidation failed for a conversation")

    async def wait(self) -> None:
        tasks = list(self._tasks.values())
        if tasks:
            await asyncio.wait(tasks)

    async def stop(self) -> None:
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks)
