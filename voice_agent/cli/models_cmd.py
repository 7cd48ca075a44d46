"""`voice-agent models`."""

from __future__ import annotations

import argparse

from voice_agent.cli.common import add_command, not_ready


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    add_command(
        sub,
        "models",
        "List default models and their status; 'models install' assembles them",
        not_ready("`models`", 2),
    )
