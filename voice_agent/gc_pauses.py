"""Python's cyclic garbage collector on the real-time path: pauses measured, none on a turn's critical path.

CPython stops every thread that runs Python code while it looks for reference cycles. The youngest
generation is cheap, but a full collection walks every tracked object, and with Whisper, spaCy, e5 and
the LLM client loaded that is about 190k objects. Measured on the 2-core dev VM during one
`bench latency` run (15 turns, loaded machine): 11 full collections, median 55 ms, the longest 270 ms,
whenever allocation counts happened to cross CPython's thresholds, mid-turn included.

Two levers, both on by default (``[scheduling] gc = "deferred"``; ``"python"`` leaves CPython alone):

- :func:`settle_heap` after the models have loaded: one collection, then ``gc.freeze()`` moves every
  survivor to a generation the collector never walks again. Later full collections only see what was
  allocated since. Reference counting still frees frozen objects; only cycles among them stay.
- :data:`GATE`: while any turn is on its critical path (``scheduling.CriticalPathScheduler`` holds),
  automatic collection is off; the deferred collection runs when the last hold closes, after the first
  audio, like the rest of the background work. Holds expire (20 s), so collection never stays off.

:data:`MONITOR` times every collection (``gc.callbacks``); the scheduler puts the pauses that fell
inside a turn's critical path into its trace.
"""

from __future__ import annotations

import contextlib
import gc
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

GcPolicy = Literal["deferred", "python"]


@dataclass(frozen=True)
class GcSample:
    collections: int
    pause_ms: float
    longest_ms: float


class GcMonitor:
    """Counts collections and their pauses (all generations, all threads) once installed."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._started: dict[int, float] = {}  # thread id → perf_counter at "start"
        self.collections = 0
        self.pause_ms = 0.0
        self.longest_ms = 0.0
        self._installed = False

    def install(self) -> None:
        if not self._installed:
            gc.callbacks.append(self._on_gc)
            self._installed = True

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        del info
        now = time.perf_counter()
        me = threading.get_ident()
        if phase == "start":
            self._started[me] = now
            return
        began = self._started.pop(me, None)
        if began is None:
            return
        ms = (now - began) * 1e3
        with self._lock:
            self.collections += 1
            self.pause_ms += ms
            self.longest_ms = max(self.longest_ms, ms)

    def sample(self) -> GcSample:
        with self._lock:
            return GcSample(self.collections, self.pause_ms, self.longest_ms)


def pauses_between(start: GcSample, end: GcSample) -> dict[str, float]:
    return {"gc_collections": end.collections - start.collections,
            "gc_pause_ms": round(end.pause_ms - start.pause_ms, 2)}  # fmt: skip


class GcGate:
    """Automatic collection off while any owner holds the gate, back on (and run) when the last lets
    go. Owners are the critical-path schedulers of the process; several may hold at once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._owners: set[int] = set()
        self._restore = False  # collection was on when the first owner closed the gate

    def close(self, owner: object) -> None:
        with self._lock:
            if not self._owners:
                self._restore = gc.isenabled()
                gc.disable()
            self._owners.add(id(owner))

    def open(self, owner: object) -> None:
        with self._lock:
            if id(owner) not in self._owners:
                return
            self._owners.discard(id(owner))
            if self._owners or not self._restore:
                return
            gc.enable()  # the next allocation runs what was deferred
            self._restore = False

    def release_all(self) -> None:
        """Let every owner go (a process shutting down, or a test that left a hold open)."""
        with self._lock:
            owners, self._owners = self._owners, set()
            if owners and self._restore:
                gc.enable()
            self._restore = False

    @property
    def closed(self) -> bool:
        with self._lock:
            return bool(self._owners)


MONITOR = GcMonitor()
GATE = GcGate()


def settle_heap(policy: GcPolicy = "deferred") -> dict[str, float]:
    """After the models have loaded: collect once and freeze the survivors (``"deferred"``), or nothing
    (``"python"``). Returns what it did, for the startup log and benchmark metadata."""
    MONITOR.install()
    if policy == "python":
        return {"frozen_objects": float(gc.get_freeze_count())}
    start = time.perf_counter()
    gc.collect()
    gc.freeze()
    settle_ms = round((time.perf_counter() - start) * 1e3, 1)
    return {"frozen_objects": float(gc.get_freeze_count()), "settle_ms": settle_ms}


@contextlib.contextmanager
def as_on_critical_path(policy: GcPolicy) -> Iterator[None]:
    """Run a block under the collection rules of a turn's critical path (benchmarks that time one stage
    outside a spoken turn, e.g. memory recall)."""
    if policy != "deferred":
        yield
        return
    owner = object()
    GATE.close(owner)
    try:
        yield
    finally:
        GATE.open(owner)
