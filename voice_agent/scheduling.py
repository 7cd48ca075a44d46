"""Critical-path scheduling: while a turn is between the end of speech and its first audio, background
CPU work waits (thread budgets per stage: ``voice_agent.threads``).

A *hold* marks a critical path: the pause at the end of an utterance (its final decode), then the reply
until its first audio. Background work (a turn's memory write, prefix prefills, speculative prefills)
enters through :meth:`CriticalPathScheduler.background`: while any hold is open it waits, and it resumes
when the last hold closes, when its group is expedited (the next turn needs the write now), or after
``max_deferral_s`` (nothing starves). Deferring never cancels: the work still runs, only later.

Every hold that carries a turn's trace gets, when it closes, what else ran meanwhile: the background work
active or deferred, the process CPU time against the wall time, the CPU time of watched child processes
(the llama.cpp server), how busy the whole machine was, and the load average — so a slow turn shows why.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from voice_agent.clock import Clock, MonotonicClock
from voice_agent.gc_pauses import MONITOR, GcSample, pauses_between
from voice_agent.metrics.trace import TurnTrace
from voice_agent.threads import available_cores

log = logging.getLogger(__name__)

DEFAULT_MAX_DEFERRAL_S = 8.0
DEFAULT_HOLD_TTL_S = 20.0  # a hold nobody closed (a bug, a crash) stops counting after this


# -- CPU probes ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CpuSample:
    wall_s: float
    process_s: float  # this process, all threads (ASR, embeddings, VAD, TTS run in worker threads)
    machine_busy_s: float | None  # all CPUs of the machine, from /proc/stat (other processes too)
    watched_s: float | None  # watched child processes (the llama.cpp server), from /proc/<pid>/stat


def _clock_ticks() -> float:
    try:
        return float(os.sysconf("SC_CLK_TCK"))
    except (ValueError, OSError, AttributeError):
        return 100.0


def _machine_busy_s() -> float | None:
    try:
        with open("/proc/stat", encoding="ascii") as fh:
            fields = fh.readline().split()[1:]
    except OSError:
        return None
    ticks = [int(f) for f in fields[:8]]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)  # idle + iowait
    return (sum(ticks) - idle) / _clock_ticks()


def process_cpu_s(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            after_name = fh.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(after_name[11]) + int(after_name[12])) / _clock_ticks()  # utime + stime


def cpu_sample(pids: Sequence[int] = ()) -> CpuSample:
    watched = [process_cpu_s(pid) for pid in pids]
    known = [w for w in watched if w is not None]
    return CpuSample(time.monotonic(), time.process_time(), _machine_busy_s(), sum(known) if known else None)


def cpu_report(start: CpuSample, end: CpuSample) -> dict[str, Any]:
    """CPU use between two samples: ms of CPU per consumer, and cores kept busy on average."""
    wall = max(end.wall_s - start.wall_s, 1e-9)
    out: dict[str, Any] = {
        "wall_ms": round(wall * 1000, 1),
        "process_cpu_ms": round((end.process_s - start.process_s) * 1000, 1),
        "process_cores": round((end.process_s - start.process_s) / wall, 2),
    }
    if start.watched_s is not None and end.watched_s is not None:
        out["llm_server_cpu_ms"] = round((end.watched_s - start.watched_s) * 1000, 1)
    if start.machine_busy_s is not None and end.machine_busy_s is not None:
        out["machine_busy_cores"] = round((end.machine_busy_s - start.machine_busy_s) / wall, 2)
    with contextlib.suppress(OSError, AttributeError):
        out["loadavg_1m"] = round(os.getloadavg()[0], 2)
    out["cores"] = available_cores()
    return out


# -- the scheduler ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SchedulerEvent:
    t_ns: int
    event: str  # hold | release | hold_expired | deferred | resumed | started | finished
    name: str
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass
class _Hold:
    key: str
    kind: str
    started_ns: int
    trace: TurnTrace | None
    cpu: CpuSample | None
    gc: GcSample
    background: set[str] = field(default_factory=set)  # names active at any time during the hold
    deferred: list[str] = field(default_factory=list)


@dataclass
class _Waiter:
    name: str
    group: str
    future: asyncio.Future[None]
    expedited: bool = False


class CriticalPathScheduler:
    """One per process: the speech loops and the conversation engine share it."""

    def __init__(
        self,
        *,
        enabled: bool = True,
        max_deferral_s: float = DEFAULT_MAX_DEFERRAL_S,
        hold_ttl_s: float = DEFAULT_HOLD_TTL_S,
        clock: Clock | None = None,
        watched_pids: Callable[[], Sequence[int]] | None = None,
        log_size: int = 500,
    ) -> None:
        if max_deferral_s < 0 or hold_ttl_s <= 0:
            raise ValueError("max_deferral_s >= 0 and hold_ttl_s > 0")
        self.enabled = enabled
        MONITOR.install()  # collection pauses inside a hold go into its trace
        self.max_deferral_s = max_deferral_s
        self.hold_ttl_s = hold_ttl_s
        self.clock: Clock = clock or MonotonicClock()
        self.watched_pids = watched_pids or (lambda: ())
        self.events: deque[SchedulerEvent] = deque(maxlen=log_size)
        self.deferrals = 0  # background entries that had to wait (all time)
        self.expired_deferrals = 0  # ... and went ahead because they had waited max_deferral_s
        self._holds: dict[str, _Hold] = {}
        self._running: dict[int, str] = {}
        self._next_token = 0
        self._waiters: list[_Waiter] = []

    # -- holds -------------------------------------------------------------------------------------------
    def hold(self, key: str, *, kind: str = "reply", trace: TurnTrace | None = None) -> bool:
        """Open a critical path (idempotent: False when ``key`` is already held)."""
        if key in self._holds:
            hold = self._holds[key]
            if trace is not None and hold.trace is None:
                hold.trace = trace
            return False
        cpu = cpu_sample(self.watched_pids()) if trace is not None else None
        running = set(self._running.values())
        self._holds[key] = _Hold(key, kind, self.clock.now_ns(), trace, cpu, MONITOR.sample(), running)
        self._log("hold", key, kind=kind)
        return True

    def release(self, key: str, **why: Any) -> None:
        """Close a critical path (idempotent); its trace gets what ran meanwhile."""
        hold = self._holds.pop(key, None)
        if hold is None:
            return
        self._log("release", key, **why)
        self._record(hold)
        if not self.busy():
            self._wake(lambda _w: True, expedite=False)

    def busy(self, *kinds: str) -> bool:
        """Whether a critical path is open (of one of ``kinds``, when given)."""
        self._expire()
        return any(not kinds or h.kind in kinds for h in self._holds.values())

    def active(self) -> list[str]:
        """Names of the background work running now."""
        return sorted(self._running.values())

    def expedite(self, group: str) -> None:
        """Background work of ``group`` that is waiting goes now (the next turn waits for it)."""
        self._wake(lambda w: w.group == group, expedite=True)

    # -- background work ---------------------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def background(self, name: str, *, group: str = "", defer: bool = True) -> AsyncIterator[None]:
        """Run a block of background work: first wait for the critical path to clear (``defer``), then
        count it as active (for the traces of critical paths that open meanwhile)."""
        if defer and self.enabled:
            await self._wait_clear(name, group)
        with self.running(name):
            yield

    @contextlib.contextmanager
    def running(self, name: str) -> Iterator[None]:
        """Count a block as active background work without deferring it."""
        self._next_token += 1
        token = self._next_token
        self._running[token] = name
        for hold in self._holds.values():
            hold.background.add(name)
        self._log("started", name)
        try:
            yield
        finally:
            self._running.pop(token, None)
            self._log("finished", name)

    async def _wait_clear(self, name: str, group: str) -> None:
        if not self.busy():
            return
        self.deferrals += 1
        for hold in self._holds.values():
            hold.deferred.append(name)
        self._log("deferred", name, group=group)
        loop = asyncio.get_running_loop()
        started = loop.time()
        deadline = started + self.max_deferral_s
        waiter = _Waiter(name, group, loop.create_future())
        self._waiters.append(waiter)
        reason = "clear"
        try:
            while self.busy() and not waiter.expedited:
                remaining = deadline - loop.time()
                if remaining <= 0:
                    reason = "max_deferral"
                    self.expired_deferrals += 1
                    break
                if waiter.future.done():
                    waiter.future = loop.create_future()
                await asyncio.wait({waiter.future}, timeout=min(remaining, 1.0))
            if waiter.expedited:
                reason = "expedited"
        finally:
            self._waiters.remove(waiter)
        self._log("resumed", name, reason=reason, waited_ms=round((loop.time() - started) * 1000, 1))

    def _wake(self, which: Callable[[_Waiter], bool], *, expedite: bool) -> None:
        for waiter in self._waiters:
            if which(waiter):
                waiter.expedited = waiter.expedited or expedite
                if not waiter.future.done():
                    waiter.future.set_result(None)

    def _expire(self) -> None:
        now = self.clock.now_ns()
        stale = [k for k, h in self._holds.items() if now - h.started_ns > self.hold_ttl_s * 1e9]
        for key in stale:
            hold = self._holds.pop(key)
            self._log("hold_expired", key, kind=hold.kind)
            log.warning("critical-path hold %s never released; dropped after %.0f s", key, self.hold_ttl_s)

    def _record(self, hold: _Hold) -> None:
        if hold.trace is None:
            return
        report: dict[str, Any] = {
            "background": sorted(hold.background),
            "deferred": len(hold.deferred),
            "deferred_names": sorted(set(hold.deferred)),
            "concurrent_holds": sorted(k for k in self._holds if k != hold.key),
        }
        if hold.cpu is not None:
            report.update(cpu_report(hold.cpu, cpu_sample(self.watched_pids())))
        report.update(pauses_between(hold.gc, MONITOR.sample()))
        hold.trace.attrs["critical_path"] = report

    def _log(self, event: str, name: str, **detail: Any) -> None:
        self.events.append(SchedulerEvent(self.clock.now_ns(), event, name, detail))
