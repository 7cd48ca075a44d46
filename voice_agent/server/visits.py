"""One client's visits, one after the other, each a ``VoiceSession`` under its own conversation id.

Switching visits (button, idle, erase, a badge) is serialised by a lock: the old session is cancelled
(its commits finish), the engine's memory writes are drained, the conversation's caches are dropped, queued
microphone audio is discarded, and only then does the new conversation start listening.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from voice_agent.audio.base import AudioSink, AudioSource
from voice_agent.conversation.engine import ConversationEngine
from voice_agent.server import logs
from voice_agent.server.outbox import Outbox
from voice_agent.server.protocol import error_event, ready_event
from voice_agent.server.reporting import log_turn, record_turn, turn_done_event
from voice_agent.server.responder import KioskResponder
from voice_agent.server.runtime import Runtime
from voice_agent.server.visitors import EndReason, Visit, idle_seconds
from voice_agent.session import TurnResult, VoiceSession
from voice_agent.speech import SpeechStack
from voice_agent.turn_detection import NoTurn, PartialTranscript, TurnEvent, UserTurn
from voice_agent.vad.endpointer import SpeechStarted

log = logging.getLogger(__name__)
MAX_SESSION_RESTARTS = 3


class VisitRunner:
    def __init__(
        self,
        runtime: Runtime,
        outbox: Outbox,
        source: AudioSource,
        sink: AudioSink,
        speech: SpeechStack,
        responder: KioskResponder,
        engine: ConversationEngine,
    ) -> None:
        self.rt = runtime
        self.outbox = outbox
        self.source = source
        self.sink = sink
        self.speech = speech
        self.responder = responder
        self.engine = engine
        self.visit: Visit | None = None
        self.crashed = False
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self._replying = False
        self._speaking = False
        self._hearing_since_ns: int | None = None  # speech started, its turn not decided yet
        self._restarts = 0
        self.on_flagged: Callable[[], None] | None = None  # a turn with a reply the loopback guard refused
        self.on_turn_end: Callable[[], None] | None = None
        self.redact: Callable[[str], str] = str  # what the live transcript shows of the visitor's words

    # -- switching ---------------------------------------------------------------------------------
    async def begin(self, user: str | None, *, reason: str, first: bool = False) -> None:
        async with self._lock:
            self._start(Visit.start(self.rt.clock, install_key=self.rt.user_key, user=user), reason, first)

    async def switch(self, user: str | None, *, reason: EndReason | str) -> None:
        async with self._lock:
            await self._end(reason)
            self._start(Visit.start(self.rt.clock, install_key=self.rt.user_key, user=user), reason)

    async def end(self, reason: EndReason) -> None:
        async with self._lock:
            await self._end(reason)

    async def erase(self) -> None:
        """Delete this visit's conversation (records, vault values, logged turns); go on in a clean one:
        the same returning user's (now empty) conversation, or a fresh anonymous one."""
        async with self._lock:
            visit = self.visit
            if visit is None:
                return
            await self._end("erase")
            memory = self.rt.memory
            records = await memory.forget(visit.conversation_id)
            turns = await self.rt.assistant.turns.forget(visit.conversation_id)
            memory.release(visit.conversation_id)
            self.outbox.event({"type": "erased", "records": records, "turns": turns})
            logs.event("erased", conversation=visit.public, records=records, turns=turns)
            if visit.returning:
                fresh = Visit(visit.conversation_id, True, self.rt.clock, user_key=visit.user_key)
            else:
                fresh = Visit.start(self.rt.clock, install_key=self.rt.user_key)
            self._start(fresh, "erase")

    def _start(self, visit: Visit, reason: str, first: bool = False) -> None:
        self.visit = visit
        self.engine.user_id = visit.user_key
        self.rt.redactor.add(visit.conversation_id)
        discard = getattr(self.source, "discard_pending", None)
        if discard is not None:  # a socket's queued audio belongs to the previous visit
            discard()
        self._replying = self._speaking = False
        self._hearing_since_ns = None
        if first:
            cfg = self.rt.config
            self.outbox.event(
                ready_event(
                    conversation=visit.public,
                    returning=visit.returning,
                    out_rate_hz=self.sink.sample_rate_hz,
                    max_frame_bytes=cfg.server.max_frame_bytes,
                    retention_days=cfg.privacy.retention_days,
                    idle_timeout_s=cfg.server.idle_timeout_s,
                    turns_per_minute=cfg.server.turns_per_minute,
                    max_utterance_s=cfg.vad.max_utterance_s,
                )
            )
        else:
            self.outbox.event(
                {
                    "type": "visit_started",
                    "conversation": visit.public,
                    "returning": visit.returning,
                    "reason": reason,
                }
            )
        self._status("listening")
        logs.event("visit_start", conversation=visit.public, returning=visit.returning, reason=reason)
        self._task = asyncio.create_task(self._run(visit), name=f"visit-{visit.public}")

    async def _end(self, reason: EndReason | str) -> None:
        visit, task = self.visit, self._task
        self.visit, self._task = None, None
        if task is not None and not task.done():
            task.cancel()
        if task is not None:
            await asyncio.wait({task})  # the session cancels its reply and waits for its commits
        await self.sink.stop()
        if visit is None:
            return
        await self.engine.drain()  # memory writes of this visit land before its caches are dropped
        self.rt.memory.release(visit.conversation_id)
        self.outbox.event({"type": "visit_ended", "reason": reason})
        self.rt.metrics.visits.inc(reason=str(reason))
        logs.event(
            "visit_end",
            conversation=visit.public,
            reason=reason,
            turns=visit.turns,
            duration_s=round((self.rt.clock.now_ns() - visit.started_ns) / 1e9, 1),
        )
        self.rt.redactor.discard(visit.conversation_id)

    # -- the session -------------------------------------------------------------------------------
    async def _run(self, visit: Visit) -> None:
        session = VoiceSession(
            self.rt.config,
            responder=self.responder,
            conversation_id=visit.conversation_id,
            speech=self.speech,
            clock=self.rt.clock,
            guard=self.rt.assistant.guard,
            trace_writer=self.rt.assistant.traces,
            on_turn=lambda result: self._on_turn(visit, result),
            on_event=lambda event: self._on_event(visit, event),
        )
        try:
            await session.run(self.source, self.sink)
        except asyncio.CancelledError:
            raise
        except Exception as err:  # this client's session failed: report it, try again, then give up
            log.exception("voice session failed")
            self.rt.metrics.errors.inc(stage="session")
            self._restarts += 1
            if self._restarts > MAX_SESSION_RESTARTS:
                self.crashed = True
                return
            self.outbox.event(error_event("session_error", f"{type(err).__name__}; listening again"))
            if self.visit is visit:
                self._task = asyncio.create_task(self._run(visit), name=f"visit-{visit.public}")

    def idle_for(self) -> float:
        """Seconds since the visit's last activity. Every visit times out: a returning user's, so the next
        person cannot talk inside their conversation; a used anonymous one, so the next visitor starts
        fresh; an unused one, so a silent client gives up its slot. Not idle: a reply under way, or a turn
        being heard (speech started, the transcript not final yet: on a busy CPU that can take longer than
        the timeout, and the visitor who just said their PIN must not be sent away)."""
        visit = self.visit
        if visit is None or self._replying or self._speaking:
            return 0.0
        now = self.rt.clock.now_ns()
        hearing_s = None if self._hearing_since_ns is None else (now - self._hearing_since_ns) / 1e9
        return idle_seconds(visit.idle_s(), hearing_s)

    def unused(self) -> bool:
        """An anonymous visit in which nothing was said: ending it changes nothing but the connection."""
        visit = self.visit
        return visit is None or (visit.turns == 0 and not visit.returning)

    def on_first_audio(self) -> None:
        self._speaking = True
        self._status("speaking")
        if self.visit is not None:
            self.visit.touch()

    def _on_event(self, visit: Visit, event: TurnEvent) -> None:
        if visit is not self.visit:
            return
        visit.touch()
        if isinstance(event, SpeechStarted):
            self._hearing_since_ns = self._hearing_since_ns or self.rt.clock.now_ns()
            self.outbox.event({"type": "speech_start"})
            if self._speaking:
                self.outbox.event({"type": "barge_in"})
        elif isinstance(event, PartialTranscript):
            self.outbox.event({"type": "partial", "text": self.redact(event.transcript.text)})
        elif isinstance(event, UserTurn):
            self._hearing_since_ns = None
            self._replying = True
            self.outbox.event({"type": "final", "text": self.redact(event.text), "language": event.language})
            self._status("thinking")
        elif isinstance(event, NoTurn):
            self._hearing_since_ns = None
            logs.event("no_turn", conversation=visit.public, reason=no_turn_reason(event))
            if event.reason.startswith("transcription failed"):
                self.rt.metrics.errors.inc(stage="asr")
            if not self._replying:
                self._status("listening")

    def _on_turn(self, visit: Visit, result: TurnResult) -> None:
        visit.turns += 1
        visit.touch()
        if result.flagged_sentences and self.on_flagged is not None:
            self.on_flagged()
        if self.on_turn_end is not None:
            self.on_turn_end()
        outcome = record_turn(self.rt.metrics, self.rt.config, result)
        log_turn(visit.public, result, outcome)
        if visit is self.visit:
            self.outbox.event(turn_done_event(result, outcome))
            self._replying = self._speaking = False
            self._status("listening")

    def _status(self, state: str) -> None:
        self.outbox.event({"type": "status", "state": state})


def no_turn_reason(event: NoTurn) -> str:
    """Why sound was no turn, for the operator's log: the reason and the filter rules that dropped the
    words, never the words themselves."""
    rules = sorted(set(event.rules))
    return f"{event.reason}: {', '.join(rules)}" if rules else event.reason
