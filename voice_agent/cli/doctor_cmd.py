"""`voice-agent doctor`: check that the configured stack can run (exit 0 only if it can)."""

from __future__ import annotations

import argparse
import sys

from voice_agent.cli.common import add_command, config_from_args, print_json, run_async
from voice_agent.config import Config
from voice_agent.doctor import DoctorReport, run_doctor

_MARK = {"ok": "ok  ", "warn": "warn", "fail": "FAIL", "skip": "skip"}


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg,unused-ignore]
    parser = add_command(sub, "doctor", "Check that the configured stack can run", _run)
    parser.add_argument(
        "--llm",
        action="store_true",
        help="start the local LLM server (or call the remote endpoint) and measure first-token latency",
    )


def _run(args: argparse.Namespace) -> int:
    return run_async(_doctor(config_from_args(args), start_llm=args.llm, as_json=args.json))


async def _doctor(config: Config, *, start_llm: bool, as_json: bool) -> int:
    def progress(message: str) -> None:
        if not as_json:
            print(message, file=sys.stderr, flush=True)

    report = await run_doctor(config, start_llm=start_llm, progress=progress)
    if as_json:
        print_json(report.to_json())
    else:
        _print(report)
    return 0 if report.ok else 1


def _print(report: DoctorReport) -> None:
    width = max(len(c.name) for c in report.checks)
    for check in report.checks:
        print(f"{_MARK[check.status]}  {check.name:<{width}}  {check.detail}")
    if report.ok:
        print("result: the configured stack can run")
    else:
        names = ", ".join(c.name for c in report.failures)
        print(f"result: the configured stack cannot run ({len(report.failures)} failing: {names})")
