"""Service metrics in the Prometheus text exposition format (version 0.0.4), without a client library.

Counters and gauges with labels, and a histogram for voice-to-voice latency. Label values come from fixed
vocabularies (stages, outcomes, backend names): never a transcript or a conversation id.
"""

from __future__ import annotations

import bisect
import os
import threading
import time
from collections.abc import Iterable

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
LATENCY_BUCKETS_S = (0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 8.0, 13.0, 21.0)
Labels = tuple[tuple[str, str], ...]


def _labels(labels: Labels, extra: Iterable[tuple[str, str]] = ()) -> str:
    pairs = [*labels, *extra]
    if not pairs:
        return ""
    body = ",".join(f'{k}="{_escape(v)}"' for k, v in pairs)
    return "{" + body + "}"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _number(value: float) -> str:
    if value == float("inf"):
        return "+Inf"
    return repr(float(value)) if not float(value).is_integer() else str(int(value))


class _Family:
    def __init__(self, name: str, help_text: str, kind: str) -> None:
        self.name = name
        self.help = help_text
        self.kind = kind
        self._lock = threading.Lock()

    def header(self) -> list[str]:
        return [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} {self.kind}"]

    def render(self) -> list[str]:
        raise NotImplementedError


class Counter(_Family):
    def __init__(self, name: str, help_text: str) -> None:
        super().__init__(name, help_text, "counter")
        self._values: dict[Labels, float] = {}

    def inc(self, amount: float = 1.0, **labels: str) -> None:
        if amount < 0:
            raise ValueError("a counter only goes up")
        key = tuple(sorted(labels.items()))
        with self._lock:
            self._values[key] = self._values.get(key, 0.0) + amount

    def value(self, **labels: str) -> float:
        return self._values.get(tuple(sorted(labels.items())), 0.0)

    def total(self) -> float:
        return sum(self._values.values())

    def render(self) -> list[str]:
        with self._lock:
            items = sorted(self._values.items())
        lines = [f"{self.name}{_labels(k)} {_number(v)}" for k, v in items]
        return [*self.header(), *(lines or [f"{self.name} 0"])]


class Gauge(_Family):
    def __init__(self, name: str, help_text: str) -> None:
        super().__init__(name, help_text, "gauge")
        self._values: dict[Labels, float] = {}

    def set(self, value: float, **labels: str) -> None:
        with self._lock:
            self._values[tuple(sorted(labels.items()))] = float(value)

    def add(self, amount: float, **labels: str) -> None:
        key = tuple(sorted(labels.items()))
        with self._lock:
            self._values[key] = self._values.get(key, 0.0) + amount

    def value(self, **labels: str) -> float:
        return self._values.get(tuple(sorted(labels.items())), 0.0)

    def render(self) -> list[str]:
        with self._lock:
            items = sorted(self._values.items())
        lines = [f"{self.name}{_labels(k)} {_number(v)}" for k, v in items]
        return [*self.header(), *(lines or [f"{self.name} 0"])]


class Histogram(_Family):
    def __init__(self, name: str, help_text: str, buckets: tuple[float, ...] = LATENCY_BUCKETS_S) -> None:
        super().__init__(name, help_text, "histogram")
        if list(buckets) != sorted(buckets):
            raise ValueError("histogram buckets must be sorted")
        self.buckets = buckets
        self._counts = [0] * (len(buckets) + 1)
        self._sum = 0.0

    def observe(self, value: float) -> None:
        with self._lock:
            self._counts[bisect.bisect_left(self.buckets, value)] += 1
            self._sum += value

    @property
    def count(self) -> int:
        return sum(self._counts)

    def render(self) -> list[str]:
        with self._lock:
            counts, total = list(self._counts), self._sum
        lines, running = [], 0
        for bound, n in zip((*self.buckets, float("inf")), counts, strict=True):
            running += n
            lines.append(f"{self.name}_bucket{_labels((), [('le', _number(bound))])} {running}")
        lines += [f"{self.name}_sum {_number(round(total, 6))}", f"{self.name}_count {running}"]
        return [*self.header(), *lines]


class ServerMetrics:
    """Every metric the kiosk service exposes on ``/metrics``."""

    def __init__(self) -> None:
        self.started = time.time()
        self.turns = Counter("voice_agent_turns_total", "Turns answered, by outcome")
        self.voice_to_voice = Histogram(
            "voice_agent_voice_to_voice_seconds", "User stopped speaking to first reply audio out"
        )
        self.errors = Counter("voice_agent_errors_total", "Errors by pipeline stage")
        self.fallbacks = Counter("voice_agent_fallbacks_total", "Fallbacks used, by stage and backend")
        self.active_clients = Gauge("voice_agent_active_clients", "WebSocket clients connected now")
        self.visits = Counter("voice_agent_visits_total", "Visits ended, by reason")
        self.disconnects = Counter("voice_agent_disconnects_total", "Clients disconnected, by reason")
        self.purged = Counter("voice_agent_retention_purged_total", "Records and turns removed by retention")
        self.models_loaded = Gauge("voice_agent_models_loaded", "1 when the shared models are loaded")

    def families(self) -> list[_Family]:
        return [
            self.turns, self.voice_to_voice, self.errors, self.fallbacks, self.active_clients,
            self.visits, self.disconnects, self.purged, self.models_loaded,
        ]  # fmt: skip

    def render(self) -> str:
        lines: list[str] = []
        for family in self.families():
            lines += family.render()
        lines += _process_lines(self.started)
        return "\n".join(lines) + "\n"


def _process_lines(started: float) -> list[str]:
    rss = resident_memory_bytes()
    lines = [
        "# HELP process_start_time_seconds Start time of the process since the Unix epoch",
        "# TYPE process_start_time_seconds gauge",
        f"process_start_time_seconds {_number(round(started, 3))}",
    ]
    if rss is not None:
        lines += [
            "# HELP process_resident_memory_bytes Resident memory size in bytes",
            "# TYPE process_resident_memory_bytes gauge",
            f"process_resident_memory_bytes {rss}",
        ]
    return lines


def resident_memory_bytes(pid: int | str = "self") -> int | None:
    """Resident set size from /proc (Linux); None elsewhere."""
    try:
        with open(f"/proc/{pid}/statm", encoding="ascii") as fh:
            pages = int(fh.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE")


def parse_text(text: str) -> dict[str, float]:
    """Samples of a text exposition as {'name{labels}': value} (for tests and the load script)."""
    out: dict[str, float] = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        name, _, value = line.rpartition(" ")
        out[name] = float(value.replace("+Inf", "inf"))
    return out
