"""HNSW candidates ranked again by their cosine distance in float32 (see ``rescored``)."""

from __future__ import annotations

from typing import Any

import numpy as np


def rescored(index: Any, keys: np.ndarray, vector: np.ndarray) -> list[tuple[int, float]]:
    """The graph's candidates ranked again by their cosine distance in float32 arithmetic.

    The graph stores float16 vectors; on CPUs with AVX-512 FP16 (Intel Sapphire Rapids and later) usearch
    also computes its float16 distances in half precision, and near-ties come out in the wrong order: on
    such a CPU recall@10 against an exact scan was 0.96 at 20k (0.9995 for a float32 graph). The same
    stored vectors read back and compared in float32 give 0.9965, for 0.4 ms per 150 candidates."""
    if keys.size == 0:
        return []
    rows = np.asarray(index.get(keys), dtype=np.float32).reshape(len(keys), -1)
    query = np.asarray(vector, dtype=np.float32).reshape(-1)
    norms = np.linalg.norm(rows, axis=1) * max(float(np.linalg.norm(query)), 1e-12)
    distances = 1.0 - (rows @ query) / np.maximum(norms, 1e-12)
    order = np.argsort(distances, kind="stable")
    return [(int(keys[i]), float(distances[i])) for i in order]
