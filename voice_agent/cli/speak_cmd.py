"""`voice-agent speak`."""

from __future__ import annotations

import argparse

from voice_agent.cli.common import add_command, not_ready


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    add_command(sub, "speak", "Synthesise TEXT to a WAV file", not_ready("`speak`", 4))
