"""Condensing turns that leave the recent window into one summary record (extractive, no LLM).

The small local models summarise unreliably, so the summary keeps the person's own words: each user
turn's first clause-sized piece, and a short gist of each reply, dated by the first turn. A user turn that
tries to instruct the assistant (``injection.find_instruction``) is left out with its reply, or only its
sentences that do where the rest is the person's own (``instruction_parts``): what never entered memory
as an utterance does not enter it as a summary either. So is a turn that only asks or orders ("How far
away is the sun?", "Name a famous painter.") with its answer: it tells nothing about the person, both
are kept as utterances, and in the summary they crowded out what the person had told (a summary ranked
among the best memories quoted four quiz answers to a small model asked for a dinner idea).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Protocol

from voice_agent.conversation.instruction_parts import without_instructions
from voice_agent.conversation.turns import said_words
from voice_agent.text.questions import asks_or_requests

_MAX_WORDS_USER = 30
_MAX_WORDS_ASSISTANT = 12


class TurnLike(Protocol):
    @property
    def role(self) -> str: ...

    @property
    def text(self) -> str: ...

    @property
    def created_at(self) -> float: ...


def condense_turns(turns: Sequence[TurnLike]) -> str:
    """One summary line per turn, user words kept, replies shortened."""
    if not turns:
        return ""
    date = dt.datetime.fromtimestamp(turns[0].created_at, tz=dt.UTC).strftime("%Y-%m-%d")
    parts = []
    left_out = False
    kept = ""
    for turn in turns:
        if turn.role == "user":
            words = said_words(turn.text)
            kept = without_instructions(words).kept  # a sentence that instructs is left out with its reply
            left_out = not kept or asks_or_requests(words)
        if left_out:
            continue
        limit = _MAX_WORDS_USER if turn.role == "user" else _MAX_WORDS_ASSISTANT
        who = "User" if turn.role == "user" else "Assistant"
        text = kept if turn.role == "user" else turn.text  # keep only the person's words
        parts.append(f"{who}: {_shorten(text, limit)}")
    return f"Earlier conversation ({date}): " + " | ".join(parts) if parts else ""


def _shorten(text: str, max_words: int) -> str:
    text = " ".join(text.split())
    words = text.split(" ")
    if len(words) > max_words:
        return " ".join(words[:max_words]) + " …"
    # CJK text has no spaces: cap by characters instead.
    if len(text) > max_words * 3:
        return text[: max_words * 3] + "…"
    return text
