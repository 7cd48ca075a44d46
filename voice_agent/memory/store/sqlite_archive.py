"""The embedded store's archive of consolidated records (``voice_agent.memory.consolidate``).

A record condensed into a summary keeps its row in ``records`` (status ``consolidated``) and its keywords,
but its vector leaves ``records_vec`` (and so the HNSW index) for ``records_archive``: the searched index
holds only what retrieval may return, so it stops growing with every old clause. Restoring a record (its
status set back) moves the vector back, byte for byte; nothing is re-embedded.

A summary names what it condenses with ``links`` rows of relation ``consolidates`` (summary -> source).
Deleting ever keeps the pair consistent, in the same transaction as the delete:

- deleting a source deletes every summary quoting it (forgotten text must not live on inside one), and
- deleting a summary restores its other sources (active again, vectors back in the index), so nothing the
  person did not ask to forget is lost; the next consolidation run condenses them again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from voice_agent.memory.records import MemoryRecord
from voice_agent.memory.store.ann_index import AnnChanges
from voice_agent.memory.store.base import Tenant

ARCHIVED = "consolidated"
RELATION = "consolidates"
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS records_archive ("
    " rid INTEGER PRIMARY KEY, tenant TEXT NOT NULL, embedding BLOB NOT NULL)"
)


def install(conn: Any) -> None:
    conn.execute(_SCHEMA)


def follow_status(conn: Any, tenant: Tenant, rid: int, old: str, new: str, ann: AnnChanges | None) -> None:
    """Inside a status change: into ``consolidated`` the vector moves to the archive; out of it, back."""
    if new == ARCHIVED and old != ARCHIVED:
        row = conn.execute("SELECT embedding FROM records_vec WHERE rid = ?", (rid,)).fetchone()
        if row is None:
            return
        conn.execute(
            "INSERT OR REPLACE INTO records_archive(rid, tenant, embedding) VALUES (?,?,?)",
            (rid, tenant.key, bytes(row[0])),
        )
        conn.execute("DELETE FROM records_vec WHERE rid = ?", (rid,))
        if ann is not None:
            ann.removed.append(rid)
    elif old == ARCHIVED and new != ARCHIVED:
        restore_vector(conn, tenant, rid, new, ann)


def restore_vector(conn: Any, tenant: Tenant, rid: int, status: str, ann: AnnChanges | None) -> None:
    row = conn.execute("SELECT embedding FROM records_archive WHERE rid = ?", (rid,)).fetchone()
    kind = conn.execute("SELECT kind FROM records WHERE rid = ?", (rid,)).fetchone()
    if row is None or kind is None:
        return
    blob = bytes(row[0])
    conn.execute(
        "INSERT INTO records_vec(rid, tenant, status, kind, embedding) VALUES (?,?,?,?,?)",
        (rid, tenant.key, status, kind[0], blob),
    )
    conn.execute("DELETE FROM records_archive WHERE rid = ?", (rid,))
    if ann is not None:
        ann.added.append((rid, np.frombuffer(blob, dtype=np.float32).copy()))


def forget_rid(conn: Any, rid: int) -> None:
    conn.execute("DELETE FROM records_archive WHERE rid = ?", (rid,))


def cascade(conn: Any, tenant: Tenant, rids: Sequence[int], ann: AnnChanges | None) -> list[int]:
    """Inside a delete of ``rids``: the summaries quoting any of them go too (returned, to be deleted
    with them); the other sources of every summary that goes are restored to ``active``."""
    doomed = {int(r) for r in rids}
    ids = _ids(conn, doomed)
    summaries = {
        row[0]
        for chunk in _chunks(sorted(ids), 400)
        for row in conn.execute(
            f"SELECT from_id FROM links WHERE relation = ? AND conversation_id = ?"
            f" AND to_id IN ({','.join('?' * len(chunk))})",
            (RELATION, tenant.conversation_id, *chunk),
        ).fetchall()
    }
    extra = [rid for rid, _ in _rids(conn, tenant, summaries) if rid not in doomed]
    doomed.update(extra)
    summaries |= _ids(conn, doomed)  # summaries deleted directly count too
    for summary_id in summaries:
        sources = [
            row[0]
            for row in conn.execute(
                "SELECT to_id FROM links WHERE relation = ? AND from_id = ? AND conversation_id = ?",
                (RELATION, summary_id, tenant.conversation_id),
            ).fetchall()
        ]
        for rid, status in _rids(conn, tenant, set(sources)):
            if rid not in doomed and status == ARCHIVED:
                conn.execute(
                    "UPDATE records SET status = 'active', superseded_by = NULL WHERE rid = ?", (rid,)
                )
                restore_vector(conn, tenant, rid, "active", ann)
        conn.execute(
            "DELETE FROM links WHERE relation = ? AND from_id = ? AND conversation_id = ?",
            (RELATION, summary_id, tenant.conversation_id),
        )
    return extra


def link(conn: Any, tenant: Tenant, summary_id: str, source_ids: Sequence[str], created_at: float) -> None:
    conn.executemany(
        "INSERT OR IGNORE INTO links(from_id, to_id, conversation_id, relation, created_at)"
        " VALUES (?,?,?,?,?)",
        [(summary_id, source, tenant.conversation_id, RELATION, created_at) for source in source_ids],
    )


def sources_of(conn: Any, tenant: Tenant, summary_ids: Sequence[str]) -> dict[str, list[str]]:
    """Summary id -> the ids of the records it condenses (in the order they were linked)."""
    found: dict[str, list[str]] = {}
    for chunk in _chunks(sorted(set(summary_ids)), 400):
        rows = conn.execute(
            "SELECT from_id, to_id FROM links WHERE relation = ? AND conversation_id = ?"
            f" AND from_id IN ({','.join('?' * len(chunk))}) ORDER BY rowid",
            (RELATION, tenant.conversation_id, *chunk),
        ).fetchall()
        for summary_id, source_id in rows:
            found.setdefault(summary_id, []).append(source_id)
    return found


def archived_sources(
    conn: Any, tenant: Tenant, summary_ids: Sequence[str]
) -> dict[str, list[tuple[MemoryRecord, np.ndarray]]]:
    """Summary id -> its archived sources with their vectors, in link order (one indexed join: links by
    summary, records by id, the archive by rowid)."""
    from voice_agent.memory.store.sqlite import _prefixed, _record  # (it imports this module)

    found: dict[str, list[tuple[MemoryRecord, np.ndarray]]] = {}
    for chunk in _chunks(sorted(set(summary_ids)), 400):
        rows = conn.execute(
            f"SELECT l.from_id, {_prefixed('r')}, a.embedding FROM links l"
            " JOIN records r ON r.id = l.to_id JOIN records_archive a ON a.rid = r.rid"
            " WHERE l.relation = ? AND l.conversation_id = ? AND r.conversation_id = ?"
            f" AND l.from_id IN ({','.join('?' * len(chunk))}) ORDER BY l.rowid",
            (RELATION, tenant.conversation_id, tenant.conversation_id, *chunk),
        ).fetchall()
        for row in rows:
            vector = np.frombuffer(bytes(row[-1]), dtype=np.float32).copy()
            found.setdefault(row[0], []).append((_record(row[1:-1]), vector))
    return found


def _ids(conn: Any, rids: set[int]) -> set[str]:
    found: set[str] = set()
    for chunk in _chunks(sorted(rids), 400):
        found.update(
            row[0]
            for row in conn.execute(
                f"SELECT id FROM records WHERE rid IN ({','.join('?' * len(chunk))})", tuple(chunk)
            ).fetchall()
        )
    return found


def _rids(conn: Any, tenant: Tenant, ids: set[str]) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for chunk in _chunks(sorted(ids), 400):
        found += [
            (int(rid), str(status))
            for rid, status in conn.execute(
                "SELECT rid, status FROM records WHERE conversation_id = ?"
                f" AND id IN ({','.join('?' * len(chunk))})",
                (tenant.conversation_id, *chunk),
            ).fetchall()
        ]
    return found


def _chunks(items: list[Any], size: int) -> list[list[Any]]:
    return [items[i : i + size] for i in range(0, len(items), size)]
