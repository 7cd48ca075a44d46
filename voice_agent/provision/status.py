"""Where a model is (``locate``) and whether it is intact (``status`` / ``verify``).

``locate`` is on the hot path of every backend's ``start()``: it checks presence and sizes only, never
hashes. ``verify`` hashes every file; ``doctor`` and ``models verify`` use it.
All functions here block (file I/O); async callers run them in ``asyncio.to_thread``.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from voice_agent.errors import ModelError
from voice_agent.provision.files import installed_version, model_folder, sha256_file
from voice_agent.provision.manifest import Manifest, ModelSpec, load_manifest

INSTALL_FIX = "voice-agent models install"
Progress = Callable[[str], None]


class State(StrEnum):
    OK = "ok"
    MISSING = "missing"
    CORRUPT = "corrupt"


@dataclass(frozen=True)
class FileProblem:
    path: Path
    problem: str  # "missing" | "size 12 B, expected 34 B" | "sha256 mismatch" | ...

    def __str__(self) -> str:
        return f"{self.path}: {self.problem}"


@dataclass
class ModelStatus:
    id: str
    stage: str
    location: str
    state: State
    path: Path | None  # what a backend loads (locate's answer), when known
    hashed: bool  # True when every file's sha256 was checked
    problems: list[FileProblem] = field(default_factory=list)
    fix: str = ""

    @property
    def ok(self) -> bool:
        return self.state is State.OK

    def describe(self) -> str:
        if self.ok:
            return "ok (sha256 verified)" if self.hashed else "ok"
        details = "; ".join(str(p) for p in self.problems) or self.state.value
        return f"{self.state.value}: {details}" + (f" (fix: {self.fix})" if self.fix else "")

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "stage": self.stage,
            "location": self.location,
            "state": self.state.value,
            "path": str(self.path) if self.path else None,
            "hashed": self.hashed,
            "problems": [{"path": str(p.path), "problem": p.problem} for p in self.problems],
            "fix": self.fix,
        }


def fix_for(model: ModelSpec) -> str:
    if model.location == "system":
        return "apt-get install " + " ".join(model.debian or (model.binary or model.id,))
    return f"{INSTALL_FIX} {model.id}"


def locate(model_id: str, model_dir: Path, manifest: Manifest | None = None) -> Path:
    """The folder or file a backend loads for ``model_id``.

    Checks that every manifest file is present with its expected size (no hashing). Raises
    ``ModelError`` naming the missing or wrong file and the fix (``voice-agent models install <id>``).
    """
    manifest = manifest or load_manifest()
    model = manifest.get(model_id)
    report = _check(model, Path(model_dir), hash_files=False)
    if not report.ok:
        first = report.problems[0] if report.problems else None
        what = f"{first.path} is {first.problem}" if first else f"{model_id} is {report.state.value}"
        raise ModelError(
            f"model {model_id} is {report.state.value}: {what}; run `{report.fix}`",
            model=model_id,
            path=str(first.path) if first else None,
        )
    assert report.path is not None
    return report.path


def status(
    model_dir: Path,
    ids: Sequence[str] | None = None,
    *,
    hash_files: bool = False,
    manifest: Manifest | None = None,
    progress: Progress | None = None,
) -> list[ModelStatus]:
    """The state of each model (all by default): present with the right sizes, and with ``hash_files``
    the right sha256 too."""
    manifest = manifest or load_manifest()
    out = []
    for model in manifest.select(list(ids) if ids else None):
        if progress and hash_files and model.files:
            progress(f"{model.id}: verifying {len(model.files)} file(s)")
        out.append(_check(model, Path(model_dir), hash_files=hash_files))
    return out


def verify(
    model_dir: Path,
    ids: Sequence[str] | None = None,
    *,
    manifest: Manifest | None = None,
    progress: Progress | None = None,
) -> list[ModelStatus]:
    """Hash every file of every (selected) model against the manifest."""
    return status(model_dir, ids, hash_files=True, manifest=manifest, progress=progress)


def _check(model: ModelSpec, model_dir: Path, *, hash_files: bool) -> ModelStatus:
    if model.location == "system":
        return _check_system(model)
    folder = model_folder(model, model_dir)
    result = ModelStatus(
        id=model.id,
        stage=model.stage,
        location=model.location,
        state=State.OK,
        path=None,
        hashed=hash_files,
        fix=fix_for(model),
    )
    if folder is None or not folder.is_dir():
        missing_pkg = ", ".join(p.requirement for p in model.packages)
        where = folder if folder is not None else Path(model.root or model.id)
        what = "not assembled" if model.location == "cache" else f"not installed ({missing_pkg})"
        result.state = State.MISSING
        result.problems.append(FileProblem(where, what))
        return result
    result.path = folder / model.entry if model.entry else folder
    present = 0
    for spec in model.files:
        path = folder / spec.path
        problem = _file_problem(path, spec.size, spec.sha256, hash_files=hash_files)
        if problem is None:
            present += 1
        else:
            result.problems.append(FileProblem(path, problem))
            present += problem != "missing"
    if model.location == "package":
        for pkg in model.packages:
            version = installed_version(pkg.name)
            if not pkg.accepts(version):
                result.problems.append(
                    FileProblem(Path(pkg.name), f"installed version {version}, expected {pkg.version}")
                )
                present += version is not None
    if result.problems:
        result.state = State.CORRUPT if present else State.MISSING
    return result


def _file_problem(path: Path, size: int, sha256: str, *, hash_files: bool) -> str | None:
    try:
        actual = path.stat().st_size
    except FileNotFoundError:
        return "missing"
    except OSError as err:
        return f"unreadable ({err.strerror})"
    if actual != size:
        return f"size {actual} B, expected {size} B (corrupt or truncated)"
    if hash_files:
        try:
            digest = sha256_file(path)
        except OSError as err:
            return f"unreadable ({err.strerror})"
        if digest != sha256:
            return f"sha256 mismatch (corrupt): {digest[:12]}…, expected {sha256[:12]}…"
    return None


def _check_system(model: ModelSpec) -> ModelStatus:
    assert model.binary is not None
    result = ModelStatus(
        id=model.id,
        stage=model.stage,
        location=model.location,
        state=State.OK,
        path=None,
        hashed=False,
        fix=fix_for(model),
    )
    found = shutil.which(model.binary)
    if found is None:
        result.state = State.MISSING
        result.problems.append(FileProblem(Path(model.binary), "not found on PATH"))
        return result
    result.path = Path(found)
    if model.check:
        try:
            proc = subprocess.run(
                [found, *model.check], capture_output=True, text=True, timeout=10, check=False
            )
            failed = proc.returncode != 0
            reason = f"`{model.binary} {' '.join(model.check)}` exited {proc.returncode}"
        except (OSError, subprocess.TimeoutExpired) as err:
            failed, reason = True, f"`{model.binary}` did not run: {err}"
        if failed:
            result.state = State.CORRUPT
            result.problems.append(FileProblem(Path(found), reason))
    return result
