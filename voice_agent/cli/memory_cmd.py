"""`voice-agent memory`."""

from __future__ import annotations

import argparse

from voice_agent.cli.common import add_command, not_ready


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    add_command(sub, "memory", "Inspect and manage stored memories", not_ready("`memory`", 7))
