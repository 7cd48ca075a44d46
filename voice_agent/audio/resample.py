"""Sample-rate conversion and sample-format helpers (libswresample through PyAV, no scipy)."""

from __future__ import annotations

from typing import Any

import numpy as np

from voice_agent.frames import PcmFloat32, PcmInt16


def int16_to_float32(pcm: PcmInt16) -> PcmFloat32:
    return (pcm.astype(np.float32) / 32768.0).astype(np.float32)


def float32_to_int16(samples: PcmFloat32) -> PcmInt16:
    return (np.clip(samples, -1.0, 1.0) * 32767.0).astype(np.int16)


class Resampler:
    """Streaming mono float32 resampler: feed blocks in order, get blocks out; ``flush`` at the end.

    Keeps the filter state between blocks, so a stream cut into blocks resamples like one piece.
    """

    def __init__(self, src_rate_hz: int, dst_rate_hz: int) -> None:
        if src_rate_hz <= 0 or dst_rate_hz <= 0:
            raise ValueError(f"sample rates must be positive, got {src_rate_hz} -> {dst_rate_hz}")
        self.src_rate_hz = src_rate_hz
        self.dst_rate_hz = dst_rate_hz
        self._resampler: Any = None

    def process(self, samples: PcmFloat32) -> PcmFloat32:
        if self.src_rate_hz == self.dst_rate_hz:
            return np.asarray(samples, dtype=np.float32)
        if len(samples) == 0:
            return np.zeros(0, dtype=np.float32)
        import av

        if self._resampler is None:
            self._resampler = av.AudioResampler(format="flt", layout="mono", rate=self.dst_rate_hz)
        frame = av.AudioFrame.from_ndarray(
            np.ascontiguousarray(samples, dtype=np.float32).reshape(1, -1), format="flt", layout="mono"
        )
        frame.sample_rate = self.src_rate_hz
        return self._collect(self._resampler.resample(frame))

    def flush(self) -> PcmFloat32:
        if self._resampler is None:
            return np.zeros(0, dtype=np.float32)
        out = self._collect(self._resampler.resample(None))
        self._resampler = None
        return out

    @staticmethod
    def _collect(frames: list[Any]) -> PcmFloat32:
        if not frames:
            return np.zeros(0, dtype=np.float32)
        return np.concatenate([f.to_ndarray().reshape(-1) for f in frames]).astype(np.float32)


def resample(samples: PcmFloat32, src_rate_hz: int, dst_rate_hz: int) -> PcmFloat32:
    """Resample one whole signal."""
    if src_rate_hz == dst_rate_hz:
        return np.asarray(samples, dtype=np.float32)
    r = Resampler(src_rate_hz, dst_rate_hz)
    return np.concatenate([r.process(samples), r.flush()])
