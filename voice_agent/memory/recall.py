"""Recall: what a conversation's memory holds about a query, and the facts it pinned.

A query is scrubbed like a stored text (so placeholders match), embedded once (the query cache reuses a
vector prepared while the person was still speaking), and handed to the hybrid retriever.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable

import numpy as np

from voice_agent.errors import InputError
from voice_agent.memory.needs import SearchesRecords
from voice_agent.memory.privacy import MemoryPrivacy
from voice_agent.memory.query_cache import PreparedQuery, QueryEmbeddings
from voice_agent.memory.records import PINNED_KINDS, MemoryRecord, Status
from voice_agent.memory.retrieve import RecallResult, RetrievalParams, Retriever
from voice_agent.memory.store.base import StoreQuery, Tenant, tenant_of
from voice_agent.memory.surface import embedding_text
from voice_agent.memory.writepath import clean_text
from voice_agent.metrics.trace import TurnTrace

LIST_MAX = 4096  # the most records one listing asks the store for


class MemoryRecall:
    def __init__(
        self,
        store: SearchesRecords,
        retriever: Retriever,
        queries: QueryEmbeddings,
        privacy: MemoryPrivacy,
        *,
        max_text_chars: int,
    ) -> None:
        self.store = store
        self.retriever = retriever
        self.queries = queries
        self.privacy = privacy
        self.max_text_chars = max_text_chars

    async def recall(
        self,
        conversation_id: str,
        query: str,
        *,
        budget_tokens: int,
        params: RetrievalParams | None = None,
        trace: TurnTrace | None = None,
    ) -> RecallResult:
        """What this conversation's memory holds about ``query``, packed into ``budget_tokens``."""
        tenant = tenant_of(conversation_id, "recall")
        if budget_tokens < 0:
            raise InputError(f"budget_tokens must be >= 0, got {budget_tokens}")
        cleaned = clean_text(query, limit=self.max_text_chars, what="query")
        if not cleaned or budget_tokens == 0:
            return RecallResult([], 0, budget_tokens)
        t0 = time.perf_counter()
        scrubbed, prepared = await asyncio.to_thread(self._scrub_and_peek, tenant.conversation_id, cleaned)
        scrub_ms = (time.perf_counter() - t0) * 1e3
        if prepared is not None:  # embedded while the person spoke
            result = await self.retriever.retrieve(tenant, scrubbed, prepared, budget_tokens, params=params)
            result.timings_ms = {"scrub": scrub_ms, "embed": 0.0, **result.timings_ms}
        else:
            result = await self._retrieve_embedding(tenant, scrubbed, budget_tokens, params)
            result.timings_ms["scrub"] = scrub_ms
        result.timings_ms["total"] = (time.perf_counter() - t0) * 1e3
        result.query_cached = prepared is not None or result.query_cached
        if trace is not None:
            trace.attrs["retrieve"] = result.info()
        return result

    def _scrub_and_peek(self, conversation_id: str, text: str) -> tuple[str, np.ndarray | None]:
        """(Blocking) the scrubbed query and its vector when the query cache holds it already."""
        scrubbed = self.privacy.scrub_patterns(conversation_id, text)
        return scrubbed, self.queries.cached(embedding_text(scrubbed))

    async def _retrieve_embedding(
        self, tenant: Tenant, scrubbed: str, budget_tokens: int, params: RetrievalParams | None
    ) -> RecallResult:
        """Retrieval for a query not embedded yet: the keyword search already runs while it is embedded."""
        embedding = asyncio.ensure_future(asyncio.to_thread(self._embed, scrubbed))
        try:
            result = await self.retriever.retrieve(
                tenant, scrubbed, _vector_of(embedding), budget_tokens, params=params
            )
        finally:
            if not embedding.done():
                embedding.cancel()
            elif not embedding.cancelled():
                embedding.exception()  # seen: a failed embedding is raised by the retrieval itself
        _vector, cached, embed_ms = embedding.result()
        result.timings_ms = {"embed": embed_ms, **result.timings_ms}
        result.query_cached = cached
        return result

    async def prepare_query(self, conversation_id: str, text: str) -> bool:
        """Embed a likely query ahead of time (the confirmed partial transcript, while the person still
        speaks): when ``recall`` later gets the same text, it reuses this vector instead of running the
        model. Nothing is stored, no vault entry is written. Returns whether the vector was cached already.
        """
        tenant = tenant_of(conversation_id, "prepare_query")
        cleaned = clean_text(text, limit=self.max_text_chars, what="query")
        if not cleaned:
            return False

        def work() -> bool:
            # As the engine does it: scrub with names (as ``scrub``), then recall scrubs again.
            named, _found = self.privacy.scrub_names(tenant.conversation_id, cleaned)
            return self.query(tenant.conversation_id, named).cached

        return await asyncio.to_thread(work)

    def query(self, conversation_id: str, text: str) -> PreparedQuery:
        """(Blocking) the scrubbed query and its vector, with the time each took."""
        t0 = time.perf_counter()
        scrubbed = self.privacy.scrub_patterns(conversation_id, text)
        scrub_ms = (time.perf_counter() - t0) * 1e3
        vector, cached, embed_ms = self._embed(scrubbed)
        return PreparedQuery(scrubbed, vector, cached, {"scrub": scrub_ms, "embed": embed_ms})

    def _embed(self, scrubbed: str) -> tuple[np.ndarray, bool, float]:
        """(Blocking) the vector of a scrubbed query, whether it was cached, and the milliseconds taken."""
        t0 = time.perf_counter()
        vector, cached = self.queries.embed(embedding_text(scrubbed))
        return vector, cached, (time.perf_counter() - t0) * 1e3

    async def pinned(self, conversation_id: str, *, include_superseded: bool = False) -> list[MemoryRecord]:
        """Active facts, decisions, constraints and states the person set (superseded ones only on
        request; they keep their status so the prompt marks them as no longer true)."""
        tenant = tenant_of(conversation_id, "pinned")
        statuses: tuple[Status, ...] = ("active", "superseded") if include_superseded else ("active",)
        hits = await self.store.search(
            tenant, StoreQuery(kinds=tuple(sorted(PINNED_KINDS)), statuses=statuses, limit=LIST_MAX)
        )
        return [h.record for h in hits if h.record.pinned]


async def _vector_of(embedding: Awaitable[tuple[np.ndarray, bool, float]]) -> np.ndarray:
    vector, _cached, _ms = await embedding
    return vector
