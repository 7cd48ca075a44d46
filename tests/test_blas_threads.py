"""numpy's OpenBLAS runs one thread once voice_agent is imported (its spinning threads took a core from
ASR, the LLM and the embedder), unless the person set ``OPENBLAS_NUM_THREADS`` themselves."""

from __future__ import annotations

import os
import subprocess
import sys

PROBE = """
import ctypes, voice_agent, numpy
NAMES = ('scipy_openblas_get_num_threads64_', 'openblas_get_num_threads64_', 'openblas_get_num_threads')
libs = sorted({line.split()[-1] for line in open('/proc/self/maps') if 'openblas' in line.lower()})
counts = []
for path in libs:
    lib = ctypes.CDLL(path)
    for name in NAMES:
        if hasattr(lib, name):
            counts.append(getattr(lib, name)())
print(counts[0] if counts else 'no-openblas')
"""


def _blas_threads(env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_numpy_gets_one_blas_thread_by_default() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")}
    assert _blas_threads(env) in ("1", "no-openblas")


def test_a_blas_thread_count_the_person_set_is_kept() -> None:
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "2"}
    assert _blas_threads(env) in ("2", "no-openblas")
