"""What the LLM reads: the person's own names as they said them, when the LLM runs on this machine.

Everything the prompt quotes is scrubbed ("My favourite author is [NAME:…]"), which keeps names out of
memory and away from remote endpoints, but a small model cannot suggest "another book by Le Guin" from a
placeholder. For a local LLM (every configured backend is ``local``, so no fallback can send the prompt
away) the current conversation's own NAME placeholders are refilled from the vault in the messages sent
to the LLM, and only there: the prompt the engine keeps, the turn log, memory and traces stay scrubbed.
A placeholder of another conversation, of another kind (phone numbers, cards, addresses), or with no
vault row stays as it is (``[prompt] refill_own_names``: "local", "always" or "never").
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from voice_agent.config import Config
from voice_agent.llm.base import Message
from voice_agent.text.placeholders import PLACEHOLDER_RE


class RefillsNames(Protocol):
    async def refill_names(self, conversation_id: str, text: str) -> str: ...


def refills_names(mode: str, backend_kinds: Sequence[str]) -> bool:
    """Whether names are refilled for this LLM configuration ("local": only when every backend is
    local)."""
    if mode == "always":
        return True
    if mode == "local":
        return bool(backend_kinds) and all(kind == "local" for kind in backend_kinds)
    return False


def _refills(config: Config, conversation_id: str) -> bool:
    kinds = [backend.kind for backend in config.llm.backends]
    return bool(conversation_id) and refills_names(config.prompt.refill_own_names, kinds)


async def messages_for_llm(
    memory: RefillsNames, config: Config, conversation_id: str, messages: list[Message]
) -> list[Message]:
    """``messages`` as the LLM should read them: with the conversation's own names refilled when the
    configuration allows it, else unchanged (the same list)."""
    if not _refills(config, conversation_id):
        return messages
    if not any(PLACEHOLDER_RE.search(m.get("content", "")) for m in messages):
        return messages
    out: list[Message] = []
    for message in messages:
        content = message.get("content", "")
        if PLACEHOLDER_RE.search(content):
            message = {**message, "content": await memory.refill_names(conversation_id, content)}
        out.append(message)
    return out


async def text_for_llm(memory: RefillsNames, config: Config, conversation_id: str, text: str) -> str:
    """One remembered text the way the LLM reads it (``messages_for_llm``): what the reply is compared
    with, so that "old [NAME:…] records" is looked for as the "Motown" the reply may name."""
    if not text or not PLACEHOLDER_RE.search(text) or not _refills(config, conversation_id):
        return text
    return await memory.refill_names(conversation_id, text)


def later_for_llm(
    memory: RefillsNames, config: Config, conversation_id: str, text_of: Callable[[], str]
) -> Callable[[], Awaitable[str]]:
    """``text_for_llm`` of a text worked out only when it is asked for (after the reply: what a turn is
    about, looked up off the path to its first audio)."""

    async def later() -> str:
        return await text_for_llm(memory, config, conversation_id, text_of())

    return later
