"""The assembled assistant: memory, LLM router (and its local server), turn log and conversation engine.

``Assistant.open(config)`` builds everything from config; ``chat_turn`` runs the text path of one turn
(respond → sentences → loopback → commit); the speech loop uses ``engine`` and ``guard`` directly.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from voice_agent.clock import Clock, MonotonicClock
from voice_agent.config import Config
from voice_agent.conversation.engine import ConversationEngine, TurnResult
from voice_agent.conversation.guard import ReplyGuard
from voice_agent.conversation.holding import without_holding_phrase
from voice_agent.conversation.turns import TurnLog
from voice_agent.metrics.trace import TraceWriter, TurnTrace
from voice_agent.text.sentences import SentenceSplitter, join_spoken

log = logging.getLogger(__name__)


@dataclass
class ChatReply:
    text: str
    sentences: list[str]
    flagged: int
    trace: TurnTrace
    result: TurnResult
    events: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        result = self.result
        return {
            "conversation_id": self.trace.conversation_id,
            "turn_id": self.trace.turn_id,
            "reply": self.text,
            "sentences": self.sentences,
            "loopback_flagged": self.flagged,
            "prompt": result.prompt.to_json() if result.prompt else None,
            "pinned": [r.to_json() for r in result.pinned],
            "retrieved": [r.to_json() for r in result.retrieved],
            "budget_tokens": result.budget_tokens,
            "recall": result.recall_info,
            "llm": result.llm_stats,
            "reply_check": result.checks,
            "trace": self.trace.to_record(),
        }


class Assistant:
    def __init__(
        self,
        config: Config,
        memory: Any,
        router: Any,
        turns: TurnLog,
        *,
        clock: Clock | None = None,
        user_id: str | None = None,
    ) -> None:
        self.config = config
        self.memory = memory
        self.router = router
        self.turns = turns
        self.clock = clock or MonotonicClock()
        self.engine = ConversationEngine(
            config,
            memory,
            router,
            turns,
            rate=router.rate,
            count_tokens=router.token_counter.count,
            clock=self.clock,
            user_id=user_id,
        )
        tts = config.tts
        self.guard = ReplyGuard(
            memory,
            lambda: SentenceSplitter(
                first_clause_min_words=tts.first_clause_min_words,
                first_clause_max_words=tts.first_clause_max_words,
                clock=self.clock,
            ),
        )
        self.traces = TraceWriter(config.trace_path()) if config.trace.enabled else None

    @classmethod
    async def open(
        cls, config: Config, *, clock: Clock | None = None, user_id: str | None = None, start_llm: bool = True
    ) -> Assistant:
        from voice_agent.llm.router import build_router
        from voice_agent.memory.service import Memory

        config.data_dir.mkdir(parents=True, exist_ok=True)
        memory = await Memory.open(config)
        turns = TurnLog(config.store_path())
        try:
            await turns.open()
            router = build_router(config, config.data_dir, clock=clock)
            if start_llm:
                await router.start()
        except BaseException:
            await turns.close()
            await memory.close()
            raise
        return cls(config, memory, router, turns, clock=clock, user_id=user_id)

    async def close(self) -> None:
        """Finish memory writes first: they are never dropped, even on shutdown."""
        try:
            await self.engine.drain()
        finally:
            await self.router.aclose()
            await self.turns.close()
            await self.memory.close()

    async def __aenter__(self) -> Assistant:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def new_trace(self, conversation_id: str) -> TurnTrace:
        return TurnTrace(conversation_id, clock=self.clock)

    async def chat_turn(
        self, conversation_id: str, text: str, *, trace: TurnTrace | None = None
    ) -> ChatReply:
        """One text turn: the reply as it would be spoken (guarded sentence by sentence)."""
        trace = trace or self.new_trace(conversation_id)
        sentences: list[str] = []
        flagged = 0
        async for released in self.guard.sentences(
            conversation_id, without_holding_phrase(self.engine.respond(conversation_id, text, trace)), trace
        ):
            sentences.append(released.text)
            flagged += int(released.flagged)
        reply = join_spoken(*sentences)
        await self.engine.commit(conversation_id, text, reply, trace)
        if self.traces is not None:
            self.traces.write(trace)
        return ChatReply(reply, sentences, flagged, trace, self.engine.last)
