"""`voice-agent talk`."""

from __future__ import annotations

import argparse

from voice_agent.cli.common import add_command, not_ready


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    add_command(
        sub,
        "talk",
        "Talk to the assistant: live from the microphone, or --input in.wav --output out.wav",
        not_ready("`talk`", 4),
    )
