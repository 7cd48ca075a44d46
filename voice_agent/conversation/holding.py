"""A short holding phrase when the LLM's first token is late: the person hears "One moment." instead of
silence, then the answer. The stream itself is never cancelled by this; only a backend that really
failed ends in an apology (the engine's)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

from voice_agent.memory.language import detect_language

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
