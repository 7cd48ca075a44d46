"""Admin: listing, status changes, forgetting, retention, and export / import of a conversation's memory."""

from __future__ import annotations

import asyncio
import builtins
import time
from collections.abc import Sequence
from typing import Any

from voice_agent.errors import InputError
from voice_agent.memory.consolidate import unconsolidated
from voice_agent.memory.forgetting import ALL_STATUSES, records_meant
from voice_agent.memory.loopback import StockBank
from voice_agent.memory.needs import AdministersRecords
from voice_agent.memory.recall import MemoryRecall
from voice_agent.memory.records import MemoryRecord, Status
from voice_agent.memory.store.base import StatusChange, StoreQuery, Tenant, WriteBatch, tenant_of
from voice_agent.memory.transfer import ImportReport, export_document, parse_import
from voice_agent.memory.vault_link import VaultLink
from voice_agent.memory.writepath import KnownNames, clean_text
from voice_agent.memory.writes import MemoryWriter

_LIST_MAX = 4096


class MemoryAdmin:
    def __init__(
        self,
        store: AdministersRecords,
        vault: VaultLink,
        names: KnownNames,
        writes: MemoryWriter,
        recall: MemoryRecall,
        stock: StockBank,
        *,
        embedder_name: str,
        max_text_chars: int,
    ) -> None:
        self.store = store
        self.vault = vault
        self.names = names
        self.writes = writes
        self.recall = recall
        self.stock = stock
        self.embedder_name = embedder_name
        self.max_text_chars = max_text_chars

    async def list(
        self,
        conversation_id: str,
        *,
        kinds: Sequence[str] | None = None,
        statuses: Sequence[Status] = ALL_STATUSES,
        limit: int = 100,
        newest_first: bool = True,
    ) -> list[MemoryRecord]:
        tenant = tenant_of(conversation_id, "list")
        query = StoreQuery(
            kinds=tuple(kinds) if kinds else None, statuses=tuple(statuses), limit=max(1, limit),
            newest_first=newest_first,
        )  # fmt: skip
        return [h.record for h in await self.store.search(tenant, query)]

    async def set_status(self, conversation_id: str, record_id: str, status: Status) -> bool:
        tenant = tenant_of(conversation_id, "set_status")
        report = await self.store.write(tenant, WriteBatch(status_changes=[StatusChange(record_id, status)]))
        return report.status_changed > 0

    async def forget(
        self, conversation_id: str, ids: Sequence[str] | None = None, query: str | None = None
    ) -> int:
        """Forget records by id, by what a query matches, or (neither given) the whole conversation,
        vault values included. Returns how many records were removed."""
        tenant = tenant_of(conversation_id, "forget")
        if ids is not None:
            return await self.store.delete(tenant, list(ids)) if ids else 0
        if query is not None:
            matched = await self._matching(tenant, query)
            return await self.store.delete(tenant, matched) if matched else 0
        removed = await self.vault.erase(self.store, tenant)
        self.names.forget(tenant.conversation_id)
        return removed

    async def _matching(self, tenant: Tenant, query: str) -> builtins.list[str]:
        """Records a forget request means: those holding a placeholder the query names, or sharing most of
        its content words, or very close to it in meaning."""
        cleaned = clean_text(query, limit=self.max_text_chars, what="query")
        if not cleaned:
            raise InputError("forget: the query is empty")
        asked = await asyncio.to_thread(self.recall.query, tenant.conversation_id, cleaned)
        return await records_meant(self.store, self.stock, tenant, asked.text, asked.vector)

    async def purge_older_than(self, days: float) -> int:
        """Retention: remove records created more than ``days`` ago, in every conversation."""
        if days <= 0:
            raise InputError(f"purge: days must be > 0, got {days}")
        cutoff = time.time() - days * 86400
        removed = 0
        for conversation_id in await self.store.conversations():
            tenant = Tenant(conversation_id)
            while True:
                old = await self.store.search(
                    tenant, StoreQuery(created_before=cutoff, statuses=ALL_STATUSES, limit=_LIST_MAX)
                )
                if not old:
                    break
                removed += await self.store.delete(tenant, [h.record.id for h in old])
            if not await self.store.search(tenant, StoreQuery(statuses=ALL_STATUSES, limit=1)):
                await self.forget(conversation_id)
        return removed

    async def export(self, conversation_id: str) -> dict[str, Any]:
        """Every record of the conversation as JSON (scrubbed text; no vectors, no vault values)."""
        tenant = tenant_of(conversation_id, "export")
        hits = await self.store.search(tenant, StoreQuery(statuses=ALL_STATUSES, limit=_LIST_MAX))
        records = [h.record for h in hits]
        while len(hits) == _LIST_MAX:  # page on: listing is in insertion order
            more = await self.store.search(tenant, StoreQuery(statuses=ALL_STATUSES, limit=_LIST_MAX * 4))
            hits = more[len(records) :]
            records += [h.record for h in hits]
        records = await unconsolidated(self.store, tenant, records)  # the clauses, not their summaries
        return export_document(tenant.conversation_id, records, embedder=self.embedder_name)

    async def import_(self, document: Any, *, conversation_id: str | None = None) -> ImportReport:
        """Load an export; records are re-embedded here and keep their ids, status and links."""
        records, report = parse_import(
            document, conversation_id=conversation_id, max_chars=self.max_text_chars
        )
        by_conversation: dict[str, builtins.list[MemoryRecord]] = {}
        for record in records:
            by_conversation.setdefault(record.conversation_id, []).append(record)
        for conv, items in by_conversation.items():
            tenant = Tenant(conv)
            existing = await self.store.search(
                tenant, StoreQuery(ids=tuple(r.id for r in items), statuses=ALL_STATUSES, limit=len(items))
            )
            known = {h.record.id for h in existing}
            fresh = [r for r in items if r.id not in known]
            report.skipped += len(items) - len(fresh)
            if not fresh:
                continue
            prepared = await asyncio.to_thread(self.writes.writer.reprepare, conv, fresh)
            written = await self.writes.commit(tenant, prepared, [])
            report.imported += written.written
            report.failed += [f"record {rid}: {reason}" for rid, reason in written.failed]
        return report
