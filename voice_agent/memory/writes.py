"""The write part of memory: ``remember(WriteRequest(...))`` stores one utterance, all its clauses, at once.

Validate → scrub → chunk → scrub names → embed (``writepath``, one worker thread) → one store write
holding records, vectors, keywords, loopback fingerprints, supersede links and the vault entries.
``remember_many`` does the same for many utterances at once (``write_many``: dataset ingest).
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from voice_agent.errors import InputError, StoreError
from voice_agent.memory.loopback import StockBank, is_personal
from voice_agent.memory.needs import WritesRecords
from voice_agent.memory.records import KINDS, PINNED_KINDS, ROLES, Kind, MemoryRecord
from voice_agent.memory.store.base import StatusChange, StoreQuery, Tenant, WriteBatch, WriteReport, tenant_of
from voice_agent.memory.vault_link import VaultLink
from voice_agent.memory.write_many import DEFAULT_BATCH, WriteOutcome, remember_many
from voice_agent.memory.writepath import CONTEXT_CHARS, PreparedWrite, WritePath, clean_text
from voice_agent.memory.writepath import WriteRequest as CleanRequest
from voice_agent.metrics.trace import TurnTrace

CONTEXT_WEIGHT = 1.0  # how far a clause's vector leans towards its exchange (writepath._vectors)
_LIST_MAX = 4096


@dataclass(frozen=True)
class WriteRequest:
    """One utterance (or one item: a fact, a decision, a summary) to store in a conversation."""

    conversation_id: str
    role: str  # "user" or "assistant"
    text: str | bytes  # bytes must be UTF-8
    source: str = ""  # the turn it came from; empty: a fresh random id
    user_id: str | None = None
    kind: str = "utterance"
    importance: float | None = None  # within [0, 1]; None: 0.8 for pinned kinds, else 0.5
    subject: str | None = None  # pinned kinds: what it is about
    supersede: bool = True  # with a subject: older pinned records about it become superseded
    speaker: str | None = None  # a speaker label (a name: it becomes a NAME placeholder)
    created_at: float | None = None  # epoch seconds; None: now
    chunked: bool = True  # False: one record for the whole text, not one per clause
    # Set: record ids derive from (conversation, key, clause index), so writing the same key again
    # replaces its records instead of adding a second copy (ingest, resumable).
    record_key: str | None = None


class MemoryWriter:
    def __init__(
        self,
        store: WritesRecords,
        writer: WritePath,
        vault: VaultLink,
        stock: StockBank,
        *,
        max_text_chars: int,
    ) -> None:
        self.store = store
        self.writer = writer
        self.vault = vault
        self.stock = stock
        self.max_text_chars = max_text_chars
        # Per conversation: the last utterance (its vector, and its scrubbed text), the next one's context.
        self.last_turn: dict[str, tuple[np.ndarray | None, str]] = {}

    async def remember(self, request: WriteRequest, *, trace: TurnTrace | None = None) -> list[MemoryRecord]:
        """Store one utterance (all its clauses) atomically; ``[]`` for empty text. With ``record_key``
        the record ids derive from it: the same key written again replaces, never duplicates."""
        conversation_id = request.conversation_id
        tenant = tenant_of(Tenant(conversation_id, request.user_id) if conversation_id else None, "remember")
        cleaned = self.validated(request)
        if cleaned is None:
            return []
        t0 = time.perf_counter()
        context, keyword_context = self.context_for(cleaned)
        prepared = await asyncio.to_thread(self.writer.prepare, cleaned, context, keyword_context)
        t1 = time.perf_counter()
        subject = request.subject
        changes = (
            await self._supersede_changes(tenant, prepared, subject) if request.supersede and subject else []
        )
        if changes:
            prepared.records[0] = prepared.records[0].with_(supersedes=changes[0].record_id)
        report = await self.commit(tenant, prepared, changes)
        if report.failed:
            raise StoreError(f"the store refused {len(report.failed)} record(s): {report.failed[0][1]}")
        self.advance_context(cleaned, prepared)
        if trace is not None:
            _spans(trace, t0, prepared.timings_ms, store_ms=(time.perf_counter() - t1) * 1e3)
        return prepared.records

    async def remember_many(
        self, requests: Sequence[WriteRequest], *, batch_size: int = DEFAULT_BATCH
    ) -> list[WriteOutcome]:
        """Many utterances in order, as ``remember`` one by one would store them, for about half the
        CPU (see ``write_many``); one outcome per request: its records, or the ``InputError``."""
        return await remember_many(self, requests, batch_size=batch_size)

    def context_for(self, cleaned: CleanRequest) -> tuple[np.ndarray | None, str]:
        """The utterance before this one in its conversation (vector, scrubbed text): this one's context;
        none for unchunked items (facts, summaries)."""
        return self.last_turn.get(cleaned.conversation_id, (None, "")) if cleaned.chunked else (None, "")

    def advance_context(self, cleaned: CleanRequest, prepared: PreparedWrite) -> None:
        """This utterance becomes the next one's context (unchunked items never do)."""
        if cleaned.chunked:
            self.last_turn[cleaned.conversation_id] = (
                prepared.utterance_vector,
                prepared.scrubbed[-CONTEXT_CHARS:],
            )

    def validated(self, request: WriteRequest) -> CleanRequest | None:
        """The request as the write path takes it (text cleaned, defaults filled); None for empty text."""
        if request.role not in ROLES:
            raise InputError(f"unknown role {request.role!r}; expected one of {ROLES}")
        if request.kind not in KINDS:
            raise InputError(f"unknown kind {request.kind!r}; expected one of {KINDS}")
        importance = request.importance
        if importance is not None and not 0.0 <= importance <= 1.0:
            raise InputError(f"importance must be within [0, 1], got {importance}")
        if importance is None:
            importance = 0.8 if request.kind in PINNED_KINDS else 0.5
        cleaned = clean_text(request.text, limit=self.max_text_chars)
        if not cleaned:
            return None
        return CleanRequest(
            request.conversation_id, request.role, cleaned,  # type: ignore[arg-type]
            source=request.source or uuid.uuid4().hex[:16], user_id=request.user_id,
            kind=request.kind,  # type: ignore[arg-type]
            importance=importance,
            subject=request.subject, speaker=request.speaker, created_at=request.created_at,
            chunked=request.chunked, record_key=request.record_key,
        )  # fmt: skip

    async def remember_item(
        self,
        conversation_id: str,
        kind: Kind,
        text: str,
        *,
        source: str,
        importance: float,
        user_id: str | None = None,
        subject: str | None = None,
    ) -> MemoryRecord:
        """One record for the whole text (a fact, decision, summary …), not split into clauses."""
        records = await self.remember(
            WriteRequest(
                conversation_id, "user", text, source=source, user_id=user_id, kind=kind,
                importance=importance, subject=subject, chunked=False,
            )
        )  # fmt: skip
        if not records:
            raise InputError(f"a {kind} item needs text")
        return records[0]

    async def commit(
        self, tenant: Tenant, prepared: PreparedWrite, changes: list[StatusChange]
    ) -> WriteReport:
        """Records, vectors, fingerprints, status changes and vault entries of one prepared write."""
        fingerprints = self.fingerprints(prepared)
        contexts = [prepared.keyword_context] * len(prepared.records) if prepared.keyword_context else None
        batch = WriteBatch(
            prepared.records, prepared.vectors, fingerprints, changes, keyword_context=contexts
        )
        return await self.vault.write(self.store, tenant, batch, prepared.findings)

    def fingerprints(self, prepared: PreparedWrite) -> dict[str, np.ndarray]:
        """The utterance's loopback fingerprint (on its first record), when it carries personal content.
        Imports have no utterance vector: each personal record is its own fingerprint."""
        if not prepared.records:
            return {}
        if prepared.utterance_vector is not None:
            first = prepared.records[0]
            tokens = tuple(dict.fromkeys(t for r in prepared.records for t in r.pii_tokens))
            whole = first.with_(text=prepared.scrubbed or first.text, pii_tokens=tokens)
            generic = float(self.stock.generic_similarity(prepared.utterance_vector)[0])
            return {first.id: prepared.utterance_vector} if is_personal(whole, generic) else {}
        generic_rows = self.stock.generic_similarity(prepared.vectors)
        return {
            r.id: prepared.vectors[i]
            for i, r in enumerate(prepared.records)
            if is_personal(r, float(generic_rows[i]))
        }

    async def _supersede_changes(
        self, tenant: Tenant, prepared: PreparedWrite, subject: str
    ) -> list[StatusChange]:
        new = prepared.records[0]
        if new.kind not in PINNED_KINDS:
            return []
        return await self._others_about(tenant, subject, new.id)

    async def _others_about(self, tenant: Tenant, subject: str, new_id: str) -> list[StatusChange]:
        hits = await self.store.search(
            tenant, StoreQuery(subject=subject, kinds=tuple(PINNED_KINDS), limit=_LIST_MAX)
        )
        return [StatusChange(h.record.id, "superseded", new_id) for h in hits if h.record.id != new_id]

    async def supersede(self, conversation_id: str, new_record: MemoryRecord | str, subject: str) -> int:
        """Mark every other active pinned record about ``subject`` as superseded by ``new_record``."""
        tenant = tenant_of(conversation_id, "supersede")
        new_id = new_record if isinstance(new_record, str) else new_record.id
        changes = await self._others_about(tenant, subject, new_id)
        if not changes:
            return 0
        return (await self.store.write(tenant, WriteBatch(status_changes=changes))).status_changed

    async def mark_superseded(self, conversation_id: str, old_id: str, new_id: str) -> None:
        tenant = tenant_of(conversation_id, "mark_superseded")
        await self.store.write(
            tenant, WriteBatch(status_changes=[StatusChange(old_id, "superseded", new_id)])
        )


def _spans(trace: TurnTrace, t0: float, timings: dict[str, float], *, store_ms: float) -> None:
    """The write path's stage times as trace spans, laid end to end from when the write started."""
    from voice_agent.metrics.trace import Span

    cursor = trace.clock.now_ns() - int((time.perf_counter() - t0) * 1e9)
    for name, ms in (
        *((n, timings.get(n, 0.0)) for n in ("scrub", "chunk", "embed")),
        ("memory.write", store_ms),
    ):
        trace.add(Span(name, cursor, cursor + int(ms * 1e6)))
        cursor += int(ms * 1e6)
    trace.attrs["memory_write_ms"] = {k: round(v, 3) for k, v in {**timings, "store": store_ms}.items()}
