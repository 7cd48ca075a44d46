"""spaCy's matrix products on numpy's BLAS (OpenBLAS) instead of the BLIS that thinc bundles.

thinc's ``NumpyOps.gemm`` calls its own BLIS build, which picks its kernel from the CPU model. On CPUs
it does not know (the AMD EPYC of the project's 2-core VM, family 0x19 model 0x11) BLIS falls back to its
generic reference kernel: a [64, 384] x [384, 1536] product took 2.28 ms there against 0.81 ms in numpy's
OpenBLAS (which detects the CPU at run time and ships a kernel for it). The clause parser's tok2vec, NER
and parser layers go through ``gemm``; with numpy's product an English parse cost 18-23 % less CPU (300
LoCoMo turns: p50 6.35 -> 5.21 ms, p95 11.74 -> 8.99 ms) and gave the same tags, heads and entities.

Pipelines loaded inside :func:`numpy_gemm` keep these ops (a thinc model holds the ops it was made with);
the ops in effect outside are restored afterwards. numpy uses one BLAS thread (``blas_threads``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

import numpy as np


@cache
def _ops() -> Any:
    from thinc.api import NumpyOps

    class NumpyGemmOps(NumpyOps):
        """thinc's CPU ops with ``gemm`` computed by ``numpy.matmul``."""

        name = "numpy-gemm"

        def gemm(
            self, x: np.ndarray, y: np.ndarray, *, out: np.ndarray | None = None,
            trans1: bool = False, trans2: bool = False,
        ) -> np.ndarray:  # fmt: skip
            a = x.T if trans1 else x
            b = y.T if trans2 else y
            if out is None:
                return np.matmul(a, b)
            np.matmul(a, b, out=out)
            return out

    return NumpyGemmOps()


@contextmanager
def numpy_gemm() -> Iterator[None]:
    """Load spaCy pipelines inside this block to have their products computed by numpy."""
    try:
        from thinc.api import get_current_ops, set_current_ops
    except ImportError:  # no spaCy: the caller's load reports what is missing
        yield
        return
    previous = get_current_ops()
    set_current_ops(_ops())
    try:
        yield
    finally:
        set_current_ops(previous)
