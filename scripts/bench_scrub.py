#!/usr/bin/env python3
"""Benchmark the PII scrubber: per-utterance latency and huge/pathological inputs under a time budget.

    python scripts/bench_scrub.py [--dataset /work/shared/data/locomo-dev.json] [--json OUT]
                                  [--huge-budget-s 15] [--repeat 5]

Reports p50/p95/max per utterance on LoCoMo turns (typical text) and on PII-dense utterances, and the
time to scrub 1 MB inputs built to stress each pattern (digit soups, '@' floods, Chinese road numbers…).
A huge input that exceeds its budget is reported as ``over_budget`` and makes the exit status 1.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from voice_agent.memory.scrub import Scrubber

MB = 1_000_000
PII_DENSE = [
    "Call me on 138 0013 8000 or +86 139-0013-9000, my email is john dot smith at gmail dot com.",
    "我的手机号是一三八零零一三八零零零，身份证号11010519491231002X，住在北京市朝阳区建国路88号。",
    "Card 4111 1111 1111 1111, ship to 221B Baker Street, London, or (555) 123-4567 after six.",
    "1600 Pennsylvania Avenue NW, Washington, DC 20500 — reach jane_doe99@example.co.uk or 555.123.4567.",
    "银行卡6222020200112233445，地址广东省深圳市南山区科技园路12号阳光小区3栋2单元501室，电话010-12345678。",
    "It is one three eight zero zero one three eight zero zero zero, apt 4, PO Box 1234, Austin, TX 78701.",
]


def locomo_turns(path: Path) -> list[str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [
        turn["text"]
        for sample in data
        for key, session in sample["conversation"].items()
        if key.startswith("session_") and isinstance(session, list)
        for turn in session
        if isinstance(turn.get("text"), str)
    ]


def latency(scrub: Callable[[str], object], texts: list[str], repeat: int) -> dict[str, Any]:
    samples: list[float] = []
    for _ in range(repeat):
        for text in texts:
            start = time.perf_counter()
            scrub(text)
            samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return {
        "utterances": len(texts),
        "samples": len(samples),
        "mean_chars": round(statistics.fmean(len(t) for t in texts), 1),
        "p50_ms": round(samples[len(samples) // 2], 4),
        "p95_ms": round(samples[int(len(samples) * 0.95)], 4),
        "max_ms": round(samples[-1], 4),
    }


def huge_inputs() -> dict[str, str]:
    rnd = random.Random(11)
    prose = "We moved to Boston in 2019, paid $1,299.99 for 3 chairs at 10:30 on 2023-05-08. "
    dense = " ".join(PII_DENSE) + " "
    return {
        "prose": prose * (MB // len(prose)),
        "pii_dense": dense * (MB // len(dense)),
        "spaced_digits": "1 " * (MB // 2),
        "spaced_digits_varied": " ".join(str(rnd.randrange(10)) for _ in range(MB // 2)),
        "one_digit_run": "1" * MB,
        "digit_words": "one " * (MB // 4),
        "chinese_numerals": "一" * MB,
        "dotted_digits": "1." * (MB // 2),
        "dashed_digits": "1-" * (MB // 2),
        "groups_of_four": "1234 " * (MB // 5),
        "at_signs": "@" * MB,
        "long_local_parts": ("a" * 63 + ".") * (MB // 64) + "@x.com",
        "spoken_at_dot": "a at b dot " * (MB // 11),
        "en_street_numbers": "12 Baker " * (MB // 9),
        "cn_admin_names": "北京市朝阳区路" * (MB // 7),
        "cn_road_numbers": "路1号" * (MB // 3),
        "random_code_points": "".join(chr(rnd.randrange(0x20, 0x3000)) for _ in range(MB)),
    }


def huge(scrubber: Scrubber, budget_s: float) -> dict[str, Any]:
    results: dict[str, Any] = {}
    for name, text in huge_inputs().items():
        start = time.perf_counter()
        found = len(scrubber.scrub(text).found)
        elapsed = time.perf_counter() - start
        results[name] = {
            "chars": len(text),
            "seconds": round(elapsed, 3),
            "found": found,
            "over_budget": elapsed > budget_s,
        }
        print(f"  {name:22s} {len(text):>8d} chars {elapsed:7.2f} s  found={found}", file=sys.stderr)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, default=Path("/work/shared/data/locomo-dev.json"))
    parser.add_argument("--json", type=Path, help="write the report here as JSON")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--huge-budget-s", type=float, default=15.0, help="time budget per 1 MB input")
    parser.add_argument("--skip-huge", action="store_true")
    args = parser.parse_args(argv)

    scrubber = Scrubber(bytes(range(32)))
    turns = locomo_turns(args.dataset)
    for text in turns[:50] + PII_DENSE:  # warm up regex caches and the allocator
        scrubber.scrub(text)
    report: dict[str, Any] = {
        "locomo": latency(scrubber.scrub, turns, args.repeat),
        "locomo_findings": sum(len(scrubber.scrub(t).found) for t in turns),
        "pii_dense": latency(scrubber.scrub, PII_DENSE, args.repeat * 50),
        "pii_dense_findings_per_utterance": [len(scrubber.scrub(t).found) for t in PII_DENSE],
    }
    print(json.dumps(report, indent=2))
    if not args.skip_huge:
        report["huge_budget_s"] = args.huge_budget_s
        report["huge"] = huge(scrubber, args.huge_budget_s)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    over = [name for name, r in report.get("huge", {}).items() if r["over_budget"]]
    if over:
        print(f"over the {args.huge_budget_s} s budget: {', '.join(over)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
