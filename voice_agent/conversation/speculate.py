"""Work before the endpoint: while the person speaks, each newly confirmed stretch of the transcript
(LocalAgreement commits) drives retrieval, and the local LLM reads the prompt built from it (system,
pinned, window, memory block, the confirmed words) into its KV cache with a one-token request. At the
endpoint, when the final transcript extends the speculated words by a few words, the turn reuses the
speculation's memories: its prompt then extends the prefilled one, so only the last words are new tokens.

A wrong speculation costs the turn nothing: the turn never waits for one, cancels one that has not
reached the LLM yet, and builds its own prompt (its own retrieval) whenever the final text does not
extend the speculated one. Rate-limited (``llm.speculative_min_interval_ms``), one at a time per
conversation, and background work for the critical-path scheduler in two steps: the retrieval, then the
request to the LLM, each waiting while a critical path is open. A speculation whose retrieval ends in the
pause at the end of speech is therefore never sent (the turn cancels it), so the turn does not queue
behind a prefill started at the last moment (the p95 of voice-to-voice, measured).

Consecutive speculations of one utterance keep the memory block's order: records the previous one
showed stay in its order and new ones follow, so the server's prompt cache keeps the block up to the
first record that left it and reads only what changed (a block re-ranked on every partial was read
again from its start each time).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from voice_agent.clock import Clock
from voice_agent.config import Config
from voice_agent.conversation.ports import RecallLike
from voice_agent.memory.records import MemoryRecord
from voice_agent.prompt import BuiltPrompt
from voice_agent.scheduling import CriticalPathScheduler

log = logging.getLogger(__name__)


@dataclass
class Prepared:
    """What a speculation retrieved and sent, for the turn to reuse."""

    text: str  # the scrubbed confirmed words
    recalled: RecallLike
    pinned_ids: tuple[str, ...]
    sent: bool = False  # the prefill request went to the LLM
    # the recalled records in the order the prefilled memory block shows them (see ``stable_order``)
    ordered: tuple[MemoryRecord, ...] = ()
    prompt: BuiltPrompt | None = None  # what is sent
    conversation_id: str = ""  # whose names the LLM may read (``refill``)


# (conversation id, confirmed words, the previous speculation of this utterance) -> what to send
PrepareFn = Callable[[str, str, "Prepared | None"], Awaitable["Prepared | None"]]
# the prepared prompt -> whether the prefill request reached the LLM
SendFn = Callable[[Prepared], Awaitable[bool]]


def stable_order(records: Sequence[MemoryRecord], previous: Sequence[MemoryRecord]) -> list[MemoryRecord]:
    """``records`` with those the previous block showed first, in its order, then the new ones in
    relevance order: the longest block prefix the LLM has already read stays valid."""
    rank = {r.id: index for index, r in enumerate(previous)}
    kept = sorted((r for r in records if r.id in rank), key=lambda r: rank[r.id])
    return [*kept, *(r for r in records if r.id not in rank)]


@dataclass
class _State:
    last_offer_ns: int = 0
    last_text: str = ""
    task: asyncio.Task[Prepared | None] | None = None
    prepared: Prepared | None = None
    sending: bool = False


@dataclass
class SpeculationStats:
    started: int = 0
    prefills: int = 0  # requests sent to the LLM
    reused: int = 0
    discarded: int = 0
    skipped: dict[str, int] = field(default_factory=dict)

    def skip(self, why: str) -> None:
        self.skipped[why] = self.skipped.get(why, 0) + 1


class Speculator:
    """Per conversation: the newest speculation (one in flight at most)."""

    def __init__(
        self, config: Config, scheduler: CriticalPathScheduler, clock: Clock, prepare: PrepareFn, send: SendFn
    ) -> None:
        self.config = config
        self.scheduler = scheduler
        self.clock = clock
        self._prepare = prepare
        self._send = send
        self._states: dict[str, _State] = {}
        self.stats = SpeculationStats()

    @property
    def enabled(self) -> bool:
        return self.config.llm.speculative_prefill

    def offer(self, conversation_id: str, confirmed_text: str) -> bool:
        """A newly confirmed partial transcript; True when a speculation started for it."""
        text = " ".join(confirmed_text.split())
        if not self.enabled or not text:
            return False
        state = self._states.setdefault(conversation_id, _State())
        now = self.clock.now_ns()
        if text == state.last_text:
            self.stats.skip("unchanged")
            return False
        if state.task is not None and not state.task.done():
            self.stats.skip("busy")
            return False
        if now - state.last_offer_ns < self.config.llm.speculative_min_interval_ms * 1e6:
            self.stats.skip("rate")
            return False
        state.last_offer_ns, state.last_text = now, text
        self.stats.started += 1
        state.task = asyncio.get_running_loop().create_task(self._run(conversation_id, state, text))
        return True

    async def _run(self, conversation_id: str, state: _State, text: str) -> Prepared | None:
        group = f"spec:{conversation_id}"
        try:
            async with self.scheduler.background("memory.speculative_recall", group=group):
                prepared = await self._prepare(conversation_id, text, state.prepared)
            if prepared is None:
                return None
            # Waits again: a retrieval that ended in the pause before the endpoint is not sent (the turn,
            # arriving meanwhile, cancels it instead of queueing behind its prefill at the LLM).
            async with self.scheduler.background("llm.speculative_prefill", group=group):
                state.sending = True
                prepared.sent = await self._send(prepared)
        except asyncio.CancelledError:
            raise
        except Exception:  # an optimisation: never fails a conversation
            log.exception("speculative prefill failed for conversation %s", conversation_id)
            return None
        finally:
            state.sending = False
        state.prepared = prepared
        self.stats.prefills += int(prepared.sent)
        return prepared

    def take(self, conversation_id: str, final_text: str, pinned: list[MemoryRecord]) -> Prepared | None:
        """At the endpoint: the speculation to reuse for ``final_text`` (scrubbed), or None. Never waits:
        a speculation still retrieving is cancelled; one whose request is at the LLM is left to finish."""
        state = self._states.pop(conversation_id, None)
        if state is None:
            return None
        task = state.task
        if task is not None and not task.done() and not state.sending:
            task.cancel()
        prepared = state.prepared
        if prepared is None:
            return None
        final_words = final_text.split()
        spec_words = prepared.text.split()
        new_words = len(final_words) - len(spec_words)
        fits = (
            final_words[: len(spec_words)] == spec_words
            and 0 <= new_words <= self.config.llm.speculative_max_new_words
            and prepared.pinned_ids == tuple(r.id for r in pinned)
        )
        if not fits:
            self.stats.discarded += 1
            return None
        self.stats.reused += 1
        return prepared

    async def settle(self, conversation_id: str) -> None:
        """Wait for the conversation's speculation in flight, if any (tests, benchmarks)."""
        state = self._states.get(conversation_id)
        if state is not None and state.task is not None:
            await asyncio.wait({state.task})

    async def drain(self) -> None:
        tasks = [s.task for s in self._states.values() if s.task is not None and not s.task.done()]
        self._states.clear()
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks)
