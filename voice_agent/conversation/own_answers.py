"""Turns the product answers itself, without the LLM, in this order: "Forget that …" (confirmed), a
constraint told ("Got it, I'll remember that …"), "What do you know about me?", the person's name told
(greeted with it) or asked for before it was told. Each but the first has its ``[prompt]`` switch."""

from __future__ import annotations

from collections.abc import Sequence

from voice_agent.config import PromptConfig
from voice_agent.conversation.about_me import about_me
from voice_agent.conversation.constraint_noted import constraint_noted
from voice_agent.conversation.forget_turns import forget_confirmation
from voice_agent.conversation.own_name import greeting, name_not_told
from voice_agent.memory.records import MemoryRecord


def own_answer(
    cfg: PromptConfig, scrubbed: str, language: str, remembered: Sequence[MemoryRecord], forget: bool
) -> tuple[str, str] | None:
    """(what is said, its kind for the trace), or None: the LLM answers. ``forget``: the turn asks to
    forget something (``extract``)."""
    if forget:
        return forget_confirmation(scrubbed), "forgotten"
    candidates = (
        (cfg.note_constraints, "constraint_noted", lambda: constraint_noted(scrubbed, language)),
        (cfg.about_me_replies, "about_me", lambda: about_me(scrubbed, remembered)),
        (cfg.own_name_replies, "name_greeted", lambda: greeting(scrubbed)),
        (cfg.own_name_replies, "name_not_told", lambda: name_not_told(scrubbed, remembered)),
    )
    for enabled, kind, answer in candidates:
        said = answer() if enabled else None
        if said is not None:
            return said, kind
    return None
