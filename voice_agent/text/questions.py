"""Whether a turn asks something (English and Chinese), from its words: a question mark, a sentence-final
吗 / 呢, or an English sentence that opens with a question word or an auxiliary verb. A transcript often has
no question mark, so the opening words count too."""

from __future__ import annotations

import re

_QUESTION = re.compile(
    r"[?？]\s*$|[吗呢][。.？?！!]?\s*$|"
    r"^\s*(?:(?:and|so|ok|okay|well|hey|hi|um|uh)[,\s]+)*"
    r"(?:what|which|when|where|who|whom|whose|why|how|do|does|did|can|could|would|should|shall|will|"
    r"is|are|am|was|were|have|has|may|might)\b",
    re.IGNORECASE,
)


# A question inside a transcript with no punctuation ("okay so um we're driving down tomorrow what should
# i grab to drink"): a question word, an auxiliary and a person, in that order, anywhere; or an ask for
# help ("can u help me write…").
_EMBEDDED_EN = re.compile(
    r"\b(?:what|which|where|when|how|who|why)\s+(?:should|can|could|do|does|did|would|will|shall|is|are|am)"
    r"\s+(?:i|we|you|u|he|she|they|it|my|our)\b|"
    r"\b(?:can|could|would|will)\s+(?:you|u|ya)\s+(?:please\s+)?(?:help|tell|give|recommend|suggest|find|pick|"
    r"write|make|think|remind|check)\b",
    re.IGNORECASE,
)
# The last clause of a Chinese transcript asking with a question word, no question mark ("…我想要啥礼物你帮我
# 想想呗"); not the "any" sense of one (什么都吃, 哪儿都行, 谁也不).
# Only the clause's last 20 characters: a long run-on statement names "什么的" (and so on) far before its end.
_LAST_CLAUSE_ZH = re.compile(r"[^，。！？；,.!?;]{0,20}$")
_ASKS_ZH = re.compile(r"(?:啥|什么|哪|怎么|多少|几(?:[个点天号岁月年次]|时))(?!的)(?![^，。！？]{0,3}[都也])")


def is_question(text: str) -> bool:
    text = text.strip()
    if _QUESTION.search(text):
        return True
    if text.endswith((".", "!", "。", "！")):
        return False  # punctuated: its own marks decide
    if _EMBEDDED_EN.search(text):
        return True
    last = _LAST_CLAUSE_ZH.search(text)
    return bool(last and _ASKS_ZH.search(last.group(0)))


_CLAUSE_END = re.compile(r"(?<=[,.!?;:，。！？；：])\s*")
_FILLER = re.compile(
    r"^\s*(?:ok|okay|so|well|hey|hi|hello|um|uh|oh|sorry|by the way|btw|quick question|also|and|"
    r"对了|那个|嗯|哦|请问|另外)\s*[,.!?;:，。！？；：]*\s*$",
    re.IGNORECASE,
)
_ENDS_ASKING = re.compile(r"[?？]\s*$|[吗呢][。.？?！!]?\s*$")


def only_asks(text: str) -> bool:
    """Whether every clause of ``text`` asks (greetings and fillers aside): "What is my kid allergic
    to?", "Am I vegetarian?", "对了，我孩子对什么过敏？". Such a turn states nothing about the person, so
    nothing in it is remembered as a fact or a constraint; "I'm vegetarian, what should I cook?" states
    something in its first clause."""
    clauses = [c for c in _CLAUSE_END.split(text.strip()) if c.strip() and not _FILLER.match(c)]
    if not clauses:
        return False
    asks = bool(_ENDS_ASKING.search(text))
    # A clause asks when it opens like a question, or it is the last one and the text ends asking.
    return all(is_question(c) or (asks and i == len(clauses) - 1) for i, c in enumerate(clauses))


# An order for the assistant to say or do something: "Name a famous painter.", "Suggest a board game…",
# "给我讲一点关于月亮的事。". Like a question, it says nothing about the person.
_REQUEST = re.compile(
    r"^\s*(?:(?:ok|okay|so|hey|hi|um|uh)[,\s]+)*(?:please\s+)?(?:name|suggest|recommend|tell me|give me|list|"
    r"explain|describe|show me|teach me|help me|find me|pick|choose|translate|define|spell|write|compose)\b|"
    r"^\s*(?:请)?(?:说一个|说一种|说一首|说说|给我讲|讲一个|讲讲|推荐一?[个下部首本款些]|告诉我|列出|解释一下|介绍一下|"
    r"帮我|翻译|写一[个首段])",
    re.IGNORECASE,
)


def asks_or_requests(text: str) -> bool:
    """Whether ``text`` only asks (``only_asks``) or orders the assistant to say or do something
    ("Name a famous painter."): words that tell nothing about the person."""
    return only_asks(text) or _REQUEST.match(text) is not None
