"""A short holding phrase when the LLM's first token is late: the person hears "One moment." instead of
silence, then the answer. The stream itself is never cancelled by this; only a backend that really
failed ends in an apology (the engine's)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

from voice_agent.memory.language import detect_language
from voice_agent.metrics.trace import TurnTrace

PHRASES = {"en": "One moment.", "zh": "稍等一下。"}


class HoldingPhrase(str):
    """A delta that is the holding phrase, not the LLM's text."""


def holding_phrase(user_text: str) -> str:
    """The phrase in the language the person speaks (English unless the turn reads as Chinese)."""
    return PHRASES["zh"] if detect_language(user_text) == "zh" else PHRASES["en"]


async def hold_if_late(
    deltas: AsyncIterator[str], *, after_s: float, phrase: str, on_hold: Callable[[], None]
) -> AsyncIterator[str]:
    """``deltas`` unchanged, with ``phrase`` first when nothing came within ``after_s`` (0: never).

    The phrase ends with a space so that a sentence splitter releases it at once."""
    iterator = deltas.__aiter__()
    first: asyncio.Future[str] = asyncio.ensure_future(iterator.__anext__())
    try:
        if after_s > 0:
            done, _ = await asyncio.wait({first}, timeout=after_s)
            if not done:
                on_hold()
                yield HoldingPhrase(phrase + " ")
        try:
            delta = await first
        except StopAsyncIteration:
            return
        yield delta
        while True:
            try:
                delta = await iterator.__anext__()
            except StopAsyncIteration:
                return
            yield delta
    finally:
        if not first.done():
            first.cancel()
            await asyncio.wait({first})
        closer = getattr(iterator, "aclose", None)
        if closer is not None:
            await closer()  # a reply cut short (barge-in) closes the LLM's stream now


async def without_holding_phrase(deltas: AsyncIterator[str]) -> AsyncIterator[str]:
    """``deltas`` without the holding phrase: a text reply is read, not waited for in silence."""
    try:
        async for delta in deltas:
            if not isinstance(delta, HoldingPhrase):
                yield delta
    finally:
        closer = getattr(deltas, "aclose", None)
        if closer is not None:
            await closer()  # the reply's stream ends with this one (a closed turn releases its hold)


class HeldStreams:
    """Opens the LLM streams of one reply (the reply check may ask for a second): the first one gets the
    holding phrase when its first token is late; a regenerated one does not (the person already heard
    something, or the phrase)."""

    def __init__(
        self,
        open_llm: Callable[[list[dict[str, str]]], AsyncIterator[str]],
        *,
        after_s: float,
        user_text: str,
        trace: TurnTrace,
    ) -> None:
        self._open_llm = open_llm
        self._after_s = after_s
        self._trace = trace
        self.phrase = holding_phrase(user_text)
        self.opened: list[AsyncIterator[str]] = []

    def open(self, messages: list[dict[str, str]]) -> AsyncIterator[str]:
        stream = self._open_llm(messages)
        self.opened.append(stream)
        if len(self.opened) > 1:
            return stream
        return hold_if_late(stream, after_s=self._after_s, phrase=self.phrase, on_hold=self._on_hold)

    @property
    def first(self) -> Any:
        """The first stream opened (its ``stats`` are this reply's), or None."""
        return self.opened[0] if self.opened else None

    def _on_hold(self) -> None:
        self._trace.mark("llm.holding", phrase_words=len(self.phrase.split()))
        self._trace.attrs["holding_phrase"] = self.phrase


def spoken_answer(reply: str, trace: TurnTrace) -> str:
    """The reply as history keeps it: the holding phrase was said, but it is not part of the answer (and
    the LLM's cache holds the answer without it)."""
    phrase = trace.attrs.get("holding_phrase")
    if isinstance(phrase, str) and reply.startswith(phrase):
        return reply[len(phrase) :].strip()
    return reply


def apology(user_text: str, *, cut_off: bool) -> str:
    """What is said when every LLM backend failed (``cut_off``: after part of the answer was said)."""
    chinese = detect_language(user_text) == "zh"
    if cut_off:  # part of the answer was already said
        return "……抱歉，我的回答中断了。" if chinese else "… sorry, I lost my train of thought there."
    if chinese:
        return "抱歉，我现在连不上语言模型，请稍后再试。"
    return "Sorry, I can't reach my language model right now. Please try again in a moment."
