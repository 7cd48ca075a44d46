"""`voice-agent serve`."""

from __future__ import annotations

import argparse

from voice_agent.cli.common import add_command, not_ready


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    add_command(
        sub, "serve", "Run the kiosk service (browser front end, WebSocket audio)", not_ready("`serve`", 6)
    )
