"""`voice-agent bench strategies | latency | security | report | privacy | adoption`, as one table.

Each kind is a :class:`BenchKind`: its help, its options (``REPORT_OPTIONS`` marks where the common
report options go), and ``run``, which runs the benchmark from the parsed arguments and prints what the
terminal shows. One helper registers them all (``register``, called by ``bench_cmd``).
"""

from __future__ import annotations

import argparse
import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from voice_agent.bench.splits import SPLITS
from voice_agent.cli.common import config_from_args, print_json, run_async

ADOPTION_SPLITS = ("all", *SPLITS)

KindParsers = Any  # argparse's private _SubParsersAction
Option = tuple[tuple[str, ...], dict[str, Any]]
REPORT_OPTIONS = "report options"  # --config, --data-dir, --json OUT (required), --plot, --quiet, …
Runner = Callable[[argparse.Namespace], Awaitable[int] | int]


def opt(*flags: str, **kwargs: Any) -> Option:
    return flags, kwargs


_CONFIG = opt("--config", metavar="FILE", help="a TOML file layered over config/default.toml")
_REPORT: tuple[Option, ...] = (
    # Here --json names the report file, so the common options are added without it.
    _CONFIG,
    opt("--data-dir", metavar="DIR", help="unused by the benchmark (it works in a temp dir)"),
    opt("--json", dest="json_out", required=True, metavar="OUT", help="report file (JSON)"),
    opt("--plot", metavar="OUT.png"),
    opt("--quiet", action="store_true", help="no progress bars"),
    opt("--no-verify-models", action="store_true", help="record model files by size, without hashing them"),
)


@dataclass(frozen=True)
class BenchKind:
    name: str
    help: str
    description: str
    options: tuple[Option | str, ...]
    run: Runner


def register(kinds: KindParsers, table: tuple[BenchKind, ...]) -> None:
    """Add every kind of ``table`` as a subcommand of ``bench``."""
    for kind in table:
        parser = kinds.add_parser(kind.name, help=kind.help, description=kind.description)
        for option in kind.options:
            for flags, kwargs in _REPORT if isinstance(option, str) else (option,):
                parser.add_argument(*flags, **kwargs)
        parser.set_defaults(handler=_handler(kind.run))


def _handler(run: Runner) -> Callable[[argparse.Namespace], int]:
    def handler(args: argparse.Namespace) -> int:
        outcome = run(args)
        return run_async(outcome) if inspect.isawaitable(outcome) else outcome  # type: ignore[arg-type]

    return handler


def _exit_code(report: dict[str, Any]) -> int:
    return 130 if report["partial"] else 0  # cut short (Ctrl-C): what was measured is reported


