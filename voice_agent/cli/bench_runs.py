"""`voice-agent bench strategies | latency | security | report | privacy` (registered by ``bench_cmd``)."""

from __future__ import annotations

import argparse
from typing import Any

from voice_agent.cli.common import config_from_args, print_json, run_async

KindParsers = Any  # argparse's private _SubParsersAction


def _config_options(parser: argparse.ArgumentParser) -> None:
    # Here --json names the report file, so the common options are added without it.
    parser.add_argument("--config", metavar="FILE", help="a TOML file layered over config/default.toml")
    parser.add_argument("--data-dir", metavar="DIR", help="unused by the benchmark (it works in a temp dir)")
    parser.add_argument("--json", dest="json_out", required=True, metavar="OUT", help="report file (JSON)")
    parser.add_argument("--plot", metavar="OUT.png")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    parser.add_argument(
        "--no-verify-models", action="store_true", help="record model files by size, without hashing them"
    )


def register_strategies(kinds: KindParsers) -> None:
    p = kinds.add_parser(
        "strategies",
        help="Memory strategies side by side: full context, top-K, voice-agent (latency, tokens, accuracy)",
        description="On a LoCoMo-format dataset, every strategy answers the same seeded, category-stratified "
        "sample of questions through the configured LLM (the local model by default).",
    )
    p.add_argument("--dataset", required=True, metavar="FILE")
    _config_options(p)
    p.add_argument("--questions", type=int, default=20, help="sample size (default 20); 0 = all questions")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument(
        "--strategies",
        default="full-context,top-4,top-8,voice-agent",
        help="comma-separated: full-context, top-K, voice-agent, voice-agent-cap",
    )
    p.add_argument(
        "--price-table", metavar="FILE", help="prices per million tokens (default config/prices.toml)"
    )
    p.add_argument("--llm-timeout-s", type=float, default=600.0, help="first-token timeout for full windows")
    p.set_defaults(handler=_strategies)


def _strategies(args: argparse.Namespace) -> int:
    return run_async(_run_strategies(args))


async def _run_strategies(args: argparse.Namespace) -> int:
    from voice_agent.bench.strategies import run_strategies_bench

    report = await run_strategies_bench(
        args.dataset,
        config_from_args(args),
        questions=args.questions or None,
        seed=args.seed,
        strategies=[s.strip() for s in args.strategies.split(",") if s.strip()],
        price_table=args.price_table,
        json_out=args.json_out,
        plot_out=args.plot,
        progress=not args.quiet,
        verify_models=not args.no_verify_models,
        llm_timeout_s=args.llm_timeout_s,
    )
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
    return 130 if report["partial"] else 0


def register_latency(kinds: KindParsers) -> None:
    p = kinds.add_parser(
        "latency",
        help="Per-stage latency on real speech, replayed in real time through the live code path",
        description="Replay speech (a file, or every audio file of a directory) into a voice session in "
        "real time, N runs after a warm-up; per-stage p50/p95/max and voice-to-voice from the turn traces.",
    )
    p.add_argument("--audio", required=True, metavar="FILE|DIR")
    _config_options(p)
    p.add_argument("--runs", type=int, default=3, help="passes over all clips (default 3)")
    p.add_argument("--warmup", type=int, default=1, help="clips played first and not measured (default 1)")
    p.add_argument("--tail-silence-ms", type=int, default=2000, help="silence after each clip")
    p.add_argument("--output", metavar="OUT.wav", help="write the replies to a WAV file (default: no sink)")
    p.add_argument("--trace", metavar="OUT.jsonl", help="also write the turn traces as JSONL")
    p.set_defaults(handler=_latency)


def _latency(args: argparse.Namespace) -> int:
    return run_async(_run_latency(args))


async def _run_latency(args: argparse.Namespace) -> int:
    from voice_agent.bench.latency_bench import run_latency_bench

    report = await run_latency_bench(
        args.audio,
        config_from_args(args),
        runs=args.runs,
        warmup=args.warmup,
        tail_silence_ms=args.tail_silence_ms,
        json_out=args.json_out,
        plot_out=args.plot,
        output_wav=args.output,
        trace_out=args.trace,
        progress=not args.quiet,
        verify_models=not args.no_verify_models,
    )
    stages = {key: value["p50"] for key, value in report["stages"].items()}
    print_json(
        {
            "json": args.json_out,
            "plot": args.plot,
            "turns": report["turns_measured"],
            "voice_to_voice_ms": report["stages"]["voice_to_voice_ms"],
            "p50": stages,
        }
    )
    return 130 if report["partial"] else 0


