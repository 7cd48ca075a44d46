"""Assembling the memory components from config (models load here, never at import)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from voice_agent.config import Config
from voice_agent.errors import ConfigError
from voice_agent.memory.scrub import Scrubber
from voice_agent.memory.store.base import MemoryStore
from voice_agent.memory.vault_link import VaultLink


@dataclass
class Components:
    """What ``Memory`` is built from; :func:`open_components` assembles the defaults from config."""

    store: MemoryStore
    embedder: Any
    chunker: Any
    scrubber: Scrubber
    vault: VaultLink  # the PII vault, and how its rows commit with the store's


def build_store(config: Config, env: dict[str, str] | None = None) -> MemoryStore:
    """The configured backend: the embedded SQLite file, or Weaviate at ``memory.weaviate_url``."""
    memory = config.memory
    if memory.store == "sqlite":
        from voice_agent.memory.store.sqlite import SqliteStore

        return SqliteStore(config.store_path())
    if not memory.weaviate_url:
        raise ConfigError(
            "memory.store is 'weaviate' but memory.weaviate_url is not set", key="memory.weaviate_url"
        )
    from voice_agent.memory.store.weaviate import WeaviateStore

    return WeaviateStore.from_config(memory, env=env)


async def open_components(
    config: Config,
    *,
    embedder: Any = None,
    chunker: Any = None,
    store: MemoryStore | None = None,
    env: dict[str, str] | None = None,
) -> Components:
    from voice_agent.memory.chunker import ClauseChunker
    from voice_agent.memory.embed import build_embedder
    from voice_agent.memory.keys import install_key_from_config
    from voice_agent.memory.person_names import PersonNameFinder
    from voice_agent.memory.store.sqlite import LocalFile

    key = await asyncio.to_thread(install_key_from_config, config, env)
    embedder = embedder if embedder is not None else build_embedder(config, config.model_dir)
    chunker = chunker if chunker is not None else ClauseChunker()
    start = getattr(embedder, "start", None)
    names = PersonNameFinder()  # Chinese (jieba) starts on the first Chinese text
    await asyncio.gather(
        asyncio.to_thread(start) if callable(start) else asyncio.sleep(0),
        asyncio.to_thread(chunker.start, ["en"]),
        asyncio.to_thread(names.start, ["en"]),
    )
    scrubber = Scrubber(key, phone_region=config.privacy.resolved_phone_region(env), names=names)
    store = store if store is not None else build_store(config, env)
    await store.open(dim=embedder.dim, embedder=embedder.name)
    try:
        vault = await asyncio.to_thread(VaultLink.open, store, key, lambda: LocalFile(config.store_path()))
    except BaseException:
        await store.close()
        raise
    return Components(store, embedder, chunker, scrubber, vault)
