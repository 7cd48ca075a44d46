"""`voice-agent config show`: the effective config, secrets masked."""

from __future__ import annotations

import argparse
from typing import Any

from voice_agent.cli.common import add_command, config_from_args, print_json
from voice_agent.config import masked_dump


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = add_command(sub, "config", "Show the effective configuration (secrets masked)", _show)
    parser.add_argument("action", nargs="?", default="show", choices=["show"], help="what to do (show)")


def _show(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    data = masked_dump(config)
    if args.json:
        print_json(data)
    else:
        _print_toml_like(data, "")
    return 0


def _print_toml_like(data: dict[str, Any], prefix: str) -> None:
    scalars = {k: v for k, v in data.items() if not isinstance(v, dict)}
    for key, value in scalars.items():
        print(f"{prefix}{key} = {value!r}")
    for key, value in data.items():
        if isinstance(value, dict):
            print(f"[{prefix}{key}]")
            _print_toml_like(value, f"{prefix}{key}.")
