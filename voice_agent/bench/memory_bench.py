"""`voice-agent bench memory`: evidence recall within a token budget on a LoCoMo-format dataset.

Every system ingests the same turns (each sample its own conversation) and answers the same questions
(all but category 5, adversarial) within the same budget. Recall of a question = the share of its
evidence turns (``dia_id``) among the sources of what was retrieved. Systems, in one run:

- ``voice-agent``: the full write path (scrub, clause chunks, embeddings, store) and hybrid retrieval. It
  ingests as ``voice-agent memory ingest`` does (``remember_many``, many turns per call); after the
  questions, the same turns are written once more one by one (``remember``, into a conversation of their
  own) to measure the single-utterance write path a spoken turn takes (``write_ms``, ``write_cpu_ms``);
- ``baseline-turn-cosine``: one record per turn ("Speaker: text"), ranked by cosine only;
- ``baseline-turn-bm25``: one record per turn, ranked by BM25 only;
- ``baseline-sentence-rrf`` (optional): one record per sentence, plain reciprocal-rank fusion — the
  reference point the chunker and reranker must beat.

Baselines pack greedily, best first, skipping what does not fit, and count tokens the same way.

voice-agent's store uses the benchmarks' fixed PII key (``bench_key``): names are embedded under
pseudonyms picked by their keyed hash, so a random key per run moved recall by up to 0.02 between runs
of the same code. ``pii_keys`` > 1 runs voice-agent again under further keys and reports the spread.
"""

from __future__ import annotations

import asyncio
import re
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from voice_agent.bench.bench_key import key_in_use, with_bench_key
from voice_agent.bench.dataset import Dataset, Question, Sample, load_locomo
from voice_agent.bench.provenance import memory_models
from voice_agent.bench.report import Progress, percentiles, run_meta, write_json
from voice_agent.config import Config
from voice_agent.errors import InputError
from voice_agent.memory.language import estimate_tokens
from voice_agent.memory.records import MemoryRecord
from voice_agent.memory.store.base import StoreHit, StoreQuery, Tenant, WriteBatch
from voice_agent.memory.store.sqlite import SqliteStore
from voice_agent.memory.writes import WriteRequest

CATEGORIES = ("1", "2", "3", "4")
DEFAULT_SYSTEMS = ("voice-agent", "baseline-turn-cosine", "baseline-turn-bm25")
ALL_SYSTEMS = (*DEFAULT_SYSTEMS, "baseline-sentence-rrf")
INGEST_TURNS_PER_CALL = 64
PROBE_TURNS = 600  # single writes measured after the questions (write_ms, write_cpu_ms)
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+")


class System(Protocol):
    name: str

    async def ingest(self, sample: Sample) -> list[tuple[float, float]]: ...

    async def retrieve(self, question: Question, budget_tokens: int) -> tuple[set[str], int]: ...

    async def close(self) -> None: ...


@dataclass
class SystemResult:
    name: str
    recalls: dict[str, list[float]] = field(default_factory=dict)
    tokens: list[float] = field(default_factory=list)
    retrieve_ms: list[float] = field(default_factory=list)
    write_ms: list[float] = field(default_factory=list)
    write_cpu_ms: list[float] = field(default_factory=list)  # process CPU per turn (all threads)
    ingest_s: float = 0.0
    ingest_turns: int = 0
    ingest_cpu_ms: list[float] = field(default_factory=list)  # per ingested turn (a batch's share)
    by_question: dict[int, float] = field(default_factory=dict)

    def add(self, position: int, question: Question, recall: float, tokens: int, ms: float) -> None:
        self.recalls.setdefault(str(question.category), []).append(recall)
        self.recalls.setdefault("overall", []).append(recall)
        self.by_question[position] = recall
        self.tokens.append(tokens)
        self.retrieve_ms.append(ms)

    def to_json(self) -> dict[str, Any]:
        recall = {key: _mean(self.recalls.get(key, [])) for key in ("overall", *CATEGORIES)}
        return {
            "recall": recall,
            "tokens_mean": round(statistics.fmean(self.tokens), 1) if self.tokens else 0.0,
            "retrieve_ms": percentiles(self.retrieve_ms),
            "write_ms": percentiles(self.write_ms),
            "write_cpu_ms": percentiles(self.write_cpu_ms),
            "ingest_turns_per_s": round(self.ingest_turns / self.ingest_s, 2) if self.ingest_s else 0.0,
            "ingest_cpu_ms_per_turn": _mean(self.ingest_cpu_ms, digits=2),
        }


def _mean(values: Sequence[float], digits: int = 4) -> float:
    return round(statistics.fmean(values), digits) if values else 0.0


