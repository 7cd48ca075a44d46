"""`voice-agent bench memory --scale 10k,100k,1m`: retrieval latency and ANN recall as memory grows.

Records are synthetic but made of real speech: the sentences of a LoCoMo-format file, with the
speakers' names swapped for others and the years shifted, so texts (and their BM25 postings) vary like
a long life's do. Vectors come cheaply: the unique sentences are embedded once (the "pool"), and each
record's vector is ``normalise(a · v_i + (1 - a) · v_j + noise)`` with ``v_i`` its own sentence's
vector, ``v_j`` another sentence's, ``a`` in [0.7, 1) and Gaussian noise — as many distinct vectors as
needed, distributed like real ones around real sentences (the JSON's ``method`` says so too).

Up to 100k records go into one conversation (one person over years); larger sizes are spread over
conversations of 1,000 records (a kiosk fleet). Queries are the file's real questions, asked with the
query cache cleared, so every latency includes embedding the query (then once more with the vector
cached, as when ``Memory.prepare_query`` embedded it during speech: ``retrieve_prepared_ms``);
``recall_vs_exact`` is the overlap of the store's vector top-10 with an exact cosine top-10 over the
same conversation's vectors. ``index`` says what searched them: an HNSW graph (conversations of at least
``ann_min_records``), the exact matrix in RAM (smaller ones: recall 1.0 by construction), or sqlite-vec's
scan (``--ann-min-records 0``). ``build_s`` is the time to make every conversation's index ready (built,
or loaded into RAM). ``load_avg_1m`` is the machine's load when the size finished: wall times on a shared
machine are read against it; ``retrieve_cpu_ms`` (process CPU per recall) depends on it far less.
"""

from __future__ import annotations

import asyncio
import os
import re
import statistics
import tempfile
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from voice_agent.bench.bench_key import with_bench_key
from voice_agent.bench.dataset import Dataset, load_locomo
from voice_agent.bench.provenance import memory_models
from voice_agent.bench.report import Progress, percentiles, run_meta, write_json
from voice_agent.config import Config
from voice_agent.errors import InputError
from voice_agent.gc_pauses import MONITOR, pauses_between
from voice_agent.memory.language import estimate_tokens
from voice_agent.memory.records import MemoryRecord
from voice_agent.memory.store.ann_index import DEFAULT_MIN_RECORDS
from voice_agent.memory.store.base import StoreQuery, Tenant, WriteBatch

ONE_CONVERSATION_MAX = 100_000  # sizes up to this go into one conversation
RECORDS_PER_CONVERSATION = 1_000  # beyond it: a fleet of conversations this large
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kKmM]?)\s*$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_YEAR = re.compile(r"\b(19|20)\d\d\b")
_NAMES = (
    "Amara", "Bastian", "Chen", "Dalia", "Emeka", "Farida", "Goran", "Hana", "Ivo", "Jonas", "Keiko",
    "Lucia", "Mateo", "Nadia", "Omar", "Priya", "Quentin", "Rosa", "Sami", "Tove", "Uma", "Viktor",
)  # fmt: skip
METHOD = (
    "texts: the dataset's unique sentences with speaker names swapped and years shifted; vectors: "
    "normalise(a*v_i + (1-a)*v_j + N(0, {noise}^2)) over an embedded pool of {pool} sentences, a~U(0.7,1); "
    "<= {one:,} records in one conversation, else conversations of {per:,}; queries: the dataset's "
    "questions, query cache cleared before each (embedding included)"
)


def parse_sizes(text: str) -> list[int]:
    """``"10k,100k,1m"`` → ``[10000, 100000, 1000000]``."""
    sizes = []
    for part in text.split(","):
        if not part.strip():
            continue
        match = _SIZE.match(part)
        if match is None:
            raise InputError(f"--scale: {part!r} is not a size like 10k, 100k or 1m")
        factor = {"": 1, "k": 1_000, "m": 1_000_000}[match.group(2).lower()]
        size = int(float(match.group(1)) * factor)
        if size < 1:
            raise InputError(f"--scale: {part!r} must be at least 1 record")
        sizes.append(size)
    if not sizes:
        raise InputError("--scale needs at least one size")
    return sizes


