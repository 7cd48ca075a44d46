"""Privacy: scrubbing texts (patterns, parsed and known person names), the vault, and the loopback check.

Everything stored or searched is scrubbed with the same key first, so a placeholder in a query matches
the one in a record; raw values go only to the vault, and come back only as safe hints for their owner.
"""

from __future__ import annotations

import asyncio
from typing import Literal, Protocol, runtime_checkable

from voice_agent.memory.language import detect_language
from voice_agent.memory.loopback import LoopbackChecker, LoopbackVerdict
from voice_agent.memory.scrub import PLACEHOLDER_RE, PiiFinding
from voice_agent.memory.store.base import tenant_of
from voice_agent.memory.vault_link import VaultLink
from voice_agent.memory.writepath import WritePath, clean_text

Spans = list[tuple[int, int]]


@runtime_checkable
class FindsPersonNames(Protocol):
    """A loaded English pipeline that also finds PERSON spans (the clause chunker): no second model."""

    def person_spans(self, text: str) -> Spans: ...


class EnglishNames(Protocol):
    def start(self) -> None: ...

    def spans(self, text: str) -> Spans: ...


class MemoryPrivacy:
    def __init__(
        self,
        writer: WritePath,
        vault: VaultLink,
        loopback: LoopbackChecker,
        *,
        parser: object,
        max_text_chars: int,
    ) -> None:
        self.writer = writer
        self.vault = vault
        self.loopback_checker = loopback
        # Decided once: the chunker's parse finds English names, else a name finder loads on first use.
        self.name_parser = parser if isinstance(parser, FindsPersonNames) else None
        self.name_finder: EnglishNames | None = None
        self.max_text_chars = max_text_chars

    async def scrub(self, conversation_id: str, text: str) -> str:
        """Scrub a text for this conversation (patterns, names via NER, known names); its raw values go
        to the vault so the owner can hear them back. Used for queries and the turn log."""
        tenant = tenant_of(conversation_id, "scrub")
        cleaned = clean_text(text, limit=self.max_text_chars)
        if not cleaned:
            return ""
        scrubbed, found = await asyncio.to_thread(self.scrub_names, tenant.conversation_id, cleaned)
        if found:
            await asyncio.to_thread(self.vault.put, tenant.conversation_id, found)
        return scrubbed

    def scrub_names(self, conversation_id: str, text: str) -> tuple[str, list[PiiFinding]]:
        """``text`` with patterns, parsed person names and known names replaced (blocking)."""
        result = self.writer.scrub(conversation_id, text, self.person_spans(text))
        return result.text, result.found

    def scrub_patterns(self, conversation_id: str, text: str) -> str:
        """``text`` with patterns and known names replaced, no parse (blocking; queries)."""
        return self.writer.scrub(conversation_id, text).text

    async def loopback(self, conversation_id: str, sentence: str) -> LoopbackVerdict:
        """Whether a reply sentence quotes another conversation's memory (see ``loopback.py``)."""
        tenant = tenant_of(conversation_id, "loopback")
        cleaned = clean_text(sentence, limit=self.max_text_chars, what="sentence")

        def scrub() -> str:  # names too: the same person must get the same placeholder as in memory
            return self.writer.scrub(tenant.conversation_id, cleaned, self.person_spans(cleaned)).text

        return await self.loopback_checker.check(tenant.conversation_id, await asyncio.to_thread(scrub))

    async def render_for_owner(self, conversation_id: str, text: str) -> str:
        """A reply for speaking: the owner's placeholders become safe hints ("your phone number ending
        8000"); anyone else's become a generic noun, so no placeholder or foreign value is ever spoken."""
        tenant = tenant_of(conversation_id, "render_for_owner")
        if not PLACEHOLDER_RE.search(text):
            return text
        language: Literal["en", "zh"] = "zh" if detect_language(text) == "zh" else "en"
        return await asyncio.to_thread(self.vault.render, tenant.conversation_id, text, language)

    async def refill_names(self, conversation_id: str, text: str) -> str:
        """``text`` for an LLM on this machine: this conversation's own person names as they were said
        instead of placeholders (``vault.refill_own_names``); anything else stays scrubbed."""
        tenant = tenant_of(conversation_id, "refill_names")
        if not PLACEHOLDER_RE.search(text):
            return text
        return await asyncio.to_thread(self.vault.refill_names, tenant.conversation_id, text)

    def known_names(self, conversation_id: str) -> set[str]:
        """(Blocking) the names the vault holds for the conversation: ``KnownNames``' loader."""
        return self.vault.names(conversation_id)

    def person_spans(self, text: str) -> Spans:
        language = detect_language(text)
        if language == "zh":
            from voice_agent.memory.names_zh import chinese_name_spans

            return chinese_name_spans(text)
        if language != "en":
            return []
        if self.name_parser is not None:
            return list(self.name_parser.person_spans(text))
        if self.name_finder is None:
            from voice_agent.memory.names import EnglishNameFinder

            finder = EnglishNameFinder()
            finder.start()
            self.name_finder = finder
        return list(self.name_finder.spans(text))
