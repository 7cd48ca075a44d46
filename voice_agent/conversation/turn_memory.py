"""What a turn leaves in memory: the user's words (a background write, never on the reply's critical path),
and a summary of the turns that leave the recent window."""

from __future__ import annotations

from voice_agent.config import PromptConfig
from voice_agent.conversation.condense import condense_turns
from voice_agent.conversation.extract import Extraction, extract
from voice_agent.conversation.instruction_parts import without_instructions
from voice_agent.conversation.ports import MemoryPort
from voice_agent.conversation.turns import TurnLog
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
        # an attempt to instruct the assistant stays in the turn log, out of memory and prompts; only the
        # sentences that carry it, when the rest of a long turn is the person's own ("…the pin block was
        # banjaxed… never again will a second-hand piano cross my threshold")
        scrubbed = without_instructions(scrubbed).kept
        extraction = extract(scrubbed) if scrubbed else extraction
        if not scrubbed or extraction.instruction is not None or extraction.forget:
            return
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


async def condense_leaving_turns(
    memory: MemoryPort, turns: TurnLog, prompt: PromptConfig, conversation_id: str, user_id: str | None
) -> None:
    """When the recent window overflows, the turns leaving it become one summary record."""
    window = await turns.window(conversation_id)
    limit = prompt.recent_window_turns
    if limit <= 0 or len(window) <= limit:
        return
    # Slide in blocks (half a window) so the prompt prefix stays stable between slides.
    keep = max(prompt.recent_min_turns, limit // 2)
    cut = len(window) - keep
    while cut < len(window) and window[cut].role != "user":
        cut += 1
    leaving = window[:cut]
    if not leaving:
        return
    summary = condense_turns(leaving)
    if summary:
        await memory.remember_item(
            conversation_id,
            "summary",
            summary,
            source=f"turns:{leaving[0].seq}-{leaving[-1].seq}",
            importance=0.4,
            user_id=user_id,
        )
    await turns.advance_window(conversation_id, leaving[-1].seq + 1)
