"""Query embeddings off the critical path (cache, prepared partial transcripts), recall's per-stage
timings, and names found by the chunker's own parser (no second spaCy pipeline)."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from voice_agent.config import load_config
from voice_agent.memory.query_cache import QueryEmbeddings
from voice_agent.memory.service import Memory
from voice_agent.memory.writes import WriteRequest
from voice_agent.metrics.trace import TurnTrace

pytestmark = pytest.mark.slow


class CountingEmbedder:
    """The real MiniLM embedder, counting how many texts reach the model."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.dim, self.name = inner.dim, inner.name
        self.query_texts: list[str] = []

    def start(self) -> None:
        self.inner.start()

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return np.asarray(self.inner.embed_passages(texts))

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        self.query_texts += list(texts)
        return np.asarray(self.inner.embed_queries(texts))


@pytest.fixture
async def memory(tmp_path: Path, parts: tuple[Any, Any]) -> AsyncIterator[Memory]:
    embedder, chunker = parts
    config = load_config(data_dir=tmp_path / "data", env={"VOICE_AGENT_MEMORY__EMBEDDER": "minilm"})
    m = await Memory.open(config, embedder=CountingEmbedder(embedder), chunker=chunker, env={})
    yield m
    await m.close()


def test_the_cache_embeds_a_text_once_and_evicts_the_oldest(parts: tuple[Any, Any]) -> None:
    counting = CountingEmbedder(parts[0])
    cache = QueryEmbeddings(counting, capacity=2)
    first, hit = cache.embed("where do I work?")
    assert not hit and first.shape == (counting.dim,)
    again, hit = cache.embed("where do I work?")
    assert hit and again is first and counting.query_texts == ["where do I work?"]
    expected = np.asarray(parts[0].embed_queries(["where do I work?"])[0])
    assert float(first @ expected) > 0.999
    cache.embed("b")
    cache.embed("c")  # capacity 2: the oldest ("where do I work?") goes
    assert "where do I work?" not in cache and len(cache) == 2
    assert cache.stats.to_json() == {"hits": 1, "misses": 3, "waited": 0}


def test_concurrent_requests_for_one_text_run_the_model_once(parts: tuple[Any, Any]) -> None:
    counting = CountingEmbedder(parts[0])
    cache = QueryEmbeddings(counting)
    results: list[np.ndarray] = []

    def ask() -> None:
        results.append(cache.embed("my sister's name")[0])

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert counting.query_texts == ["my sister's name"]
    assert len(results) == 4 and all(r is results[0] for r in results)


async def test_a_prepared_partial_transcript_saves_the_final_embedding(memory: Memory) -> None:
    await memory.remember(
        WriteRequest("c1", "user", "I work as a nurse at the children's hospital.", source="t1")
    )
    embedder = memory.embedder
    assert isinstance(embedder, CountingEmbedder)
    assert await memory.prepare_query("c1", "where do I work") is False  # while the person speaks
    model_calls = len(embedder.query_texts)
    trace = TurnTrace("c1")
    result = await memory.recall("c1", "where do I work", budget_tokens=200, trace=trace)
    assert result.query_cached and len(embedder.query_texts) == model_calls  # no model run
    assert "nurse" in result.items[0].record.text
    stages = trace.attrs["retrieve"]["timings_ms"]
    for stage in ("scrub", "embed", "vector_search", "keyword_search", "fusion", "rerank", "pack", "total"):
        assert stage in stages and stages[stage] >= 0.0, stage
    assert trace.attrs["retrieve"]["query_cached"] is True
    other = await memory.recall("c1", "where do I work now", budget_tokens=200)  # the text changed
    assert not other.query_cached and len(embedder.query_texts) == model_calls + 1


async def test_names_come_from_the_chunker_pipeline(memory: Memory) -> None:
    scrubbed = await memory.scrub("c1", "Tell Maria Gonzalez I said hello")
    assert "Maria" not in scrubbed and scrubbed.startswith("Tell [NAME:")
    assert memory.privacy.name_finder is None  # no second English pipeline was loaded
    assert memory.chunker.person_spans("Tell Maria Gonzalez I said hello") == [(5, 19)]
