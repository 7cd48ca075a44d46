"""Query embeddings off the critical path: an LRU cache of query vectors keyed by the exact text the
embedder sees, with in-flight de-duplication.

The conversation engine (or the turn detector) may call ``Memory.prepare_query`` with the confirmed
partial transcript while the person is still speaking; when the final text scrubs to the same string,
recall finds its vector here and skips the model. A recall that arrives while the same text is still
being embedded waits for that embedding instead of running the model a second time.

Only scrubbed text is ever a key (the service scrubs before it embeds), and vectors are not memory
content, so the cache is shared by every conversation of one ``Memory``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class PreparedQuery:
    text: str  # scrubbed
    vector: np.ndarray
    cached: bool  # the vector came from the query cache (prepared or asked before)
    timings_ms: dict[str, float]


@dataclass
class CacheStats:
    hits: int = 0
    misses: int = 0
    waited: int = 0  # requests that found the same text being embedded and waited for it

    def to_json(self) -> dict[str, int]:
        return {"hits": self.hits, "misses": self.misses, "waited": self.waited}


class QueryEmbeddings:
    """``embed(text)`` → (unit vector, whether it came from the cache). Thread-safe."""

    def __init__(self, embedder: Any, capacity: int = 512) -> None:
        if capacity < 1:
            raise ValueError("the query cache needs a capacity of at least 1")
        self.embedder = embedder
        self.capacity = capacity
        self.stats = CacheStats()
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._pending: dict[str, threading.Event] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._vectors)

    def __contains__(self, text: object) -> bool:
        with self._lock:
            return text in self._vectors

    def cached(self, text: str) -> np.ndarray | None:
        """The vector of ``text`` when it is cached (counted as a hit), else None; never runs the model."""
        with self._lock:
            vector = self._vectors.get(text)
            if vector is not None:
                self._vectors.move_to_end(text)
                self.stats.hits += 1
            return vector

    def embed(self, text: str) -> tuple[np.ndarray, bool]:
        """The query vector of ``text`` (blocking: runs the model on a miss)."""
        while True:
            with self._lock:
                cached = self._vectors.get(text)
                if cached is not None:
                    self._vectors.move_to_end(text)
                    self.stats.hits += 1
                    return cached, True
                pending = self._pending.get(text)
                if pending is None:
                    pending = self._pending[text] = threading.Event()
                    self.stats.misses += 1
                    break
                self.stats.waited += 1
            pending.wait()  # another thread is embedding this very text: take its result
        try:
            vector = np.asarray(self.embedder.embed_queries([text])[0], dtype=np.float32)
            vector.setflags(write=False)  # shared between callers
            with self._lock:
                self._vectors[text] = vector
                while len(self._vectors) > self.capacity:
                    self._vectors.popitem(last=False)
            return vector, False
        finally:
            with self._lock:
                self._pending.pop(text, None)
            pending.set()

    def clear(self) -> None:
        with self._lock:
            self._vectors.clear()
