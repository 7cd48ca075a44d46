"""``Memory``: the facade the conversation engine, the CLI and the benchmark use.

    memory = await Memory.open(config)
    await memory.remember("conv-1", "user", "My number is 138 0013 8000, I live in Berlin.", source="t1")
    result = await memory.recall("conv-1", "what's my phone number?", budget_tokens=300)
    await memory.close()

Write path of one utterance (one worker thread, one store transaction): validate → scrub (PII patterns,
known names) → chunk into clauses (spaCy / UD-Chinese) → scrub the names the parse found → embed →
store records, vectors, keywords, loopback fingerprints, supersede links and the encrypted vault entries
together. Queries are scrubbed with the same key before search, so placeholders match.
"""

from __future__ import annotations

import asyncio
import builtins
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from voice_agent.config import Config
from voice_agent.errors import InputError, StoreError, TenantRequiredError
from voice_agent.memory.consolidate import unconsolidated
from voice_agent.memory.forgetting import ALL_STATUSES, records_meant
from voice_agent.memory.language import detect_language
from voice_agent.memory.loopback import LoopbackChecker, LoopbackVerdict, StockBank, is_personal
from voice_agent.memory.query_cache import PreparedQuery, QueryEmbeddings
from voice_agent.memory.records import KINDS, PINNED_KINDS, ROLES, Kind, MemoryRecord, Status
from voice_agent.memory.retrieve import RecallResult, RetrievalParams, Retriever
from voice_agent.memory.scrub import PLACEHOLDER_RE, PiiFinding, Scrubber
from voice_agent.memory.store.base import (
    MemoryStore,
    StatusChange,
    StoreQuery,
    Tenant,
    WriteBatch,
    WriteReport,
    tenant_of,
)
from voice_agent.memory.surface import embedding_text
from voice_agent.memory.transfer import ImportReport, export_document, parse_import
from voice_agent.memory.vault import unscrub_for_owner
from voice_agent.memory.writepath import KnownNames, PreparedWrite, WritePath, WriteRequest, clean_text
from voice_agent.metrics.trace import TurnTrace

Records = list[MemoryRecord]  # (the class below has a method named `list`)
_LIST_MAX = 4096
CONTEXT_WEIGHT = 1.0  # how far a clause's vector leans towards its exchange (writepath._vectors)
CONTEXT_CHARS = 600  # how much of the previous utterance is keyword context


@dataclass
class Components:
    """What ``Memory`` is built from; ``Memory.open`` assembles the defaults from config."""

    store: MemoryStore
    embedder: Any
    chunker: Any
    scrubber: Scrubber
    vault: Any  # PiiVault over a connection that ``local`` guards
    local: Any  # an object with run(fn) -> fn(conn) under the connection's lock