def evidence_recall(question: Question, sources: set[str]) -> float:
    return sum(1 for dia_id in question.evidence if dia_id in sources) / len(question.evidence)


# -- voice-agent ---------------------------------------------------------------------------------------
class VoiceAgentSystem:
    name = "voice-agent"

    def __init__(self, memory: Any) -> None:
        self.memory = memory
        self.skipped: Counter[str] = Counter()
        self.stages: dict[str, list[float]] = {}  # recall's per-stage times (ms), per question

    async def ingest(self, sample: Sample) -> list[tuple[float, float]]:
        """(wall ms, process CPU ms) per stored turn: its share of the ``remember_many`` call it was in."""
        times: list[tuple[float, float]] = []
        for begin in range(0, len(sample.turns), INGEST_TURNS_PER_CALL):
            turns = sample.turns[begin : begin + INGEST_TURNS_PER_CALL]
            t0, c0 = time.perf_counter(), time.process_time()
            outcomes = await self.memory.remember_many([_request(sample.sample_id, turn) for turn in turns])
            stored = 0
            for outcome in outcomes:
                if isinstance(outcome, InputError):
                    self.skipped[f"turn_rejected: {str(outcome)[:60]}"] += 1
                else:
                    stored += 1
            wall, cpu = (time.perf_counter() - t0) * 1e3, (time.process_time() - c0) * 1e3
            times += [(wall / max(1, stored), cpu / max(1, stored))] * stored
        return times

    async def probe_writes(self, sample: Sample, limit: int) -> list[tuple[float, float]]:
        """(wall ms, process CPU ms) of single writes (``remember``, as a spoken turn is stored) of the
        sample's first ``limit`` turns, into a conversation of their own (the questions are answered)."""
        self.memory.writer.passages.clear()  # these texts were embedded at ingest: measure them cold
        times = []
        for turn in sample.turns[:limit]:
            request = _request(f"{sample.sample_id}/write-probe", turn)
            t0, c0 = time.perf_counter(), time.process_time()
            try:
                await self.memory.remember(request)
            except InputError:
                continue
            times.append(((time.perf_counter() - t0) * 1e3, (time.process_time() - c0) * 1e3))
        return times

    async def retrieve(self, question: Question, budget_tokens: int) -> tuple[set[str], int]:
        result = await self.memory.recall(question.sample_id, question.question, budget_tokens=budget_tokens)
        for stage, ms in result.timings_ms.items():
            self.stages.setdefault(stage, []).append(ms)
        return {r.source for r in result.records}, result.tokens_used

    async def close(self) -> None:
        await self.memory.close()


def _request(conversation_id: str, turn: Any) -> WriteRequest:
    return WriteRequest(
        conversation_id, "user", turn.text, source=turn.dia_id, speaker=turn.speaker or None,
        created_at=turn.created_at,
    )  # fmt: skip


# -- baselines -------------------------------------------------------------------------------------------
class BaselineSystem:
    """Naive references: raw "Speaker: text" units (turns or sentences), one ranking, greedy packing."""

    def __init__(self, name: str, embedder: Any, *, unit: str, ranking: str, workdir: Path) -> None:
        self.name = name
        self.embedder = embedder
        self.unit = unit  # "turn" | "sentence"
        self.ranking = ranking  # "cosine" | "bm25" | "rrf"
        self.store = SqliteStore(workdir / f"{name}.sqlite3", synchronous="NORMAL")
        self._opened = False

    async def ingest(self, sample: Sample) -> list[tuple[float, float]]:
        if not self._opened:
            await self.store.open(dim=self.embedder.dim, embedder=self.embedder.name)
            self._opened = True
        tenant = Tenant(sample.sample_id)
        times = []
        for turn in sample.turns:
            t0, c0 = time.perf_counter(), time.process_time()
            texts = (
                [turn.text]
                if self.unit == "turn"
                else [s for s in _SENTENCE_END.split(turn.text) if s.strip()]
            )
            units = [f"{turn.speaker}: {text}" if turn.speaker else text for text in texts]
            vectors = await asyncio.to_thread(self.embedder.embed_passages, units)
            records = [
                MemoryRecord(sample.sample_id, text, source=turn.dia_id, token_count=estimate_tokens(text))
                for text in units
            ]
            await self.store.write(tenant, WriteBatch(records, np.asarray(vectors, dtype=np.float32)))
            times.append(((time.perf_counter() - t0) * 1e3, (time.process_time() - c0) * 1e3))
        return times

    async def retrieve(self, question: Question, budget_tokens: int) -> tuple[set[str], int]:
        tenant = Tenant(question.sample_id)
        ranked: list[MemoryRecord]
        vector_hits: list[StoreHit] = []
        keyword_hits: list[StoreHit] = []
        if self.ranking in ("cosine", "rrf"):
            vector = await asyncio.to_thread(self.embedder.embed_queries, [question.question])
            vector_hits = await self.store.search(tenant, StoreQuery(vector=vector[0], limit=200))
        if self.ranking in ("bm25", "rrf"):
            keyword_hits = await self.store.search(tenant, StoreQuery(keywords=question.question, limit=200))
        ranked = (
            _rrf([vector_hits, keyword_hits])
            if self.ranking == "rrf"
            else [h.record for h in vector_hits or keyword_hits]
        )
        sources: set[str] = set()
        used = 0
        for record in ranked:
            if used + record.token_count <= budget_tokens:
                used += record.token_count
                sources.add(record.source)
        return sources, used

    async def close(self) -> None:
        if self._opened:
            await self.store.close()


