"""Silero VAD v6, the ONNX model shipped inside faster-whisper, run frame by frame with its LSTM state.

Model signature (inspected): input ``input`` float32 [batch, 576] = 64 samples of context (the tail of
the previous frame) + a 512-sample frame at 16 kHz; ``h``/``c`` float32 [1, 1, 128] recurrent state;
outputs ``speech_probs`` [batch], ``hn``, ``cn``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import numpy as np

from voice_agent.errors import ModelError
from voice_agent.frames import PcmFloat32

FRAME_SAMPLES = 512  # 32 ms at 16 kHz
CONTEXT_SAMPLES = 64
STATE_SHAPE = (1, 1, 128)


def silero_model_path() -> Path:
    import faster_whisper

    return Path(faster_whisper.__file__).parent / "assets" / "silero_vad_v6.onnx"


class SileroVad:
    """Streaming Silero VAD on 32 ms frames (16 kHz)."""

    sample_rate_hz = 16_000
    frame_samples = FRAME_SAMPLES

    def __init__(self, model_path: str | Path | None = None) -> None:
        self._model_path = Path(model_path) if model_path else None
        self._session: Any = None
        self.reset()

    async def start(self) -> None:
        if self._session is None:
            self._session = await asyncio.to_thread(self._load)

    def _load(self) -> Any:
        import onnxruntime

        path = self._model_path or silero_model_path()
        if not path.is_file():
            raise ModelError(
                f"Silero VAD model not found at {path}; reinstall faster-whisper", path=str(path)
            )
        opts = onnxruntime.SessionOptions()
        opts.inter_op_num_threads = 1
        opts.intra_op_num_threads = 1
        opts.log_severity_level = 4
        try:
            return onnxruntime.InferenceSession(
                str(path), sess_options=opts, providers=["CPUExecutionProvider"]
            )
        except Exception as err:
            raise ModelError(f"cannot load Silero VAD from {path}: {err}", path=str(path)) from err

    def fork(self) -> SileroVad:
        """A detector with its own stream state over this one's loaded model (one per client: the ONNX
        session is shared, and onnxruntime runs it from several threads at once)."""
        twin = SileroVad(self._model_path)
        twin._session = self._session
        return twin

    def reset(self) -> None:
        self._h = np.zeros(STATE_SHAPE, dtype=np.float32)
        self._c = np.zeros(STATE_SHAPE, dtype=np.float32)
        self._context = np.zeros(CONTEXT_SAMPLES, dtype=np.float32)

    def probabilities(self, samples: PcmFloat32) -> list[float]:
        if self._session is None:
            raise ModelError("SileroVad.start() was not called")
        if len(samples) % FRAME_SAMPLES:
            raise ValueError(f"VAD input must be a multiple of {FRAME_SAMPLES} samples, got {len(samples)}")
        out: list[float] = []
        for offset in range(0, len(samples), FRAME_SAMPLES):
            frame = np.asarray(samples[offset : offset + FRAME_SAMPLES], dtype=np.float32)
            window = np.concatenate([self._context, frame])[None, :]
            prob, self._h, self._c = self._session.run(None, {"input": window, "h": self._h, "c": self._c})
            self._context = frame[-CONTEXT_SAMPLES:]
            out.append(float(np.asarray(prob).reshape(-1)[0]))
        return out
