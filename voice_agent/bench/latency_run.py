"""The run of `bench latency`: start the assistant and the speech stack, replay the clips, report — even
when cut short (Ctrl-C: ``partial: true`` with the turns measured so far)."""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from voice_agent.bench.latency_bench import (
    TARGET_P50_MS,
    NullSink,
    clip_info,
    find_clips,
    progress_bar,
    summarise_turns,
    turn_figures,
)
from voice_agent.bench.provenance import bench_meta, isolated_config, start_stamp
from voice_agent.bench.report import write_json
from voice_agent.config import Config
from voice_agent.errors import InputError
from voice_agent.gc_pauses import MONITOR, pauses_between
from voice_agent.metrics.trace import TraceWriter

LEAD_IN_S = 0.3  # silence before each clip, as before someone speaks into a microphone
# One conversation for the warm-up and all runs: one person talking on. (Separate conversations would make
# the loopback check flag the replies that repeat another conversation's stored replies.)
CONVERSATION = "bench-latency"


async def _play(
    assistant: Any,
    stack: Any,
    config: Config,
    conversation_id: str,
    samples: np.ndarray,
    sink: Any,
    tail_silence_ms: int,
    writer: TraceWriter | None,
) -> list[Any]:
    """One clip through a voice session, paced in real time; the session's turn results."""
    from voice_agent.audio.files import ASR_RATE_HZ, FileSource
    from voice_agent.session import VoiceSession

    lead = np.zeros(int(LEAD_IN_S * ASR_RATE_HZ), dtype=np.float32)
    source = FileSource(
        samples=np.concatenate([lead, samples]).astype(np.float32),
        realtime=True,
        tail_silence_ms=tail_silence_ms,
        frame_ms=config.vad.frame_ms,
    )
    session = VoiceSession(
        config,
        responder=assistant.engine,
        conversation_id=conversation_id,
        speech=stack,
        guard=assistant.guard,
        trace_writer=writer,
    )
    try:
        return await session.run(source, sink)
    finally:
        await source.close()


@dataclass
class _Measured:
    """What a run has measured so far (kept when it is interrupted)."""

    assistant: Any = None
    turns: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=lambda: {"clips_without_turn": 0})
    partial: bool = False


async def _measure(
    state: _Measured,
    cfg: Config,
    stack: Any,
    audio: Sequence[tuple[Path, np.ndarray]],
    sink: Any,
    writer: TraceWriter | None,
    *,
    runs: int,
    warmup: int,
    tail_silence_ms: int,
    progress: bool,
) -> None:
    """Start everything as `talk` does, play the warm-up clip(s), then ``runs`` passes over the clips."""
    from voice_agent.assistant import Assistant

    t0 = time.perf_counter()
    state.assistant = assistant = await Assistant.open(cfg)
    await asyncio.gather(stack.start(), assistant.engine.prefill(CONVERSATION))
    state.extra["startup_s"] = round(time.perf_counter() - t0, 2)
    MONITOR.install()
    gc_start = MONITOR.sample()
    state.extra["gc"] = {}
    play = (assistant, stack, cfg, CONVERSATION)
    for i in range(warmup):
        await _play(*play, audio[i % len(audio)][1], sink, tail_silence_ms, None)
    bar = progress_bar(runs * len(audio), progress)
    for run in range(1, runs + 1):
        for index, (_path, samples) in enumerate(audio):
            results = await _play(*play, samples, sink, tail_silence_ms, writer)
            state.extra["clips_without_turn"] += int(not results)
            for result in results:
                state.turns.append({"run": run, "clip": index, **turn_figures(result.trace.to_record())})
            last = state.turns[-1]["voice_to_voice_ms"] if results else None
            bar.advance(note=f"voice-to-voice {last:.0f} ms" if last is not None else "no turn")
            state.extra["gc"].update(pauses_between(gc_start, MONITOR.sample()))  # the measured turns'
    bar.close()


