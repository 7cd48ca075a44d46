"""Voice activity detection: a speech probability for each fixed-size frame, with state kept between
frames. The endpointer (``vad/endpointer.py``) turns the probabilities into turns."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from voice_agent.frames import PcmFloat32


@runtime_checkable
class VoiceActivityDetector(Protocol):
    sample_rate_hz: int
    frame_samples: int  # probabilities are computed for frames of exactly this many samples

    async def start(self) -> None:
        """Load the model (explicitly: nothing loads at import or construction)."""
        ...

    def probabilities(self, samples: PcmFloat32) -> list[float]:
        """One speech probability per whole frame in ``samples`` (a multiple of ``frame_samples``),
        continuing the stream's state. Blocking but fast (well under 1 ms a frame): callers batch frames
        and run it off the event loop."""
        ...

    def reset(self) -> None:
        """Forget the stream state (a new, unrelated stream follows)."""
        ...
