"""What a user's turn leaves in memory (run as a background write, never on the reply's critical path)."""

from __future__ import annotations

from voice_agent.conversation.extract import Extraction, extract
from voice_agent.conversation.ports import MemoryPort
from voice_agent.memory.records import MemoryRecord
from voice_agent.memory.writes import WriteRequest


async def write_user_turn(
    memory: MemoryPort, conversation_id: str, scrubbed: str, turn_id: str, user_id: str | None
) -> None:
    """Store what the person said: forget what they asked to forget (and nothing else), or the utterance
    and the items it states (facts, decisions …), superseding what those replace. An attempt to instruct
    the assistant is left out (it stays in the turn log only)."""
    extraction: Extraction = extract(scrubbed)
    for request in extraction.forget:
        await memory.forget(conversation_id, query=request.query)
    if extraction.forget:
        return  # "forget X" must not itself be remembered
    if extraction.instruction is not None:
        return  # an attempt to instruct the assistant stays in the turn log, out of memory and prompts
    await memory.remember(WriteRequest(conversation_id, "user", scrubbed, source=turn_id, user_id=user_id))
    for item in extraction.items:
        record = await memory.remember_item(
            conversation_id,
            item.kind,
            item.text,
            source=turn_id,
            importance=item.importance,
            user_id=user_id,
        )
        if item.replaces:
            await _supersede(memory, conversation_id, record, item.replaces)


async def _supersede(
    memory: MemoryPort, conversation_id: str, new: MemoryRecord, replaced_terms: tuple[str, ...]
) -> None:
    terms = [t.lower() for t in replaced_terms]
    for old in await memory.pinned(conversation_id):
        if old.id == new.id:
            continue
        lowered = old.text.lower()
        if any(term in lowered for term in terms):
            await memory.mark_superseded(conversation_id, old.id, new.id)
