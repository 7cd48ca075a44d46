"""Many utterances at once (dataset ingest): the records and vectors ``remember`` gives one by one, for
less CPU and in less time.

- The clauses of a batch are parsed together (spaCy's ``pipe``: about half the CPU per utterance).
- While one batch is embedded (onnxruntime, which releases the GIL), the next one is parsed and the one
  before commits: two cores work at once.
- A batch's utterances of one conversation commit in one store transaction (each utterance all or
  nothing, as before; a batch too).

Known names and each utterance's context (the utterance before it) follow the order of the requests, as
in single writes, so what is stored does not depend on the batch size.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from voice_agent.errors import InputError, StoreError
from voice_agent.memory.records import MemoryRecord
from voice_agent.memory.store.base import Tenant, WriteBatch, tenant_of
from voice_agent.memory.writepath import NamedWrite, PreparedWrite
from voice_agent.memory.writepath import WriteRequest as CleanRequest

if TYPE_CHECKING:
    from voice_agent.memory.writes import MemoryWriter, WriteRequest

WriteOutcome = list[MemoryRecord] | InputError  # per request: its records, or why it was refused
DEFAULT_BATCH = 16
_Item = tuple[int, Tenant, CleanRequest]


async def remember_many(
    writer: MemoryWriter, requests: Sequence[WriteRequest], *, batch_size: int = DEFAULT_BATCH
) -> list[WriteOutcome]:
    """Store ``requests`` in order; one outcome per request (``[]`` for empty text). A request the
    write path refuses (not UTF-8, too long …) is that request's ``InputError``; the others are stored.
    Items that supersede older ones (a subject) go through ``remember`` one by one."""
    if batch_size < 1:
        raise InputError(f"batch_size must be at least 1, got {batch_size}")
    if any(r.subject and r.supersede for r in requests):
        return [await _one(writer, request) for request in requests]
    outcomes: list[WriteOutcome] = [[] for _ in requests]
    items: list[_Item] = []
    for index, request in enumerate(requests):
        try:
            tenant = _tenant(request)
            cleaned = writer.validated(request)
        except InputError as refused:
            outcomes[index] = refused
            continue
        if cleaned is not None:
            items.append((index, tenant, cleaned))
    batches = [items[b : b + batch_size] for b in range(0, len(items), batch_size)]
    if batches:
        await _pipeline(writer, batches, outcomes)
    return outcomes


def _tenant(request: WriteRequest) -> Tenant:
    """As ``remember`` checks it: an empty conversation id is an error, never a default."""
    conversation_id = request.conversation_id
    return tenant_of(Tenant(conversation_id, request.user_id) if conversation_id else None, "remember")


async def _one(writer: MemoryWriter, request: WriteRequest) -> WriteOutcome:
    try:
        return await writer.remember(request)
    except InputError as refused:
        return refused


async def _pipeline(writer: MemoryWriter, batches: list[list[_Item]], outcomes: list[WriteOutcome]) -> None:
    """Three stages, each batch in order through each: parse and name (spaCy, holds the GIL), embed
    (onnxruntime, releases it), context and commit (SQLite). While batch k is embedded, batch k+1 is
    parsed and batch k-1 commits. Names are found batch after batch, so those learnt in one batch are
    known in the next; each batch's context is set before the next one's is read."""
    path = writer.writer

    def parse_and_name(batch: list[_Item]) -> list[NamedWrite]:
        return [path.name(parsed) for parsed in path.parse_many([c for _, _, c in batch])]

    def stage(batch: list[_Item]) -> asyncio.Future[list[NamedWrite]]:
        return asyncio.ensure_future(asyncio.to_thread(parse_and_name, batch))

    staged = stage(batches[0])
    committing: asyncio.Future[None] | None = None
    try:
        for k, batch in enumerate(batches):
            named = await staged
            if k + 1 < len(batches):
                staged = stage(batches[k + 1])
            rows = await asyncio.to_thread(path.embed_many, named)
            if committing is not None:
                await committing
            prepared = [_finish(writer, n, r) for n, r in zip(named, rows, strict=True)]
            committing = asyncio.ensure_future(_commit(writer, batch, prepared, outcomes))
        if committing is not None:
            await committing
    finally:
        await _settle(staged, committing)


async def _settle(*tasks: asyncio.Future[Any] | None) -> None:
    """After a failure: let work still running end, and mark its outcome seen (it is not needed)."""
    for task in tasks:
        if task is None:
            continue
        if not task.done():
            await asyncio.wait([task])
        if not task.cancelled():
            task.exception()


def _finish(writer: MemoryWriter, named: NamedWrite, rows: tuple[np.ndarray, np.ndarray]) -> PreparedWrite:
    """Stage 4 with the conversation's context, which then moves on to this utterance (as ``remember``)."""
    context, keyword_context = writer.context_for(named.request)
    prepared = writer.writer.finish(named, rows, context, keyword_context)
    writer.advance_context(named.request, prepared)
    return prepared


async def _commit(
    writer: MemoryWriter, batch: list[_Item], prepared: list[PreparedWrite], outcomes: list[WriteOutcome]
) -> None:
    """One transaction per run of consecutive utterances of one tenant."""
    start = 0
    while start < len(batch):
        end = start + 1
        while end < len(batch) and batch[end][1] == batch[start][1]:
            end += 1
        group = prepared[start:end]
        report = await writer.vault.write(
            writer.store, batch[start][1], _joined(writer, group), [f for p in group for f in p.findings]
        )
        if report.failed:
            raise StoreError(f"the store refused {len(report.failed)} record(s): {report.failed[0][1]}")
        for (index, _, _), item in zip(batch[start:end], group, strict=True):
            outcomes[index] = item.records
        start = end


def _joined(writer: MemoryWriter, group: list[PreparedWrite]) -> WriteBatch:
    fingerprints: dict[str, np.ndarray] = {}
    for item in group:
        fingerprints.update(writer.fingerprints(item))
    return WriteBatch(
        [r for item in group for r in item.records],
        np.concatenate([item.vectors for item in group]).astype(np.float32, copy=False),
        fingerprints,
        keyword_context=[item.keyword_context for item in group for _ in item.records],
    )
