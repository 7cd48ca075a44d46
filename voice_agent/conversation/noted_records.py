"""The person's statements just past the memory block's budget that the notes after a turn may quote.

On this CPU the budget for what the prompt reads can be under a hundred tokens: for "a leave application
for the Kinabalu trip … counting back from the climb", the memory block held "the technician can only come
next Thursday" (from the same long utterance) and left out "we start the climb on 14 March". The notes
after the turn (the day, the place, who a message is for) quote one sentence, so they may read a little
further: the statements the retrieval ranked next (``RecallResult.runners_up``) that share a content word
or a named person or place with the turn, or were said in the same utterance as a shown clause that does.
The memory block itself is unchanged: the prompt grows only by what the notes quote.
"""

from __future__ import annotations

from collections.abc import Sequence

from voice_agent.conversation.echo import content_keys
from voice_agent.memory.records import MemoryRecord
from voice_agent.text.placeholders import PLACEHOLDER_SHAPE_RE

MAX_NOTED = 4  # (runners-up a note may read: the best few that share a word with the turn)
# Words too common to tie a statement to a turn ("and", "with", "help", "write"): ``content_keys`` keeps
# them, as its other readers compare whole restatements.
_COMMON_TEXT = (
    "and but nor not with without from into onto about over under after before than when where who whom "
    "why all out off very much more most also too even still only own other another such same each every "
    "give help write make tell want need get got going gonna know think like can't don't won't please "
    "thanks thank bit lot lots thing things something anything way time day days week next last"
)
_COMMON = frozenset(_COMMON_TEXT.split(" "))


def tied_runners_up(
    turn: str, runners_up: Sequence[MemoryRecord], shown: Sequence[MemoryRecord] = ()
) -> list[MemoryRecord]:
    """The best of ``runners_up`` (the person's own active statements) that share a content word or a
    placeholder with ``turn`` (a placeholder counts as itself, "[NAME:…]" of the same name, not as the
    word "name" every placeholder shares), or that were said in the same utterance as a record of
    ``shown`` that does: "change of plans with [Duke]" was shown, and "the slot they had is Thursday at
    10 a.m." of the same utterance was not."""
    keys = distinctive_keys(turn)
    if not keys:
        return []
    told = {r.source for r in shown if r.source and r.role == "user" and distinctive_keys(r.text) & keys}
    tied = [
        r
        for r in runners_up
        if r.role == "user"
        and r.status == "active"
        and r.kind != "summary"
        and ((r.source and r.source in told) or distinctive_keys(r.text) & keys)
    ]
    return tied[:MAX_NOTED]


def distinctive_keys(text: str) -> set[str]:
    """The content keys of ``text`` that can tie two texts (no "and", "help" or "next"), and its
    placeholders whole."""
    placeholders = {m.group(0) for m in PLACEHOLDER_SHAPE_RE.finditer(text)}
    return (content_keys(PLACEHOLDER_SHAPE_RE.sub(" ", text)) - _COMMON) | placeholders
