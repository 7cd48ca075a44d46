"""The person's own name: greeted when they say it, and never made up when they ask for it.

A small model answers "My name is Marisol." with "Yes, I remember my name as Marisol." or "我是李娜。"
(taking the name as its own), and "我叫什么名字？" asked before any name was said with one it invents
("我是小明。"). Both are answered here, at once and without the LLM:

- a turn that only says who the person is ("My name is Marisol.", "Hi, I'm Priya.", "叫我小王就行。")
  hears a greeting with the name ("Nice to meet you, Marisol!", "你好，小王！");
- a question for their own name, when no remembered statement (pinned or recalled) says it, hears that it
  was not said ("You haven't told me your name yet.", "你还没告诉过我你的名字。"). A name that was said is
  answered from memory by ``recall_answer`` instead.

The name stays a placeholder here; it is said as the person said it when the reply is rendered for them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from voice_agent.memory.records import MemoryRecord
from voice_agent.text.cjk import HAN_CLASS, HAN_RE

_PLACEHOLDER = r"(\[NAME:[0-9a-f]{12}\])"  # ("I'm Italian." says no name: after "I'm" only a found name)
_NAME = r"(\[NAME:[0-9a-f]{12}\]|[A-Z][a-z]+(?:[- ][A-Z][a-z]+)?)"
_GREETING_EN = (
    r"(?:(?:hi|hello|hey|hey there|hi there|good (?:morning|afternoon|evening)|so|well|oh)[,!.\s]+)*"
)
_INTRODUCES_EN = re.compile(
    rf"^\s*{_GREETING_EN}(?:(?:my (?:first )?name(?:'s| is)|call me|you can call me|this is)\s+{_NAME}"
    rf"|(?:i'm|i am)\s+{_PLACEHOLDER})(?:\s*,?\s*(?:by the way|btw|here|please))?\s*[.!]*\s*$",
    re.IGNORECASE,
)
_INTRODUCES_ZH = re.compile(
    r"^\s*(?:(?:你好|您好|嗨|哈喽)[，,！!。\s]*)?"
    rf"(?:(?:我叫|我的名字是|我的名字叫|叫我|你可以叫我)(\[NAME:[0-9a-f]{{12}}\]|{HAN_CLASS}{{1,4}}?)"
    r"|我是(\[NAME:[0-9a-f]{12}\]))(?:就行|就好|吧)?[。！!.]?\s*$"
)
_ASKS_OWN_NAME = re.compile(
    r"\b(?:what(?:'s| is) my name|do you (?:still )?(?:remember|know) my name|what (?:did|do) (?:you|i) "
    r"call me|who am i)\b|我叫什么|我叫啥|我的名字(?:是什么|叫什么)|你(?:还)?记得我(?:的名字|叫什么)|我是谁",
    re.IGNORECASE,
)
_NAMES_SELF = re.compile(
    r"(?i:\bmy (?:first |full |real )?name(?:'s|\s+is|\s+was)\b|\bcall me\b|\bI'm\s+\[NAME|\bI am\s+\[NAME)|"
    r"\b(?:I'm|I am)\s+[A-Z][a-z]+\b(?!\s+[a-z])|我叫|叫我|我姓|我的名字"
)


def greeting(turn: str) -> str | None:
    """ "Nice to meet you, Marisol!" for a turn that only says who the person is; else None."""
    match = _INTRODUCES_EN.match(turn) or _INTRODUCES_ZH.match(turn)
    name = next((group for group in match.groups() if group), "") if match is not None else ""
    if not name or name.lower() in _NOT_NAMES:
        return None
    return f"你好，{name}！很高兴认识你。" if HAN_RE.search(turn) else f"Nice to meet you, {name}!"


def name_not_told(question: str, remembered: Sequence[MemoryRecord]) -> str | None:
    """That the person has not said their name, for a question asking it when no remembered statement of
    theirs says it; else None."""
    if not _ASKS_OWN_NAME.search(question):
        return None
    if any(r.role == "user" and _NAMES_SELF.search(r.text) for r in remembered):
        return None
    if HAN_RE.search(question):
        return "你还没告诉过我你的名字。你想让我怎么称呼你？"
    return "You haven't told me your name yet. What should I call you?"


# Words after "I'm" that say how the person is, not who ("I'm Fine.", "I'm Back!").
_NOT_NAMES_TEXT = (
    "fine good great okay ok back here home sorry tired hungry ready sure done busy new well sick happy "
    "sad excited bored free"
)
_NOT_NAMES = frozenset(_NOT_NAMES_TEXT.split())
