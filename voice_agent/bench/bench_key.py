"""A fixed PII key for the benchmarks' throw-away stores, so the same code gives the same recall.

A name is stored as ``[NAME:<keyed hash>]`` and embedded under a pseudonym picked by that hash
(``memory/surface.py``): another key gives the speakers other pseudonyms, and the vectors move with
them. On LoCoMo dev, six keys gave evidence recall 0.857-0.880 for one code, a spread as large as the
changes a benchmark is run to compare. Benchmark stores therefore use a key derived from a public seed
and a key number (0 unless ``bench memory --pii-keys`` asks for several); ``VOICE_AGENT_PII_KEY``, when
set, still wins, as it does everywhere. The key protects nothing: the stores are temporary.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from voice_agent.config import Config
from voice_agent.memory.keys import PII_KEY_ENV

_SEED = b"voice-agent benchmark PII key "


def bench_key_hex(number: int = 0) -> str:
    """Key number ``number`` of the benchmarks (32 bytes, hex)."""
    return hashlib.sha256(_SEED + str(number).encode()).hexdigest()


def with_bench_key(config: Config, data_dir: Path, number: int = 0) -> Config:
    """``config`` with ``data_dir`` as its data dir and, as its PII key file whatever key file ``config``
    named, ``data_dir``'s own: the bench key ``number`` is written there (0600) unless a key is there
    already (a store kept from an earlier run stays readable with the key it was written with)."""
    path = Path(data_dir) / "secrets" / "pii.key"
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as out:
            out.write(bench_key_hex(number) + "\n")
    privacy = config.privacy.model_copy(update={"key_file": str(path)})
    return config.model_copy(update={"data_dir": Path(data_dir), "privacy": privacy})


def key_in_use(number: int = 0) -> str:
    """What the report says about the key: the environment's, or the bench key's number."""
    return f"environment ({PII_KEY_ENV})" if os.environ.get(PII_KEY_ENV) else f"bench key {number}"