async def execute(
    clips: Sequence[Path],
    config: Config,
    workdir: Path,
    *,
    runs: int,
    warmup: int,
    tail_silence_ms: int,
    output_wav: str | Path | None,
    trace_out: str | Path | None,
    progress: bool,
    verify_models: bool,
) -> dict[str, Any]:
    from voice_agent.audio.files import WavFileSink, read_audio
    from voice_agent.speech import SpeechStack

    started = start_stamp()
    cfg = isolated_config(config, workdir)
    audio = [(path, await asyncio.to_thread(read_audio, path)) for path in clips]
    sink: Any = WavFileSink(output_wav) if output_wav else NullSink()
    writer = None
    if trace_out:  # this run's turns only (the writer appends)
        await asyncio.to_thread(Path(trace_out).unlink, missing_ok=True)
        writer = TraceWriter(trace_out)
    stack = SpeechStack.from_config(cfg)
    state = _Measured()
    try:
        try:
            await _measure(
                state, cfg, stack, audio, sink, writer,
                runs=runs, warmup=warmup, tail_silence_ms=tail_silence_ms, progress=progress,
            )  # fmt: skip
        except (KeyboardInterrupt, asyncio.CancelledError):
            state.partial = True  # Ctrl-C: report what was measured so far
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
        if state.assistant is not None:
            state.extra["prompt_rate"] = state.assistant.router.rate.snapshot()
            state.extra["prefix_prefills"] = state.assistant.engine.rewarms  # between turns, not timed
            engine = state.assistant.engine
            state.extra["scheduler"] = {
                "critical_path": cfg.scheduling.critical_path,
                "deferrals": engine.scheduler.deferrals,
                "expired_deferrals": engine.scheduler.expired_deferrals,
            }
            speculation = vars(engine.speculator.stats)
            state.extra["speculation"] = {"enabled": cfg.llm.speculative_prefill, **speculation}
    finally:
        await stack.close()
        if state.assistant is not None:
            await state.assistant.close()
        await sink.close()
    from voice_agent.threads import thread_budget

    state.extra["threads"] = {
        "asr": cfg.asr.threads(),
        "llm": cfg.llm.local.threads()[0],
        "llm_batch": cfg.llm.local.threads()[1],
        "embedder": cfg.scheduling.embedder_threads(),
        "cores": thread_budget().cores,
    }
    settings = {"runs": runs, "warmup_turns": warmup, "tail_silence_ms": tail_silence_ms,
                "sink": "wav" if output_wav else "null"}  # fmt: skip
    return _report(state, audio, cfg, settings, verify_models, started)


def _report(
    state: _Measured,
    audio: Sequence[tuple[Path, np.ndarray]],
    cfg: Config,
    settings: dict[str, Any],
    verify_models: bool,
    started: dict[str, Any],
) -> dict[str, Any]:
    from voice_agent.audio.files import ASR_RATE_HZ
    from voice_agent.provision.required import required_ids

    summary = summarise_turns(state.turns)
    p50 = summary["stages"]["voice_to_voice_ms"]["p50"] if state.turns else None
    return {
        "kind": "latency",
        "schema": 1,
        "partial": state.partial,
        "audio": {"clips": [clip_info(p, s, ASR_RATE_HZ) for p, s in audio]},
        **settings,
        "turns_measured": len(state.turns),
        **summary,
        "target_p50_ms": TARGET_P50_MS,
        "meets_target": None if p50 is None else p50 <= TARGET_P50_MS,
        "turns": state.turns,
        **state.extra,
        "meta": bench_meta(
            cfg,
            model_ids=required_ids(cfg),
            verify_models=verify_models,
            seed=None,
            sections=("asr", "vad", "tts", "llm", "memory", "prompt"),
            started=started,
            interrupted=state.partial,
        ),
    }


async def run_latency_bench(
    audio: str | Path,
    config: Config,
    *,
    runs: int = 3,
    warmup: int = 1,
    tail_silence_ms: int = 2000,
    json_out: str | Path | None = None,
    plot_out: str | Path | None = None,
    output_wav: str | Path | None = None,
    trace_out: str | Path | None = None,
    progress: bool = True,
    verify_models: bool = True,
) -> dict[str, Any]:
    """Run the benchmark; returns (and writes, when ``json_out`` is given) the report."""
    if runs < 1:
        raise InputError(f"--runs must be at least 1, got {runs}")
    if warmup < 0 or tail_silence_ms < 500:
        raise InputError("--warmup must be >= 0 and --tail-silence-ms >= 500")
    clips = find_clips(audio)
    with tempfile.TemporaryDirectory(prefix="va-bench-latency-") as tmp:
        report = await execute(
            clips, config, Path(tmp), runs=runs, warmup=warmup, tail_silence_ms=tail_silence_ms,
            output_wav=output_wav, trace_out=trace_out, progress=progress, verify_models=verify_models,
        )  # fmt: skip
    if json_out is not None:
        write_json(json_out, report)
    if plot_out is not None:
        from voice_agent.bench.charts import plot_latency

        plot_latency(report, plot_out)
    return report
