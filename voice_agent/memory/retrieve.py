"""Hybrid retrieval under a token budget.

    vector top-k ─┐
                  ├─ weighted reciprocal-rank fusion ─ threshold ─ rerank ─ dedupe ─ context ─ pack
    BM25 top-k  ──┘

- Fusion: each list adds ``weight / (rrf_k + rank)``; ranks are robust to the two scores' scales.
- Threshold: a vector-only candidate below ``min_similarity`` is noise; a fused score under
  ``relative_threshold`` × the best one is too.
- Rerank: cheap features on top of the fused score: share of query terms the text contains, importance,
  kind (facts/decisions/constraints first), recency among the candidates, and a penalty for a second
  item from the same turn, so the budget covers more distinct turns.
- Dedupe: near-identical texts (word-set Jaccard) keep only the best.
- Context: the best clauses bring their neighbours from the same turn (adjacent clauses), scored just
  below their parent, so a clause cut from its turn can still be read in context when budget allows.
- Superseded records are left out (counted as cut "superseded"), or shown marked when asked.
- Pack: greedy by final score; what does not fit is cut "over_budget" (least relevant first).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import inspect
import math
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Literal

import numpy as np

from voice_agent.memory.asking import AskingRecords
from voice_agent.memory.consolidate_recall import excerpt_summaries
from voice_agent.memory.dated import DatedRecords, day_wanted
from voice_agent.memory.keywords import query_terms, stem_overlap, term_stems, word_set
from voice_agent.memory.language import estimate_tokens
from voice_agent.memory.records import PINNED_KINDS, MemoryRecord, ScoredRecord, Status
from voice_agent.memory.store.base import MemoryStore, StoreHit, StoreQuery, Tenant, tenant_of

CutReason = Literal["over_budget", "below_threshold", "duplicate", "superseded"]
TokenCounter = Callable[[str], int]


approx_tokens = estimate_tokens  # four characters a token, one per CJK character (as the prompt counts)


@dataclass(frozen=True)
class RetrievalParams:
    vector_k: int = 150
    keyword_k: int = 150
    rrf_k: float = 20.0
    vector_weight: float = 1.0
    keyword_weight: float = 0.6
    min_similarity: float = 0.0  # vector-only candidates below this cosine similarity are cut
    relative_threshold: float = 0.0  # fused score below this share of the best is cut
    overlap_weight: float = 0.15
    importance_weight: float = 0.1
    pinned_kind_bonus: float = 0.05
    recency_weight: float = 0.02
    # questions, requests and the assistant's words rank after the person's statements (``asking``; 0: off)
    asking_penalty: float = 1.0
    asking_window: int = 48
    # a query that asks for a day ("when…", "put the date in") ranks the statements that name one higher
    day_bonus: float = 0.2
    same_source_penalty: float = 0.25  # multiplies the score of each further item from one turn
    dedupe_jaccard: float = 0.85
    context_parents: int = 0  # the best N clauses bring neighbours from their turn (0: off)
    context_window: int = 1  # neighbours on each side
    context_decay: float = 0.5  # a neighbour scores this share of its parent
    item_overhead_tokens: int = 1  # per-item formatting cost (the separator of render_recalled)
    labels: Literal["per_item", "grouped"] = "grouped"  # how speaker labels are charged (see _cost)
    cost_exponent: float = 0.0  # pack by score / cost**a: a > 0 favours short items at equal relevance
    show_superseded: bool = False


@dataclass(frozen=True)
class Cut:
    record_id: str
    reason: CutReason
    score: float
    tokens: int


@dataclass
class RecallResult:
    """What retrieval returns: the packed items (best first), their token cost, and what was cut and why."""

    items: list[ScoredRecord]
    tokens_used: int
    budget_tokens: int
    cut: list[Cut] = field(default_factory=list)
    candidates: int = 0
    timings_ms: dict[str, float] = field(default_factory=dict)
    query_cached: bool = False  # the query's vector came from the query cache (no model run)

    @property
    def records(self) -> list[MemoryRecord]:
        return [item.record for item in self.items]

    def cut_counts(self) -> dict[str, int]:
        counts = {"over_budget": 0, "below_threshold": 0, "duplicate": 0, "superseded": 0}
        for cut in self.cut:
            counts[cut.reason] += 1
        return counts

    def info(self) -> dict[str, Any]:
        """Everything but the items: for traces and logs (no memory text)."""
        data = self.to_json()
        data.pop("items")
        data["items"] = len(self.items)
        return data

    def to_json(self) -> dict[str, Any]:
        return {
            "tokens_used": self.tokens_used,
            "budget_tokens": self.budget_tokens,
            "candidates": self.candidates,
            "cut": self.cut_counts(),
            "timings_ms": {k: round(v, 3) for k, v in self.timings_ms.items()},
            "query_cached": self.query_cached,
            "items": [
                {**item.record.to_json(), "score": round(item.score, 5), "why": item.why}
                for item in self.items
            ],
        }


@dataclass(slots=True)
class _Candidate:
    record: MemoryRecord
    similarity: float | None = None
    vector_rank: int | None = None
    keyword_rank: int | None = None
    fused: float = 0.0
    score: float = 0.0
    parent: str | None = None  # set for context neighbours


class Retriever:
    """Hybrid retrieval over one tenant of a :class:`MemoryStore`."""

    def __init__(
        self,
        store: MemoryStore,
        params: RetrievalParams | None = None,
        *,
        count_tokens: TokenCounter = approx_tokens,
    ) -> None:
        self.store = store
        self.params = params or RetrievalParams()
        self.count_tokens = count_tokens
        self._asking = AskingRecords()
        self._dated = DatedRecords()  # which records name a day (``day_bonus``)

    async def retrieve(
        self,
        tenant: Tenant | str,
        query_text: str,
        query_vector: np.ndarray | Awaitable[np.ndarray | None] | None,
        budget_tokens: int,
        *,
        params: RetrievalParams | None = None,
    ) -> RecallResult:
        """Retrieve within ``tenant`` for an already scrubbed query and its embedding. The embedding may
        still be on its way (an awaitable): the keyword search, which needs only the text, then runs while
        the query is embedded, and the vector search starts when the vector arrives."""
        tenant = tenant_of(tenant if isinstance(tenant, Tenant) else Tenant(tenant), "retrieve")
        p = params or self.params
        t0 = time.perf_counter()
        statuses: tuple[Status, ...] = ("active", "superseded")
        timings: dict[str, float] = {}
        keywords: asyncio.Task[list[StoreHit]] | None = None
        if query_text.strip() and p.keyword_k > 0:
            query = StoreQuery(keywords=query_text, limit=p.keyword_k, statuses=statuses)
            keywords = asyncio.ensure_future(
                _timed(partial(self.store.search, tenant, query), timings, "keyword_search")
            )
        try:
            vector = await query_vector if inspect.isawaitable(query_vector) else query_vector
            timings["vector_wait"] = (time.perf_counter() - t0) * 1e3
            vector_hits: list[StoreHit] = []
            if vector is not None and p.vector_k > 0:
                query = StoreQuery(vector=vector, limit=p.vector_k, statuses=statuses)
                vector_hits = await _timed(
                    partial(self.store.search, tenant, query), timings, "vector_search"
                )
            keyword_hits = await keywords if keywords is not None else []
        finally:
            if keywords is not None and not keywords.done():  # the embedding failed: stop it, wait for it
                keywords.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await keywords
        t1 = time.perf_counter()
        candidates = fuse(vector_hits, keyword_hits, p)
        t_fused = time.perf_counter()
        cuts: list[Cut] = []
        ranked = self._score(query_text, candidates, p, cuts)
        # A consolidation summary among the best gives its most relevant clauses, read from disk.
        ranked = await excerpt_summaries(
            self.store, tenant, ranked, query_text, vector, lambda r, s: _Candidate(r, score=s)
        )
        t_scored = time.perf_counter()
        if p.context_parents > 0 and p.context_window > 0 and ranked:
            ranked = await self._with_context(tenant, ranked, p)
        t2 = time.perf_counter()
        items, used = self._pack(ranked, budget_tokens, p, cuts)
        t3 = time.perf_counter()
        timings.update(
            search=(t1 - t0) * 1e3, fusion=(t_fused - t1) * 1e3, rerank=(t_scored - t_fused) * 1e3,
            context=(t2 - t_scored) * 1e3, pack=(t3 - t2) * 1e3, total=(t3 - t0) * 1e3,
        )  # fmt: skip
        return RecallResult(items, used, budget_tokens, cuts, candidates=len(candidates), timings_ms=timings)

    def _score(
        self, query_text: str, candidates: list[_Candidate], p: RetrievalParams, cuts: list[Cut]
    ) -> list[_Candidate]:
        if not candidates:
            return []
        best = max(c.fused for c in candidates)
        stems = term_stems(query_terms(query_text)) if p.overlap_weight else []
        wants_day = day_wanted(query_text) if p.day_bonus else ""
        times = [c.record.created_at for c in candidates]
        oldest, newest = min(times), max(times)
        kept: list[_Candidate] = []
        for c in candidates:
            record = c.record
            if record.status == "superseded" and not p.show_superseded:
                cuts.append(Cut(record.id, "superseded", c.fused, self._cost(record, p)))
                continue
            vector_only = c.keyword_rank is None
            if (vector_only and c.similarity is not None and c.similarity < p.min_similarity) or (
                c.fused < p.relative_threshold * best
            ):
                cuts.append(Cut(record.id, "below_threshold", c.fused, self._cost(record, p)))
                continue
            recency = (record.created_at - oldest) / (newest - oldest) if newest > oldest else 0.0
            c.score = (
                c.fused / best
                + p.overlap_weight * stem_overlap(stems, record.text)
                + p.importance_weight * (record.importance - 0.5)
                + (p.pinned_kind_bonus if record.kind in PINNED_KINDS else 0.0)
                + p.recency_weight * recency
                + (p.day_bonus if wants_day and self._dated.fits(record, wants_day) else 0.0)
            )
            kept.append(c)
        kept.sort(key=lambda c: -c.score)
        if p.asking_penalty:
            self._asking.rank_down(kept, p.asking_penalty, p.asking_window)
        return kept

    async def _with_context(
        self, tenant: Tenant, ranked: list[_Candidate], p: RetrievalParams
    ) -> list[_Candidate]:
        parents = ranked[: p.context_parents]
        sources = tuple(sorted({c.record.source for c in parents if c.record.source}))
        if not sources:
            return ranked
        hits = await self.store.search(tenant, StoreQuery(sources=sources, limit=4096))
        by_source: dict[str, list[MemoryRecord]] = {}
        for hit in hits:
            by_source.setdefault(hit.record.source, []).append(hit.record)
        present = {c.record.id for c in ranked}
        extra: list[_Candidate] = []
        for parent in parents:
            turn = by_source.get(parent.record.source, [])
            index = next((i for i, r in enumerate(turn) if r.id == parent.record.id), None)
            if index is None:
                continue
            lo, hi = max(0, index - p.context_window), min(len(turn), index + p.context_window + 1)
            for neighbour in turn[lo:hi]:
                if neighbour.id in present:
                    continue
                present.add(neighbour.id)
                extra.append(
                    _Candidate(neighbour, score=parent.score * p.context_decay, parent=parent.record.id)
                )
        return sorted(ranked + extra, key=lambda c: -c.score)

    def _cost(
        self,
        record: MemoryRecord,
        p: RetrievalParams,
        labelled: set[str] | None = None,
        label_costs: dict[str, int] | None = None,
    ) -> int:
        """What the record costs in the prompt: its text, per-item formatting, and its speaker label —
        once per speaker when ``labels`` is "grouped" (the prompt then lists each speaker's items
        under one heading), else on every item. ``label_costs`` caches the labels' token counts."""
        cost = (record.token_count or self.count_tokens(record.text)) + p.item_overhead_tokens
        label = record.speaker or record.role
        if p.labels == "per_item" or labelled is None or label not in labelled:
            known = label_costs.get(label) if label_costs is not None else None
            if known is None:
                known = self.count_tokens(f"{label}: ")
                if label_costs is not None:
                    label_costs[label] = known
            cost += known
        return cost

    def _pack(
        self, ranked: list[_Candidate], budget: int, p: RetrievalParams, cuts: list[Cut]
    ) -> tuple[list[ScoredRecord], int]:
        """Greedy by value density (score / cost^a) with a same-turn penalty — a lazy heap, since
        penalties only lower priorities — and near-duplicate removal. Once nothing left can fit, the
        rest is cut at once (in priority order)."""
        costs = _Costs(ranked, p, self.count_tokens)
        heap = [(-self._priority(c.score, costs.full(i), p), i) for i, c in enumerate(ranked)]
        heapq.heapify(heap)
        items: list[ScoredRecord] = []
        seen = _SeenTexts(p.dedupe_jaccard)
        per_source: dict[str, int] = {}
        cheapest = _Cheapest(costs.bases)
        used = 0
        while heap:
            stale, i = heapq.heappop(heap)
            c = ranked[i]
            score = self._effective(c, per_source, p)
            priority = self._priority(score, costs.full(i), p)
            if heap and priority < -heap[0][0] and priority < -stale:
                heapq.heappush(heap, (-priority, i))
                continue
            cheapest.done(i)
            cost = costs.now(i)
            if used + cost > budget:  # checked first: it is cheap, and most candidates end here
                cuts.append(Cut(c.record.id, "over_budget", score, cost))
                if used + cheapest.cost() > budget:
                    rest = [(self._effective(ranked[j], per_source, p), j) for _, j in heap]
                    rest.sort(key=lambda item: (-self._priority(item[0], costs.full(item[1]), p), item[1]))
                    cuts += [Cut(ranked[j].record.id, "over_budget", sc, costs.now(j)) for sc, j in rest]
                    break
                continue
            words = word_set(c.record.text)
            if seen.near_duplicate(words):
                cuts.append(Cut(c.record.id, "duplicate", score, cost))
                continue
            used += cost
            seen.add(words)
            costs.labelled.add(costs.labels[i])
            if c.record.source:
                per_source[c.record.source] = per_source.get(c.record.source, 0) + 1
            items.append(ScoredRecord(c.record, score, _why(c)))
        return items, used

    @staticmethod
    def _priority(score: float, cost: int, p: RetrievalParams) -> float:
        return score / (max(1, cost) ** p.cost_exponent) if p.cost_exponent else score

    @staticmethod
    def _effective(c: _Candidate, per_source: dict[str, int], p: RetrievalParams) -> float:
        if c.parent is not None or not c.record.source:
            return c.score
        return c.score * (p.same_source_penalty ** per_source.get(c.record.source, 0))


