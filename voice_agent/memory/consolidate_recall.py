"""Recall through consolidation summaries: the index finds the summary, the prompt gets its clauses.

A summary stands for a group of old clauses in the searched index (``consolidate.py``). When it ranks
among the best candidates, its sources are read from disk (text, and their archived vectors) and the
``keep`` most relevant to the query take its place, scored just below it: the prompt reads the clauses
that answer, not the whole group, so a token budget holds as many useful items as before consolidation.
The excerpts are shown as ordinary memories (status ``active`` in the view); what is stored is unchanged.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np

from voice_agent.memory.keywords import query_terms, term_overlap
from voice_agent.memory.records import MemoryRecord
from voice_agent.memory.store import sqlite_archive
from voice_agent.memory.store.base import Tenant

C = TypeVar("C")
PARENTS = 30  # summaries among the best candidates that are opened (LoCoMo dev: 12 -> 0.814, 30 -> 0.830)
KEEP = 3  # clauses each opened summary gives
STEP = 0.02  # each further clause of one summary scores this share lower


async def excerpt_summaries(
    store: Any,
    tenant: Tenant,
    ranked: list[C],
    query_text: str,
    query_vector: np.ndarray | None,
    make: Callable[[MemoryRecord, float], C],
) -> list[C]:
    """``ranked``: candidates (``.record``, ``.score``), best first; ``make(record, score)`` builds one.
    Summaries among the first ``PARENTS`` are replaced by their most relevant clauses."""
    opened = [c for c in ranked[: PARENTS * 3] if _record(c).kind == "summary"][:PARENTS]
    if not opened or not hasattr(store, "run_read"):
        return ranked
    ids = [_record(c).id for c in opened]
    links = await asyncio.to_thread(
        store.run_read, lambda conn: sqlite_archive.archived_sources(conn, tenant, ids)
    )
    if not links:
        return ranked  # summaries of another kind (the recent-window condensations) stay as they are
    terms = query_terms(query_text)
    query = None if query_vector is None else np.asarray(query_vector, dtype=np.float32).reshape(-1)
    out: list[C] = []
    for candidate in ranked:
        sources = links.get(_record(candidate).id)
        if not sources:
            out.append(candidate)
            continue
        chosen = _best(sources, terms, query)
        base = float(getattr(candidate, "score", 0.0))
        out += [
            make(record.with_(status="active"), base * (1.0 - STEP * n)) for n, record in enumerate(chosen)
        ]
    out.sort(key=lambda c: -float(getattr(c, "score", 0.0)))
    return out


def _best(
    sources: Sequence[tuple[MemoryRecord, np.ndarray]], terms: list[str], query: np.ndarray | None
) -> list[MemoryRecord]:
    scored: list[tuple[float, int, MemoryRecord]] = []
    for position, (record, vector) in enumerate(sources):
        similarity = float(vector @ query) if query is not None and vector.shape == query.shape else 0.0
        scored.append((similarity + term_overlap(terms, record.text), -position, record))
    scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
    return [record for _, _, record in scored[:KEEP]]


def _record(candidate: Any) -> MemoryRecord:
    record: MemoryRecord = candidate.record
    return record
