"""``remember_many`` (dataset ingest) stores what ``remember`` one by one stores: the same records, vectors,
loopback fingerprints and vault entries, with names learnt in one batch scrubbed in the next. Real spaCy,
MiniLM and e5 (ONNX), real SQLite."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from voice_agent.config import load_config
from voice_agent.errors import InputError, TenantRequiredError
from voice_agent.memory.service import Memory
from voice_agent.memory.store.base import StoreQuery, Tenant
from voice_agent.memory.writes import WriteRequest

pytestmark = pytest.mark.slow

KEY_ENV = {"VOICE_AGENT_PII_KEY": "5e" * 32}
DIALOGUE = (
    ("Ana", "My sister Caroline Fenwick moved to Lisbon last spring, and she loves it there."),
    ("Ben", "Lisbon is lovely. Did she find a flat near the river?"),
    ("Ana", "Yes! She shares it with her dog, and her number is 138 0013 8000 if you need it."),
    ("Ben", "I went hiking in the Alps and I broke my ankle on the way down."),
    ("Ana", "Oh no, I'm so sorry. Thanks for telling me."),
    ("Ben", "Fenwick said the same thing last week, funny."),
    ("Ana", "We adopted a cat in March because the kids kept asking for one."),
    ("Ben", "Okay."),
    ("Ana", "Caroline thinks we should get a second one, but I am not sure about that."),
)


def _requests(conversation_id: str) -> list[WriteRequest]:
    """The dialogue, with an assistant's reply and a fact (one record, not chunked) among the turns."""
    requests = [
        WriteRequest(conversation_id, "user", text, source=f"d{i}", speaker=speaker, record_key=f"turn:d{i}")
        for i, (speaker, text) in enumerate(DIALOGUE)
    ]
    reply = "Ankles take a while to heal. Keep it raised and rest as much as you can."
    requests.insert(4, WriteRequest(conversation_id, "assistant", reply, source="r1", record_key="r1"))
    fact = "Ana's sister lives in Lisbon with her dog."
    item = WriteRequest(
        conversation_id, "user", fact, source="f1", kind="fact", chunked=False, record_key="f1"
    )
    requests.insert(7, item)
    return requests


def _spy(memory: Memory) -> dict[str, Any]:
    """What reaches the vault link (which writes it, unchanged): records, vectors, fingerprints, findings."""
    seen: dict[str, Any] = {"records": [], "vectors": [], "fingerprints": {}, "findings": []}
    write = memory.writes.vault.write

    async def observed(store: Any, tenant: Tenant, batch: Any, findings: list[Any]) -> Any:
        seen["records"] += list(batch.records)
        seen["vectors"].append(np.asarray(batch.vectors))
        seen["fingerprints"].update(batch.fingerprints)
        seen["findings"] += [(f.kind, f.placeholder) for f in findings]
        return await write(store, tenant, batch, findings)

    memory.writes.vault.write = observed  # type: ignore[method-assign]
    return seen


Opener = Callable[[str], Any]


@pytest.fixture
async def open_memory(tmp_path: Path, parts: tuple[Any, Any]) -> AsyncIterator[Opener]:
    opened: list[Memory] = []

    async def open_one(name: str, embedder: Any = None, late: bool = False) -> Memory:
        env = {
            "VOICE_AGENT_MEMORY__EMBEDDER": "minilm",
            "VOICE_AGENT_MEMORY__LATE_CHUNKING": f"{late}".lower(),
        }
        config = load_config(data_dir=tmp_path / name, env=env)
        memory = await Memory.open(config, embedder=embedder or parts[0], chunker=parts[1], env=KEY_ENV)
        opened.append(memory)
        return memory

    yield open_one
    for memory in opened:
        await memory.close()


async def _both(
    open_memory: Opener, embedder: Any = None, batch_size: int = 3, late: bool = False
) -> tuple[Any, Any, Memory]:
    single, many = await open_memory("single", embedder, late), await open_memory("many", embedder, late)
    one_by_one, batched = _spy(single), _spy(many)
    for request in _requests("c1"):
        await single.remember(request)
    outcomes = await many.remember_many(_requests("c1"), batch_size=batch_size)
    assert all(isinstance(o, list) and o for o in outcomes)
    return one_by_one, batched, many


def _same_writes(one_by_one: dict[str, Any], batched: dict[str, Any]) -> None:
    def shape(r: Any) -> tuple[Any, ...]:
        return (r.id, r.text, r.speaker, r.pii_tokens, r.source, r.token_count)

    assert [shape(r) for r in batched["records"]] == [shape(r) for r in one_by_one["records"]]
    np.testing.assert_allclose(
        np.concatenate(batched["vectors"]), np.concatenate(one_by_one["vectors"]), atol=1e-6
    )
    assert batched["fingerprints"].keys() == one_by_one["fingerprints"].keys()
    assert batched["findings"] == one_by_one["findings"]


