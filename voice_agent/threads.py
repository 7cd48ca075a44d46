"""Thread budgets of ASR, the LLM and the embedder, derived from the CPUs this process may use.

Config values ``"auto"`` (the default) resolve here, so the same config does the right thing on one
core (``taskset -c 0``), on 2 and on 16.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass


def available_cores() -> int:
    """CPUs this process may run on (``taskset`` and cgroup cpusets included)."""
    getter = getattr(os, "sched_getaffinity", None)
    if getter is not None:
        with contextlib.suppress(OSError):
            return max(1, len(getter(0)))
    return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class ThreadBudget:
    """Threads per stage for ``cores`` CPUs.

    The stages on the critical path run one after another (final ASR decode → prompt prefill → first
    sentence decoded → TTS), so each of them may use every core; the scheduler keeps background work off
    them meanwhile. The embedder works in the background (memory writes) and in the short query
    embedding; it gets a quarter of the cores, at least one. Past a point more threads only spin:
    token-by-token decoding is memory-bound (8), prefill is compute-bound (16), whisper-base gains
    little past 8."""

    cores: int
    asr: int
    llm: int
    llm_batch: int
    embedder: int

    def to_json(self) -> dict[str, int]:
        return {
            "cores": self.cores,
            "asr": self.asr,
            "llm": self.llm,
            "llm_batch": self.llm_batch,
            "embedder": self.embedder,
        }


def thread_budget(cores: int | None = None) -> ThreadBudget:
    n = max(1, cores if cores is not None else available_cores())
    return ThreadBudget(
        cores=n, asr=min(n, 8), llm=min(n, 8), llm_batch=min(n, 16), embedder=max(1, min(4, n // 4))
    )


def resolve_threads(value: int | str, auto: int) -> int:
    """A configured thread count: a positive number as given, or ``"auto"`` → ``auto``."""
    if isinstance(value, int) and value >= 1:
        return value
    if value == "auto":
        return max(1, auto)
    raise ValueError(f"a thread count is a positive number or 'auto', got {value!r}")
