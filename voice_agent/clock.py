"""Injected monotonic clocks: the real one, and a fake one that tests advance by hand."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now_ns(self) -> int: ...


class MonotonicClock:
    """The real clock: ``time.monotonic_ns``."""

    def now_ns(self) -> int:
        return time.monotonic_ns()


class FakeClock:
    """A clock that only moves when told to."""

    def __init__(self, start_ns: int = 0) -> None:
        self._now_ns = start_ns

    def now_ns(self) -> int:
        return self._now_ns

    def advance_ms(self, ms: float) -> None:
        if ms < 0:
            raise ValueError("a monotonic clock cannot go back")
        self._now_ns += int(ms * 1_000_000)


def ns_to_ms(ns: int) -> float:
    return ns / 1_000_000
