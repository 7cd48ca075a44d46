"""Retrieval latency of the embedded store at scale, on synthetic records.

    python scripts/measure_store_latency.py [--per-conversation 10000] [--conversations 10] [--queries 200]
        [--json OUT]

Fills one SQLite file with ``conversations × per-conversation`` records (random unit vectors, Zipf-
distributed words for BM25), then times the full hybrid retrieval (vector top-150 + BM25 top-150, fusion,
rerank, packing into 500 tokens) in one conversation. The query embedding is not included (the embedders
are timed by the memory benchmark); the numbers are the store and ranking alone. ``cpu_ms`` is the CPU
time per retrieval, which is what wall time approaches on a machine nobody else is using.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from voice_agent.bench.report import machine_info, percentiles, write_json
from voice_agent.memory.records import MemoryRecord
from voice_agent.memory.retrieve import Retriever
from voice_agent.memory.store.base import Tenant, WriteBatch
from voice_agent.memory.store.sqlite import SqliteStore

DIM = 384
VOCAB = [f"w{i}" for i in range(20_000)]


def fill(store: SqliteStore, conversations: int, per_conversation: int, rng: np.random.Generator) -> float:
    ranks = np.arange(1, len(VOCAB) + 1)
    zipf = (1 / ranks) / (1 / ranks).sum()
    started = time.perf_counter()
    for c in range(conversations):
        tenant = Tenant(f"conv-{c}")
        for begin in range(0, per_conversation, 2000):
            n = min(2000, per_conversation - begin)
            words = rng.choice(len(VOCAB), size=(n, 10), p=zipf)
            records = [
                MemoryRecord(tenant.conversation_id, " ".join(VOCAB[w] for w in row), source=f"t{begin + i}",
                             token_count=12)
                for i, row in enumerate(words)
            ]  # fmt: skip
            vectors = rng.standard_normal((n, DIM)).astype(np.float32)
            vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
            store.write_sync(tenant, WriteBatch(records, vectors))
        print(f"  filled conversation {c + 1}/{conversations}", file=sys.stderr)
    return time.perf_counter() - started


async def measure(path: Path, conversations: int, per_conversation: int, queries: int) -> dict[str, object]:
    rng = np.random.default_rng(0)
    store = SqliteStore(path, synchronous="NORMAL")
    await store.open(dim=DIM, embedder="synthetic")
    fill_s = fill(store, conversations, per_conversation, rng)
    retriever = Retriever(store)
    tenant = Tenant("conv-0")
    ranks = np.arange(1, len(VOCAB) + 1)
    zipf = (1 / ranks) / (1 / ranks).sum()
    totals, searches, cpu = [], [], []
    for i in range(queries + 5):
        vector = rng.standard_normal(DIM).astype(np.float32)
        vector /= np.linalg.norm(vector)
        text = " ".join(VOCAB[w] for w in rng.choice(len(VOCAB), size=6, p=zipf))
        t0, c0 = time.perf_counter(), time.process_time()
        result = await retriever.retrieve(tenant, text, vector, 500)
        if i >= 5:  # warm-up
            totals.append((time.perf_counter() - t0) * 1e3)
            cpu.append((time.process_time() - c0) * 1e3)
            searches.append(result.timings_ms["search"])
    await store.close()
    return {
        "conversations": conversations,
        "per_conversation": per_conversation,
        "total_records": conversations * per_conversation,
        "fill_s": round(fill_s, 1),
        "retrieve_ms": percentiles(totals, (50, 95, 99)),
        "search_ms": percentiles(searches, (50, 95)),
        # CPU time of the process per retrieval: what it costs when the machine is not shared (wall time
        # on a busy machine also counts the waits for a core).
        "cpu_ms": percentiles(cpu, (50, 95)),
        "file_mb": round(await asyncio.to_thread(lambda: path.stat().st_size) / 1e6, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--per-conversation", type=int, default=10_000)
    parser.add_argument("--conversations", type=int, default=10)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--json", dest="out")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        result = asyncio.run(
            measure(Path(tmp) / "memory.sqlite3", args.conversations, args.per_conversation, args.queries)
        )
    result["machine"] = machine_info()
    print(result)
    if args.out:
        write_json(args.out, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