class Memory:
    def __init__(self, config: Config, parts: Components, params: RetrievalParams | None = None) -> None:
        self.config = config
        self.store = parts.store
        self.embedder = parts.embedder
        self.chunker = parts.chunker
        self.scrubber = parts.scrubber
        self.vault = parts.vault
        self._local = parts.local
        self.names = KnownNames(self._known_names)
        self.writer = WritePath(
            parts.scrubber, parts.chunker, parts.embedder, self.names, context_weight=CONTEXT_WEIGHT
        )
        # Per conversation: the last utterance (its vector, and its scrubbed text), the next one's context.
        self._last_turn: dict[str, tuple[np.ndarray | None, str]] = {}
        self.retriever = Retriever(parts.store, params)
        self.queries = QueryEmbeddings(parts.embedder)
        self.stock = StockBank(parts.embedder)
        self.loopback_checker = LoopbackChecker(
            parts.store, parts.embedder, threshold=config.memory.loopback_threshold, bank=self.stock
        )
        self._name_finder: Any = None

    # -- lifecycle -------------------------------------------------------------------------------
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
        from voice_agent.memory.opening import open_components

        parts = await open_components(config, embedder=embedder, chunker=chunker, store=store, env=env)
        return cls(config, parts, params)

    async def close(self) -> None:
        await self.store.close()
        close_local = getattr(self._local, "close", None)
        if close_local is not None:
            await asyncio.to_thread(close_local)

    async def __aenter__(self) -> Memory:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- writes ----------------------------------------------------------------------------------
    async def remember(
        self,
        conversation_id: str,
        role: str,
        text: str | bytes,
        *,
        source: str = "",
        user_id: str | None = None,
        kind: str = "utterance",
        importance: float | None = None,
        subject: str | None = None,
        supersede: bool = True,
        speaker: str | None = None,
        created_at: float | None = None,
        chunked: bool = True,
        trace: TurnTrace | None = None,
        record_key: str | None = None,
    ) -> Records:
        """Store one utterance (all its clauses) atomically; ``[]`` for empty text. With ``record_key``
        the record ids derive from it: the same key written again replaces, never duplicates."""
        tenant = tenant_of(Tenant(conversation_id, user_id) if conversation_id else None, "remember")
        if role not in ROLES:
            raise InputError(f"unknown role {role!r}; expected one of {ROLES}")
        if kind not in KINDS:
            raise InputError(f"unknown kind {kind!r}; expected one of {KINDS}")
        if importance is not None and not 0.0 <= importance <= 1.0:
            raise InputError(f"importance must be within [0, 1], got {importance}")
        cleaned = clean_text(text, limit=self.config.memory.max_text_chars)
        if not cleaned:
            return []
        request = WriteRequest(
            conversation_id, role, cleaned,  # type: ignore[arg-type]
            source=source or uuid.uuid4().hex[:16], user_id=user_id, kind=kind,  # type: ignore[arg-type]
            importance=importance if importance is not None else (0.8 if kind in PINNED_KINDS else 0.5),
            subject=subject, speaker=speaker, created_at=created_at, chunked=chunked,
            record_key=record_key,
        )  # fmt: skip
        t0 = time.perf_counter()
        context, keyword_context = self._last_turn.get(conversation_id, (None, "")) if chunked else (None, "")
        prepared = await asyncio.to_thread(self.writer.prepare, request, context, keyword_context)
        t1 = time.perf_counter()
        changes = await self._supersede_changes(tenant, prepared, subject) if supersede and subject else []
        if changes:
            prepared.records[0] = prepared.records[0].with_(supersedes=changes[0].record_id)
        report = await self._commit(tenant, prepared, changes)
        if report.failed:
            raise StoreError(f"the store refused {len(report.failed)} record(s): {report.failed[0][1]}")
        if chunked:
            self._last_turn[conversation_id] = (
                prepared.utterance_vector,
                prepared.scrubbed[-CONTEXT_CHARS:],
            )
        if trace is not None:
            _spans(trace, t0, prepared.timings_ms, store_ms=(time.perf_counter() - t1) * 1e3)
        return prepared.records

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
            conversation_id, "user", text, source=source, user_id=user_id, kind=kind,
            importance=importance, subject=subject, chunked=False,
        )  # fmt: skip
        if not records:
            raise InputError(f"a {kind} item needs text")
        return records[0]

    async def _commit(
        self, tenant: Tenant, prepared: PreparedWrite, changes: list[StatusChange]
    ) -> WriteReport:
        fingerprints = self._fingerprints(prepared)
        contexts = [prepared.keyword_context] * len(prepared.records) if prepared.keyword_context else None
        batch = WriteBatch(
            prepared.records, prepared.vectors, fingerprints, changes, keyword_context=contexts
        )
        findings = prepared.findings
        write_sync = getattr(self.store, "write_sync", None)
        if write_sync is not None and self._local is getattr(self.store, "local", None):
            # Embedded store: the vault rows commit in the same transaction as the records.
            report: WriteReport = await asyncio.to_thread(
                write_sync, tenant, batch, lambda _conn: self.vault.put(tenant.conversation_id, findings)
            )
            return report
        if findings:
            await asyncio.to_thread(
                self._local.run, lambda _conn: self.vault.put(tenant.conversation_id, findings)
            )
        return await self.store.write(tenant, batch)

    def _fingerprints(self, prepared: PreparedWrite) -> dict[str, np.ndarray]:
        """The utterance's loopback fingerprint (on its first record), when it carries personal content.
        Imports have no utterance vector: each personal record is its own fingerprint."""
        if not prepared.records:
            return {}
        if prepared.utterance_vector is not None:
            first = prepared.records[0]
            whole = first.with_(
                text=prepared.scrubbed or first.text, pii_tokens=_all_tokens(prepared.records)
            )
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
        hits = await self.store.search(
            tenant, StoreQuery(subject=subject, kinds=tuple(PINNED_KINDS), limit=_LIST_MAX)
        )
        return [StatusChange(h.record.id, "superseded", new.id) for h in hits if h.record.id != new.id]

    async def supersede(self, conversation_id: str, new_record: MemoryRecord | str, subject: str) -> int:
        """Mark every other active pinned record about ``subject`` as superseded by ``new_record``."""
        tenant = tenant_of(conversation_id, "supersede")
        new_id = new_record if isinstance(new_record, str) else new_record.id
        hits = await self.store.search(
            tenant, StoreQuery(subject=subject, kinds=tuple(PINNED_KINDS), limit=_LIST_MAX)
        )
        changes = [StatusChange(h.record.id, "superseded", new_id) for h in hits if h.record.id != new_id]
        if not changes:
            return 0
        return (await self.store.write(tenant, WriteBatch(status_changes=changes))).status_changed

    async def mark_superseded(self, conversation_id: str, old_id: str, new_id: str) -> None:
        tenant = tenant_of(conversation_id, "mark_superseded")
        await self.store.write(
            tenant, WriteBatch(status_changes=[StatusChange(old_id, "superseded", new_id)])
        )

    async def set_status(self, conversation_id: str, record_id: str, status: Status) -> bool:
        tenant = tenant_of(conversation_id, "set_status")
        report = await self.store.write(tenant, WriteBatch(status_changes=[StatusChange(record_id, status)]))
        return report.status_changed > 0

    # -- reads -----------------------------------------------------------------------------------
    async def scrub(self, conversation_id: str, text: str) -> str:
        """Scrub a text for this conversation (patterns, names via NER, known names); its raw values go
        to the vault so the owner can hear them back. Used for queries and the turn log."""
        tenant = tenant_of(conversation_id, "scrub")
        cleaned = clean_text(text, limit=self.config.memory.max_text_chars)
        if not cleaned:
            return ""

        scrubbed, found = await asyncio.to_thread(self._scrub_names, tenant.conversation_id, cleaned)
        if found:
            await asyncio.to_thread(
                self._local.run, lambda _conn: self.vault.put(tenant.conversation_id, found)
            )
        return scrubbed

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
        cleaned = clean_text(query, limit=self.config.memory.max_text_chars, what="query")
        if not cleaned or budget_tokens == 0:
            return RecallResult([], 0, budget_tokens)
        t0 = time.perf_counter()
        asked = await asyncio.to_thread(self._query, tenant.conversation_id, cleaned)
        result = await self.retriever.retrieve(tenant, asked.text, asked.vector, budget_tokens, params=params)
        result.timings_ms = {**asked.timings_ms, **result.timings_ms}
        result.timings_ms["total"] = (time.perf_counter() - t0) * 1e3
        result.query_cached = asked.cached
        if trace is not None:
            trace.attrs["retrieve"] = result.info()
        return result

    async def prepare_query(self, conversation_id: str, text: str) -> bool:
        """Embed a likely query ahead of time (the confirmed partial transcript, while the person still
        speaks): when ``recall`` later gets the same text, it reuses this vector instead of running the
        model. Nothing is stored, no vault entry is written. Returns whether the vector was cached already.
        """
        tenant = tenant_of(conversation_id, "prepare_query")
        cleaned = clean_text(text, limit=self.config.memory.max_text_chars, what="query")
        if not cleaned:
            return False

        def work() -> bool:
            # As the engine does it: scrub with names (as ``scrub``), then recall scrubs again.
            named, _found = self._scrub_names(tenant.conversation_id, cleaned)
            return self._query(tenant.conversation_id, named).cached

        return await asyncio.to_thread(work)

    def _scrub_names(self, conversation_id: str, text: str) -> tuple[str, builtins.list[PiiFinding]]:
        """``text`` with patterns, parsed person names and known names replaced (blocking)."""
        result = self.writer.scrub(conversation_id, text, self._person_spans(text))
        return result.text, result.found

    def _query(self, conversation_id: str, text: str) -> PreparedQuery:
        t0 = time.perf_counter()
        scrubbed = self.writer.scrub(conversation_id, text).text
        t1 = time.perf_counter()
        vector, cached = self.queries.embed(embedding_text(scrubbed))
        t2 = time.perf_counter()
        timings = {"scrub": (t1 - t0) * 1e3, "embed": (t2 - t1) * 1e3}
        return PreparedQuery(scrubbed, vector, cached, timings)

    async def pinned(self, conversation_id: str, *, include_superseded: bool = False) -> Records:
        """Active facts, decisions, constraints and states the person set (superseded ones only on
        request; they keep their status so the prompt marks them as no longer true)."""
        tenant = tenant_of(conversation_id, "pinned")
        statuses: tuple[Status, ...] = ("active", "superseded") if include_superseded else ("active",)
        hits = await self.store.search(
            tenant, StoreQuery(kinds=tuple(sorted(PINNED_KINDS)), statuses=statuses, limit=_LIST_MAX)
        )
        return [h.record for h in hits if h.record.pinned]

    async def list(
        self,
        conversation_id: str,
        *,
        kinds: Sequence[str] | None = None,
        statuses: Sequence[Status] = ALL_STATUSES,
        limit: int = 100,
        newest_first: bool = True,
    ) -> Records:
        tenant = tenant_of(conversation_id, "list")
        query = StoreQuery(
            kinds=tuple(kinds) if kinds else None, statuses=tuple(statuses), limit=max(1, limit),
            newest_first=newest_first,
        )  # fmt: skip
        return [h.record for h in await self.store.search(tenant, query)]

    async def loopback(self, conversation_id: str, sentence: str) -> LoopbackVerdict:
        """Whether a reply sentence quotes another conversation's memory (see ``loopback.py``)."""
        tenant = tenant_of(conversation_id, "loopback")
        cleaned = clean_text(sentence, limit=self.config.memory.max_text_chars, what="sentence")

        def scrub() -> str:  # names too: the same person must get the same placeholder as in memory
            return self.writer.scrub(tenant.conversation_id, cleaned, self._person_spans(cleaned)).text

        return await self.loopback_checker.check(tenant.conversation_id, await asyncio.to_thread(scrub))

    async def render_for_owner(self, conversation_id: str, text: str) -> str:
        """A reply for speaking: the owner's placeholders become safe hints ("your phone number ending
        8000"); anyone else's become a generic noun, so no placeholder or foreign value is ever spoken."""
        tenant = tenant_of(conversation_id, "render_for_owner")
        if not PLACEHOLDER_RE.search(text):
            return text
        language: Literal["en", "zh"] = "zh" if detect_language(text) == "zh" else "en"
        return str(
            await asyncio.to_thread(
                self._local.run,
                lambda _conn: unscrub_for_owner(text, tenant.conversation_id, self.vault, language=language),
            )
        )

    # -- forgetting ------------------------------------------------------------------------------
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
        removed = await self._erase(tenant)
        self.names.forget(tenant.conversation_id)
        return removed

    async def _erase(self, tenant: Tenant) -> int:
        """Records and vault values of the whole conversation; returns once both have committed (with
        the embedded store, in one transaction: there is no moment with one gone and not the other)."""
        delete_sync = getattr(self.store, "delete_sync", None)
        if delete_sync is not None and self._local is getattr(self.store, "local", None):
            removed: int = await asyncio.to_thread(
                delete_sync,
                tenant,
                None,
                lambda _conn: self.vault.forget_conversation(tenant.conversation_id),
            )
            return removed
        removed = await self.store.delete(tenant, None)
        await asyncio.to_thread(
            self._local.run, lambda _conn: self.vault.forget_conversation(tenant.conversation_id)
        )
        return removed

    def release(self, conversation_id: str) -> None:
        """Drop what this process caches for a conversation (its last turn, known names); nothing stored
        changes. For long-running servers when a visit ends, so the caches do not grow with visitors."""
        self._last_turn.pop(conversation_id, None)
        self.names.forget(conversation_id)

    async def _matching(self, tenant: Tenant, query: str) -> builtins.list[str]:
        """Records a forget request means: those holding a placeholder the query names, or sharing most of
        its content words, or very close to it in meaning."""
        cleaned = clean_text(query, limit=self.config.memory.max_text_chars, what="query")
        if not cleaned:
            raise InputError("forget: the query is empty")
        asked = await asyncio.to_thread(self._query, tenant.conversation_id, cleaned)
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

    # -- export / import -------------------------------------------------------------------------
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
        return export_document(tenant.conversation_id, records, embedder=self.embedder.name)

    async def import_(self, document: Any, *, conversation_id: str | None = None) -> ImportReport:
        """Load an export; records are re-embedded here and keep their ids, status and links."""
        records, report = parse_import(
            document, conversation_id=conversation_id, max_chars=self.config.memory.max_text_chars
        )
        by_conversation: dict[str, Records] = {}
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
            prepared = await asyncio.to_thread(self.writer.reprepare, conv, fresh)
            written = await self._commit(tenant, prepared, [])
            report.imported += written.written
            report.failed += [f"record {rid}: {reason}" for rid, reason in written.failed]
        return report

    # -- helpers ---------------------------------------------------------------------------------
    def _known_names(self, conversation_id: str) -> set[str]:
        return set(self._local.run(lambda _conn: self.vault.names(conversation_id)))

    def _person_spans(self, text: str) -> builtins.list[tuple[int, int]]:
        from voice_agent.memory.language import detect_language

        language = detect_language(text)
        if language == "zh":
            from voice_agent.memory.names_zh import chinese_name_spans

            return chinese_name_spans(text)
        if language != "en":
            return []
        shared = getattr(self.chunker, "person_spans", None)
        if shared is not None:  # the chunker's loaded English pipeline: no second spaCy model
            return list(shared(text))
        if self._name_finder is None:
            from voice_agent.memory.names import EnglishNameFinder

            finder = EnglishNameFinder()
            finder.start()
            self._name_finder = finder
        return list(self._name_finder.spans(text))


def _all_tokens(records: Records) -> tuple[str, ...]:
    return tuple(dict.fromkeys(t for r in records for t in r.pii_tokens))


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


__all__ = ["Memory", "TenantRequiredError"]
