""" "Forget that my kid is allergic to peanuts.": the memory forgets it (``turn_memory``), the person hears
so at once, and it leaves the turn log too: the recent window, so the LLM does not read it again in the
next turns, and the turns already condensed, so it is not kept on disk either.

In each logged turn (the person's messages as the LLM read them, memory block included,
and the replies), every sentence that says what was to be forgotten is replaced by "(forgotten)": a
sentence says it when it holds every content word of the request, or all but one when there are four or
more. The rest of the window stays as it was.
"""

from __future__ import annotations

import re

from voice_agent.conversation.echo import content_words
from voice_agent.conversation.turns import TurnLog
from voice_agent.text.cjk import HAN_RE

FORGOTTEN = "(forgotten)"
_SENTENCE = re.compile(r"(?<=[.!?。！？\n])")
_CONFIRM = {
    "en": "Okay, I've forgotten that.",
    "zh": "好的，这件事我已经忘掉了。",
}


def forget_confirmation(request: str) -> str:
    return _CONFIRM["zh"] if HAN_RE.search(request) else _CONFIRM["en"]


def _keys(text: str) -> set[str]:
    return {word.rstrip("s") for word in content_words(text)}


def says(sentence: str, query: str) -> bool:
    """Whether ``sentence`` says what ``query`` asked to forget."""
    wanted = _keys(query)
    if not wanted:
        return False
    found = len(wanted & _keys(sentence))
    return found >= len(wanted) - (1 if len(wanted) >= 4 else 0)


def without(text: str, query: str) -> str:
    """``text`` with each sentence that says ``query`` replaced by "(forgotten)"."""
    pieces = _SENTENCE.split(text)
    kept = [
        (FORGOTTEN + (" " if piece.endswith(" ") else "") + ("\n" if piece.endswith("\n") else ""))
        if says(piece, query)
        else piece
        for piece in pieces
    ]
    return "".join(kept)


async def forget_in_turns(turns: TurnLog, conversation_id: str, query: str) -> int:
    """Take what ``query`` names out of the conversation's logged turns; returns how many changed."""
    logged = await turns.every_turn(conversation_id)
    changed = {t.seq: new for t in logged if (new := without(t.text, query)) != t.text}
    await turns.rewrite(conversation_id, changed)
    return len(changed)
