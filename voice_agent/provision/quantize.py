"""Re-quantize a GGUF with the installed llama.cpp (llama-cpp-python's binding of
``llama_model_quantize``): how a faster-reading variant of a shipped model is derived at install time."""

from __future__ import annotations

import ctypes
import os
from pathlib import Path

from voice_agent.errors import ModelError


def quantize_gguf(source: Path, dest: Path, type_name: str, *, threads: int | None = None) -> None:
    """Write ``source`` re-quantized to ``type_name`` (e.g. "Q4_0") into ``dest``."""
    try:
        import llama_cpp
    except ImportError as err:
        raise ModelError(
            "re-quantizing a model needs llama-cpp-python (bash scripts/setup.sh installs it)", path=str(dest)
        ) from err
    ftype = getattr(llama_cpp, f"LLAMA_FTYPE_MOSTLY_{type_name}", None)
    if ftype is None:
        raise ModelError(f"this llama.cpp cannot quantize to {type_name}", path=str(dest))
    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = ftype
    params.allow_requantize = True
    params.nthread = threads or max(1, len(os.sched_getaffinity(0)))
    code = llama_cpp.llama_model_quantize(str(source).encode(), str(dest).encode(), ctypes.byref(params))
    if code != 0 or not dest.is_file():
        raise ModelError(
            f"llama.cpp could not quantize {source.name} to {type_name} (code {code})", path=str(dest)
        )
