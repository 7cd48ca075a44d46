"""The model manifest (models/manifest.toml): which registry packages carry each default model, how it is
assembled, and the sha256 and size of every file that matters.

Parsing validates the whole file; a bad manifest is a ``ConfigError`` naming the file, key and reason.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path, PurePosixPath
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from voice_agent.errors import ConfigError, ModelError
from voice_agent.paths import manifest_path

Location = Literal["cache", "package", "system"]
_SHA256 = re.compile(r"^[0-9a-f]{64}$")
_ID = re.compile(r"^[a-z0-9][a-z0-9.\-]*$")


def _relative(value: str, what: str) -> str:
    """A path inside a model folder or package: relative, no '..', forward slashes."""
    path = PurePosixPath(value)
    if path.is_absolute() or ".." in path.parts or "\\" in value:
        raise ValueError(f"{what} must be a relative path without '..': {value!r}")
    return value


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PackageSpec(_Strict):
    """A registry package that carries (part of) a model, pinned exactly (or ``X.Y.*`` for a runtime)."""

    name: str
    version: str
    module: str  # its import name: where its files live
    no_deps: bool = False  # install with --no-deps: its declared dependencies are not needed

    @property
    def requirement(self) -> str:
        return f"{self.name}=={self.version}"

    def accepts(self, installed: str | None) -> bool:
        if installed is None:
            return False
        if self.version.endswith(".*"):
            prefix = self.version[:-1]  # "3.8." matches 3.8.18, not 3.80
            return installed.startswith(prefix)
        return installed == self.version


class FileSpec(_Strict):
    path: str
    sha256: str
    size: int = Field(ge=0)

    @field_validator("path")
    @classmethod
    def _path_ok(cls, value: str) -> str:
        return _relative(value, "files.path")

    @field_validator("sha256")
    @classmethod
    def _sha_ok(cls, value: str) -> str:
        if not _SHA256.match(value):
            raise ValueError(f"not a lowercase hex sha256: {value!r}")
        return value


class AssembleStep(_Strict):
    """Concatenate ``sources`` (``<import name>/<path>``) in order into ``dest`` (one source: a copy).
    With ``quantize`` (a llama.cpp type such as "Q4_0") the joined GGUF is re-quantized into ``dest`` by
    the installed llama.cpp (deterministic: the manifest's sha256 still checks the result). With
    ``derive`` (``"e5-onnx-int8"``) the one source is turned into ``dest`` by
    ``voice_agent.provision.e5_export`` (also deterministic and sha256-checked)."""

    dest: str
    sources: tuple[str, ...] = Field(min_length=1)
    quantize: str | None = None
    derive: Literal["e5-onnx-int8"] | None = None

    @field_validator("quantize")
    @classmethod
    def _quantize_ok(cls, value: str | None) -> str | None:
        if value is not None and not re.fullmatch(r"[A-Z0-9_]+", value):
            raise ValueError(f"quantize is a llama.cpp type name such as Q4_0: {value!r}")
        return value

    @field_validator("dest")
    @classmethod
    def _dest_ok(cls, value: str) -> str:
        return _relative(value, "assemble.dest")

    @field_validator("sources")
    @classmethod
    def _sources_ok(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for source in value:
            _relative(source, "assemble.sources")
            if "/" not in source:
                raise ValueError(f"a source is '<import name>/<path>': {source!r}")
        return value

    def source_module(self, source: str) -> str:
        return source.split("/", 1)[0]


class ModelSpec(_Strict):
    id: str
    stage: str
    title: str
    licence: str
    source: str
    location: Location
    entry: str = ""  # what a backend loads, relative to the model folder ("" = the folder)
    load: str = ""
    root: str | None = None  # package location: the import name whose folder holds the files
    binary: str | None = None  # system location
    debian: tuple[str, ...] = ()
    check: tuple[str, ...] = ()
    packages: tuple[PackageSpec, ...] = ()
    assemble: tuple[AssembleStep, ...] = ()
    files: tuple[FileSpec, ...] = ()
    optional: bool = False  # only when named: `models install` without ids leaves it out

    @field_validator("id")
    @classmethod
    def _id_ok(cls, value: str) -> str:
        if not _ID.match(value):
            raise ValueError(f"ids are lowercase letters, digits, '.', '-': {value!r}")
        return value

    @field_validator("entry")
    @classmethod
    def _entry_ok(cls, value: str) -> str:
        return _relative(value, "entry") if value else value

    @model_validator(mode="after")
    def _consistent(self) -> ModelSpec:
        if self.location == "system":
            if not self.binary:
                raise ValueError("a system model names its `binary`")
            return self
        if not self.packages or not self.files:
            raise ValueError(f"a {self.location} model lists its `packages` and `files`")
        paths = [f.path for f in self.files]
        if len(set(paths)) != len(paths):
            raise ValueError("files.path values must be unique")
        if self.location == "package" and not self.root:
            raise ValueError("a package model names its `root` (import name)")
        if self.location == "cache":
            dests = [s.dest for s in self.assemble]
            if sorted(dests) != sorted(paths):
                raise ValueError(f"assemble dests {sorted(dests)} must be exactly the files {sorted(paths)}")
        return self

    def file(self, path: str) -> FileSpec:
        for spec in self.files:
            if spec.path == path:
                return spec
        raise KeyError(path)


class Manifest(_Strict):
    schema_version: int = Field(alias="schema")
    models: tuple[ModelSpec, ...]
    path: Path | None = None

    @field_validator("models")
    @classmethod
    def _unique(cls, value: tuple[ModelSpec, ...]) -> tuple[ModelSpec, ...]:
        ids = [m.id for m in value]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"duplicate model ids: {dupes}")
        return value

    @property
    def ids(self) -> list[str]:
        return [m.id for m in self.models]

    def get(self, model_id: str) -> ModelSpec:
        for model in self.models:
            if model.id == model_id:
                return model
        raise ModelError(
            f"unknown model id {model_id!r}; known: {', '.join(self.ids)}",
            model=model_id,
        )

    def select(self, ids: list[str] | tuple[str, ...] | None) -> list[ModelSpec]:
        """The models named by ``ids`` (in manifest order), or every non-optional one for None / empty."""
        if not ids:
            return [m for m in self.models if not m.optional]
        wanted = {self.get(i).id for i in ids}
        return [m for m in self.models if m.id in wanted]


def load_manifest(path: str | Path | None = None) -> Manifest:
    """Parse and validate the manifest (default: ``paths.manifest_path()``)."""
    source = Path(path) if path is not None else manifest_path()
    try:
        with source.open("rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError as err:
        raise ConfigError("model manifest not found", file=str(source)) from err
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"not valid TOML: {err}", file=str(source)) from err
    try:
        manifest = Manifest.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        key = _key_of(first["loc"], data)
        raise ConfigError(first["msg"], file=str(source), key=key) from err
    return manifest.model_copy(update={"path": source})


def _key_of(loc: tuple[int | str, ...], data: dict[str, object]) -> str:
    """``('models', 3, 'files', 0, 'sha256')`` -> ``models[3:e5-small].files[0].sha256``."""
    parts: list[str] = []
    node: object = data
    for item in loc:
        if isinstance(item, int):
            label = str(item)
            if isinstance(node, list) and item < len(node):
                node = node[item]
                if isinstance(node, dict) and "id" in node:
                    label = f"{item}:{node['id']}"
            if parts:
                parts[-1] += f"[{label}]"
        else:
            parts.append(item)
            node = node.get(item) if isinstance(node, dict) else None
    return ".".join(parts)
