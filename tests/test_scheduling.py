"""The critical-path scheduler and the thread budgets (no models: the scheduler itself is the unit).

Ordering is asserted on the scheduler's event log and on trace attributes, never on wall-clock times."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from voice_agent.bench.latency_bench import summarise_turns, turn_figures
from voice_agent.clock import FakeClock
from voice_agent.config import ConfigError, load_config
from voice_agent.metrics.trace import Span, TurnTrace
from voice_agent.scheduling import CriticalPathScheduler
from voice_agent.threads import available_cores, resolve_threads, thread_budget

ROOT = Path(__file__).resolve().parents[1]


def _events(scheduler: CriticalPathScheduler) -> list[tuple[str, str]]:
    return [(e.event, e.name) for e in scheduler.events]


# -- thread budgets ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("cores", "asr", "llm", "batch", "embedder"),
    [(1, 1, 1, 1, 1), (2, 2, 2, 2, 1), (8, 8, 8, 8, 2), (16, 8, 8, 16, 4), (64, 8, 8, 16, 4)],
)
def test_thread_budget_follows_the_cores(cores: int, asr: int, llm: int, batch: int, embedder: int) -> None:
    budget = thread_budget(cores)
    assert (budget.asr, budget.llm, budget.llm_batch, budget.embedder) == (asr, llm, batch, embedder)
    assert all(v <= cores for v in (budget.asr, budget.llm, budget.llm_batch, budget.embedder))


def test_auto_threads_resolve_from_the_affinity_and_numbers_pass_through() -> None:
    assert thread_budget().cores == available_cores() == len(os.sched_getaffinity(0))
    assert resolve_threads("auto", 3) == 3 and resolve_threads(5, 3) == 5
    with pytest.raises(ValueError):
        resolve_threads(0, 3)
    config = load_config(env={"VOICE_AGENT_LLM__LOCAL__N_THREADS": "3"})
    assert config.llm.local.threads() == (3, thread_budget().llm_batch)
    assert config.asr.threads() == thread_budget().asr
    with pytest.raises(ConfigError):
        load_config(env={"VOICE_AGENT_ASR__CPU_THREADS": "0"})
    with pytest.raises(ConfigError):
        load_config(env={"VOICE_AGENT_ASR__CPU_THREADS": "many"})


@pytest.mark.skipif(shutil.which("taskset") is None, reason="taskset is not installed")
def test_one_core_gives_every_stage_one_thread() -> None:
    code = (
        "from voice_agent.config import load_config; c = load_config(env={}); "
        "print(c.asr.threads(), *c.llm.local.threads(), c.scheduling.embedder_threads())"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = ["taskset", "-c", "0", sys.executable, "-c", code]
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["1", "1", "1", "1"]


# -- deferral ----------------------------------------------------------------------------------------------
async def test_background_work_waits_for_the_critical_path_and_then_runs() -> None:
    scheduler = CriticalPathScheduler(max_deferral_s=30)
    trace = TurnTrace("c")
    scheduler.hold("turn-1", trace=trace)
    ran: list[str] = []

    async def write() -> None:
        async with scheduler.background("memory.write", group="c"):
            ran.append("write")

    task = asyncio.create_task(write())
    for _ in range(5):
        await asyncio.sleep(0)
    assert ran == [] and scheduler.deferrals == 1  # waiting, not cancelled
    scheduler.release("turn-1", at="first_audio")
    await task
    assert ran == ["write"]
    assert _events(scheduler) == [
        ("hold", "turn-1"),
        ("deferred", "memory.write"),
        ("release", "turn-1"),
        ("resumed", "memory.write"),
        ("started", "memory.write"),
        ("finished", "memory.write"),
    ]
    report = trace.attrs["critical_path"]
    assert report["deferred"] == 1 and report["deferred_names"] == ["memory.write"]
    assert report["background"] == []  # it did not run during the critical path
    assert {"wall_ms", "process_cpu_ms", "process_cores", "cores"} <= set(report)


async def test_nothing_waits_without_a_critical_path_and_a_disabled_scheduler_never_defers() -> None:
    for scheduler, hold in ((CriticalPathScheduler(), False), (CriticalPathScheduler(enabled=False), True)):
        if hold:
            scheduler.hold("turn")
        async with scheduler.background("memory.write"):
            assert scheduler.active() == ["memory.write"]
        assert scheduler.deferrals == 0


async def test_deferral_is_bounded_so_nothing_starves() -> None:
    scheduler = CriticalPathScheduler(max_deferral_s=0.05)
    scheduler.hold("stuck-turn")
    async with scheduler.background("llm.prefix_prefill"):
        pass
    resumed = [e for e in scheduler.events if e.event == "resumed"]
    assert resumed[0].detail["reason"] == "max_deferral" and scheduler.expired_deferrals == 1


async def test_the_next_turn_expedites_its_conversations_writes_only() -> None:
    scheduler = CriticalPathScheduler(max_deferral_s=30)
    scheduler.hold("another-visitor")
    ran: list[str] = []

    async def work(name: str, group: str) -> None:
        async with scheduler.background(name, group=group):
            ran.append(name)

    mine = asyncio.create_task(work("write-a", "conv-a"))
    theirs = asyncio.create_task(work("write-b", "conv-b"))
    await asyncio.sleep(0)
    scheduler.expedite("conv-a")
    await mine
    assert ran == ["write-a"] and not theirs.done()
    scheduler.release("another-visitor")
    await theirs
    reasons = {e.name: e.detail["reason"] for e in scheduler.events if e.event == "resumed"}
    assert reasons == {"write-a": "expedited", "write-b": "clear"}


async def test_work_running_during_a_critical_path_is_named_in_its_trace() -> None:
    scheduler = CriticalPathScheduler()
    trace = TurnTrace("c")
    with scheduler.running("asr.partial"):
        scheduler.hold("turn", trace=trace)
    with scheduler.running("condense"):
        pass
    scheduler.hold("other-turn")
    scheduler.release("turn")
    report = trace.attrs["critical_path"]
    assert report["background"] == ["asr.partial", "condense"]
    assert report["concurrent_holds"] == ["other-turn"]


async def test_a_hold_nobody_released_expires() -> None:
    clock = FakeClock()
    scheduler = CriticalPathScheduler(hold_ttl_s=5, clock=clock)
    assert scheduler.hold("leaked") and not scheduler.hold("leaked")  # idempotent
    assert scheduler.busy("reply") and not scheduler.busy("pause")
    clock.advance_ms(6000)
    assert not scheduler.busy()
    assert ("hold_expired", "leaked") in _events(scheduler)


# -- tail hunting in the latency bench ---------------------------------------------------------------------
def _turn_record(
    clock: FakeClock, scheduler: CriticalPathScheduler, *, llm_ms: float, busy: bool
) -> dict[str, Any]:
    trace = TurnTrace("c", clock=clock)
    trace.mark("vad.speech_end")
    clock.advance_ms(400)
    trace.add(Span("vad.end", trace.origin_ns, clock.now_ns()))
    scheduler.hold(trace.turn_id, trace=trace)
    if busy:
        with scheduler.running("llm.prefix_prefill"):
            clock.advance_ms(llm_ms)
    else:
        clock.advance_ms(llm_ms)
    trace.mark("llm.first_token")
    clock.advance_ms(100)
    trace.add(Span("tts.first_audio", clock.now_ns() - 50_000_000, clock.now_ns()))
    scheduler.release(trace.turn_id, at="first_audio")
    return trace.to_record()


def test_the_latency_report_names_what_ran_beside_the_slowest_turns() -> None:
    clock = FakeClock()
    scheduler = CriticalPathScheduler(clock=clock)
    records = [_turn_record(clock, scheduler, llm_ms=600, busy=False) for _ in range(3)]
    records.append(_turn_record(clock, scheduler, llm_ms=3000, busy=True))
    turns = [turn_figures(r) for r in records]
    assert all(t["critical_path"]["cores"] == available_cores() for t in turns)
    summary = summarise_turns(turns)
    slowest = summary["slow_turns"][0]
    assert slowest["turn_id"] == records[-1]["turn_id"]
    assert slowest["background"] == ["llm.prefix_prefill"] and slowest["biggest_segment"] == "llm_first_token"
    assert summary["critical_path"]["turns_with_background"] == 1
