"""The run of `bench strategies`: set up (ingest once, start the LLM), ask, report — even when cut short.

Ctrl-C (or a cancelled task) stops the questions; what was measured so far is reported with
``partial: true``.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from voice_agent.bench.dataset import Dataset, Question, Sample, load_locomo
from voice_agent.bench.prices import PriceTable, load_price_table
from voice_agent.bench.provenance import bench_meta, isolated_config, llm_model_ids, start_stamp
from voice_agent.bench.report import Progress, write_json
from voice_agent.bench.strategies import (
    DEFAULT_STRATEGIES,
    CallResult,
    StrategyBench,
    call_order,
    sample_questions,
    strategies_report,
    validate_strategies,
)
from voice_agent.config import Config
from voice_agent.errors import InputError
from voice_agent.provision.required import EMBEDDER_MODELS as _EMBEDDERS


def _sample_now(sample: Sample) -> dt.datetime:
    """ "Today" for the prompt: the date of the conversation's last session (when the dataset has one)."""
    stamps = [t.created_at for t in sample.turns if t.created_at]
    if not stamps:
        return dt.datetime.now()
    return dt.datetime.fromtimestamp(max(stamps), tz=dt.UTC).replace(tzinfo=None)


async def _ingest(systems: Sequence[Any], samples: Sequence[Sample], show: bool) -> dict[str, Any]:
    turns = sum(len(s.turns) for s in samples)
    timing: dict[str, Any] = {}
    for system in systems:
        bar = Progress(f"{system.name}: ingest", turns, enabled=show)
        t0 = asyncio.get_running_loop().time()
        for sample in samples:
            await system.ingest(sample)
            bar.advance(len(sample.turns))
        bar.close()
        timing[system.name] = round(asyncio.get_running_loop().time() - t0, 1)
    return {"turns": turns, "seconds": timing}


async def _warm_up(bench: StrategyBench, names: Sequence[str], sample: Sample, question: Question) -> None:
    """Load the model and give the prompt-rate estimator a first measurement (not reported): the
    cheapest strategy in the run."""
    cheap = [n for n in names if n.startswith("top-")] + [n for n in names if n.startswith("voice-agent")]
    await bench.ask((cheap or list(names))[0], sample, question, _sample_now(sample))


async def execute(
    dataset: Dataset,
    chosen: list[Question],
    requested: int | None,
    seed: int,
    names: list[str],
    prices: PriceTable,
    config: Config,
    workdir: Path,
    *,
    progress: bool,
    verify_models: bool,
    llm_timeout_s: float,
) -> dict[str, Any]:
    from voice_agent.bench.memory_bench import build_systems
    from voice_agent.llm.router import build_router

    started = start_stamp()
    cfg = isolated_config(config, workdir, llm_timeout_s=llm_timeout_s, prompt_cache=False)
    needed = {q.sample_id for q in chosen}
    samples = [s for s in dataset.samples if s.sample_id in needed]
    by_id = {s.sample_id: s for s in samples}
    wanted = (["voice-agent"] if any(n.startswith("voice-agent") for n in names) else []) + (
        ["baseline-turn-cosine"] if any(n.startswith("top-") for n in names) else []
    )
    systems = await build_systems(cfg, wanted, workdir / "stores")
    results: dict[tuple[str, int], dict[str, CallResult]] = {}
    partial = False
    extra: dict[str, Any] = {}
    router = build_router(cfg, cfg.data_dir)
    try:
        try:
            extra["ingest"] = await _ingest(systems, samples, progress)
            await router.start()
            bench = StrategyBench(
                cfg, router, _named(systems, "voice-agent"), _named(systems, "baseline-turn-cosine")
            )
            rate_before = router.rate.snapshot()
            await _warm_up(bench, names, by_id[chosen[0].sample_id], chosen[0])
            extra["prompt_rate"] = {"seed": rate_before, "after_warm_up": router.rate.snapshot()}
            await _ask_all(bench, chosen, names, by_id, results, progress)
        except (KeyboardInterrupt, asyncio.CancelledError):
            partial = True  # Ctrl-C: report what was measured so far
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
        extra["prompt_rate"] = {**extra.get("prompt_rate", {}), "at_end": router.rate.snapshot()}
    finally:
        await router.aclose()
        for system in systems:
            await system.close()
    if not results and not partial:
        raise InputError("no question was answered")
    ids = ["spacy-en", "parser-zh", _EMBEDDERS[cfg.memory.embedder], *llm_model_ids(cfg)]
    extra["meta"] = bench_meta(
        cfg, model_ids=ids, verify_models=verify_models, seed=seed, sections=("llm", "memory", "prompt"),
        dataset=dataset.path, skipped=dict(dataset.skipped), interrupted=partial, started=started,
    )  # fmt: skip
    return strategies_report(
        dataset, chosen, requested, seed, names, results, prices, cfg, partial=partial, extra=extra
    )


def _named(systems: Sequence[Any], name: str) -> Any:
    return next((s for s in systems if s.name == name), None)


async def _ask_all(
    bench: StrategyBench,
    chosen: Sequence[Question],
    names: Sequence[str],
    by_id: dict[str, Sample],
    results: dict[tuple[str, int], dict[str, CallResult]],
    show: bool,
) -> None:
    order = call_order(names)
    bar = Progress("strategies: calls", len(chosen) * len(order), enabled=show)
    for question in chosen:
        sample = by_id[question.sample_id]
        now = _sample_now(sample)
        got = results.setdefault((question.sample_id, question.index), {})
        for name in order:
            got[name] = call = await bench.ask(name, sample, question, now)
            note = f"{name} {call.first_token_ms or 0:.0f} ms" if call.error is None else f"{name} error"
            bar.advance(note=note)
    bar.close()


async def run_strategies_bench(
    dataset_path: str | Path,
    config: Config,
    *,
    questions: int | None = 20,
    seed: int = 7,
    strategies: Sequence[str] = DEFAULT_STRATEGIES,
    price_table: str | Path | None = None,
    json_out: str | Path | None = None,
    plot_out: str | Path | None = None,
    progress: bool = True,
    verify_models: bool = True,
    llm_timeout_s: float = 600.0,
) -> dict[str, Any]:
    """Run the benchmark; returns (and writes, when ``json_out`` is given) the report."""
    names = validate_strategies(strategies)
    prices = load_price_table(price_table)
    dataset = load_locomo(dataset_path)
    population = dataset.questions()
    if not population:
        raise InputError(
            f"{dataset_path}: no question with usable evidence (skipped: {dict(dataset.skipped)})"
        )
    chosen = sample_questions(population, questions, seed)
    with tempfile.TemporaryDirectory(prefix="va-bench-strategies-") as tmp:
        report = await execute(
            dataset,
            chosen,
            questions,
            seed,
            names,
            prices,
            config,
            Path(tmp),
            progress=progress,
            verify_models=verify_models,
            llm_timeout_s=llm_timeout_s,
        )
    if json_out is not None:
        write_json(json_out, report)
    if plot_out is not None:
        from voice_agent.bench.charts import plot_strategies

        plot_strategies(report, plot_out)
    return report
