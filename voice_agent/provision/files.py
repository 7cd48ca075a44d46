"""File-level helpers for provisioning: where a model's files live, hashing, and the record of files
already verified (so a second ``models install`` does not re-hash a gigabyte)."""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import shutil
from pathlib import Path

from voice_agent.provision.manifest import ModelSpec

CHUNK_BYTES = 1 << 20
STAMP_NAME = ".verified.json"


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(CHUNK_BYTES):
            digest.update(block)
    return digest.hexdigest()


def package_dir(module: str) -> Path | None:
    """The folder of an installed top-level package, found without importing it (some carriers import
    heavy or missing dependencies at import time)."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    if spec.origin:
        return Path(spec.origin).parent
    return None


def installed_version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def model_folder(model: ModelSpec, model_dir: Path) -> Path | None:
    """The folder holding ``model.files``: ``<model_dir>/<id>`` for a cache model, the package's folder
    for a package model, the binary's folder for a system one. None when the package is not installed."""
    if model.location == "cache":
        return model_dir / model.id
    if model.location == "package":
        assert model.root is not None  # checked by the manifest
        return package_dir(model.root)
    assert model.binary is not None
    found = shutil.which(model.binary)
    return Path(found).parent if found else None


def resolve_source(source: str) -> Path | None:
    """``"<import name>/<path>"`` -> the installed file, or None when its package is missing."""
    module, rel = source.split("/", 1)
    folder = package_dir(module)
    return folder / rel if folder is not None else None


class VerifiedStamps:
    """``<folder>/.verified.json``: for each file, the (size, mtime_ns) at which its sha256 was checked.

    Only a speed-up for ``install``: a file whose size and mtime are unchanged since it was hashed is
    trusted. ``verify`` ignores the stamps and hashes everything."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / STAMP_NAME
        self._data: dict[str, dict[str, object]] = {}
        with contextlib.suppress(OSError, ValueError):
            loaded = json.loads(self.path.read_text(encoding="utf-8"))
            if isinstance(loaded, dict):
                self._data = loaded

    def trusted(self, rel: str, sha256: str) -> bool:
        entry = self._data.get(rel)
        if not entry or entry.get("sha256") != sha256:
            return False
        try:
            st = (self.path.parent / rel).stat()
        except OSError:
            return False
        return entry.get("size") == st.st_size and entry.get("mtime_ns") == st.st_mtime_ns

    def record(self, rel: str, sha256: str) -> None:
        st = (self.path.parent / rel).stat()
        self._data[rel] = {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "sha256": sha256}

    def forget(self, rel: str) -> None:
        self._data.pop(rel, None)

    def save(self) -> None:
        if not self.path.parent.is_dir():
            return
        tmp = self.path.with_name(f"{STAMP_NAME}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(self._data, indent=1, sort_keys=True), encoding="utf-8")
        os.replace(tmp, self.path)
