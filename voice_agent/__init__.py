"""voice-agent: a real-time spoken assistant that remembers what people told it.

Nothing is loaded at import: models load in an explicit ``start()``. The one thing done at import is
capping numpy's BLAS threads (``blas_threads``), which has to happen before numpy loads.
"""

from voice_agent import blas_threads  # noqa: F401  (first: before anything imports numpy)
from voice_agent.clock import FakeClock, MonotonicClock
from voice_agent.config import Config, load_config
from voice_agent.errors import VoiceAgentError
from voice_agent.memory.records import MemoryRecord

__version__ = "0.1.0"

__all__ = [
    "Config",
    "FakeClock",
    "MemoryRecord",
    "MonotonicClock",
    "VoiceAgentError",
    "__version__",
    "load_config",
]