def fuse(
    vector_hits: Sequence[StoreHit], keyword_hits: Sequence[StoreHit], p: RetrievalParams
) -> list[_Candidate]:
    """Weighted reciprocal-rank fusion of the two result lists, keyed by record id."""
    merged: dict[str, _Candidate] = {}
    for hit in vector_hits:
        c = merged.setdefault(hit.record.id, _Candidate(hit.record))
        c.similarity, c.vector_rank = hit.similarity, hit.rank
        c.fused += p.vector_weight / (p.rrf_k + hit.rank + 1)
    for hit in keyword_hits:
        c = merged.setdefault(hit.record.id, _Candidate(hit.record))
        c.keyword_rank = hit.rank
        c.fused += p.keyword_weight / (p.rrf_k + hit.rank + 1)
    return list(merged.values())


async def _timed(
    search: Callable[[], Awaitable[list[StoreHit]]], timings: dict[str, float], name: str
) -> list[StoreHit]:
    """One store search (started here, so a search cancelled before it began never exists), its wall
    time (ms) recorded under ``name``."""
    start = time.perf_counter()
    try:
        return await search()
    finally:
        timings[name] = (time.perf_counter() - start) * 1e3


class _Costs:
    """What each candidate costs in the prompt (as :meth:`Retriever._cost` counts it): its text and
    formatting (``bases``), plus its speaker label the first time the speaker appears (every time with
    "per_item" labels)."""

    def __init__(self, ranked: Sequence[_Candidate], p: RetrievalParams, count: TokenCounter) -> None:
        self.labels = [c.record.speaker or c.record.role for c in ranked]
        self.label_costs = {label: count(f"{label}: ") for label in set(self.labels)}
        self.bases = [(c.record.token_count or count(c.record.text)) + p.item_overhead_tokens for c in ranked]
        self.every_label = p.labels == "per_item"
        self.labelled: set[str] = set()

    def full(self, i: int) -> int:
        return self.bases[i] + self.label_costs[self.labels[i]]

    def now(self, i: int) -> int:
        """The cost given the labels already in the prompt."""
        return self.full(i) if self.every_label or self.labels[i] not in self.labelled else self.bases[i]


