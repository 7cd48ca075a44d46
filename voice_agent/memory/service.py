"""``Memory``: the facade the conversation engine, the CLI and the benchmark use, over four small parts.

    memory = await Memory.open(config)
    await memory.remember(WriteRequest("conv-1", "user", "My number is 138 0013 8000.", source="t1"))
    result = await memory.recall("conv-1", "what's my phone number?", budget_tokens=300)
    await memory.close()

The parts, each with a Protocol for the store operations it needs (``needs.py``):

- ``memory.writes`` (``writes.MemoryWriter``): remember, remember_many, remember_item, supersede,
  mark_superseded;
- ``memory.reads`` (``recall.MemoryRecall``): recall, prepare_query, pinned;
- ``memory.privacy`` (``privacy.MemoryPrivacy``): scrub, loopback, render_for_owner (and the vault link);
- ``memory.admin`` (``admin.MemoryAdmin``): list, set_status, forget, purge_older_than, export, import_.

The facade's methods are those of its parts, so callers can use either.
"""

from __future__ import annotations

from typing import Any

from voice_agent.config import Config
from voice_agent.errors import TenantRequiredError
from voice_agent.memory.admin import MemoryAdmin
from voice_agent.memory.loopback import LoopbackChecker, StockBank
from voice_agent.memory.opening import Components, open_components
from voice_agent.memory.privacy import MemoryPrivacy
from voice_agent.memory.query_cache import QueryEmbeddings
from voice_agent.memory.recall import MemoryRecall
from voice_agent.memory.retrieve import RetrievalParams, Retriever
from voice_agent.memory.store.base import MemoryStore
from voice_agent.memory.writepath import KnownNames, WritePath
from voice_agent.memory.writes import CONTEXT_WEIGHT, MemoryWriter, WriteRequest


class Memory:
    def __init__(self, config: Config, parts: Components, params: RetrievalParams | None = None) -> None:
        self.config = config
        self.store = parts.store
        self.embedder = parts.embedder
        self.chunker = parts.chunker
        self.scrubber = parts.scrubber
        self.vault = parts.vault
        limit = config.memory.max_text_chars
        self.names = KnownNames(lambda conversation_id: self.vault.names(conversation_id))
        self.writer = WritePath(
            parts.scrubber, parts.chunker, parts.embedder, self.names, context_weight=CONTEXT_WEIGHT,
            late_chunking=config.memory.late_chunking,
        )  # fmt: skip
        self.retriever = Retriever(parts.store, params)
        self.queries = QueryEmbeddings(parts.embedder)
        self.stock = StockBank(parts.embedder)
        checker = LoopbackChecker(
            parts.store, parts.embedder, threshold=config.memory.loopback_threshold, bank=self.stock
        )
        self.privacy = MemoryPrivacy(
            self.writer, self.vault, checker, parser=parts.chunker, max_text_chars=limit
        )
        self.writes = MemoryWriter(parts.store, self.writer, self.vault, self.stock, max_text_chars=limit)
        self.reads = MemoryRecall(
            parts.store, self.retriever, self.queries, self.privacy, max_text_chars=limit
        )
        self.admin = MemoryAdmin(
            parts.store, self.vault, self.names, self.writes, self.reads, self.stock,
            embedder_name=parts.embedder.name, max_text_chars=limit,
        )  # fmt: skip
        # The facade's methods are its parts' own.
        self.remember = self.writes.remember
        self.remember_many = self.writes.remember_many
        self.remember_item = self.writes.remember_item
        self.supersede = self.writes.supersede
        self.mark_superseded = self.writes.mark_superseded
        self.recall = self.reads.recall
        self.prepare_query = self.reads.prepare_query
        self.pinned = self.reads.pinned
        self.scrub = self.privacy.scrub
        self.loopback = self.privacy.loopback
        self.render_for_owner = self.privacy.render_for_owner
        self.refill_names = self.privacy.refill_names
        self.list = self.admin.list
        self.set_status = self.admin.set_status
        self.forget = self.admin.forget
        self.purge_older_than = self.admin.purge_older_than
        self.export = self.admin.export
        self.import_ = self.admin.import_

    @classmethod
    async def open(
        cls,
        config: Config,
        *,
        embedder: Any = None,
        chunker: Any = None,
        store: MemoryStore | None = None,
        params: RetrievalParams | None = None,
        env: dict[str, str] | None = None,
    ) -> Memory:
        parts = await open_components(config, embedder=embedder, chunker=chunker, store=store, env=env)
        return cls(config, parts, params)

    async def close(self) -> None:
        await self.store.close()
        await self.vault.close()

    async def __aenter__(self) -> Memory:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def release(self, conversation_id: str) -> None:
        """Drop what this process caches for a conversation (its last turn, known names); nothing stored
        changes. For long-running servers when a visit ends, so the caches do not grow with visitors."""
        self.writes.last_turn.pop(conversation_id, None)
        self.names.forget(conversation_id)


__all__ = ["Memory", "TenantRequiredError", "WriteRequest"]
