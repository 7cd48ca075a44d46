"""Failed attempts per key (a badge, a client address) and lockouts that double each time.

    limiter = AttemptLimiter(max_failures=5, lockout_s=60, clock=clock)
    if limiter.retry_after(key) > 0: refuse
    ... on a wrong PIN:  limiter.fail(key)     # the 5th failure in the window locks the key for 60 s,
                                               # the next lockout 120 s, … up to max_lockout_s
    ... on success:      limiter.succeed(key)

Used for PIN guesses (per badge and per client) and for loopback refusals (per client): both are
guessing games that must get slower the longer they are played. Memory is bounded (``max_keys``).
"""

from __future__ import annotations

from collections import OrderedDict, deque
from dataclasses import dataclass, field

from voice_agent.clock import Clock

NS = 1_000_000_000


@dataclass
class _Entry:
    failures: deque[int] = field(default_factory=deque)
    locked_until_ns: int = 0
    lockouts: int = 0
    last_ns: int = 0


class AttemptLimiter:
    def __init__(
        self,
        max_failures: int,
        lockout_s: float,
        clock: Clock,
        *,
        window_s: float = 900.0,
        max_lockout_s: float = 3600.0,
        forget_after_s: float = 86400.0,
        max_keys: int = 10_000,
    ) -> None:
        if max_failures < 1 or lockout_s <= 0:
            raise ValueError("max_failures must be >= 1 and lockout_s > 0")
        self.max_failures = max_failures
        self.lockout_ns = int(lockout_s * NS)
        self.max_lockout_ns = int(max(lockout_s, max_lockout_s) * NS)
        self.window_ns = int(window_s * NS)
        self.forget_after_ns = int(forget_after_s * NS)
        self.max_keys = max_keys
        self._clock = clock
        self._entries: OrderedDict[str, _Entry] = OrderedDict()

    def retry_after(self, key: str) -> float:
        """Seconds until ``key`` may try again (0: now)."""
        entry = self._entries.get(key)
        if entry is None:
            return 0.0
        return max(0.0, (entry.locked_until_ns - self._clock.now_ns()) / NS)

    def fail(self, key: str) -> float:
        """Count a failure; returns the lockout it started, in seconds (0 when none)."""
        now = self._clock.now_ns()
        entry = self._entry(key, now)
        while entry.failures and now - entry.failures[0] >= self.window_ns:
            entry.failures.popleft()
        entry.failures.append(now)
        if len(entry.failures) < self.max_failures:
            return 0.0
        return self._lock(entry, now)

    def lock(self, key: str) -> float:
        """Lock ``key`` out now (the caller saw enough); returns the lockout in seconds."""
        now = self._clock.now_ns()
        return self._lock(self._entry(key, now), now)

    def _lock(self, entry: _Entry, now: int) -> float:
        entry.failures.clear()
        lockout = min(self.lockout_ns << min(entry.lockouts, 32), self.max_lockout_ns)
        entry.lockouts += 1
        entry.locked_until_ns = max(entry.locked_until_ns, now + lockout)
        return (entry.locked_until_ns - now) / NS

    def failures(self, key: str) -> int:
        entry = self._entries.get(key)
        return 0 if entry is None else len(entry.failures)

    def succeed(self, key: str) -> None:
        self._entries.pop(key, None)

    def _entry(self, key: str, now: int) -> _Entry:
        entry = self._entries.get(key)
        if entry is not None and now - entry.last_ns > self.forget_after_ns and entry.locked_until_ns < now:
            entry = None  # a long quiet spell: the doubling starts over
        if entry is None:
            entry = _Entry()
            self._entries[key] = entry
        entry.last_ns = now
        self._entries.move_to_end(key)
        self._evict(now)
        return entry

    def _evict(self, now: int) -> None:
        """Drop the least recently seen keys that are not locked out now."""
        if len(self._entries) <= self.max_keys:
            return
        for key in list(self._entries):
            if len(self._entries) <= self.max_keys:
                return
            if self._entries[key].locked_until_ns <= now:
                del self._entries[key]