def _rrf(lists: Sequence[Sequence[StoreHit]], k: float = 60.0) -> list[MemoryRecord]:
    scores: dict[str, float] = {}
    records: dict[str, MemoryRecord] = {}
    for hits in lists:
        for hit in hits:
            scores[hit.record.id] = scores.get(hit.record.id, 0.0) + 1.0 / (k + hit.rank + 1)
            records[hit.record.id] = hit.record
    return [records[i] for i in sorted(scores, key=lambda i: -scores[i])]


# -- the run ---------------------------------------------------------------------------------------------
async def build_systems(
    config: Config,
    names: Sequence[str],
    workdir: Path,
    *,
    memory_factory: Callable[[Config], Any] | None = None,
    key_number: int = 0,
) -> list[System]:
    from voice_agent.memory.embed import build_embedder
    from voice_agent.memory.service import Memory

    unknown = set(names) - set(ALL_SYSTEMS)
    if unknown:
        raise InputError(f"unknown system(s) {sorted(unknown)}; choose from {list(ALL_SYSTEMS)}")
    systems: list[System] = []
    embedder = None
    for name in names:
        if name == "voice-agent":
            bench_config = with_bench_key(config, workdir / "voice-agent", key_number)
            memory = await (memory_factory(bench_config) if memory_factory else Memory.open(bench_config))
            systems.append(VoiceAgentSystem(memory))
            embedder = memory.embedder
            continue
        if embedder is None:
            embedder = build_embedder(config, config.model_dir)
        unit = "sentence" if name == "baseline-sentence-rrf" else "turn"
        ranking = name.rsplit("-", 1)[1]
        systems.append(BaselineSystem(name, embedder, unit=unit, ranking=ranking, workdir=workdir))
    return systems


async def run_memory_bench(
    dataset_path: str | Path,
    config: Config,
    *,
    budget_tokens: int = 500,
    systems: Sequence[str] = DEFAULT_SYSTEMS,
    json_out: str | Path | None = None,
    plot_out: str | Path | None = None,
    progress: bool = True,
    memory_factory: Callable[[Config], Any] | None = None,
    pii_keys: int = 1,
) -> dict[str, Any]:
    """Run the benchmark; returns (and writes, when ``json_out`` is given) the report."""
    if budget_tokens < 1:
        raise InputError(f"--budget-tokens must be at least 1, got {budget_tokens}")
    if pii_keys < 1:
        raise InputError(f"--pii-keys must be at least 1, got {pii_keys}")
    dataset = load_locomo(dataset_path)
    questions = dataset.questions()
    if not questions:
        raise InputError(
            f"{dataset_path}: no question with usable evidence (skipped: {dict(dataset.skipped)})"
        )
    interrupted = False
    results: dict[str, SystemResult] = {}
    keys: dict[str, Any] | None = None
    with tempfile.TemporaryDirectory(prefix="va-bench-memory-") as tmp:
        built = await build_systems(config, systems, Path(tmp), memory_factory=memory_factory)
        try:
            for system in built:
                results[system.name] = result = SystemResult(system.name)
                await _ingest(system, dataset, result, progress)
                await _ask(system, questions, budget_tokens, result, progress)
                await _probe_writes(system, dataset, result, progress)
            if "voice-agent" in results and pii_keys > 1:
                keys = await _recall_over_keys(
                    config, dataset, questions, budget_tokens, results["voice-agent"], pii_keys,
                    Path(tmp), progress=progress, memory_factory=memory_factory,
                )  # fmt: skip
        except (KeyboardInterrupt, asyncio.CancelledError):
            interrupted = True  # Ctrl-C: report what was measured so far
        finally:
            for system in built:
                await system.close()
    report = _report(dataset, questions, budget_tokens, results, built, config, interrupted)
    if keys is not None and "voice-agent" in report["systems"]:
        report["systems"]["voice-agent"]["recall_over_keys"] = keys
    if json_out is not None:
        write_json(json_out, report)
    if plot_out is not None:
        from voice_agent.bench.plots import plot_memory

        plot_memory(report, plot_out)
    return report


