"""The conversation engine: the text path of a turn (the speech loop wraps audio around exactly this).

respond():  scrub the user's words → start the memory write (its own task, never cancelled) →
            pinned + budgeted recall + recent window (concurrently) → four-layer prompt → LLM stream
commit():   log what the user said and what they actually heard → store the reply as the assistant's
            utterance (never as facts about the user) → condense turns that leave the window
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from collections.abc import AsyncGenerator, AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from voice_agent.clock import Clock, MonotonicClock
from voice_agent.config import Config
from voice_agent.conversation import turn_compose as compose
from voice_agent.conversation.acknowledge import Acknowledgement, acknowledgement
from voice_agent.conversation.block_records import block_records, shown_pinned
from voice_agent.conversation.constraints import Constraint, ConstraintSet
from voice_agent.conversation.dated_fallback import recalled_day
from voice_agent.conversation.extract import extract
from voice_agent.conversation.forget_turns import forget_in_turns
from voice_agent.conversation.holding import HeldStreams, apology, spoken_answer
from voice_agent.conversation.injection import find_instruction
from voice_agent.conversation.own_answers import own_answer
from voice_agent.conversation.pending_writes import PendingWrites
from voice_agent.conversation.ports import LlmPort, MemoryPort, RatePort, RecallLike
from voice_agent.conversation.prefill_steps import prefill_steps
from voice_agent.conversation.recall_answer import answer_from_memory
from voice_agent.conversation.refill import later_for_llm, messages_for_llm, text_for_llm
from voice_agent.conversation.reminders import asks_for_suggestion, requested_thing
from voice_agent.conversation.reply_check import ReplyCheck
from voice_agent.conversation.speculate import Prepared, Speculator, stable_order
from voice_agent.conversation.turn_memory import condense_leaving_turns, write_user_turn
from voice_agent.conversation.turns import LoggedTurn, TurnLog
from voice_agent.errors import BackendError, InputError
from voice_agent.memory.budget import budget_for_turn
from voice_agent.memory.consolidate import IdleConsolidator
from voice_agent.memory.records import MemoryRecord
from voice_agent.memory.writes import WriteRequest
from voice_agent.metrics.trace import TurnTrace
from voice_agent.prompt import BuiltPrompt, PromptBuilder, TokenCount
from voice_agent.scheduling import CriticalPathScheduler
from voice_agent.text.cjk import estimate_tokens

log = logging.getLogger(__name__)

# How long the next turn waits for the previous turn's memory write before reading pinned items.
_PENDING_WRITE_WAIT_S = 2.0


@dataclass
class TurnResult:
    """What the last respond() call used: for `chat --once --json`, tests and the benchmark."""

    prompt: BuiltPrompt | None = None
    retrieved: list[MemoryRecord] = field(default_factory=list)
    pinned: list[MemoryRecord] = field(default_factory=list)
    budget_tokens: int = 0
    recall_info: dict[str, Any] = field(default_factory=dict)
    llm_stats: dict[str, Any] = field(default_factory=dict)
    turn_id: str = ""
    checks: dict[str, Any] = field(default_factory=dict)  # what the reply check did (``reply_check``)


class ConversationEngine:
    """Implements the speech loop's ``Responder`` protocol."""

    def __init__(
        self,
        config: Config,
        memory: MemoryPort,
        llm: LlmPort,
        turns: TurnLog,
        *,
        rate: RatePort | None = None,
        count_tokens: TokenCount | None = None,
        clock: Clock | None = None,
        user_id: str | None = None,
        scheduler: CriticalPathScheduler | None = None,
    ) -> None:
        self.config = config
        self.memory = memory
        self.llm = llm
        self.turns = turns
        self.rate = rate
        self.clock = clock or MonotonicClock()
        self.user_id = user_id
        self.builder = PromptBuilder(config.prompt, count_tokens, max_reply_tokens=config.llm.max_tokens)
        self.last = TurnResult()
        self.pending_write_wait_s = _PENDING_WRITE_WAIT_S  # how long a turn waits for the last one's writes
        self._rewarming: dict[str, asyncio.Task[float | None]] = {}
        self.rewarms = 0  # prefills run after a turn changed the stable prefix (for traces and tests)
        self._rewarm_sent: set[str] = set()  # conversations whose prefix prefill reached the LLM
        self.scheduler = scheduler or CriticalPathScheduler(
            enabled=config.scheduling.critical_path,
            max_deferral_s=config.scheduling.max_deferral_s,
            watched_pids=self._server_pids,
        )
        self.writes = PendingWrites(self.scheduler)
        self.speculator = Speculator(
            config, self.scheduler, self.clock, self._speculate, self._send_speculation
        )
        self.consolidator = IdleConsolidator(memory, config.memory.consolidation, self.scheduler)

    def _server_pids(self) -> list[int]:
        servers = getattr(self.llm, "servers", ())
        return [pid for pid in (getattr(s, "pid", None) for s in servers) if pid is not None]

    # -- Responder ---------------------------------------------------------------------------------
    async def respond(self, conversation_id: str, user_text: str, trace: TurnTrace) -> AsyncIterator[str]:
        """The reply's deltas. Its critical path is held (background work waits) until the first delta
        here, or until the speech loop, which holds it itself, has played the first audio."""
        owned = self.scheduler.hold(trace.turn_id, kind="reply", trace=trace)
        try:
            async with contextlib.aclosing(self._respond(conversation_id, user_text, trace)) as deltas:
                async for delta in deltas:
                    if owned:
                        self.scheduler.release(trace.turn_id, at="first_delta")
                    yield delta
        finally:
            if owned:
                self.scheduler.release(trace.turn_id, at="reply_end")

    async def _respond(
        self, conversation_id: str, user_text: str, trace: TurnTrace
    ) -> AsyncGenerator[str, None]:
        text = self._validate(user_text)
        self._cancel_unsent_rewarm(conversation_id)  # this turn reads the prefix itself
        await self._await_pending(conversation_id)
        with trace.span("scrub"):
            scrubbed = await self.memory.scrub(conversation_id, text)
        # Pinned items are read before this turn's write lands, so the prompt prefix (system + pinned)
        # stays identical to the previous turn's and the LLM reuses its cache; the turn itself is in
        # the user message anyway.
        pinned = await self.memory.pinned(conversation_id)
        self._spawn_write(conversation_id, scrubbed, trace.turn_id)
        self.consolidator.after_turn(conversation_id)  # old clauses condense in idle time
        prepared = self.speculator.take(conversation_id, scrubbed, pinned)

        budget = self._budget(trace)
        with trace.span("retrieve", budget_tokens=budget, speculated=prepared is not None) as span:
            recalled, window = await asyncio.gather(
                self._recall(conversation_id, scrubbed, budget, prepared), self.turns.window(conversation_id)
            )
            ordered = prepared.ordered if prepared is not None else recalled.records
            retrieved = self._block(ordered, pinned, window, scrubbed)
            span.update(records=len(retrieved), tokens=recalled.tokens_used)
        trace.attrs["retrieve"] = recalled.info()  # with the time of each recall stage
        prompt, constraints, language, guided, liked = compose.compose_turn(
            self.builder, self.config.prompt, scrubbed, pinned, retrieved, recalled.records, window
        )
        trace.mark(
            "prompt.tokens",
            total=prompt.total_tokens,
            **{f"{name}_tokens": layer.tokens for name, layer in prompt.layers.items()},
        )
        for warning in prompt.warnings:
            trace.mark("prompt.warning", message=warning)
        self.last = TurnResult(
            prompt, prompt.retrieved, prompt.pinned, budget, recalled.info(), turn_id=trace.turn_id
        )
        if self.config.prompt.recall_answers:  # "Do you remember my name?": said back from memory
            answer = answer_from_memory(scrubbed, [*pinned, *recalled.records], language, trace)
            if answer is not None:
                self.last.checks = trace.attrs["reply_check"] = {"recall_answer": answer.record_id}
                yield answer.text
                return
            day = recalled_day(scrubbed, [*pinned, *recalled.records], language)
            if day:  # "which date was it again?": the person's own dated words, not a date the model makes up
                trace.mark("recall.day")
                self.last.checks = trace.attrs["reply_check"] = {"recall_day": True}
                yield day
                return
        said = self._said_without_llm(scrubbed, language, [*pinned, *recalled.records], trace)
        if said is not None:
            yield said
            return
        opening = None
        if self.config.prompt.acknowledge_constraints:  # "Since your kid is allergic to nuts, …"
            opening = acknowledgement(guided, constraints, language, scrubbed)
        checked = self._checked_reply(
            conversation_id, prompt, constraints, language, scrubbed, trace, opening, guided=guided,
            expects=bool(guided) or bool(liked and self.config.prompt.concrete_suggestions), liked=liked,
        )  # fmt: skip
        async with contextlib.aclosing(checked) as reply:
            async for delta in reply:
                yield delta

    def _said_without_llm(
        self, scrubbed: str, language: str, remembered: list[MemoryRecord], trace: TurnTrace
    ) -> str | None:
        """What the product says itself to this turn (``own_answers``), traced; None: the LLM answers."""
        forget = extract(scrubbed).forget
        if forget:  # the write forgets it; the turn log loses it when the turn is logged (``commit``)
            trace.attrs["forget"] = [request.query for request in forget]
        answer = own_answer(self.config.prompt, scrubbed, language, remembered, bool(forget))
        if answer is None:
            return None
        said, kind = answer
        trace.mark(f"reply.{kind}")
        self.last.checks = trace.attrs["reply_check"] = {kind: True}
        return said

    def _block(
        self, ordered: Sequence[MemoryRecord], pinned: list[MemoryRecord], window: list[LoggedTurn], turn: str
    ) -> list[MemoryRecord]:
        """The memory block's records for this turn (``block_records`` with the prompt settings)."""
        cfg = self.config.prompt
        return block_records(ordered, pinned, window, cfg.recent_window_turns, turn,
                             unrelated_questions=cfg.quote_unrelated_questions)  # fmt: skip

    async def _checked_reply(
        self,
        conversation_id: str,
        prompt: BuiltPrompt,
        constraints: ConstraintSet,
        language: str,
        scrubbed: str,
        trace: TurnTrace,
        opening: Acknowledgement | None = None,
        *,
        expects: bool = False,
        guided: Sequence[Constraint] = (),
        liked: str = "",
    ) -> AsyncGenerator[str, None]:
        """The LLM's reply, piece by piece, each checked before it is passed on (``reply_check``); a
        holding phrase first when the first token is late (not after an ``opening`` acknowledgement: the
        person already hears something); the apology when it failed."""
        liked = await text_for_llm(self.memory, self.config, conversation_id, liked)
        place = compose.turn_place(scrubbed, prompt)  # what to do around the place they told us
        check = ReplyCheck(
            constraints, language if self.config.prompt.check_language else "und", trace,
            first_clause_min_words=self.config.tts.first_clause_min_words, clock=self.clock,
            requested=requested_thing(scrubbed), user_words=scrubbed, acknowledgement=opening,
            expects_suggestion=expects, asks_suggestion=asks_for_suggestion(scrubbed), guided=guided,
            concrete=self.config.prompt.concrete_suggestions, liked=liked,
            remembered=compose.remembered_fallback(scrubbed, prompt, language),
            remembered_first=bool(place),
            salutation=compose.turn_salutation(self.config.prompt, scrubbed, prompt, language),
            day=compose.turn_day(scrubbed, prompt, language), place=place,
            changed=compose.turn_change(scrubbed, prompt, language),
            replaced=compose.turn_replaced(scrubbed, prompt),
            related=later_for_llm(self.memory, self.config, conversation_id, lambda: compose.turn_related(
                self.config.prompt, scrubbed, prompt, language)),  # (looked up after the reply)
        )  # fmt: skip
        cfg = self.config.llm
        streams = HeldStreams(
            lambda msgs: self.llm.stream(msgs, max_tokens=cfg.max_tokens, temperature=cfg.temperature),
            after_s=0.0 if opening else cfg.holding_phrase_after_s, user_text=scrubbed, trace=trace,
        )  # fmt: skip
        try:
            messages = await messages_for_llm(self.memory, self.config, conversation_id, prompt.messages)
            async for text in check.run(messages, streams.open):
                yield text
        except BackendError as err:
            # Every backend failed (or the one answering died mid-reply): say so instead of going silent.
            trace.mark("llm.error", error=str(err), after_text=check.said_anything)
            log.warning("LLM failed for conversation %s: %s", conversation_id, err)
            yield apology(scrubbed, cut_off=check.said_anything or check.acknowledged)
        finally:
            self.last.checks = check.outcome.to_json()
            trace.attrs["reply_check"] = self.last.checks
        # The first call's own stats: a prefill running meanwhile would have replaced the router's last ones.
        stats = getattr(streams.first, "stats", None) or self.llm.last_stats
        if stats is not None:
            self.last.llm_stats = stats.to_json()
            trace.attrs["llm"] = self.last.llm_stats

    async def record(self, conversation_id: str, user_text: str, reply: str, trace: TurnTrace) -> None:
        """A turn answered elsewhere (an imported transcript, a benchmark's scripted turn): the user's
        words are scrubbed and remembered exactly as in ``respond``, and the exchange is logged."""
        text = self._validate(user_text)
        await self.settle(conversation_id)
        with trace.span("scrub"):
            scrubbed = await self.memory.scrub(conversation_id, text)
        self._spawn_write(conversation_id, scrubbed, trace.turn_id)
        # nobody waits for a reply here: let the write land first, however long it takes
        await self.writes.wait(conversation_id, expedite=False)
        await self.commit(conversation_id, text, reply, trace)

    async def commit(self, conversation_id: str, user_text: str, spoken_reply: str, trace: TurnTrace) -> None:
        """Record the exchange as the person experienced it: only the spoken part of the reply."""
        scrubbed_user = await self.memory.scrub(conversation_id, self._validate(user_text))
        # The window keeps the user's message exactly as the LLM read it (memory block included), so the
        # next prompt extends this one token for token: the server reuses its KV cache through this turn
        # and the reply, and only the next turn's memories and words are new tokens.
        last = self.last
        read = last.prompt.messages if last.prompt and last.turn_id == trace.turn_id else None
        sent = read[-1]["content"] if read else None
        await self.turns.append(conversation_id, trace.turn_id, "user", sent or scrubbed_user)
        for query in trace.attrs.get("forget") or ():  # this turn's words included
            await forget_in_turns(self.turns, conversation_id, query)
        reply = spoken_answer(spoken_reply.strip(), trace)
        interrupted = bool(trace.attrs.get("barge_in"))
        scrubbed_reply = ""
        if reply:
            scrubbed_reply = await self.memory.scrub(conversation_id, reply)
            await self.turns.append(
                conversation_id, trace.turn_id, "assistant", scrubbed_reply, interrupted=interrupted
            )
            if find_instruction(scrubbed_user) is None:  # a reply to an injection attempt stays out too
                self.writes.spawn(
                    conversation_id,
                    self.memory.remember(
                        WriteRequest(
                            conversation_id,
                            "assistant",
                            scrubbed_reply,
                            source=trace.turn_id,
                            user_id=self.user_id,
                        ),
                    ),
                    name="memory.write_reply",
                )
        with self.scheduler.running("condense"):
            await condense_leaving_turns(
                self.memory, self.turns, self.config.prompt, conversation_id, self.user_id
            )
        if self._rewarm_enabled():
            cached = [*read, {"role": "assistant", "content": scrubbed_reply}] if read and reply else None
            self._spawn_rewarm(conversation_id, cached)

    # -- lifecycle ---------------------------------------------------------------------------------
    async def prefill(self, conversation_id: str) -> float | None:
        """Have the LLM read the stable prompt prefix (system, pinned, recent window) before the first
        turn, so that turn pays only for its new tokens. Returns the time it took (ms), or None when the
        LLM could not be reached (the turn itself will then fall back or apologise)."""
        return await self._prefill(await self._prefix_prompt(conversation_id), conversation_id)

    async def _prefix_prompt(self, conversation_id: str) -> BuiltPrompt:
        pinned, window = await asyncio.gather(
            self.memory.pinned(conversation_id), self.turns.window(conversation_id)
        )
        return self.builder.build(".", pinned=shown_pinned(pinned), recent=compose.as_turns(window),
                                  now=dt.datetime.now())  # fmt: skip

    async def _prefill(self, prompt: BuiltPrompt, conversation_id: str) -> float | None:
        return await self._prefill_messages(prompt.messages, conversation_id)

    async def _prefill_messages(self, messages: list[dict[str, str]], conversation_id: str) -> float | None:
        start = self.clock.now_ns()
        try:  # what the LLM reads for the turn: the same names refilled, so its cache covers them
            read = await messages_for_llm(self.memory, self.config, conversation_id, messages)
            async for _ in self.llm.stream(read, max_tokens=1, temperature=0.0):
                pass
        except BackendError as err:
            log.warning("prefill failed: %s", err)
            return None
        return (self.clock.now_ns() - start) / 1e6

    def _rewarm_enabled(self) -> bool:
        return self.config.llm.rewarm_prefix and self._local_first()

    def _spawn_rewarm(self, conversation_id: str, cached: list[dict[str, str]] | None) -> None:
        previous = self._rewarming.pop(conversation_id, None)
        if previous is not None and not previous.done():
            previous.cancel()
        task = asyncio.get_running_loop().create_task(self._rewarm(conversation_id, cached))
        self._rewarming[conversation_id] = task

        def forget(done: asyncio.Task[float | None]) -> None:  # a kiosk sees endless conversations
            if self._rewarming.get(conversation_id) is done:
                del self._rewarming[conversation_id]

        task.add_done_callback(forget)

    def _cancel_unsent_rewarm(self, conversation_id: str) -> None:
        task = self._rewarming.get(conversation_id)
        if task is not None and not task.done() and conversation_id not in self._rewarm_sent:
            task.cancel()

    async def _rewarm(self, conversation_id: str, cached: list[dict[str, str]] | None) -> float | None:
        """After a turn: once its memory writes have landed, prefill the next turn's stable prefix if it
        is not what the LLM last read (``cached``: the last prompt and the reply, as the server holds
        them). A slid window or a new pinned item changes the prefix; without this, the next turn would
        read the whole prompt again (the p95 of voice-to-voice)."""
        group = f"prefill:{conversation_id}"
        try:
            await self._await_pending(conversation_id, expedite=False)
            async with self.scheduler.background("llm.prefix_prefill", group=group):
                prompt = await self._prefix_prompt(conversation_id)
            prefix = prompt.messages[:-1]
            if cached is not None and prefix == cached[: len(prefix)]:
                return None  # the server's cache already covers it
            self.rewarms += 1
            steps = prefill_steps(prefix, cached, estimate_tokens, self.config.llm.rewarm_step_tokens)
            steps[-1] = len(prompt.messages)  # the last request is the whole prefix prompt, as before
            total_ms = 0.0
            for length in steps:  # between steps a turn's critical path holds the rest back
                async with self.scheduler.background("llm.prefix_prefill", group=group):
                    self._rewarm_sent.add(conversation_id)
                    took = await self._prefill_messages(prompt.messages[:length], conversation_id)
                    self._rewarm_sent.discard(conversation_id)
                if took is None:
                    return None
                total_ms += took
            return total_ms
        except Exception:  # a prefill is an optimisation: it never fails a conversation
            log.exception("prefix prefill failed for conversation %s", conversation_id)
            return None
        finally:
            self._rewarm_sent.discard(conversation_id)

    async def settle(self, conversation_id: str) -> None:
        """Wait until the background work of the last turn is done: its memory writes, then the prefill
        of a changed prefix (tests and benchmarks use it to start the next turn from a quiet state)."""
        await self.writes.wait(conversation_id, expedite=False)
        rewarm = self._rewarming.get(conversation_id)
        if rewarm is not None:
            await asyncio.wait({rewarm})

    async def drain(self) -> None:
        """Wait for every memory write in flight (shutdown: writes are never dropped); stop prefills."""
        await self.speculator.drain()
        await self.consolidator.stop()  # safe: each consolidation step is one transaction
        prefills = list(self._rewarming.values())
        self._rewarming.clear()
        for task in prefills:
            task.cancel()
        await self.writes.drain()
        if prefills:
            await asyncio.wait(prefills)

    # -- internals ---------------------------------------------------------------------------------
    def _validate(self, user_text: str) -> str:
        if not isinstance(user_text, str):
            raise InputError("the user's turn must be text")
        text = user_text.strip()
        if not text:
            raise InputError("the user's turn is empty")
        limit = self.config.memory.max_text_chars
        if len(text) > limit:
            raise InputError(f"the user's turn is {len(text)} characters; the limit is {limit}")
        return text

    def _budget(self, trace: TurnTrace) -> int:
        spent_ms = 0.0
        speech_end = trace.first("vad.speech_end")
        if speech_end is not None:
            spent_ms = (self.clock.now_ns() - speech_end.end_ns) / 1e6
        return budget_for_turn(self.config.memory, spent_ms, self.rate.tokens_per_ms() if self.rate else None)

    def _spawn_write(self, conversation_id: str, scrubbed: str, turn_id: str) -> None:
        self.writes.spawn(
            conversation_id, write_user_turn(self.memory, conversation_id, scrubbed, turn_id, self.user_id)
        )

    async def _await_pending(self, conversation_id: str, *, expedite: bool = True) -> None:
        """Wait (a little: ``pending_write_wait_s``) for the conversation's memory writes in flight."""
        await self.writes.wait(conversation_id, limit_s=self.pending_write_wait_s, expedite=expedite)

    # -- work before the endpoint (llm.speculative_prefill) -----------------------------------------------
    def speculate(self, conversation_id: str, confirmed_text: str) -> bool:
        """The person is still speaking and ``confirmed_text`` is confirmed: retrieve for it and have the
        local LLM read the prompt so far (rate-limited, in the background). True when one started."""
        if not self._local_first():
            return False
        return self.speculator.offer(conversation_id, confirmed_text)

    def _local_first(self) -> bool:
        backends = self.config.llm.backends
        return bool(backends) and backends[0].kind == "local"

    async def _speculate(self, conversation_id: str, text: str, previous: Prepared | None) -> Prepared | None:
        try:
            clean = self._validate(text)
        except InputError:
            return None
        scrubbed = await self.memory.scrub(conversation_id, clean)
        pinned = await self.memory.pinned(conversation_id)
        budget = budget_for_turn(self.config.memory, 0.0, self.rate.tokens_per_ms() if self.rate else None)
        recalled, window = await asyncio.gather(
            self.memory.recall(conversation_id, scrubbed, budget_tokens=budget),
            self.turns.window(conversation_id),
        )
        ordered = stable_order(recalled.records, previous.ordered if previous is not None else ())
        retrieved = self._block(ordered, pinned, window, scrubbed)
        prompt, _, _, _, _ = compose.compose_turn(
            self.builder, self.config.prompt, scrubbed, pinned, retrieved, recalled.records, window
        )
        pinned_ids = tuple(r.id for r in pinned)
        return Prepared(scrubbed, recalled, pinned_ids, ordered=tuple(ordered), prompt=prompt,
                        conversation_id=conversation_id)  # fmt: skip

    async def _send_speculation(self, prepared: Prepared) -> bool:
        prompt = prepared.prompt
        return prompt is not None and await self._prefill(prompt, prepared.conversation_id) is not None

    async def _recall(
        self, conversation_id: str, scrubbed: str, budget: int, prepared: Prepared | None
    ) -> RecallLike:
        if prepared is not None:  # the speculation's memories: the prompt extends the prefilled one
            return prepared.recalled
        return await self.memory.recall(conversation_id, scrubbed, budget_tokens=budget)
