"""The vault's link to the store, chosen once when memory opens: in the embedded store's own transactions,
or in a local file beside a server store; a store that offers half of that is refused at open."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from voice_agent.errors import StoreError
from voice_agent.memory.records import MemoryRecord
from voice_agent.memory.scrub import Scrubber
from voice_agent.memory.store.base import StoreQuery, Tenant, WriteBatch
from voice_agent.memory.store.sqlite import LocalFile, SqliteStore
from voice_agent.memory.vault_link import VaultLink

KEY = bytes(range(32))
DIM = 8
TENANT = Tenant("conv-1")


class ServerStore:
    """A store reached over the network (as Weaviate is), stood in for by a SQLite file of its own: the
    core contract only, no ``local`` connection and no joint transactions."""

    def __init__(self, path: Path) -> None:
        self.inner = SqliteStore(path)

    async def open(self, *, dim: int, embedder: str) -> Any:
        return await self.inner.open(dim=dim, embedder=embedder)

    async def close(self) -> None:
        await self.inner.close()

    async def write(self, tenant: Tenant, batch: WriteBatch) -> Any:
        return await self.inner.write(tenant, batch)

    async def search(self, tenant: Tenant, query: StoreQuery) -> Any:
        return await self.inner.search(tenant, query)

    async def delete(self, tenant: Tenant, ids: Sequence[str] | None = None) -> int:
        return await self.inner.delete(tenant, ids)

    async def fingerprint_search(self, tenant: Tenant, vector: np.ndarray, *, limit: int = 5) -> Any:
        return await self.inner.fingerprint_search(tenant, vector, limit=limit)

    async def conversations(self) -> list[str]:
        return await self.inner.conversations()


class SharedFileWithoutTransactions(ServerStore):
    @property
    def local(self) -> Any:
        return self.inner.local


def _utterance() -> tuple[WriteBatch, list[Any]]:
    scrubbed = Scrubber(KEY).scrub("My number is 138 0013 8000 and my email is zed@example.org.")
    record = MemoryRecord(
        TENANT.conversation_id, scrubbed.text, source="t1", pii_tokens=scrubbed.placeholders
    )
    vector = np.ones((1, DIM), dtype=np.float32) / np.sqrt(DIM)
    return WriteBatch([record], vector), list(scrubbed.found)


@pytest.fixture
async def embedded(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    store = SqliteStore(tmp_path / "memory.sqlite3")
    await store.open(dim=DIM, embedder="test")
    yield store
    await store.close()


async def test_the_embedded_store_commits_vault_rows_with_its_records(embedded: SqliteStore) -> None:
    link = VaultLink.open(embedded, KEY, lambda: pytest.fail("the embedded store needs no second file"))
    assert link.joint and link.local is embedded.local
    batch, found = _utterance()
    assert (await link.write(embedded, TENANT, batch, found)).written == 1
    assert all(link.reveal(TENANT.conversation_id, f.placeholder) == f.value for f in found)
    assert await link.erase(embedded, TENANT) == 1
    assert await embedded.search(TENANT, StoreQuery()) == []
    assert all(link.reveal(TENANT.conversation_id, f.placeholder) is None for f in found)


async def test_a_server_store_keeps_the_vault_in_a_local_file(tmp_path: Path) -> None:
    server = ServerStore(tmp_path / "server.sqlite3")
    await server.open(dim=DIM, embedder="test")
    opened: list[LocalFile] = []

    def local_file() -> LocalFile:
        opened.append(LocalFile(tmp_path / "memory.sqlite3"))
        return opened[0]

    link = VaultLink.open(server, KEY, local_file)  # type: ignore[arg-type]
    try:
        assert not link.joint and len(opened) == 1
        batch, found = _utterance()
        assert (await link.write(server, TENANT, batch, found)).written == 1
        assert [h.record.text for h in await server.search(TENANT, StoreQuery())] == [batch.records[0].text]
        assert all(link.reveal(TENANT.conversation_id, f.placeholder) == f.value for f in found)
        vault_table = "SELECT count(*) FROM sqlite_master WHERE name = 'pii_vault'"
        rows = server.inner.local.run(lambda conn: conn.execute(vault_table).fetchone())
        assert rows[0] == 0  # raw values never reach the server's side
        assert await link.erase(server, TENANT) == 1
        assert all(link.reveal(TENANT.conversation_id, f.placeholder) is None for f in found)
    finally:
        await link.close()
        await server.close()
    with pytest.raises(StoreError):  # closed with the link that owned it
        opened[0].run(lambda conn: conn.execute("SELECT 1").fetchone())


async def test_a_store_sharing_its_file_without_its_transactions_is_refused_at_open(tmp_path: Path) -> None:
    half = SharedFileWithoutTransactions(tmp_path / "memory.sqlite3")
    await half.open(dim=DIM, embedder="test")
    try:
        with pytest.raises(StoreError, match="write_sync"):
            VaultLink.open(half, KEY, lambda: pytest.fail("refused before any other file is opened"))  # type: ignore[arg-type]
    finally:
        await half.close()
