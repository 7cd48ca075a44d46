"""`voice-agent bench long-life`: recall and retrieval time before and after consolidation, on a
conversation made ``--copies`` times as long (``voice_agent/bench/long_life.py``)."""

from __future__ import annotations

import argparse
from typing import Any

from voice_agent.cli.common import config_from_args, print_json, run_async


def register_long_life(kinds: Any) -> None:
    p: argparse.ArgumentParser = kinds.add_parser(
        "long-life",
        help="Recall before/after memory consolidation on a LoCoMo conversation told --copies times",
        description="The dataset's first conversation told --copies times with shifted dates and other "
        "people; recall within the budget and retrieval time, without consolidation and after it.",
    )
    p.add_argument("--config", metavar="FILE", help="a TOML file layered over config/default.toml")
    p.add_argument("--data-dir", metavar="DIR", help="unused by the benchmark (it works in a temp dir)")
    p.add_argument("--dataset", required=True, metavar="FILE")
    p.add_argument("--json", dest="json_out", required=True, metavar="OUT", help="report file")
    p.add_argument("--copies", type=int, default=10)
    p.add_argument("--budget-tokens", type=int, default=500)
    p.add_argument("--policy", action="append", choices=["none", "default", "aggressive"],
                   help="repeatable; default: all three")  # fmt: skip
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.add_argument("--ingested", metavar="DIR", help="keep the ingested data here and reuse it next time")
    p.set_defaults(handler=_long_life)


def _long_life(args: argparse.Namespace) -> int:
    from voice_agent.bench.long_life import run_long_life

    async def run() -> int:
        report = await run_long_life(
            args.dataset, config_from_args(args), copies=args.copies, budget_tokens=args.budget_tokens,
            policies=args.policy or ("none", "default", "aggressive"), json_out=args.json_out,
            progress=not args.quiet, ingested=args.ingested,
        )  # fmt: skip
        print_json({key: value for key, value in report.items() if key != "meta"})
        return 0

    return run_async(run())