async def _recall_over_keys(
    config: Config,
    dataset: Dataset,
    questions: list[Question],
    budget: int,
    first: SystemResult,
    count: int,
    workdir: Path,
    *,
    progress: bool,
    memory_factory: Callable[[Config], Any] | None,
) -> dict[str, Any]:
    """voice-agent's overall recall under bench keys 0 … count-1 (key 0: the run already made)."""
    overall = [first.to_json()["recall"]["overall"]]
    for number in range(1, count):
        here = workdir / f"key{number}"
        (system,) = await build_systems(
            config, ["voice-agent"], here, memory_factory=memory_factory, key_number=number
        )
        try:
            result = SystemResult(f"voice-agent (bench key {number})")
            await _ingest(system, dataset, result, progress)
            await _ask(system, questions, budget, result, progress)
        finally:
            await system.close()
        overall.append(result.to_json()["recall"]["overall"])
    return {
        "keys": count, "overall": overall, "mean": _mean(overall), "min": min(overall), "max": max(overall),
    }  # fmt: skip


async def _ingest(system: System, dataset: Dataset, result: SystemResult, show: bool) -> None:
    bar = Progress(f"{system.name}: ingest", dataset.turns, enabled=show)
    start = time.perf_counter()
    for sample in dataset.samples:
        for wall, cpu in await system.ingest(sample):
            result.write_ms.append(wall)
            result.write_cpu_ms.append(cpu)
            result.ingest_cpu_ms.append(cpu)
            result.ingest_turns += 1
        bar.advance(len(sample.turns))
    result.ingest_s = time.perf_counter() - start
    bar.close()


async def _probe_writes(system: System, dataset: Dataset, result: SystemResult, show: bool) -> None:
    """A system that ingests many turns per call measures its single writes apart (``probe_writes``)."""
    probe = getattr(system, "probe_writes", None)
    if probe is None:
        return
    bar = Progress(f"{system.name}: single writes", min(PROBE_TURNS, dataset.turns), enabled=show)
    result.write_ms, result.write_cpu_ms = [], []
    left = PROBE_TURNS
    for sample in dataset.samples:
        if left <= 0:
            break
        for wall, cpu in await probe(sample, left):
            result.write_ms.append(wall)
            result.write_cpu_ms.append(cpu)
        bar.advance(min(len(sample.turns), left))
        left -= len(sample.turns)
    bar.close()


async def _ask(
    system: System, questions: list[Question], budget: int, result: SystemResult, show: bool
) -> None:
    bar = Progress(f"{system.name}: questions", len(questions), enabled=show)
    for position, question in enumerate(questions):
        t0 = time.perf_counter()
        sources, tokens = await system.retrieve(question, budget)
        ms = (time.perf_counter() - t0) * 1e3
        result.add(position, question, evidence_recall(question, sources), tokens, ms)
        bar.advance()
    bar.close()


def _report(
    dataset: Dataset,
    questions: list[Question],
    budget: int,
    results: dict[str, SystemResult],
    systems: list[System],
    config: Config,
    interrupted: bool,
) -> dict[str, Any]:
    skipped = dict(dataset.skipped)
    for system in systems:
        for reason, count in getattr(system, "skipped", Counter()).items():
            skipped[f"{system.name}: {reason}"] = count
    # Tuning used the even-numbered questions only; the odd ones are the held-out half.
    halves = {
        name: {
            "tune_even": _mean([r for i, r in res.by_question.items() if i % 2 == 0]),
            "holdout_odd": _mean([r for i, r in res.by_question.items() if i % 2 == 1]),
        }
        for name, res in results.items()
    }
    systems_json = {name: res.to_json() for name, res in results.items()}
    for system in systems:  # where the retrieval time goes: query scrub/embed, searches, fusion, rerank, pack
        stages = getattr(system, "stages", None)
        if stages and system.name in systems_json:
            systems_json[system.name]["stages_ms"] = {k: percentiles(v) for k, v in stages.items()}
    return {
        "questions": len(questions),
        "budget_tokens": budget,
        "systems": systems_json,
        "halves": halves,
        "meta": run_meta(
            config={"memory": config.memory.model_dump(mode="json")},
            dataset=str(dataset.path),
            samples=len(dataset.samples),
            turns=dataset.turns,
            skipped=skipped,
            interrupted=interrupted,
            pii_key=key_in_use(),
            models=memory_models(config),
        ),
    }
