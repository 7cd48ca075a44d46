"""Erasing a whole conversation from the embedded store, and proving it inside the same transaction.

A conversation lives in several tables: its records, their vectors (partitioned by tenant), keywords
(FTS5, tagged with the tenant token), loopback fingerprints (the tenant's opaque hash), supersede links
and its row in ``conversations``. Deleting by record id leaves behind anything that lost its record
(an orphan from an older version or a hand-edited file), so an erase also sweeps each table by the
tenant's own key, then counts what is left: anything at all aborts the transaction, and the erase is
never confirmed.
"""

from __future__ import annotations

from typing import Any

from voice_agent.errors import StoreError
from voice_agent.memory.store.base import Tenant


def fts_tenant(tenant: Tenant) -> str:
    """The tenant as one FTS5 token (letters and digits only)."""
    return "t" + tenant.key.removeprefix("t_")


def _by_tenant(tenant: Tenant) -> dict[str, tuple[str, str]]:
    """Per table: (the rows of this tenant, as a WHERE clause; its parameter)."""
    return {
        "records": ("conversation_id = ?", tenant.conversation_id),
        "conversations": ("id = ?", tenant.conversation_id),
        "links": ("conversation_id = ?", tenant.conversation_id),
        "records_vec": ("tenant = ?", tenant.key),
        "records_archive": ("tenant = ?", tenant.key),
        "fingerprints": ("owner = ?", tenant.hash),
        "records_fts": ("records_fts MATCH ?", f'tenant:"{fts_tenant(tenant)}"'),
    }


def remaining(conn: Any, tenant: Tenant) -> dict[str, int]:
    """Rows of the tenant left in each table (only tables with some)."""
    counts = {
        table: int(conn.execute(f"SELECT count(*) FROM {table} WHERE {where}", (value,)).fetchone()[0])
        for table, (where, value) in _by_tenant(tenant).items()
    }
    return {table: count for table, count in counts.items() if count}


def sweep_and_verify(conn: Any, tenant: Tenant) -> None:
    """After the records are gone: delete whatever else carries the tenant's key, then raise (rolling
    the caller's transaction back) if anything of the conversation is still there."""
    for table, (where, value) in _by_tenant(tenant).items():
        if table == "records_fts":  # contentless FTS5 deletes by rowid
            conn.execute(
                f"DELETE FROM records_fts WHERE rowid IN (SELECT rowid FROM records_fts WHERE {where})",
                (value,),
            )
        else:
            conn.execute(f"DELETE FROM {table} WHERE {where}", (value,))
    left = remaining(conn, tenant)
    if left:
        raise StoreError(f"erase incomplete, nothing was removed: rows left in {left}")