class _Cheapest:
    """The smallest cost among the items not yet packed or cut (a pointer over them sorted by cost)."""

    def __init__(self, costs: Sequence[int]) -> None:
        self._order = sorted(range(len(costs)), key=costs.__getitem__)
        self._costs = costs
        self._done = bytearray(len(costs))
        self._next = 0

    def done(self, i: int) -> None:
        self._done[i] = 1

    def cost(self) -> float:
        while self._next < len(self._order) and self._done[self._order[self._next]]:
            self._next += 1
        return self._costs[self._order[self._next]] if self._next < len(self._order) else math.inf


class _SeenTexts:
    """The word sets of packed items, by size: a set can only be within Jaccard ``threshold`` of sets
    whose size is within [threshold · n, n / threshold], so only those are compared."""

    def __init__(self, threshold: float) -> None:
        self.threshold = threshold
        self._by_size: dict[int, list[frozenset[str]]] = {}
        self._all: list[frozenset[str]] = []
        self._exact: set[frozenset[str]] = set()

    def add(self, words: frozenset[str]) -> None:
        self._by_size.setdefault(len(words), []).append(words)
        self._all.append(words)
        self._exact.add(words)

    def near_duplicate(self, words: frozenset[str]) -> bool:
        t = self.threshold
        if words and words in self._exact and t <= 1.0:  # the same words: Jaccard 1
            return True
        if not 0.5 <= t <= 1.0:  # outside the range the size bound is exact for: compare all
            return any(_jaccard(words, other) >= t for other in self._all)
        n = len(words)
        if n == 0:
            return False
        for size in range(math.ceil(n * t - 1e-9), math.floor(n / t + 1e-9) + 1):
            for other in self._by_size.get(size, ()):
                shared = len(words & other)
                if shared / (n + size - shared) >= t:
                    return True
        return False


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    small, large = (len(a), len(b)) if len(a) <= len(b) else (len(b), len(a))
    if small < 0.5 * large:  # Jaccard <= small / large: cannot be a near-duplicate
        return small / large
    return len(a & b) / len(a | b)


def _why(c: _Candidate) -> str:
    parts = []
    if c.vector_rank is not None:
        parts.append(f"vector #{c.vector_rank + 1} ({c.similarity:.2f})")
    if c.keyword_rank is not None:
        parts.append(f"bm25 #{c.keyword_rank + 1}")
    if c.parent is not None:
        parts.append("context of a match")
    if c.record.status != "active":
        parts.append(c.record.status)
    return " + ".join(parts)


def is_finite_vector(vector: np.ndarray | None) -> bool:
    return (
        vector is not None
        and bool(np.all(np.isfinite(vector)))
        and not math.isclose(float(np.linalg.norm(vector)), 0.0)
    )
