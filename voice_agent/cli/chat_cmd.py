"""`voice-agent chat`."""

from __future__ import annotations

import argparse

from voice_agent.cli.common import add_command, not_ready


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    add_command(sub, "chat", "Text conversation (REPL, or --once TEXT)", not_ready("`chat`", 3))
