"""Runs llama-cpp-python's server exactly like ``python -m llama_cpp.server ARGS``, with two changes.

``LocalLlamaServer`` runs this file's source with ``python -c`` (so it works from any install layout).

1. The server dies with voice-agent: Linux sends it SIGKILL when its parent dies (PR_SET_PDEATHSIG), so
   a crashed or killed voice-agent never leaves a server holding the port and the memory (SIGTERM let
   uvicorn wait for a reply still streaming to the dead parent).
2. A lean RAM prompt cache (``--cache``): llama-cpp-python 0.3.x stores, with every cached prompt state,
   a copy of its whole logits buffer (n_batch x n_vocab floats: 311 MB for Qwen2.5, 100 MB for SmolLM2)
   that the cache's size limit does not count, and copies it back on every restore. A restored state is
   always re-evaluated for at least one token before anything is sampled (``_requires_eval``), so those
   logits are never read: here a state keeps only the KV cache and the token ids, which makes saving and
   restoring cheap and keeps the cache within its configured size.
3. ``--n_gpu_layers auto`` becomes -1 (every layer on the GPU) when this llama.cpp build can offload to a
   GPU, else 0: the CPU build the project installs keeps running on the CPU.
"""

from __future__ import annotations

import os
import runpy
import signal
import sys
from typing import Any


def die_with_parent() -> None:
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    pr_set_pdeathsig = 1
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL)
    expected = os.environ.get("VOICE_AGENT_PARENT_PID")
    if expected and os.getppid() != int(expected):  # the parent died before prctl took effect
        sys.exit(70)


def lean_prompt_cache() -> bool:
    """Replace ``Llama.save_state`` / ``load_state`` with versions that skip the logits buffer."""
    import ctypes

    import llama_cpp
    from llama_cpp import llama as llama_module

    if not llama_cpp.__version__.startswith("0.3.") or not hasattr(llama_module, "LlamaState"):
        return False  # another release: leave it as it is

    def save_state(self: Any) -> Any:
        size = int(llama_cpp.llama_state_get_size(self._ctx.ctx))
        buffer = (ctypes.c_uint8 * size)()
        written = int(llama_cpp.llama_state_get_data(self._ctx.ctx, buffer, size))
        if written > size:
            raise RuntimeError("Failed to copy llama state data")
        return llama_module.LlamaState(
            scores=self.scores[:1, :].copy(),  # a placeholder row: never read after a restore
            input_ids=self.input_ids.copy(),
            n_tokens=self.n_tokens,
            llama_state=bytes(buffer)[:written],
            llama_state_size=written,
            seed=self._seed,
        )

    def load_state(self: Any, state: Any) -> None:
        self.input_ids = state.input_ids.copy()
        self.n_tokens = state.n_tokens
        self._requires_eval = True  # the next step decodes at least one token, refreshing the logits
        self._seed = state.seed
        size = state.llama_state_size
        data = (ctypes.c_uint8 * size).from_buffer_copy(state.llama_state)
        if llama_cpp.llama_state_set_data(self._ctx.ctx, data, size) != size:
            raise RuntimeError("Failed to set llama state data")

    setattr(llama_module.Llama, "save_state", save_state)  # noqa: B010  (a deliberate patch)
    setattr(llama_module.Llama, "load_state", load_state)  # noqa: B010
    return True


def gpu_layers(setting: str, offload_supported: bool) -> str:
    """The ``--n_gpu_layers`` value for llama.cpp: "auto" resolved, a number passed through."""
    if setting != "auto":
        return setting
    return "-1" if offload_supported else "0"


def gpu_offload_supported() -> bool:
    import llama_cpp

    check = getattr(llama_cpp, "llama_supports_gpu_offload", None)
    return bool(check()) if callable(check) else False


def resolve_gpu_layers(argv: list[str]) -> list[str]:
    """``argv`` with ``--n_gpu_layers auto`` resolved (llama_cpp.server only takes a number)."""
    flag = "--n_gpu_layers"
    if flag not in argv[:-1] or argv[argv.index(flag) + 1] != "auto":
        return argv
    at = argv.index(flag) + 1
    return [*argv[:at], gpu_layers("auto", gpu_offload_supported()), *argv[at + 1 :]]


def main() -> None:
    die_with_parent()
    resolved = resolve_gpu_layers(sys.argv)
    if resolved != sys.argv:
        layers = resolved[resolved.index("--n_gpu_layers") + 1]
        print(f"voice-agent: --n_gpu_layers auto -> {layers}", file=sys.stderr, flush=True)
        sys.argv = resolved
    if "--cache" in sys.argv and lean_prompt_cache():
        print("voice-agent: lean prompt cache (KV state only)", file=sys.stderr, flush=True)
    runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
