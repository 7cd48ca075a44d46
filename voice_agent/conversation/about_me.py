""" "What do you know about me?": what the person told, said back, without the LLM.

A small model answers it with a line of its own ("I know that my kid is allergic to peanuts.", in the
person's voice) or with something made up. The answer here is the person's own pinned statements (facts,
constraints, decisions they set; the newest first, at most ``MOST``), each in the second person: "You told
me that your kid is allergic to peanuts, and that your son's name is Leo." With nothing pinned: "You
haven't told me anything about yourself yet." Only this conversation's records are read, so a kiosk
visitor hears only what they said themselves.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from voice_agent.conversation.recall_answer import second_person
from voice_agent.memory.records import MemoryRecord
from voice_agent.text.cjk import HAN_RE
from voice_agent.text.sentences import sentences_of

MOST = 4
NOTHING_TOLD = {
    "en": "You haven't told me anything about yourself yet.",
    "zh": "你还没告诉过我关于你自己的事。",
}
_ASKS_EN = re.compile(
    r"^\s*(?:(?:so|ok|okay|hey|well|and)[,\s]+)*(?:what|how much) do you (?:know|remember|recall) about me"
    r"|^\s*(?:tell me )?what (?:have i told you|did i tell you) about (?:me|myself)\b",
    re.IGNORECASE,
)
_ASKS_ZH = re.compile(
    r"你(?:都|还)?(?:知道|记得|了解)(?:我|关于我)(?:的)?(?:什么|哪些|些什么|多少)|我(?:都)?跟你说过(?:我)?(?:什么|哪些)"
)
_KINDS = frozenset(("fact", "constraint", "decision"))


def asks_about_me(text: str) -> bool:
    return bool(_ASKS_EN.search(text) or _ASKS_ZH.search(text))


def about_me(question: str, pinned: Sequence[MemoryRecord]) -> str | None:
    """The answer to "What do you know about me?", or None when the turn asks something else."""
    if not asks_about_me(question):
        return None
    chinese = bool(HAN_RE.search(question))
    mine = [r for r in pinned if r.role == "user" and r.kind in _KINDS and r.status == "active"]
    same = [r for r in mine if bool(HAN_RE.search(r.text)) == chinese]
    told: list[str] = []
    for record in sorted(same or mine, key=lambda r: r.created_at, reverse=True):  # in its language first
        sentence = next(iter(sentences_of(record.text)), "")
        body = second_person(sentence, "zh" if HAN_RE.search(sentence) else "en") if sentence else ""
        if body and body not in told:
            told.append(body)
        if len(told) == MOST:
            break
    if not told:
        return NOTHING_TOLD["zh" if chinese else "en"]
    if chinese:
        return "你告诉过我：" + "；".join(told) + "。"
    listed = told[0] if len(told) == 1 else ", that ".join(told[:-1]) + ", and that " + told[-1]
    return f"You told me that {listed}."
