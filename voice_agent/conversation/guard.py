"""The reply guard: split the LLM stream into sentences and check each before it is released.

A sentence that looks like a quote of another conversation's memory (the loopback check) is replaced by
a short notice; placeholders of the owner's own PII become safe hints ("your phone number ending 8000").
Both the text chat and the speech loop release reply text only through here.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from voice_agent.frames import Sentence
from voice_agent.memory.language import detect_language
from voice_agent.metrics.trace import TurnTrace

NOTICES = {
    "en": "I'm not sure that information is accurate, so I won't repeat it.",
    "zh": "这条信息可能不准确，我就不说了。",
}


class SplitterLike(Protocol):
    def push(self, delta: str) -> list[Sentence]: ...

    def flush(self) -> list[Sentence]: ...


class GuardMemory(Protocol):
    async def loopback(self, conversation_id: str, sentence: str) -> Any: ...

    async def render_for_owner(self, conversation_id: str, text: str) -> str: ...


@dataclass(frozen=True)
class Released:
    text: str
    index: int
    flagged: bool = False


class SentenceGuard(Protocol):
    """What the speech loop needs: one sentence in, the text that may be spoken out."""

    async def release(self, conversation_id: str, text: str, index: int, trace: TurnTrace) -> Released: ...


class ReplyGuard:
    def __init__(self, memory: GuardMemory, splitter_factory: Callable[[], SplitterLike]) -> None:
        self.memory = memory
        self.splitter_factory = splitter_factory

    async def sentences(
        self, conversation_id: str, deltas: AsyncIterator[str], trace: TurnTrace
    ) -> AsyncIterator[Released]:
        """The reply as released sentences; a run of flagged sentences gives one notice."""
        splitter = self.splitter_factory()
        index = 0
        last_flagged = False
        async for pieces in _pieces(splitter, deltas):
            for piece in pieces:
                if piece.index == 0:
                    trace.mark("first_sentence", at_ns=piece.t_ns or None)
                released = await self.release(conversation_id, piece.text, index, trace)
                if not (released.flagged and last_flagged):
                    yield released
                    index += 1
                last_flagged = released.flagged

    async def release(self, conversation_id: str, text: str, index: int, trace: TurnTrace) -> Released:
        with trace.span("loopback", index=index) as span:
            verdict = await self.memory.loopback(conversation_id, text)
            span.update(flagged=bool(verdict.flagged), similarity=round(float(verdict.similarity), 4))
        if verdict.flagged:
            trace.mark("loopback.flagged", index=index, similarity=round(float(verdict.similarity), 4))
            language = "zh" if detect_language(text) == "zh" else "en"
            return Released(NOTICES[language], index, flagged=True)
        return Released(await self.memory.render_for_owner(conversation_id, text), index)


async def _pieces(splitter: SplitterLike, deltas: AsyncIterator[str]) -> AsyncIterator[list[Sentence]]:
    async for delta in deltas:
        yield splitter.push(delta)
    yield splitter.flush()
