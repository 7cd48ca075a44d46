"""`voice-agent …`: the command line. Each command lives in its own module with a ``register``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from voice_agent.cli import (
    bench_cmd,
    chat_cmd,
    config_cmd,
    doctor_cmd,
    kiosk_cmd,
    memory_cmd,
    models_cmd,
    serve_cmd,
    speak_cmd,
    talk_cmd,
    transcribe_cmd,
)
from voice_agent.cli.common import run_handler

COMMANDS = (
    talk_cmd,
    chat_cmd,
    transcribe_cmd,
    speak_cmd,
    memory_cmd,
    bench_cmd,
    serve_cmd,
    kiosk_cmd,
    models_cmd,
    config_cmd,
    doctor_cmd,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="voice-agent",
        description="A real-time spoken assistant that remembers what people told it (offline by default).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    return run_handler(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
