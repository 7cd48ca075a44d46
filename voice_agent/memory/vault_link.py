"""How the PII vault's rows commit relative to the records they belong to, decided once at open.

With the embedded store the vault is a table of the same SQLite file: an utterance's records and its
vault entries commit in one transaction, and erasing a conversation removes both in one transaction.
With a server store (Weaviate) the vault stays in a local SQLite file (raw values never leave the
machine) and is written just before the records, erased just after them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from typing import Any, Literal

from voice_agent.errors import StoreError
from voice_agent.memory.needs import (
    AdministersRecords,
    ClosableConnection,
    JointTransactions,
    LocalConnection,
    WritesRecords,
)
from voice_agent.memory.scrub import PiiFinding
from voice_agent.memory.store.base import MemoryStore, Tenant, WriteBatch, WriteReport
from voice_agent.memory.vault import PiiVault, refill_own_names, unscrub_for_owner


class VaultLink:
    """The vault and the connection it lives on; ``joint`` is the store whose transactions it joins."""

    def __init__(
        self,
        vault: PiiVault,
        local: LocalConnection,
        *,
        joint: JointTransactions | None = None,
        owned: ClosableConnection | None = None,
    ) -> None:
        self.vault = vault
        self.local = local
        self._joint = joint
        self._owned = owned  # a connection of our own (the local file beside a server store)

    @classmethod
    def open(cls, store: MemoryStore, key: bytes, local_file: Callable[[], ClosableConnection]) -> VaultLink:
        """(Blocking) the vault for an opened ``store``: in its own file when it has joint transactions,
        else in ``local_file()``. A store that offers a ``local`` connection without the transactions to
        go with it is refused here, not discovered on the first write."""
        if isinstance(store, JointTransactions):
            local = store.local
            return cls(local.run(lambda conn: PiiVault(conn, key)), local, joint=store)
        if hasattr(type(store), "local"):
            raise StoreError(
                f"{type(store).__name__} shares its file with the vault (it has .local) but lacks "
                "write_sync/delete_sync: vault rows could not commit with their records"
            )
        own = local_file()
        try:
            vault = own.run(lambda conn: PiiVault(conn, key))
        except BaseException:
            own.close()
            raise
        return cls(vault, own, owned=own)

    @property
    def joint(self) -> bool:
        return self._joint is not None

    def put(self, conversation_id: str, findings: Iterable[PiiFinding]) -> None:
        """(Blocking) the raw values of ``findings``, sealed, for this conversation."""
        found = list(findings)
        if found:
            self.local.run(lambda _conn: self.vault.put(conversation_id, found))

    def names(self, conversation_id: str) -> set[str]:
        """(Blocking) the canonical person names the vault holds for this conversation."""
        return set(self.local.run(lambda _conn: self.vault.names(conversation_id)))

    def reveal(self, conversation_id: str, placeholder: str) -> str | None:
        """(Blocking) the raw value behind a placeholder, for its own conversation only."""
        return self.local.run(lambda _conn: self.vault.reveal(conversation_id, placeholder))

    def render(self, conversation_id: str, text: str, language: Literal["en", "zh"]) -> str:
        """(Blocking) ``text`` with the owner's placeholders as safe hints (see ``unscrub_for_owner``)."""
        return str(
            self.local.run(
                lambda _conn: unscrub_for_owner(text, conversation_id, self.vault, language=language)
            )
        )

    def refill_names(self, conversation_id: str, text: str) -> str:
        """(Blocking) ``text`` with this conversation's own person names refilled (``refill_own_names``)."""
        return str(self.local.run(lambda _conn: refill_own_names(text, conversation_id, self.vault)))

    async def write(
        self, store: WritesRecords, tenant: Tenant, batch: WriteBatch, findings: list[PiiFinding]
    ) -> WriteReport:
        """The records of ``batch`` and the vault entries of ``findings``: one transaction when joint."""
        if self._joint is not None:

            def also(_conn: Any) -> None:  # in the records' transaction
                self.vault.put(tenant.conversation_id, findings)

            return await asyncio.to_thread(self._joint.write_sync, tenant, batch, also)
        if findings:
            await asyncio.to_thread(self.put, tenant.conversation_id, findings)
        return await store.write(tenant, batch)

    async def erase(self, store: AdministersRecords, tenant: Tenant) -> int:
        """Every record and vault value of the conversation; returns once both have committed (joint:
        in one transaction, so there is no moment with one gone and not the other)."""
        if self._joint is not None:
            joint = self._joint
            removed: int = await asyncio.to_thread(
                joint.delete_sync, tenant, None, lambda _conn: self._forget(tenant)
            )
            return removed
        removed = await store.delete(tenant, None)
        await asyncio.to_thread(self.local.run, lambda _conn: self._forget(tenant))
        return removed

    def _forget(self, tenant: Tenant) -> None:
        self.vault.forget_conversation(tenant.conversation_id)

    async def close(self) -> None:
        if self._owned is not None:
            await asyncio.to_thread(self._owned.close)
