"""`voice-agent bench`: memory, latency, strategies, security, privacy, adoption and report."""

from __future__ import annotations

import argparse
import sys

from voice_agent.cli import bench_runs
from voice_agent.cli.common import (
    add_command,
    config_from_args,
    print_json,
    run_async,
)
from voice_agent.cli.long_life_cmd import register_long_life


def register(sub: argparse._SubParsersAction) -> None:
    parser = add_command(sub, "bench", "Benchmarks: latency, memory, strategies, security, privacy", _help)
    kinds = parser.add_subparsers(dest="bench_kind", metavar="KIND")

    memory = kinds.add_parser(
        "memory",
        help="Evidence recall within a token budget on a LoCoMo-format dataset, with baselines",
        description="Ingest a LoCoMo-format file and, for every question except category 5, retrieve "
        "within the budget from that question's conversation; voice-agent and the baselines in one run.",
    )
    # Here --json names the report file, so the common options are added without it.
    memory.add_argument("--config", metavar="FILE", help="a TOML file layered over config/default.toml")
    memory.add_argument("--data-dir", metavar="DIR", help="unused by the benchmark (it works in a temp dir)")
    memory.add_argument("--dataset", required=True, metavar="FILE")
    memory.add_argument("--json", dest="json_out", required=True, metavar="OUT", help="report file")
    memory.add_argument("--budget-tokens", type=int, default=500)
    memory.add_argument("--plot", metavar="OUT.png")
    memory.add_argument(
        "--systems",
        default="voice-agent,baseline-turn-cosine,baseline-turn-bm25",
        help="comma-separated; also: baseline-sentence-rrf",
    )
    memory.add_argument("--quiet", action="store_true", help="no progress bars")
    memory.add_argument(
        "--pii-keys",
        type=int,
        default=1,
        metavar="N",
        help="run voice-agent under N fixed PII keys and report its recall's spread (names are embedded "
        "under pseudonyms that follow the key)",
    )
    memory.add_argument(
        "--scale",
        metavar="SIZES",
        help="instead of recall: retrieval latency and ANN recall at these record counts (e.g. 10k,100k,1m), "
        "synthetic records made from the dataset's sentences; Weaviate too when WEAVIATE_URL is set",
    )
    memory.add_argument("--queries", type=int, default=200, help="questions asked per --scale size")
    memory.add_argument(
        "--ann-min-records",
        type=int,
        metavar="N",
        help="with --scale: conversations of at least N records search the HNSW index (0: exact only)",
    )
    memory.set_defaults(handler=_memory)

    bench_runs.register(kinds, bench_runs.KINDS)
    register_long_life(kinds)


def _help(args: argparse.Namespace) -> int:
    print(
        "usage: voice-agent bench {memory,strategies,latency,security,report,privacy,adoption,long-life} ...",
        file=sys.stderr,
    )
    return 2


def _memory(args: argparse.Namespace) -> int:
    systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    return run_async(_run(args, systems))


async def _run(args: argparse.Namespace, systems: list[str]) -> int:
    from voice_agent.bench.memory_bench import run_memory_bench
    from voice_agent.bench.memory_scale import run_scale_bench

    if args.scale:
        report = await run_scale_bench(
            args.dataset, config_from_args(args), args.scale, queries=args.queries,
            json_out=args.json_out, plot_out=args.plot, progress=not args.quiet,
            ann_min_records=args.ann_min_records,
        )  # fmt: skip
        print_json({"json": args.json_out, "plot": args.plot, "scale": report["scale"]})
        return 0
    report = await run_memory_bench(
        args.dataset,
        config_from_args(args),
        budget_tokens=args.budget_tokens,
        systems=systems,
        json_out=args.json_out,
        plot_out=args.plot,
        progress=not args.quiet,
        pii_keys=args.pii_keys,
    )
    summary = {
        name: {"recall": data["recall"]["overall"], "retrieve_p95_ms": data["retrieve_ms"]["p95"]}
        for name, data in report["systems"].items()
    }
    print_json({"json": args.json_out, "plot": args.plot, "systems": summary})
    return 130 if report["meta"].get("interrupted") else 0
