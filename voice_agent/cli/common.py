"""Shared CLI plumbing: the common options, config loading, error reporting, JSON output."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Callable, Coroutine
from typing import Any

from voice_agent.config import Config, load_config
from voice_agent.errors import NotReadyError, VoiceAgentError

Handler = Callable[[argparse.Namespace], int]


def common_options(*, nested: bool = False) -> argparse.ArgumentParser:
    """Options every command accepts: --config, --data-dir, --json. ``nested``: for the actions under a
    command ("memory add"), with no defaults of their own, so that "memory --data-dir X add" keeps X (an
    action's default would otherwise replace it, and the records would go to the default data dir)."""
    parent = argparse.ArgumentParser(add_help=False)
    unset: dict[str, Any] = {"default": argparse.SUPPRESS} if nested else {}
    parent.add_argument(
        "--config", metavar="FILE", help="a TOML file layered over config/default.toml", **unset
    )
    parent.add_argument(
        "--data-dir", metavar="DIR", help="where all state lives (env VOICE_AGENT_DATA_DIR)", **unset
    )
    parent.add_argument("--json", action="store_true", help="machine-readable output", **unset)
    return parent


def add_command(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    help_text: str,
    handler: Handler,
) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = sub.add_parser(
        name, help=help_text, description=help_text, parents=[common_options()]
    )
    parser.set_defaults(handler=handler)
    return parser


def config_from_args(args: argparse.Namespace) -> Config:
    return load_config(getattr(args, "config", None), data_dir=getattr(args, "data_dir", None))


def run_async(coro: Coroutine[Any, Any, int]) -> int:
    return asyncio.run(coro)


def print_json(data: Any) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2, default=str)
    sys.stdout.write("\n")


def not_ready(feature: str, issue: int) -> Handler:
    def handler(_args: argparse.Namespace) -> int:
        raise NotReadyError(f"{feature} is not built yet (issue #{issue}); see README for what works today")

    return handler


def run_handler(args: argparse.Namespace) -> int:
    try:
        return int(args.handler(args))
    except NotReadyError as err:
        print(f"voice-agent: {err}", file=sys.stderr)
        return 3
    except VoiceAgentError as err:
        print(f"voice-agent: error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("voice-agent: interrupted", file=sys.stderr)
        return 130
