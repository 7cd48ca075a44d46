"""One BLAS thread unless the environment says otherwise (imported first by the package).

numpy's OpenBLAS otherwise starts a thread per core, and those threads spin-wait after every matrix
product for more work. On a 2-core machine they take a core from ASR, the LLM and the embedder: `bench
memory --scale 10k` spent 25-30 ms of process CPU per recall for 13-15 ms of wall time, and 13-15 ms of
CPU with one BLAS thread (wall p50 15.0 -> 13.2 and 13.6 -> 11.9 ms, two rounds each, load 1.3, AMD EPYC
2-core VM, 2026-12-01). The products the project computes are small; none gains from more threads.
It must run before numpy is first imported, because OpenBLAS reads the variable when it loads.
"""

from __future__ import annotations

import os

BLAS_THREADS_ENV = "OPENBLAS_NUM_THREADS"

os.environ.setdefault(BLAS_THREADS_ENV, "1")
