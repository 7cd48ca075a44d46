"""Python's cyclic garbage collector on the real-time path: every collection's pause, measured.

CPython stops every thread that runs Python code while it looks for reference cycles. The youngest
generation is cheap; a full collection walks every tracked object, and with Whisper, spaCy, e5 and the
LLM client loaded that is about 190k. :data:`MONITOR` times every collection (``gc.callbacks``); the
critical-path scheduler puts the pauses that fell between a turn's end of speech and its first audio
into the turn's trace (``critical_path.gc_collections`` / ``gc_pause_ms``), and the benchmarks sum them.

Measured on the 2-core dev VM (2026-12-02, quiet, `bench latency`, 10 turns): 0.4 ms of collection per
turn's critical path at the median, 0.7 ms at most; full collections came at startup (model loading),
not between turns. Freezing the heap after startup and deferring collection while a turn waits for its
first audio were tried in the same sitting and won nothing (voice-to-voice p50 1777 → 1937 ms, within
the noise), so the collector is left as CPython ships it and only watched.
"""

from __future__ import annotations

import gc
import threading
import time
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GcSample:
    collections: int
    pause_ms: float


class GcMonitor:
    """Counts collections and their pauses (all generations, all threads) once installed."""

    def __init__(self) -> None:
        # Re-entrant: allocating under it may start a collection whose callback takes it again.
        self._lock = threading.RLock()
        self._started: dict[int, float] = {}  # thread id → perf_counter at "start"
        self.collections = 0
        self.pause_ms = 0.0
        self._installed = False

    def install(self) -> None:
        with self._lock:
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
        with self._lock:
            self.collections += 1
            self.pause_ms += (now - began) * 1e3

    def sample(self) -> GcSample:
        with self._lock:
            collections, pause_ms = self.collections, self.pause_ms
        return GcSample(collections, pause_ms)


def pauses_between(start: GcSample, end: GcSample) -> dict[str, float]:
    return {"gc_collections": end.collections - start.collections,
            "gc_pause_ms": round(end.pause_ms - start.pause_ms, 2)}  # fmt: skip


MONITOR = GcMonitor()
