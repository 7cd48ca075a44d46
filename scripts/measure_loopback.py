"""Measure the loopback check: false positives on generic replies, true positives on paraphrased leaks.

python scripts/measure_loopback.py [--embedder e5|minilm] [--json OUT]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile

from voice_agent.bench.report import write_json
from voice_agent.config import load_config
from voice_agent.memory.loopback_eval import measure_loopback
from voice_agent.memory.service import Memory


async def main(embedder: str, out: str | None) -> int:
    with tempfile.TemporaryDirectory() as data_dir:
        config = load_config(data_dir=data_dir, env={"VOICE_AGENT_MEMORY__EMBEDDER": embedder})
        memory = await Memory.open(config, env={})
        try:
            result = await measure_loopback(memory)
            floor = memory.stock.floor
        finally:
            await memory.close()
    report = {"embedder": embedder, "floor": round(floor, 4), **result.to_json()}
    summary = {k: v for k, v in report.items() if k != "details"}
    print(json.dumps(summary, indent=2))
    for d in result.details:
        if d["flagged"] != (d["set"] == "leak"):
            print(f"  wrong: [{d['set']}] {d['sentence']} (similarity {d['similarity']})", file=sys.stderr)
    if out:
        write_json(out, report)
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--embedder", default="e5", choices=["e5", "minilm"])
    parser.add_argument("--json", dest="out")
    args = parser.parse_args()
    sys.exit(asyncio.run(main(args.embedder, args.out)))