def conversations_for(records: int) -> int:
    if records <= ONE_CONVERSATION_MAX:
        return 1
    return max(1, records // RECORDS_PER_CONVERSATION)


@dataclass(frozen=True)
class Layout:
    """How ``records`` are spread over ``conversations`` (named ``<prefix><n>``)."""

    records: int
    conversations: int
    prefix: str = "scale-"

    def conversation(self, c: int) -> str:
        return f"{self.prefix}{c:05d}"

    def count(self, c: int) -> int:
        per = self.records // self.conversations
        return per + (1 if c < self.records - per * self.conversations else 0)


@dataclass
class Pool:
    """The embedded unique sentences records are made from, and the questions asked."""

    texts: list[str]
    vectors: np.ndarray
    speakers: list[str]
    questions: list[str]


def build_pool(dataset: Dataset, embedder: Any, *, pool_size: int, seed: int = 0) -> Pool:
    seen: dict[str, None] = {}
    for sample in dataset.samples:
        for turn in sample.turns:
            for sentence in _SENTENCE_END.split(turn.text):
                if len(sentence.split()) >= 3:
                    seen.setdefault(sentence.strip(), None)
    texts = list(seen)
    if not texts:
        raise InputError(f"{dataset.path}: no sentences to build records from")
    rng = np.random.default_rng(seed)
    if len(texts) > pool_size:
        texts = [texts[i] for i in sorted(rng.choice(len(texts), pool_size, replace=False))]
    vectors = np.asarray(embedder.embed_passages(texts), dtype=np.float32)
    speakers = sorted({s for sample in dataset.samples for s in sample.speakers if s})
    questions = [q.question for q in dataset.questions()]
    if not questions:
        raise InputError(f"{dataset.path}: no questions to ask")
    return Pool(texts, vectors, speakers, questions)


def synthesize(pool: Pool, count: int, seed: int, noise: float = 0.01) -> tuple[list[str], np.ndarray]:
    """``count`` (text, vector) pairs; deterministic in ``seed`` (one seed per conversation)."""
    rng = np.random.default_rng(seed)
    own = rng.integers(0, len(pool.texts), count)
    other = rng.integers(0, len(pool.texts), count)
    weight = rng.uniform(0.7, 1.0, (count, 1)).astype(np.float32)
    vectors = weight * pool.vectors[own] + (1 - weight) * pool.vectors[other]
    vectors += rng.normal(0.0, noise, vectors.shape).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    names = rng.integers(0, len(_NAMES), count)
    years = rng.integers(-6, 7, count)
    texts = [
        _vary(pool.texts[i], pool.speakers, _NAMES[n], int(y))
        for i, n, y in zip(own, names, years, strict=True)
    ]
    return texts, vectors.astype(np.float32)


def _vary(text: str, speakers: Sequence[str], name: str, year_shift: int) -> str:
    for speaker in speakers:
        text = text.replace(speaker, name)
    if year_shift:
        text = _YEAR.sub(lambda m: str(int(m.group()) + year_shift), text)
    return text


async def _ingest(memory: Any, pool: Pool, layout: Layout, show: bool) -> float:
    """Write the synthetic records straight into the store (the write path is measured by the
    dataset run); returns the seconds taken."""
    bar = Progress(f"scale {layout.records:,}: ingest", layout.records, enabled=show)
    start = time.perf_counter()
    for c in range(layout.conversations):
        conversation = layout.conversation(c)
        count = layout.count(c)
        texts, vectors = synthesize(pool, count, seed=c)
        for begin in range(0, count, 2000):
            batch = [
                MemoryRecord(conversation, text, source=f"s{begin + i}", token_count=estimate_tokens(text),
                             created_at=1.6e9 + (begin + i) * 600.0)
                for i, text in enumerate(texts[begin : begin + 2000])
            ]  # fmt: skip
            await memory.store.write(
                Tenant(conversation), WriteBatch(batch, vectors[begin : begin + len(batch)])
            )
            bar.advance(len(batch))
    bar.close()
    return time.perf_counter() - start


async def _build(memory: Any, layout: Layout) -> float:
    """Time to make every conversation's ANN index ready (0 where the exact scan serves it)."""
    ann = getattr(memory.store, "ann", None)
    if ann is None:
        return 0.0
    ann.background = False
    start = time.perf_counter()
    probe = np.zeros(ann.dim, np.float32)
    probe[0] = 1.0
    for c in range(layout.conversations):
        await asyncio.to_thread(ann.search, Tenant(layout.conversation(c)).key, probe, 1)
    return time.perf_counter() - start


async def _ask(memory: Any, pool: Pool, layout: Layout, queries: int) -> dict[str, Any]:
    MONITOR.install()
    gc_start = MONITOR.sample()
    rng = np.random.default_rng(1)
    latencies: list[float] = []
    cpu: list[float] = []  # process CPU per recall, all threads: what the wall time would be on idle cores
    warm: list[float] = []  # the same recall again: its query vector cached, as after prepare_query
    warm_cpu: list[float] = []
    stages: dict[str, list[float]] = {}
    overlaps: list[float] = []
    exact_cache: dict[int, np.ndarray] = {}
    for q in range(queries):
        question = pool.questions[q % len(pool.questions)]
        c = int(rng.integers(0, layout.conversations))
        memory.queries.clear()  # every query pays for its embedding
        start, cpu_start = time.perf_counter(), time.process_time()
        result = await memory.recall(layout.conversation(c), question, budget_tokens=500)
        latencies.append((time.perf_counter() - start) * 1e3)
        cpu.append((time.process_time() - cpu_start) * 1e3)
        start, cpu_start = time.perf_counter(), time.process_time()
        await memory.recall(layout.conversation(c), question, budget_tokens=500)
        warm.append((time.perf_counter() - start) * 1e3)
        warm_cpu.append((time.process_time() - cpu_start) * 1e3)
        for stage, ms in result.timings_ms.items():
            stages.setdefault(stage, []).append(ms)
        if c not in exact_cache:
            exact_cache = {c: synthesize(pool, layout.count(c), seed=c)[1]}
        overlaps.append(await _overlap(memory, layout.conversation(c), question, exact_cache[c]))
    return {
        "retrieve_ms": percentiles(latencies),
        "retrieve_cpu_ms": percentiles(cpu),
        "retrieve_prepared_ms": percentiles(warm),  # query embedded ahead (Memory.prepare_query)
        "retrieve_prepared_cpu_ms": percentiles(warm_cpu),
        "stages_ms": {stage: percentiles(values) for stage, values in stages.items()},
        "recall_vs_exact": round(statistics.fmean(overlaps), 4) if overlaps else 0.0,
        "gc": pauses_between(gc_start, MONITOR.sample()),  # collections during the recalls
    }


async def _overlap(memory: Any, conversation: str, question: str, vectors: np.ndarray, k: int = 10) -> float:
    """Share of the exact cosine top-k (over the conversation's vectors) in the store's top-k."""
    vector, _ = memory.queries.embed(question)
    hits = await memory.store.search(
        Tenant(conversation), StoreQuery(vector=vector, limit=150, statuses=("active", "superseded"))
    )
    found = {int(h.record.source[1:]) for h in hits[:k]}
    exact = np.argsort(-(vectors @ vector))[:k]
    return len(found & {int(i) for i in exact}) / k


def _index_kind(layout: Layout, ann_min_records: int | None, store: str) -> str:
    """What searched the vectors: an HNSW graph, the exact matrix in RAM, or sqlite-vec's scan."""
    if store != "sqlite":
        return store
    if ann_min_records is None:
        return "sqlite-vec scan"
    return "hnsw" if layout.count(0) >= ann_min_records else "exact in RAM"


def _disk_bytes(data_dir: Path) -> int:
    return sum(p.stat().st_size for p in data_dir.rglob("*") if p.is_file())


def _rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    return 0.0


async def run_scale(
    dataset_path: str | Path,
    config: Config,
    sizes: Sequence[int],
    *,
    queries: int = 200,
    pool_size: int = 2000,
    progress: bool = True,
    ann_min_records: int | None = DEFAULT_MIN_RECORDS,
) -> dict[str, Any]:
    """One fresh store per size; returns the ``scale`` list and how the data was made.
    ``ann_min_records``: from how many records a conversation searches its HNSW index (None: never)."""
    from voice_agent.memory.service import Memory
    from voice_agent.memory.store.sqlite import SqliteStore

    dataset = load_locomo(dataset_path)
    entries = []
    pool: Pool | None = None
    run = uuid.uuid4().hex[:8]  # a server-side store (Weaviate) keeps tenants between runs
    for size in sizes:
        layout = Layout(size, conversations_for(size), prefix=f"scale-{run}-{size}-")
        with tempfile.TemporaryDirectory(prefix="va-bench-scale-") as tmp:
            scale_config = with_bench_key(config, Path(tmp))
            store = None
            if config.memory.store == "sqlite":
                store = SqliteStore(scale_config.store_path(), ann_min_records=ann_min_records)
            memory = await Memory.open(scale_config, store=store)
            try:
                if pool is None:
                    pool = await asyncio.to_thread(build_pool, dataset, memory.embedder, pool_size=pool_size)
                ingest_s = await _ingest(memory, pool, layout, progress)
                build_s = await _build(memory, layout)
                asked = await _ask(memory, pool, layout, queries)
                rss = _rss_mb()
                load = os.getloadavg()[0]  # the machine is shared: wall times are read against this
                if config.memory.store != "sqlite":  # a server keeps what it was given: remove it
                    for c in range(layout.conversations):
                        await memory.store.delete(Tenant(layout.conversation(c)), None)
            finally:
                await memory.close()
            entries.append(
                {
                    "records": size, "conversations": layout.conversations, **asked,
                    "build_s": round(build_s, 2), "ingest_s": round(ingest_s, 2), "rss_mb": rss,
                    "bytes_per_record": round(_disk_bytes(Path(tmp)) / size, 1),
                    "store": config.memory.store, "queries": queries, "ann_min_records": ann_min_records,
                    "index": _index_kind(layout, ann_min_records, config.memory.store), "load_avg_1m": load,
                }
            )  # fmt: skip
    method = METHOD.format(
        noise=0.01,
        pool=len(pool.texts) if pool else 0,
        one=ONE_CONVERSATION_MAX,
        per=RECORDS_PER_CONVERSATION,
    )
    return {"scale": entries, "scale_method": method}


async def run_scale_bench(
    dataset_path: str | Path,
    config: Config,
    sizes: str | Sequence[int],
    *,
    queries: int = 200,
    pool_size: int = 2000,
    json_out: str | Path | None = None,
    plot_out: str | Path | None = None,
    progress: bool = True,
    env: dict[str, str] | None = None,
    ann_min_records: int | None = None,
) -> dict[str, Any]:
    """``bench memory --scale``: the embedded store at each size, and Weaviate when WEAVIATE_URL is set."""
    wanted = parse_sizes(sizes) if isinstance(sizes, str) else list(sizes)
    if queries < 1:
        raise InputError(f"--queries must be at least 1, got {queries}")
    embedded = config.model_copy(update={"memory": config.memory.model_copy(update={"store": "sqlite"})})
    threshold = DEFAULT_MIN_RECORDS if ann_min_records is None else ann_min_records
    report = await run_scale(
        dataset_path, embedded, wanted, queries=queries, pool_size=pool_size, progress=progress,
        ann_min_records=threshold if threshold > 0 else None,
    )  # fmt: skip
    url = (env if env is not None else os.environ).get("WEAVIATE_URL")
    if url:
        server = config.model_copy(
            update={"memory": config.memory.model_copy(update={"store": "weaviate", "weaviate_url": url})}
        )
        more = await run_scale(dataset_path, server, wanted, queries=queries, pool_size=pool_size,
                               progress=progress)  # fmt: skip
        report["scale"] += more["scale"]
    report["meta"] = run_meta(
        config={"memory": config.memory.model_dump(mode="json")}, dataset=str(dataset_path),
        sizes=wanted, models=memory_models(config),
    )  # fmt: skip
    if json_out is not None:
        write_json(json_out, report)
    if plot_out is not None:
        from voice_agent.bench.plots import plot_scale

        plot_scale(report, plot_out)
    return report