def register_security(kinds: KindParsers) -> None:
    p = kinds.add_parser(
        "security",
        help="Memory injection: attempts pinned, reaching the system message, changing a later reply",
        description="Run injection attempts (English and Chinese) and a benign control set through the real "
        "conversation path, memory and each configured LLM backend; a table on stdout, the report as JSON.",
    )
    p.add_argument("--config", metavar="FILE", help="a TOML file layered over config/default.toml")
    p.add_argument("--data-dir", metavar="DIR", help="unused by the benchmark (it works in a temp dir)")
    p.add_argument("--json", dest="json_out", metavar="OUT", help="also write the report (JSON)")
    p.add_argument("--cases", metavar="FILE", help="cases TOML (default: the built-in set)")
    p.add_argument("--backends", metavar="NAMES", help="comma-separated backend names (default: all)")
    p.add_argument("--limit", type=int, metavar="N", help="only the first N attacks and benign statements")
    p.add_argument("--max-tokens", type=int, default=64, help="reply length limit (default 64)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(handler=_security)


def _security(args: argparse.Namespace) -> int:
    return run_async(_run_security(args))


async def _run_security(args: argparse.Namespace) -> int:
    from voice_agent.bench.security import format_table, run_security_bench

    chosen = [b.strip() for b in args.backends.split(",") if b.strip()] if args.backends else None
    report = await run_security_bench(
        config_from_args(args),
        cases_path=args.cases,
        backends=chosen,
        limit=args.limit,
        max_tokens=args.max_tokens,
        json_out=args.json_out,
        progress=not args.quiet,
    )
    print(format_table(report))
    if args.json_out:
        print(f"report: {args.json_out}")
    return 0


def register_report(kinds: KindParsers) -> None:
    p = kinds.add_parser(
        "report",
        help="One Markdown report (tables and plots) from one or more benchmark runs, side by side",
        description="Render RUN.json files of `bench memory`, `bench strategies`, `bench latency`, `bench "
        "adoption` and `bench security` as one Markdown report; runs of the same kind are compared with the "
        "ratio to the first. Plots are written to <report name>-plots/ beside the report.",
    )
    p.add_argument("runs", nargs="+", metavar="RUN.json")
    p.add_argument("--out", required=True, metavar="report.md")
    p.add_argument("--no-plots", action="store_true", help="tables only")
    p.set_defaults(handler=_report)


def _report(args: argparse.Namespace) -> int:
    from voice_agent.bench.markdown import render_report

    path = render_report(args.runs, args.out, plots=not args.no_plots)
    print(path)
    return 0


def register_adoption(kinds: KindParsers) -> None:
    p = kinds.add_parser(
        "adoption",
        help="Do replies use what was remembered? Facts, N unrelated turns, a probe (English and Chinese)",
        description="Each scenario says a fact, then --fillers unrelated turns (the fact leaves the recent "
        "window), then a probe, through the real engine, memory and LLM. Reports adoption, constraint "
        "violations, reply-language match and first-token latency per model, variant and split.",
    )
    _config_options(p)
    p.add_argument("--scenarios", metavar="FILE", help="scenario file (default: the built-in set)")
    p.add_argument("--split", choices=("all", "tune", "heldout"), default="all")
    p.add_argument("--limit", type=int, default=0, help="at most this many scenarios (0 = all)")
    p.add_argument("--ids", default="", help="comma-separated scenario ids")
    p.add_argument("--fillers", type=int, default=10, help="unrelated turns between fact and probe")
    p.add_argument("--models", default="", help="comma-separated local model ids (default: the configured)")
    p.add_argument(
        "--variants",
        default="default",
        help="comma-separated, run back to back per scenario: default, unguarded, no-reminder, "
        "no-language-note, no-recall-answer, no-guidance, greedy (temperature 0), direct-system, "
        "wave2 (before recall answers and guidance), bare",
    )
    p.add_argument("--judge", metavar="BACKEND", help="a remote [[llm.backends]] entry as LLM judge")
    p.set_defaults(handler=_adoption)


def _adoption(args: argparse.Namespace) -> int:
    return run_async(_run_adoption(args))


async def _run_adoption(args: argparse.Namespace) -> int:
    from voice_agent.bench.adoption import table
    from voice_agent.bench.adoption_run import run_adoption_bench

    report = await run_adoption_bench(
        config_from_args(args),
        scenarios_path=args.scenarios,
        split=args.split,
        limit=args.limit or None,
        ids=_csv(args.ids),
        fillers=args.fillers,
        models=_csv(args.models),
        variants=_csv(args.variants) or ["default"],
        judge=args.judge,
        json_out=args.json_out,
        progress=not args.quiet,
        verify_models=not args.no_verify_models,
    )
    print(table(report))
    print_json({"json": args.json_out, "groups": report["groups"]})
    return 130 if report["partial"] else 0


def _csv(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def register_privacy(kinds: KindParsers) -> None:
    p = kinds.add_parser(
        "privacy",
        help="PII scrubber: recall per kind and language on labelled texts, false positives, time",
        description="Scrub every labelled text as the memory's write path does and count the values whose "
        "raw string is still in the output; with --fp-dataset, count placeholders in ordinary LoCoMo turns.",
    )
    p.add_argument("--dataset", required=True, metavar="FILE", help="JSONL: text, lang, split, spans/values")
    p.add_argument("--fp-dataset", metavar="FILE", help="a LoCoMo-format file of ordinary turns")
    p.add_argument("--split", action="append", help="only texts of this split (repeatable)")
    p.add_argument("--phone-region", help="region of national phone numbers (default: privacy.phone_region)")
    p.add_argument(
        "--names",
        choices=("both", "ner", "lists"),
        default="both",
        help="person names from the spaCy parse, the name finder (lists, jieba), or both (default)",
    )
    p.add_argument("--repeat", type=int, default=3, help="time each utterance this many times, keep the best")
    p.add_argument("--config", metavar="FILE", help="a TOML file layered over config/default.toml")
    p.add_argument("--data-dir", metavar="DIR", help="unused by the benchmark")
    p.add_argument("--json", dest="json_out", metavar="OUT", help="full report (JSON), with every miss")
    p.set_defaults(handler=_privacy)


def _privacy(args: argparse.Namespace) -> int:
    from voice_agent.bench.privacy import run_privacy_bench, summary
    from voice_agent.memory.pii_phones import check_region

    config = config_from_args(args)
    region = check_region(args.phone_region) if args.phone_region else config.privacy.resolved_phone_region()
    report = run_privacy_bench(
        args.dataset,
        fp_dataset=args.fp_dataset,
        phone_region=region,
        splits=args.split,
        ner=args.names in ("both", "ner"),
        lists=args.names in ("both", "lists"),
        repeat=args.repeat,
        json_out=args.json_out,
    )
    print_json({"json": args.json_out, "phone_region": region, **summary(report)})
    return 0
