"""The cases of ``bench security``: injection attempts and benign statements, from a TOML file
(``voice_agent/defaults/security_cases.toml`` unless another is given; its header explains the fields)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from voice_agent.errors import InputError

CATEGORIES = frozenset(
    {"minja", "role", "authority", "secret", "audience", "output", "template", "fence", "multiturn"}
)
LANGUAGES = frozenset({"en", "zh"})


@dataclass(frozen=True)
class AttackCase:
    id: str
    category: str
    lang: str
    attack: tuple[str, ...]  # the turns that carry the instruction: none may be pinned
    probe: str  # an unrelated question asked after the attempt has left the recent window
    canary: tuple[str, ...]  # text that appears in the probe's reply only if the attempt worked
    setup: tuple[str, ...] = ()  # ordinary turns before the attack (they may be pinned)


@dataclass(frozen=True)
class BenignCase:
    text: str  # a fact or preference a person states about themselves: it must be pinned
    lang: str


@dataclass(frozen=True)
class SecurityCases:
    attacks: tuple[AttackCase, ...]
    benign: tuple[BenignCase, ...]
    source: str


def load_cases(path: str | Path | None = None) -> SecurityCases:
    """Read and check the cases; a malformed file is an ``InputError`` naming the case and field."""
    if path is None:
        source = "voice_agent/defaults/security_cases.toml"
        raw = resources.files("voice_agent").joinpath("defaults/security_cases.toml").read_bytes()
    else:
        source = str(path)
        try:
            raw = Path(path).read_bytes()
        except OSError as err:
            raise InputError(f"cannot read the security cases {path}: {err}") from err
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise InputError(f"{source}: not a valid TOML file: {err}") from err
    attacks = tuple(_attack(entry, index, source) for index, entry in enumerate(data.get("attack", [])))
    benign = tuple(_benign(entry, index, source) for index, entry in enumerate(data.get("benign", [])))
    ids = [a.id for a in attacks]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise InputError(f"{source}: duplicate attack ids {duplicates}")
    if not attacks and not benign:
        raise InputError(f"{source}: no [[attack]] or [[benign]] cases")
    return SecurityCases(attacks, benign, source)


def _texts(entry: dict[str, Any], key: str, where: str, *, required: bool) -> tuple[str, ...]:
    value = entry.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise InputError(f"{where}: {key!r} must be a list of non-empty strings")
    if required and not value:
        raise InputError(f"{where}: {key!r} is required")
    return tuple(value)


def _lang(entry: dict[str, Any], where: str) -> str:
    lang = entry.get("lang", "en")
    if lang not in LANGUAGES:
        raise InputError(f"{where}: lang must be one of {sorted(LANGUAGES)}, got {lang!r}")
    return str(lang)


def _attack(entry: Any, index: int, source: str) -> AttackCase:
    where = f"{source}: attack #{index + 1}"
    if not isinstance(entry, dict):
        raise InputError(f"{where}: must be a table")
    case_id = entry.get("id")
    if not isinstance(case_id, str) or not case_id.strip():
        raise InputError(f"{where}: 'id' is required")
    where = f"{source}: attack {case_id!r}"
    category = entry.get("category", "")
    if category not in CATEGORIES:
        raise InputError(f"{where}: category must be one of {sorted(CATEGORIES)}, got {category!r}")
    probe = entry.get("probe")
    if not isinstance(probe, str) or not probe.strip():
        raise InputError(f"{where}: 'probe' is required")
    return AttackCase(
        id=case_id,
        category=category,
        lang=_lang(entry, where),
        attack=_texts(entry, "attack", where, required=True),
        probe=probe,
        canary=_texts(entry, "canary", where, required=True),
        setup=_texts(entry, "setup", where, required=False),
    )


def _benign(entry: Any, index: int, source: str) -> BenignCase:
    where = f"{source}: benign #{index + 1}"
    if not isinstance(entry, dict):
        raise InputError(f"{where}: must be a table")
    text = entry.get("text")
    if not isinstance(text, str) or not text.strip():
        raise InputError(f"{where}: 'text' is required")
    return BenignCase(text, _lang(entry, where))
