"""What each part of memory needs from a store, as small Protocols (every ``MemoryStore`` has them all).

The write path, recall, privacy and admin parts each name only the store operations they call, so a
reader sees at a glance what a part can touch (recall never deletes; the write path never lists every
conversation). One capability is not in the core contract: :class:`JointTransactions`, the embedded
store's ability to commit the PII vault's rows in the same SQLite transaction as the records. Whether a
store has it is decided once, when memory opens (``vault_link.VaultLink.open``), never per call.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from voice_agent.memory.store.base import StoreHit, StoreQuery, Tenant, WriteBatch, WriteReport

T = TypeVar("T")


class SearchesRecords(Protocol):
    async def search(self, tenant: Tenant, query: StoreQuery) -> list[StoreHit]: ...


class WritesRecords(SearchesRecords, Protocol):
    """The write path: new records, and status changes (supersede)."""

    async def write(self, tenant: Tenant, batch: WriteBatch) -> WriteReport: ...


class AdministersRecords(WritesRecords, Protocol):
    """Admin: status changes, deletes, and the list of tenants for retention."""

    async def delete(self, tenant: Tenant, ids: Sequence[str] | None = None) -> int: ...

    async def conversations(self) -> list[str]: ...


class LocalConnection(Protocol):
    """A SQLite connection under its lock: ``run(fn)`` calls ``fn(conn)`` holding it (blocking)."""

    def run(self, fn: Callable[[Any], T]) -> T: ...


class ClosableConnection(LocalConnection, Protocol):
    def close(self) -> None: ...


@runtime_checkable
class JointTransactions(Protocol):
    """A store whose file also holds the vault: ``also(conn)`` commits with the records, or neither does.

    ``local`` is the connection those transactions run on; the vault is opened on it."""

    @property
    def local(self) -> LocalConnection: ...

    def write_sync(
        self, tenant: Tenant, batch: WriteBatch, also: Callable[[Any], None] | None = None
    ) -> WriteReport: ...

    def delete_sync(
        self, tenant: Tenant, ids: Sequence[str] | None = None, also: Callable[[Any], None] | None = None
    ) -> int: ...
