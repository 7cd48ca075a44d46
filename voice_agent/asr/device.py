"""Where Whisper runs: the CPU, or a CUDA GPU through CTranslate2 when one is visible.

The choice is a pure function of the config and the detected facts (``choose_placement``), so it is tested
without a GPU; ``cuda_device_count`` is the one place that asks CTranslate2.
"""

from __future__ import annotations

from dataclasses import dataclass

from voice_agent.errors import ConfigError

# int8 is what the CPU kernels are fast at; on a GPU float16 is as fast and loses nothing
AUTO_COMPUTE_TYPES = {"cpu": "int8", "cuda": "float16"}


@dataclass(frozen=True)
class Placement:
    device: str  # "cpu" | "cuda"
    compute_type: str
    automatic: bool  # chosen by "auto": a GPU that fails to load may fall back to the CPU


def choose_placement(device: str, compute_type: str, cuda_devices: int) -> Placement:
    """``asr.device`` / ``asr.compute_type`` resolved against the number of CUDA devices CTranslate2 sees."""
    if device == "auto":
        chosen, automatic = ("cuda" if cuda_devices > 0 else "cpu"), True
    elif device in AUTO_COMPUTE_TYPES:
        chosen, automatic = device, False
    else:
        raise ConfigError(f"unknown device {device!r}: use auto, cpu or cuda", key="asr.device")
    if chosen == "cuda" and cuda_devices <= 0:
        raise ConfigError(
            "asr.device = 'cuda' but CTranslate2 sees no CUDA device; use 'auto' or 'cpu'", key="asr.device"
        )
    resolved_type = AUTO_COMPUTE_TYPES[chosen] if compute_type == "auto" else compute_type
    return Placement(chosen, resolved_type, automatic)


def cuda_device_count() -> int:
    """CUDA devices visible to CTranslate2 (0 when it was built without CUDA or no driver is present)."""
    try:
        import ctranslate2

        return int(ctranslate2.get_cuda_device_count())
    except Exception:  # no driver, broken install: the CPU it is
        return 0
