"""The embedded store's reads: vector, keyword (BM25) and listing queries over one reader connection.

These rules keep a search's cost near the size of its answer, not of the conversation:

- Rows are fetched by rowid. The filters on a fetch (conversation, status, kind …) are written with a
  unary ``+`` so SQLite never answers ``rid IN (…)`` by walking the conversation's index instead
  (it did: 100k records in one conversation made fetching 187 rows scan all 100k).
- Keyword search ranks in FTS5 alone (``bm25`` with a LIMIT a little above what is asked), then fetches
  and filters only those rows; joining ``records`` to every match cost a B-tree seek per matching row.
  When the filters leave too few rows, the unbounded query decides. A conversation holding most of the
  file skips the tenant intersection (see :func:`keyword_search`).
- Records already built are reused (``record_cache``): SQLite names the rows that pass and their status,
  and only the others are read in full.
- Candidates (the index's, or FTS5's) are fetched best first: the first ``limit`` rows, and the next
  only when filters dropped some, so no record is built just to be thrown away.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from voice_agent.errors import StoreError
from voice_agent.memory.keywords import fts5_query
from voice_agent.memory.records import MemoryRecord
from voice_agent.memory.store.ann_index import Candidates
from voice_agent.memory.store.base import StoreHit, StoreQuery, Tenant
from voice_agent.memory.store.record_cache import RecordCache
from voice_agent.memory.store.sqlite_erase import fts_tenant

VEC_MAX_K = 4096  # sqlite-vec's limit on k
MOST_OF_INDEX = 0.8  # from this share of all records on, keyword search first ranks without the tenant
_COLUMNS = (
    "rid, id, conversation_id, user_id, source, role, kind, text, pii_tokens, created_at, importance,"
    " status, supersedes, subject, speaker, token_count"
)


def vector_search(
    conn: Any,
    tenant: Tenant,
    query: StoreQuery,
    dim: int,
    near: Candidates | None = None,
    cache: RecordCache | None = None,
) -> list[StoreHit]:
    """Nearest records: from ``near`` (the in-RAM index's candidates) when they suffice, else sqlite-vec's
    exact scan. Fewer rows than asked are the answer when ``near`` held every vector of the tenant."""
    assert query.vector is not None
    vector = np.ascontiguousarray(query.vector, dtype=np.float32).reshape(-1)
    if vector.shape[0] != dim:
        raise StoreError(f"query vector has dimension {vector.shape[0]}, the store holds {dim}")
    if near is not None:
        hits = _best_first(conn, tenant, query, near.pairs, cache)
        if len(hits) >= query.limit or near.complete:
            return [StoreHit(record, rank, distance=d) for rank, (record, d) in enumerate(hits)]
        # Too many candidates were filtered out (statuses): the exact scan below decides.
    post_filtered = bool(query.ids or query.sources or query.subject or query.created_before)
    k = min(VEC_MAX_K, query.limit * 8 if post_filtered else query.limit)
    sql = (
        "SELECT rid, distance FROM records_vec WHERE embedding MATCH ? AND k = ? AND tenant = ?"
        f" AND status IN ({_marks(query.statuses)})"
    )
    params: list[Any] = [vector.tobytes(), k, tenant.key, *query.statuses]
    if query.kinds:
        sql += f" AND kind IN ({_marks(query.kinds)})"
        params += list(query.kinds)
    hits = conn.execute(sql + " ORDER BY distance", params).fetchall()
    return ranked(conn, tenant, query, {int(rid): float(dist) for rid, dist in hits}, cache)


def ranked(
    conn: Any,
    tenant: Tenant,
    query: StoreQuery,
    distances: dict[int, float],
    cache: RecordCache | None = None,
) -> list[StoreHit]:
    """The records of these rowids that pass the query's filters, nearest first."""
    records = fetch(conn, tenant, query, list(distances), cache)
    ordered = sorted(records, key=lambda item: distances[item[0]])[: query.limit]
    return [StoreHit(record, rank, distance=distances[rid]) for rank, (rid, record) in enumerate(ordered)]


def keyword_search(
    conn: Any, tenant: Tenant, query: StoreQuery, cache: RecordCache | None = None, *, share: float = 0.0
) -> list[StoreHit]:
    """BM25 top ``query.limit`` of the tenant. ``share``: about what part of all records the tenant holds.
    From ``MOST_OF_INDEX`` on, ranking every tenant's matches and dropping the others' rows is cheaper than
    intersecting the tenant's postings (100k records in one conversation: ~2 against ~6 ms); the scoped
    query decides whenever that leaves too few rows. Both give the same scores (the tenant column weighs
    0 and FTS5's statistics are global), so the answer is the same."""
    match = fts5_query(query.keywords or "")
    if match is None:
        return []
    terms = f"{{body context}}: ({match})"
    # Scoped in the index itself: FTS5 intersects the tenant's postings before scoring.
    scoped = f'tenant:"{fts_tenant(tenant)}" AND {terms}'
    only_status = not (query.kinds or query.ids or query.sources or query.subject or query.created_before)
    if only_status:
        bound = query.limit + max(16, query.limit // 4)
        plans = [(scoped, bound)]
        if share >= MOST_OF_INDEX:
            plans.insert(0, (terms, math.ceil(bound / min(1.0, share))))
        for expression, limit in plans:
            scores = conn.execute(
                "SELECT rowid, bm25(records_fts, 0.0, 1.0, ?) AS score FROM records_fts"
                " WHERE records_fts MATCH ? ORDER BY score LIMIT ?",
                (query.context_weight, expression, limit),
            ).fetchall()
            ordered = [(int(rid), float(score)) for rid, score in scores]
            best = _best_first(conn, tenant, query, ordered, cache)
            if len(best) >= query.limit or len(scores) < limit:  # enough, or every match was seen
                return [StoreHit(record, rank, bm25=-score) for rank, (record, score) in enumerate(best)]
    return _keyword_joined(conn, tenant, query, scoped)


def _best_first(
    conn: Any,
    tenant: Tenant,
    query: StoreQuery,
    ordered: list[tuple[int, float]],
    cache: RecordCache | None = None,
) -> list[tuple[MemoryRecord, float]]:
    """Up to ``query.limit`` records passing the filters, in the order of ``ordered`` (rowid, score):
    the first ``limit`` rows are fetched, and the rest only when filters dropped some of those."""
    keys = dict(ordered)
    rows = fetch(conn, tenant, query, [rid for rid, _ in ordered[: query.limit]], cache)
    if len(rows) < query.limit and len(ordered) > query.limit:
        rows += fetch(conn, tenant, query, [rid for rid, _ in ordered[query.limit :]], cache)
    rank = {rid: i for i, (rid, _) in enumerate(ordered)}
    rows.sort(key=lambda item: rank[item[0]])
    return [(record, keys[rid]) for rid, record in rows[: query.limit]]


def _keyword_joined(conn: Any, tenant: Tenant, query: StoreQuery, scoped: str) -> list[StoreHit]:
    """Every match joined to its record and filtered before ranking (filters that may drop many)."""
    where, params = filters(tenant, query, alias="r")
    rows = conn.execute(
        f"SELECT {prefixed_columns('r')}, bm25(records_fts, 0.0, 1.0, ?) AS score FROM records_fts"
        " JOIN records r ON r.rid = records_fts.rowid"
        f" WHERE records_fts MATCH ? AND {where} ORDER BY score LIMIT ?",
        (query.context_weight, scoped, *params, query.limit),
    ).fetchall()
    vectors = fetch_vectors(conn, [int(r[0]) for r in rows]) if query.with_vectors else {}
    return [
        StoreHit(to_record(row[:-1], vectors.get(int(row[0]))), rank, bm25=-float(row[-1]))
        for rank, row in enumerate(rows)
    ]


def list_records(conn: Any, tenant: Tenant, query: StoreQuery) -> list[StoreHit]:
    where, params = filters(tenant, query, alias="r")
    order = "DESC" if query.newest_first else "ASC"
    rows = conn.execute(
        f"SELECT {prefixed_columns('r')} FROM records r WHERE {where} ORDER BY r.rid {order} LIMIT ?",
        (*params, query.limit),
    ).fetchall()
    vectors = fetch_vectors(conn, [int(r[0]) for r in rows]) if query.with_vectors else {}
    return [StoreHit(to_record(row, vectors.get(int(row[0]))), rank) for rank, row in enumerate(rows)]


def fetch(
    conn: Any, tenant: Tenant, query: StoreQuery, rids: list[int], cache: RecordCache | None = None
) -> list[tuple[int, MemoryRecord]]:
    """The rows of ``rids`` that pass the query's filters (in no particular order), looked up by rowid.
    With a ``cache`` (and no vectors asked for), SQLite names the rows that pass and their current
    status, and only rows not cached are read in full."""
    if not rids:
        return []
    where, params = filters(tenant, query, alias="r", lookup=True)
    if cache is not None and not query.with_vectors:
        return _fetch_cached(conn, cache, rids, where, params)
    rows = conn.execute(
        f"SELECT {prefixed_columns('r')} FROM records r WHERE r.rid IN ({_marks(rids)}) AND {where}",
        (*rids, *params),
    ).fetchall()
    vectors = fetch_vectors(conn, [int(r[0]) for r in rows]) if query.with_vectors else {}
    return [(int(row[0]), to_record(row, vectors.get(int(row[0])))) for row in rows]


def _fetch_cached(
    conn: Any, cache: RecordCache, rids: list[int], where: str, params: list[Any]
) -> list[tuple[int, MemoryRecord]]:
    passing = conn.execute(
        f"SELECT r.rid, r.id, r.status FROM records r WHERE r.rid IN ({_marks(rids)}) AND {where}",
        (*rids, *params),
    ).fetchall()
    out: list[tuple[int, MemoryRecord]] = []
    missing: list[int] = []
    for rid, record_id, status in passing:
        record = cache.current(int(rid), record_id, status)
        if record is None:
            missing.append(int(rid))
        else:
            out.append((int(rid), record))
    if missing:  # the filters again: a write may have committed between the two statements
        rows = conn.execute(
            f"SELECT {prefixed_columns('r')} FROM records r WHERE r.rid IN ({_marks(missing)}) AND {where}",
            (*missing, *params),
        ).fetchall()
        for row in rows:
            record = to_record(row)
            cache.put(int(row[0]), record)
            out.append((int(row[0]), record))
    return out


def filters(tenant: Tenant, query: StoreQuery, *, alias: str, lookup: bool = False) -> tuple[str, list[Any]]:
    """The query's filters as SQL. ``lookup``: the rows are already chosen by rowid, so each column is
    written ``+col`` and no index on it can take over the plan."""
    col = f"+{alias}." if lookup else f"{alias}."
    clauses = [f"{col}conversation_id = ?", f"{col}status IN ({_marks(query.statuses)})"]
    params: list[Any] = [tenant.conversation_id, *query.statuses]
    for column, values in (("kind", query.kinds), ("id", query.ids), ("source", query.sources)):
        if values is not None:
            clauses.append(f"{col}{column} IN ({_marks(values)})" if values else "0")
            params += list(values)
    if query.subject is not None:
        clauses.append(f"{col}subject = ?")
        params.append(query.subject)
    if query.created_before is not None:
        clauses.append(f"{col}created_at < ?")
        params.append(query.created_before)
    return " AND ".join(clauses), params


def fetch_vectors(conn: Any, rids: list[int]) -> dict[int, tuple[float, ...]]:
    out: dict[int, tuple[float, ...]] = {}
    for begin in range(0, len(rids), 500):
        chunk = rids[begin : begin + 500]
        rows = conn.execute(
            f"SELECT rid, embedding FROM records_vec WHERE rid IN ({_marks(chunk)})", chunk
        ).fetchall()
        for rid, blob in rows:
            out[int(rid)] = tuple(float(v) for v in np.frombuffer(blob, dtype=np.float32))
    return out


def _marks(values: Sequence[Any]) -> str:
    return ",".join("?" * len(values))


def prefixed_columns(alias: str) -> str:
    return ", ".join(f"{alias}.{c.strip()}" for c in _COLUMNS.split(","))


def to_record(row: Sequence[Any], vector: tuple[float, ...] | None = None) -> MemoryRecord:
    (_rid, rid_id, conv, user, source, role, kind, text, pii, created, importance, status, supersedes,
     subject, speaker, tokens) = row  # fmt: skip
    return MemoryRecord(
        id=rid_id, conversation_id=conv, user_id=user, source=source, role=role, kind=kind, text=text,
        pii_tokens=() if pii == "[]" else tuple(json.loads(pii)), created_at=float(created),
        importance=float(importance), status=status, supersedes=supersedes, subject=subject,
        speaker=speaker, token_count=int(tokens), vector=vector,
    )  # fmt: skip
