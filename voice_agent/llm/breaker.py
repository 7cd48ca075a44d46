"""A circuit breaker per LLM backend: stop hammering a dead endpoint, probe it again later.

closed ──N consecutive failures──▶ open ──reset time passed──▶ half-open (one probe at a time)
  ▲                                  ▲                              │
  └────────── probe succeeds ────────┼──────────────────────────────┤
                                     └──────── probe fails ─────────┘
"""

from __future__ import annotations

import threading
from enum import StrEnum

from voice_agent.clock import Clock
from voice_agent.errors import CircuitOpenError


class BreakerState(StrEnum):
    CLOSED = "closed"
    OPEN = "open"
    HALF_OPEN = "half_open"


class CircuitBreaker:
    """Time comes from the injected clock, so tests move it by hand."""

    def __init__(self, name: str, *, failures_to_open: int, reset_s: float, clock: Clock) -> None:
        if failures_to_open < 1 or reset_s <= 0:
            raise ValueError("failures_to_open must be >= 1 and reset_s > 0")
        self.name = name
        self.failures_to_open = failures_to_open
        self.reset_ns = int(reset_s * 1e9)
        self._clock = clock
        self._lock = threading.Lock()
        self._failures = 0
        self._opened_at_ns: int | None = None
        self._probe_in_flight = False

    @property
    def state(self) -> BreakerState:
        with self._lock:
            return self._state()

    @property
    def consecutive_failures(self) -> int:
        with self._lock:
            return self._failures

    def before_call(self) -> None:
        """Admit a call, or raise ``CircuitOpenError``. In half-open state only one probe is admitted."""
        with self._lock:
            state = self._state()
            if state is BreakerState.CLOSED:
                return
            if state is BreakerState.HALF_OPEN and not self._probe_in_flight:
                self._probe_in_flight = True
                return
            raise CircuitOpenError(self.name, self._retry_in_s())

    def record_success(self) -> None:
        """The endpoint answered: close the breaker."""
        with self._lock:
            self._failures = 0
            self._opened_at_ns = None
            self._probe_in_flight = False

    def record_failure(self) -> None:
        """The endpoint failed: open after N in a row; a failed probe opens it again for a full period."""
        with self._lock:
            self._failures += 1
            probe_failed = self._probe_in_flight
            self._probe_in_flight = False
            if probe_failed or self._failures >= self.failures_to_open:
                self._opened_at_ns = self._clock.now_ns()

    def release(self) -> None:
        """A call ended with no verdict on the endpoint (cancelled): let another probe through."""
        with self._lock:
            self._probe_in_flight = False

    def _state(self) -> BreakerState:
        if self._opened_at_ns is None:
            return BreakerState.CLOSED
        if self._clock.now_ns() - self._opened_at_ns >= self.reset_ns:
            return BreakerState.HALF_OPEN
        return BreakerState.OPEN

    def _retry_in_s(self) -> float:
        if self._opened_at_ns is None:
            return 0.0
        return max(0.0, (self._opened_at_ns + self.reset_ns - self._clock.now_ns()) / 1e9)