def _csv(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


async def _strategies(args: argparse.Namespace) -> int:
    from voice_agent.bench.strategy_run import run_strategies_bench

    report = await run_strategies_bench(
        args.dataset, config_from_args(args), questions=args.questions or None, seed=args.seed,
        strategies=_csv(args.strategies), price_table=args.price_table, json_out=args.json_out,
        plot_out=args.plot, progress=not args.quiet, verify_models=not args.no_verify_models,
        llm_timeout_s=args.llm_timeout_s,
    )  # fmt: skip
    summary = {
        name: {
            "first_token_p50_ms": data["first_token_ms"]["p50"],
            "prompt_tokens_mean": data["prompt_tokens"]["mean"],
            "evidence_recall": data["evidence_recall"]["overall"],
            "answer_contains_gold": data["answer_contains_gold"]["overall"],
        }
        for name, data in report["strategies"].items()
    }
    print_json(
        {"json": args.json_out, "plot": args.plot, "questions": report["questions"], "strategies": summary}
    )
    return _exit_code(report)


async def _latency(args: argparse.Namespace) -> int:
    from voice_agent.bench.latency_run import run_latency_bench

    report = await run_latency_bench(
        args.audio, config_from_args(args), runs=args.runs, warmup=args.warmup,
        tail_silence_ms=args.tail_silence_ms, json_out=args.json_out, plot_out=args.plot,
        output_wav=args.output, trace_out=args.trace, progress=not args.quiet,
        verify_models=not args.no_verify_models,
    )  # fmt: skip
    stages = report["stages"]
    print_json(
        {
            "json": args.json_out,
            "plot": args.plot,
            "turns": report["turns_measured"],
            "voice_to_voice_ms": stages["voice_to_voice_ms"],
            "p50": {key: value["p50"] for key, value in stages.items()},
        }
    )
    return _exit_code(report)


async def _security(args: argparse.Namespace) -> int:
    from voice_agent.bench.security import format_table, run_security_bench

    chosen = _csv(args.backends) if args.backends else None
    report = await run_security_bench(
        config_from_args(args), cases_path=args.cases, backends=chosen, limit=args.limit,
        max_tokens=args.max_tokens, json_out=args.json_out, progress=not args.quiet,
    )  # fmt: skip
    print(format_table(report))
    if args.json_out:
        print(f"report: {args.json_out}")
    return 0


def _report(args: argparse.Namespace) -> int:
    from voice_agent.bench.markdown import render_report

    print(render_report(args.runs, args.out, plots=not args.no_plots))
    return 0


async def _adoption(args: argparse.Namespace) -> int:
    from voice_agent.bench.adoption import table
    from voice_agent.bench.adoption_run import run_adoption_bench

    report = await run_adoption_bench(
        config_from_args(args), scenarios_path=args.scenarios, split=args.split, limit=args.limit or None,
        ids=_csv(args.ids), fillers=args.fillers, models=_csv(args.models),
        variants=_csv(args.variants) or ["default"], judge=args.judge, json_out=args.json_out,
        progress=not args.quiet, verify_models=not args.no_verify_models,
    )  # fmt: skip
    print(table(report))
    print_json({"json": args.json_out, "groups": report["groups"]})
    return _exit_code(report)


def _privacy(args: argparse.Namespace) -> int:
    from voice_agent.bench.privacy import run_privacy_bench, summary
    from voice_agent.memory.pii_phones import check_region

    config = config_from_args(args)
    region = check_region(args.phone_region) if args.phone_region else config.privacy.resolved_phone_region()
    report = run_privacy_bench(
        args.dataset, fp_dataset=args.fp_dataset, phone_region=region, splits=args.split,
        ner=args.names in ("both", "ner"), lists=args.names in ("both", "lists"), repeat=args.repeat,
        json_out=args.json_out,
    )  # fmt: skip
    print_json({"json": args.json_out, "phone_region": region, **summary(report)})
    return 0


KINDS: tuple[BenchKind, ...] = (
    BenchKind(
        "strategies",
        "Memory strategies side by side: full context, top-K, voice-agent (latency, tokens, accuracy)",
        "On a LoCoMo-format dataset, every strategy answers the same seeded, category-stratified "
        "sample of questions through the configured LLM (the local model by default).",
        (
            opt("--dataset", required=True, metavar="FILE"),
            REPORT_OPTIONS,
            opt("--questions", type=int, default=20, help="sample size (default 20); 0 = all questions"),
            opt("--seed", type=int, default=7),
            opt(
                "--strategies",
                default="full-context,top-4,top-8,voice-agent",
                help="comma-separated: full-context, top-K, voice-agent, voice-agent-cap",
            ),
            opt(
                "--price-table", metavar="FILE", help="prices per million tokens (default config/prices.toml)"
            ),
            opt("--llm-timeout-s", type=float, default=600.0, help="first-token timeout for full windows"),
        ),
        _strategies,
    ),
    BenchKind(
        "latency",
        "Per-stage latency on real speech, replayed in real time through the live code path",
        "Replay speech (a file, or every audio file of a directory) into a voice session in "
        "real time, N runs after a warm-up; per-stage p50/p95/max and voice-to-voice from the turn traces.",
        (
            opt("--audio", required=True, metavar="FILE|DIR"),
            REPORT_OPTIONS,
            opt("--runs", type=int, default=3, help="passes over all clips (default 3)"),
            opt("--warmup", type=int, default=1, help="clips played first and not measured (default 1)"),
            opt("--tail-silence-ms", type=int, default=2000, help="silence after each clip"),
            opt("--output", metavar="OUT.wav", help="write the replies to a WAV file (default: no sink)"),
            opt("--trace", metavar="OUT.jsonl", help="also write the turn traces as JSONL"),
        ),
        _latency,
    ),
    BenchKind(
        "security",
        "Memory injection: attempts pinned, reaching the system message, changing a later reply",
        "Run injection attempts (English and Chinese) and a benign control set through the real "
        "conversation path, memory and each configured LLM backend; a table on stdout, the report as JSON.",
        (
            _CONFIG,
            opt("--data-dir", metavar="DIR", help="unused by the benchmark (it works in a temp dir)"),
            opt("--json", dest="json_out", metavar="OUT", help="also write the report (JSON)"),
            opt("--cases", metavar="FILE", help="cases TOML (default: the built-in set)"),
            opt("--backends", metavar="NAMES", help="comma-separated backend names (default: all)"),
            opt("--limit", type=int, metavar="N", help="only the first N attacks and benign statements"),
            opt("--max-tokens", type=int, default=64, help="reply length limit (default 64)"),
            opt("--quiet", action="store_true", help="no progress bar"),
        ),
        _security,
    ),
    BenchKind(
        "report",
        "One Markdown report (tables and plots) from one or more benchmark runs, side by side",
        "Render RUN.json files of `bench memory`, `bench strategies`, `bench latency`, `bench "
        "adoption` and `bench security` as one Markdown report; runs of the same kind are compared with the "
        "ratio to the first. Plots are written to <report name>-plots/ beside the report.",
        (
            opt("runs", nargs="+", metavar="RUN.json"),
            opt("--out", required=True, metavar="report.md"),
            opt("--no-plots", action="store_true", help="tables only"),
        ),
        _report,
    ),
    BenchKind(
        "privacy",
        "PII scrubber: recall per kind and language on labelled texts, false positives, time",
        "Scrub every labelled text as the memory's write path does and count the values whose "
        "raw string is still in the output; with --fp-dataset, count placeholders in ordinary LoCoMo turns.",
        (
            opt("--dataset", required=True, metavar="FILE", help="JSONL: text, lang, split, spans/values"),
            opt("--fp-dataset", metavar="FILE", help="a LoCoMo-format file of ordinary turns"),
            opt("--split", action="append", help="only texts of this split (repeatable)"),
            opt("--phone-region", help="region of national phone numbers (default: privacy.phone_region)"),
            opt(
                "--names",
                choices=("both", "ner", "lists"),
                default="both",
                help="person names from the spaCy parse, the name finder (lists, jieba), or both (default)",
            ),
            opt("--repeat", type=int, default=3, help="time each utterance this many times, keep the best"),
            _CONFIG,
            opt("--data-dir", metavar="DIR", help="unused by the benchmark"),
            opt("--json", dest="json_out", metavar="OUT", help="full report (JSON), with every miss"),
        ),
        _privacy,
    ),
    BenchKind(
        "adoption",
        "Do replies use what was remembered? Facts, N unrelated turns, a probe (English and Chinese)",
        "Each scenario says a fact, then --fillers unrelated turns (the fact leaves the recent "
        "window), then a probe, through the real engine, memory and LLM. Reports adoption, constraint "
        "violations, reply-language match and first-token latency per model, variant and split.",
        (
            REPORT_OPTIONS,
            opt("--scenarios", metavar="FILE", help="scenario file (default: the built-in set)"),
            opt("--split", choices=ADOPTION_SPLITS, default="all"),
            opt("--limit", type=int, default=0, help="at most this many scenarios (0 = all)"),
            opt("--ids", default="", help="comma-separated scenario ids"),
            opt("--fillers", type=int, default=10, help="unrelated turns between fact and probe"),
            opt("--models", default="", help="comma-separated local model ids (default: the configured)"),
            opt(
                "--variants",
                default="default",
                help="comma-separated, run back to back per scenario: default, unguarded, no-reminder, "
                "no-language-note, no-recall-answer, no-guidance, no-acknowledge, greedy (temperature 0), "
                "direct-system, wave2 (before recall answers and guidance), wave5 (before concrete "
                "suggestions, the date in the system rules and refilled names), no-concrete, date-in-turn, "
                "no-refill, bare",
            ),
            opt("--judge", metavar="BACKEND", help="a remote [[llm.backends]] entry as LLM judge"),
        ),
        _adoption,
    ),
)
