"""Which stored records a "forget …" request means."""

from __future__ import annotations

import numpy as np

from voice_agent.memory.consolidate import sources_meant
from voice_agent.memory.keywords import term_overlap
from voice_agent.memory.loopback import StockBank
from voice_agent.memory.records import Status
from voice_agent.memory.scrub import PLACEHOLDER_RE
from voice_agent.memory.store.base import MemoryStore, StoreQuery, Tenant

ALL_STATUSES: tuple[Status, ...] = ("active", "superseded", "deprecated", "consolidated")
SAME_MEANING = 0.85  # calibrated similarity from which a record says what the request says
SAME_WORDS = 0.6  # share of the request's content words a record must hold


async def records_meant(
    store: MemoryStore, stock: StockBank, tenant: Tenant, scrubbed: str, vector: np.ndarray
) -> list[str]:
    """Ids of the records a forget request (``scrubbed`` query and its ``vector``) means: those holding
    a placeholder it names, or most of its content words, or very close to it in meaning. Superseded
    and deprecated records count too: forgetting must not leave an old version behind."""
    wanted = {f"[{k}:{h}]" for k, h in PLACEHOLDER_RE.findall(scrubbed)}
    hits = await store.search(tenant, StoreQuery(keywords=scrubbed, limit=200, statuses=ALL_STATUSES))
    hits += await store.search(tenant, StoreQuery(vector=vector, limit=50, statuses=ALL_STATUSES))
    chosen: dict[str, None] = {}
    for hit in hits:
        record = hit.record
        close = hit.similarity is not None and float(stock.calibrate(hit.similarity)) >= SAME_MEANING
        if (
            (wanted and wanted & set(record.pii_tokens))
            or term_overlap(scrubbed, record.text) >= SAME_WORDS
            or close
        ):
            chosen[record.id] = None
    summaries = [h.record.id for h in hits if h.record.kind == "summary" and h.record.id in chosen]
    if summaries:  # the clauses a summary quotes are sources on disk: they go too (memory/consolidate.py)

        def meant(similarity: float) -> bool:
            return float(stock.calibrate(similarity)) >= SAME_MEANING

        chosen.update(dict.fromkeys(await sources_meant(store, tenant, summaries, scrubbed, vector, meant)))
    return list(chosen)
