"""What the kiosk process owns once and shares between clients: the models, nothing else.

One ``Assistant`` (memory store, embedder, parser, LLM router and its local server, turn log) and one
speech stack (Whisper, piper/espeak, the Silero model). Each client gets its own VAD state (a fork of the
shared model), its own conversation engine (prompt state, pending memory writes) and its own visits.
Retention runs here as a background task.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from voice_agent.aio import cancel_and_wait
from voice_agent.assistant import Assistant
from voice_agent.clock import Clock, MonotonicClock
from voice_agent.config import Config
from voice_agent.conversation.engine import ConversationEngine
from voice_agent.server import logs
from voice_agent.server.attempts import AttemptLimiter
from voice_agent.server.credentials import BadgeSigner, PinStore, badges_key, pins_key
from voice_agent.server.identity import IdentityGate
from voice_agent.server.metrics import ServerMetrics
from voice_agent.server.visitors import users_key
from voice_agent.speech import SpeechStack
from voice_agent.vad.silero import SileroVad

log = logging.getLogger(__name__)
RETENTION_INTERVAL_S = 3600.0


class Runtime:
    def __init__(
        self,
        config: Config,
        assistant: Assistant,
        speech: SpeechStack,
        *,
        install_key: bytes,
        metrics: ServerMetrics,
        redactor: logs.IdRedactor,
        clock: Clock | None = None,
    ) -> None:
        self.config = config
        self.assistant = assistant
        self.speech = speech
        self.metrics = metrics
        self.redactor = redactor
        self.clock = clock or MonotonicClock()
        # returning users are hashed under a key of their own, derived from the install secret
        self.user_key = users_key(install_key)
        self.identity = self._identity_gate(install_key)
        # client addresses whose replies the loopback guard keeps refusing (probing other people's
        # memories): one connection reaching server.loopback_refusals_max locks its address out, and so
        # do three times as many over several connections
        self.refusals = AttemptLimiter(
            3 * config.server.loopback_refusals_max, config.server.identity_lockout_s, self.clock
        )
        self.clients: set[Any] = set()
        self.closing = False
        self._retention: asyncio.Task[None] | None = None

    @classmethod
    async def open(
        cls, config: Config, *, metrics: ServerMetrics, redactor: logs.IdRedactor, start_llm: bool = True
    ) -> Runtime:
        from voice_agent.memory.keys import install_key_from_config

        speech = SpeechStack.from_config(config)
        assistant = await Assistant.open(config, start_llm=start_llm)
        try:
            await speech.start()
            install_key = await asyncio.to_thread(install_key_from_config, config)
        except BaseException:
            await assistant.close()
            raise
        metrics.models_loaded.set(1)
        return cls(config, assistant, speech, install_key=install_key, metrics=metrics, redactor=redactor)

    def _identity_gate(self, install_key: bytes) -> IdentityGate:
        server = self.config.server
        limits = (server.identity_max_failures, server.identity_lockout_s, self.clock)
        return IdentityGate(
            server,
            user_key=self.user_key,
            pins=PinStore.for_data_dir(self.config.data_dir, pins_key(install_key)),
            signer=BadgeSigner(badges_key(install_key)),
            by_badge=AttemptLimiter(*limits),
            by_client=AttemptLimiter(*limits),
            has_history=self.has_history,
        )

    async def has_history(self, conversation_id: str) -> bool:
        """Whether anything of a conversation is stored (records or logged turns)."""
        if await self.memory.list(conversation_id, limit=1):
            return True
        return bool(await self.assistant.turns.window(conversation_id))

    @property
    def memory(self) -> Any:
        return self.assistant.memory

    def client_speech(self) -> SpeechStack:
        """Shared recognizer and voices; a VAD with its own stream state."""
        vad = self.speech.vad
        if not isinstance(vad, SileroVad):
            raise TypeError("the kiosk server needs the Silero VAD")
        return SpeechStack(
            vad=vad.fork(), recognizer=self.speech.recognizer, synthesizer=self.speech.synthesizer
        )

    def new_engine(self) -> ConversationEngine:
        a = self.assistant
        return ConversationEngine(
            self.config,
            a.memory,
            a.router,
            a.turns,
            rate=a.router.rate,
            count_tokens=a.router.token_counter.count,
            clock=a.clock,
        )

    # -- retention ---------------------------------------------------------------------------------
    def start_retention(self, interval_s: float = RETENTION_INTERVAL_S) -> None:
        self._retention = asyncio.create_task(self._retention_loop(interval_s), name="retention")

    async def _retention_loop(self, interval_s: float) -> None:
        while True:
            try:
                await self.purge_expired()
            except Exception:  # retention retries next round; the service keeps running
                log.exception("retention purge failed")
                self.metrics.errors.inc(stage="retention")
            await asyncio.sleep(interval_s)

    async def purge_expired(self) -> tuple[int, int]:
        """Remove records and logged turns older than ``privacy.retention_days``."""
        days = self.config.privacy.retention_days
        records = await self.memory.purge_older_than(days)
        turns = await self.assistant.turns.purge_older_than(days)
        self.metrics.purged.inc(records, kind="records")
        self.metrics.purged.inc(turns, kind="turns")
        logs.event("retention", days=days, records=records, turns=turns)
        return records, turns

    # -- shutdown ----------------------------------------------------------------------------------
    async def close(self) -> None:
        """Close every client (their memory writes finish), then the models (``Assistant.close`` drains)."""
        self.closing = True
        await cancel_and_wait(self._retention)
        clients = list(self.clients)
        if clients:
            await asyncio.gather(*(c.shutdown() for c in clients), return_exceptions=True)
        try:
            await self.assistant.close()
        finally:
            await self.speech.close()
            self.metrics.models_loaded.set(0)
