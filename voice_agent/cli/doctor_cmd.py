"""`voice-agent doctor`."""

from __future__ import annotations

import argparse

from voice_agent.cli.common import add_command, not_ready


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    add_command(sub, "doctor", "Check that the configured stack can run", not_ready("`doctor`", 2))
