"""Garbage-collection pauses inside a turn's critical path: measured and put into its trace."""

from __future__ import annotations

import gc

from voice_agent.bench.latency_bench import summarise_turns, turn_figures
from voice_agent.clock import FakeClock
from voice_agent.gc_pauses import MONITOR, pauses_between
from voice_agent.metrics.trace import TurnTrace
from voice_agent.scheduling import CriticalPathScheduler


def test_the_trace_carries_the_pauses_inside_the_critical_path() -> None:
    scheduler = CriticalPathScheduler(clock=FakeClock())
    trace = TurnTrace("c")
    scheduler.hold("turn", trace=trace)
    gc.collect()  # a full collection while the turn waits for its first audio
    scheduler.release("turn")
    report = trace.attrs["critical_path"]
    assert report["gc_collections"] >= 1 and report["gc_pause_ms"] > 0
    figures = turn_figures(trace.to_record())
    assert figures["critical_path"]["gc_pause_ms"] == report["gc_pause_ms"]
    assert summarise_turns([figures])["critical_path"]["gc_pause_ms"]["max"] == report["gc_pause_ms"]


def test_a_turn_without_collections_reports_none() -> None:
    scheduler = CriticalPathScheduler(clock=FakeClock())
    trace = TurnTrace("quiet")
    was = gc.isenabled()
    gc.disable()  # nothing may collect between hold and release
    try:
        scheduler.hold("turn", trace=trace)
        scheduler.release("turn")
    finally:
        if was:
            gc.enable()
    assert trace.attrs["critical_path"]["gc_collections"] == 0
    assert trace.attrs["critical_path"]["gc_pause_ms"] == 0


def test_the_monitor_counts_every_generation_once() -> None:
    MONITOR.install()
    MONITOR.install()  # twice: still one callback
    before = MONITOR.sample()
    for generation in (0, 1, 2):
        gc.collect(generation)
    assert pauses_between(before, MONITOR.sample())["gc_collections"] == 3