async def test_many_stores_what_one_by_one_stores(open_memory: Opener) -> None:
    one_by_one, batched, many = await _both(open_memory, batch_size=3)
    _same_writes(one_by_one, batched)
    texts = " ".join(r.text for r in batched["records"])
    # The surname, learnt in the first batch, is scrubbed in the second (known names cross batches).
    assert "Fenwick" not in texts and "Caroline" not in texts and "138" not in texts
    assert batched["fingerprints"]  # personal utterances got their loopback fingerprint
    leak = await many.loopback("someone else", "Your sister moved to Lisbon last spring and loves it there.")
    assert leak.flagged
    result = await many.recall("c1", "where did the sister move?", budget_tokens=200)
    assert "d0" in {r.source for r in result.records}


async def test_the_batch_size_changes_nothing(open_memory: Opener) -> None:
    small, large = await open_memory("small"), await open_memory("large")
    seen_small, seen_large = _spy(small), _spy(large)
    await small.remember_many(_requests("c1"), batch_size=1)
    await large.remember_many(_requests("c1"), batch_size=64)
    _same_writes(seen_small, seen_large)
    store = large.store
    stored = await store.search(Tenant("c1"), StoreQuery(limit=100))
    assert len(stored) == len(seen_large["records"])


async def test_a_refused_utterance_is_reported_and_the_others_are_stored(open_memory: Opener) -> None:
    memory = await open_memory("refused")
    requests = _requests("c1")[:3]
    requests.insert(1, WriteRequest("c1", "user", "bad\x00bytes", source="bad"))
    requests.insert(2, WriteRequest("c1", "user", "   ", source="empty"))
    outcomes = await memory.remember_many(requests, batch_size=2)
    assert isinstance(outcomes[1], InputError) and "NUL" in str(outcomes[1])
    assert outcomes[2] == []
    stored = [o for i, o in enumerate(outcomes) if i not in (1, 2)]
    assert all(isinstance(o, list) and o for o in stored)
    hits = await memory.store.search(Tenant("c1"), StoreQuery(limit=100))
    assert {h.record.source for h in hits} == {"d0", "d1", "d2"}
    with pytest.raises(InputError):
        await memory.remember_many(requests, batch_size=0)
    with pytest.raises(TenantRequiredError):  # never a default conversation
        await memory.remember_many([WriteRequest("", "user", "I like tea.")])


async def test_the_default_embedder_gives_the_vectors_of_single_writes(
    open_memory: Opener, e5_engines: dict[str, Any]
) -> None:
    """e5 on onnxruntime runs one text per pass, so batching turns never moves a vector."""
    one_by_one, batched, _ = await _both(open_memory, e5_engines["onnx"], batch_size=4)
    _same_writes(one_by_one, batched)


async def test_late_chunking_keeps_single_and_batched_writes_equal(open_memory: Opener, e5_late: Any) -> None:
    """With ``memory.late_chunking`` each utterance is one e5 pass of its own: batching moves nothing."""
    one_by_one, batched, many = await _both(open_memory, e5_late, batch_size=4, late=True)
    assert many.writer.late_chunking
    _same_writes(one_by_one, batched)
    assert batched["fingerprints"]
    leak = await many.loopback("someone else", "Your sister moved to Lisbon last spring and loves it there.")
    assert leak.flagged


class _Recording:
    """The real embedder, noting every text it is given."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.texts = inner, []
        self.dim, self.name = inner.dim, inner.name

    def embed_passages(self, texts: list[str]) -> Any:
        self.texts += list(texts)
        return self.inner.embed_passages(texts)

    def embed_queries(self, texts: list[str]) -> Any:
        return self.inner.embed_queries(texts)


async def test_the_assistant_s_words_are_embedded_once_per_clause(open_memory: Opener, parts: Any) -> None:
    """A reply never becomes a loopback fingerprint, so the whole reply is not embedded a second time:
    its clauses' vectors give the direction the next utterance leans towards."""
    recording = _Recording(parts[0])
    memory = await open_memory("assistant", recording)
    assert memory.stock.floor > 0  # the stock phrases are embedded now, not during the writes below
    said = "I went hiking in the Alps last summer and I broke my ankle on the way down."
    reply = "Lisbon is lovely in spring. You could take the tram up to the castle and eat by the river."
    embedded = {}
    for role, text in (("user", said), ("assistant", reply)):
        recording.texts.clear()
        records = await memory.remember(WriteRequest("c1", role, text))
        assert len(records) >= 2, [r.text for r in records]
        embedded[role] = (list(recording.texts), [r.text for r in records])
    texts, clauses = embedded["user"]
    assert texts == [*clauses, " ".join(clauses)]  # the user's utterance whole: its fingerprint
    texts, clauses = embedded["assistant"]
    assert texts == clauses  # the reply's clauses only
    context, _ = memory.writes.last_turn["c1"]
    assert context is not None and abs(float(np.linalg.norm(context)) - 1.0) < 1e-5
    assert float(context @ parts[0].embed_passages([reply])[0]) > 0.8  # it points where the reply does
    result = await memory.recall("c1", "what could I visit in Lisbon?", budget_tokens=200)
    assert any("castle" in r.text for r in result.records)
