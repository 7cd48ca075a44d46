"""Garbage collection on the critical path: off while a turn holds it, back on after, pauses in the trace."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from voice_agent.bench.latency_bench import turn_figures
from voice_agent.clock import FakeClock
from voice_agent.config import ConfigError, load_config
from voice_agent.gc_pauses import GATE, MONITOR, as_on_critical_path, settle_heap
from voice_agent.metrics.trace import TurnTrace
from voice_agent.scheduling import CriticalPathScheduler


@pytest.fixture(autouse=True)
def _gc_restored() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    GATE.release_all()
    gc.unfreeze()
    if was:
        gc.enable()
    else:
        gc.disable()


def test_collection_is_off_only_while_a_turn_holds_the_critical_path() -> None:
    scheduler = CriticalPathScheduler(clock=FakeClock())
    assert gc.isenabled()
    scheduler.hold("turn-1")
    assert not gc.isenabled() and GATE.closed
    scheduler.hold("turn-2")  # a second turn of another kiosk
    scheduler.release("turn-1")
    assert not gc.isenabled()  # turn-2 is still before its first audio
    scheduler.release("turn-2")
    assert gc.isenabled() and not GATE.closed


def test_two_schedulers_share_the_gate() -> None:
    first, second = CriticalPathScheduler(clock=FakeClock()), CriticalPathScheduler(clock=FakeClock())
    first.hold("a")
    second.hold("b")
    first.release("a")
    assert not gc.isenabled()
    second.release("b")
    assert gc.isenabled()


def test_python_policy_leaves_the_collector_alone() -> None:
    scheduler = CriticalPathScheduler(clock=FakeClock(), gc_policy="python")
    scheduler.hold("turn")
    assert gc.isenabled()
    scheduler.release("turn")
    assert gc.isenabled()


def test_a_hold_nobody_releases_turns_collection_back_on_when_it_expires() -> None:
    clock = FakeClock()
    scheduler = CriticalPathScheduler(clock=clock, hold_ttl_s=5.0)
    scheduler.hold("crashed-turn")
    assert not gc.isenabled()
    clock.advance_ms(6000)
    assert not scheduler.busy()  # the expiry check
    assert gc.isenabled()


def test_collection_the_person_turned_off_stays_off() -> None:
    gc.disable()
    scheduler = CriticalPathScheduler(clock=FakeClock())
    scheduler.hold("turn")
    scheduler.release("turn")
    assert not gc.isenabled()


def test_the_trace_carries_the_pauses_inside_the_critical_path() -> None:
    scheduler = CriticalPathScheduler(clock=FakeClock(), gc_policy="python")
    trace = TurnTrace("c")
    scheduler.hold("turn", trace=trace)
    gc.collect()  # a collection while the turn waits for its first audio
    scheduler.release("turn")
    report = trace.attrs["critical_path"]
    assert report["gc_collections"] >= 1 and report["gc_pause_ms"] > 0
    assert turn_figures(trace.to_record())["critical_path"]["gc_pause_ms"] == report["gc_pause_ms"]


def test_settle_heap_freezes_what_startup_left_and_python_policy_does_not() -> None:
    assert settle_heap("python")["frozen_objects"] == gc.get_freeze_count() == 0
    done = settle_heap("deferred")
    assert done["frozen_objects"] == gc.get_freeze_count() > 1000
    before = MONITOR.sample()
    gc.collect()  # a full collection now walks only what came after the freeze
    assert MONITOR.sample().collections == before.collections + 1


def test_a_benchmarked_stage_runs_under_the_same_rules() -> None:
    with as_on_critical_path("deferred"):
        assert not gc.isenabled()
    assert gc.isenabled()
    with as_on_critical_path("python"):
        assert gc.isenabled()


def test_config_knows_the_policies() -> None:
    assert load_config(env={}).scheduling.gc == "deferred"
    assert load_config(env={"VOICE_AGENT_SCHEDULING__GC": "python"}).scheduling.gc == "python"
    with pytest.raises(ConfigError):
        load_config(env={"VOICE_AGENT_SCHEDULING__GC": "off"})
