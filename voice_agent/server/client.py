"""One WebSocket client: its hello, its visits, its voice session, its limits.

    accept → hello within server.hello_timeout_s, with the token (``read_hello``, before the client holds
    a slot) → a free slot → the identity gate (a returning user only with their PIN or signed badge) →
    ready → [visit: VoiceSession over the socket's audio source and sink] … → disconnect

A visit ends on ``new_conversation``, ``erase``, after ``server.idle_timeout_s`` without activity, or when
the client leaves; the session is cancelled (its commits still finish), the engine's memory writes are
drained, the conversation's caches dropped, and the next visit gets a fresh conversation id. A fresh visit
that nobody used for ``server.idle_timeout_s`` ends the connection, and so do too many replies refused
by the loopback guard. Anything a client does wrong ends only that client (``ProtocolError`` → error
event → close).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
from collections import deque
from typing import Any, Protocol

from voice_agent.aio import cancel_and_wait
from voice_agent.server import logs
from voice_agent.server.identity import Verdict
from voice_agent.server.outbox import Outbox
from voice_agent.server.protocol import (
    CLOSE_GOING_AWAY,
    CLOSE_NORMAL,
    CLOSE_POLICY,
    CLOSE_SERVER_ERROR,
    ClientMessage,
    ProtocolError,
    error_event,
    parse_client_text,
    pcm16_to_float32,
)
from voice_agent.server.responder import KioskResponder, TurnLimiter
from voice_agent.server.runtime import Runtime
from voice_agent.server.spoken_pin import SpokenPin
from voice_agent.server.visits import VisitRunner
from voice_agent.server.wsaudio import WebSocketAudioSink, WebSocketAudioSource

log = logging.getLogger(__name__)
CONTROLS_PER_MINUTE = 60
WATCH_INTERVAL_S = 0.5
WRITER_GRACE_S = 2.0


class Socket(Protocol):
    """What the handler needs of a WebSocket (Starlette's fits)."""

    async def accept(self) -> None: ...

    async def receive(self) -> Any: ...

    async def send_text(self, data: str) -> None: ...

    async def send_bytes(self, data: bytes) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


async def read_hello(socket: Socket, *, timeout_s: float, token: str | None) -> ClientMessage:
    """The client's first frame: a valid ``hello`` with the token, within ``timeout_s`` (else
    ``ProtocolError``). Runs before the client takes one of the service's slots."""
    try:
        message = await asyncio.wait_for(socket.receive(), timeout_s)
    except TimeoutError as err:
        raise ProtocolError("hello_timeout", f"no hello within {timeout_s:g} s") from err
    text = _text_of(message)
    if text is None:
        raise ProtocolError("hello_first", "the first message must be a JSON hello")
    hello = parse_client_text(text)
    if hello.type != "hello":
        raise ProtocolError("hello_first", "the first message must be a JSON hello")
    check_token(hello, token)
    return hello


def check_token(hello: ClientMessage, token: str | None) -> None:
    if token is None:
        return
    given = (hello.token or "").encode("utf-8")
    if not hmac.compare_digest(given, token.encode("utf-8")):
        raise ProtocolError("unauthorized", "a valid token is required", close_code=CLOSE_POLICY)


class KioskClient:
    """One admitted client (its hello was valid and a slot was free): visits until it leaves."""

    def __init__(self, runtime: Runtime, socket: Socket, *, token: str | None, peer: str = "unknown") -> None:
        self.rt = runtime
        self.socket = socket
        self.token = token
        self.peer = peer
        config = runtime.config
        self.outbox = Outbox()
        self.source = WebSocketAudioSource(clock=runtime.clock)
        speech = runtime.client_speech()
        self.sink = WebSocketAudioSink(
            self.outbox, speech.synthesizer.sample_rate_hz, clock=runtime.clock, on_first_audio=self._on_audio
        )
        self.engine = runtime.new_engine()
        limiter = TurnLimiter(config.server.turns_per_minute, runtime.clock)
        self.spoken_pin = SpokenPin(runtime.identity, peer, self._on_spoken_pin)
        responder = KioskResponder(
            self.engine, limiter, on_limited=self._on_limited, intercept=self.spoken_pin.answer
        )
        self.visits = VisitRunner(
            runtime, self.outbox, self.source, self.sink, speech, responder, self.engine
        )
        self.visits.on_flagged = self._on_flagged
        self.visits.on_turn_end = self._after_turn
        self.visits.redact = self.spoken_pin.mask
        self._switch_to: Verdict | None = None  # a PIN said aloud was right: switch when its turn ends
        self._background: set[asyncio.Task[None]] = set()
        self._controls: deque[int] = deque()
        self._shutdown = asyncio.Event()
        self._refusals = 0  # turns of this connection with a reply the loopback guard refused
        self._refused_for = 0.0

    # -- lifecycle -----------------------------------------------------------------------------------
    async def run(self, hello: ClientMessage) -> None:
        """Serve an accepted socket whose ``hello`` was read (``read_hello``)."""
        self.rt.clients.add(self)  # before any await: the slot count stays exact
        writer = asyncio.create_task(self.outbox.run(self.socket.send_text, self.socket.send_bytes))
        self.rt.metrics.active_clients.add(1)
        reason, close_code = "client_closed", CLOSE_NORMAL
        try:
            verdict = await self.rt.identity.resolve(hello, peer=self.peer)
            await self.visits.begin(verdict.user, reason="hello", first=True)
            self._tell(verdict)
            self.spoken_pin.expect(hello.user, verdict)
            reason, close_code = await self._serve()
        except ProtocolError as err:
            reason, close_code = err.code, err.close_code
            self.outbox.event(err.event())
        except _Disconnected:
            reason = "client_closed"
        except Exception:
            log.exception("client handler failed")
            self.rt.metrics.errors.inc(stage="server")
            self.outbox.event(
                error_event("server_error", "the server hit an error; please reconnect", fatal=True)
            )
            reason, close_code = "server_error", CLOSE_SERVER_ERROR
        finally:
            await self._finish(writer, reason, close_code)

    async def _finish(self, writer: asyncio.Task[None], reason: str, close_code: int) -> None:
        try:
            for task in list(self._background):
                await cancel_and_wait(task)
            await self.visits.end("shutdown" if self._shutdown.is_set() else "disconnect")
            await self.engine.drain()
        finally:
            await self.source.close()
            await self.sink.close()
            self.outbox.close()
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(writer), WRITER_GRACE_S)
            writer.cancel()
            with contextlib.suppress(Exception):
                await self.socket.close(code=close_code)
            self.rt.clients.discard(self)
            self.rt.metrics.active_clients.add(-1)
            self.rt.metrics.disconnects.inc(reason=reason)
            logs.event("client_closed", reason=reason, close_code=close_code)

    async def shutdown(self) -> None:
        """The service is stopping: end the visit (its writes finish) and close with 1001."""
        self._shutdown.set()

    # -- identity --------------------------------------------------------------------------------------
    def _tell(self, verdict: Verdict) -> None:
        event = verdict.event()
        if event is not None:
            self.outbox.event(event)
        logs.event(
            "identity", returning=verdict.user is not None, problem=verdict.problem, enrolled=verdict.enrolled
        )

    # -- the main loop ---------------------------------------------------------------------------------
    async def _serve(self) -> tuple[str, int]:
        receiver = asyncio.create_task(self._receive_loop(), name="ws-receive")
        watcher = asyncio.create_task(self._watch(), name="ws-watch")
        try:
            done, _ = await asyncio.wait({receiver, watcher}, return_when=asyncio.FIRST_COMPLETED)
            return done.pop().result()
        finally:
            for task in (receiver, watcher):
                task.cancel()
            await asyncio.wait({receiver, watcher})

    async def _receive_loop(self) -> tuple[str, int]:
        max_bytes = self.rt.config.server.max_frame_bytes
        while True:
            message = await self.socket.receive()
            if message.get("type") == "websocket.disconnect":
                raise _Disconnected()
            data = message.get("bytes")
            if data is not None:
                self.source.push(pcm16_to_float32(data, max_bytes=max_bytes))
                continue
            text = _text_of(message)
            if text is None:
                raise ProtocolError("bad_frame", "a frame must be binary audio or JSON text")
            await self._control(parse_client_text(text))

    async def _control(self, message: ClientMessage) -> None:
        self._count_control()
        if message.type == "ping":
            self.outbox.event({"type": "pong", "t": message.t})
        elif message.type == "new_conversation":
            self.spoken_pin.clear()
            await self.visits.switch(None, reason="button")
        elif message.type == "erase":
            self.spoken_pin.clear()
            await self.visits.erase()
        elif message.type == "hello":  # a badge scanned during a visit: that user's conversation
            check_token(message, self.token)
            verdict = await self.rt.identity.resolve(message, peer=self.peer)
            await self.visits.switch(verdict.user, reason="hello")  # a fresh visit without the 2nd factor
            self._tell(verdict)
            self.spoken_pin.expect(message.user, verdict)

    def _count_control(self) -> None:
        now = self.rt.clock.now_ns()
        while self._controls and now - self._controls[0] >= 60_000_000_000:
            self._controls.popleft()
        self._controls.append(now)
        if len(self._controls) > CONTROLS_PER_MINUTE:
            raise ProtocolError(
                "too_many_controls", f"more than {CONTROLS_PER_MINUTE} control messages a minute"
            )

    async def _watch(self) -> tuple[str, int]:
        """Ends the client on a broken outbox, shutdown, a crashed session, too many refused replies, or
        when it sat idle: an idle visit gives way to a fresh one, and a fresh visit nobody used for
        ``server.idle_timeout_s`` ends the connection (the slot goes to someone else; a page reconnects)."""
        idle_limit = self.rt.config.server.idle_timeout_s
        while True:
            await asyncio.sleep(WATCH_INTERVAL_S)
            if self.outbox.broken.is_set():
                return self.outbox.reason or "send_failed", CLOSE_POLICY
            if self._shutdown.is_set():
                return "shutdown", CLOSE_GOING_AWAY
            if self.visits.crashed:
                return "session_failed", CLOSE_SERVER_ERROR
            if self._refused_for > 0:
                event = error_event("too_many_refusals", "please come back later", fatal=True)
                self.outbox.event({**event, "retry_after_s": round(self._refused_for, 1)})
                return "too_many_refusals", CLOSE_POLICY
            if self.visits.idle_for() > idle_limit:
                if self.visits.unused():
                    await self.visits.end("idle")
                    return "idle", CLOSE_NORMAL
                self.spoken_pin.clear()
                await self.visits.switch(None, reason="idle")

    # -- callbacks from the session and sink -------------------------------------------------------
    def _on_audio(self) -> None:
        self.visits.on_first_audio()

    def _on_spoken_pin(self, verdict: Verdict) -> None:
        if verdict.user is None:
            self._tell(verdict)
        else:
            self._switch_to = verdict

    def _after_turn(self) -> None:
        verdict, self._switch_to = self._switch_to, None
        if verdict is not None:  # the "welcome back" was spoken: now the returning user's conversation
            task = asyncio.create_task(self._continue_as(verdict), name="ws-returning")
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def _continue_as(self, verdict: Verdict) -> None:
        await self.visits.switch(verdict.user, reason="hello")
        self._tell(verdict)

    def _on_flagged(self) -> None:
        """A reply of this client's was refused by the loopback guard: probing for other people's
        memories is a guessing game, so too many refusals end the visit and lock the client out."""
        self._refusals += 1
        wait = self.rt.refusals.fail(self.peer)
        if self._refusals >= self.rt.config.server.loopback_refusals_max:
            wait = max(wait, self.rt.refusals.lock(self.peer))
        self._refused_for = wait

    def _on_limited(self) -> None:
        self.outbox.event(error_event("rate_limited", "too many turns this minute; please wait"))


class _Disconnected(Exception):
    pass


def _text_of(message: Any) -> str | None:
    if not isinstance(message, dict):
        return None
    if message.get("type") == "websocket.disconnect":
        raise _Disconnected()
    text = message.get("text")
    return text if isinstance(text, str) else None
