"""spaCy's matrix products on numpy's BLAS (OpenBLAS) instead of the BLIS that thinc bundles.

thinc's ``NumpyOps.gemm`` calls its own BLIS build, which picks its kernel from the CPU model. On CPUs
it does not know (the AMD EPYC of the project's 2-core VM, family 0x19 model 0x11) BLIS falls back to its
generic reference kernel: a [64, 384] x [384, 1536] product took 2.28 ms there against 0.81 ms in numpy's
OpenBLAS (which detects the CPU at run time and ships a kernel for it). The clause parser's tok2vec, NER
and parser layers go through ``gemm``; with numpy's product an English parse cost 18-23 % less CPU (300
LoCoMo turns: p50 6.35 -> 5.21 ms, p95 11.74 -> 8.99 ms) and gave the same tags, heads and entities.

Pipelines loaded inside :func:`numpy_gemm` keep these ops (a thinc model holds the ops it was made with);
the ops in effect outside are restored afterwards. numpy uses one BLAS thread (``blas_threads``).

Parses run in worker threads (``asyncio.to_thread``), each in a copy of the event loop's context, where
thinc's current ops are unset. A parse creates small thinc models (the parser's step model), and each
creation then looked the CPU backend up again: ``require_cpu`` lists every installed package's entry
points, about 2-3 ms of CPU per parse (a sixth of an English write). :func:`parse_ops` sets the ops for
the duration of one parse instead.
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


@contextmanager
def parse_ops() -> Iterator[None]:
    """Around one parse: thinc's current ops set to the pipelines' own (when unset in this context), so
    models made during the parse do not look the backend up among the installed packages each time."""
    try:
        from thinc.backends import context_ops
    except ImportError:
        yield
        return
    if context_ops.get() is not None:  # set here already (a parse inside numpy_gemm, or a caller's ops)
        yield
        return
    token = context_ops.set(_ops())
    try:
        yield
    finally:
        context_ops.reset(token)
