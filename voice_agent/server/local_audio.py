"""``serve --local-audio``: the host's own microphone and speaker as one more client of the service.

Same visits as a browser client (idle timeout → a fresh conversation), without a page: its events go
nowhere. Barge-in works as in ``talk`` (half duplex unless ``vad.duplex = "full"``).
"""

from __future__ import annotations

import asyncio
import logging

from voice_agent.server.outbox import Outbox
from voice_agent.server.responder import KioskResponder, TurnLimiter
from voice_agent.server.runtime import Runtime
from voice_agent.server.visits import VisitRunner

log = logging.getLogger(__name__)


class DiscardingOutbox(Outbox):
    """Events of the local client: there is no page to show them."""

    def _put(self, item: tuple[str, str | bytes]) -> None:
        return None


async def run_local_audio(runtime: Runtime) -> None:
    from voice_agent.audio.devices import MicrophoneSource, SpeakerSink

    source = MicrophoneSource(clock=runtime.clock)
    sink = SpeakerSink(clock=runtime.clock)
    await sink.start()
    engine = runtime.new_engine()
    limiter = TurnLimiter(runtime.config.server.turns_per_minute, runtime.clock)
    responder = KioskResponder(engine, limiter)
    speech = runtime.client_speech()
    runner = VisitRunner(runtime, DiscardingOutbox(), source, sink, speech, responder, engine)
    try:
        await runner.begin(None, reason="local_audio", first=True)
        idle_limit = runtime.config.server.idle_timeout_s
        while not runner.crashed:
            await asyncio.sleep(0.5)
            if runner.idle_for() > idle_limit and not runner.unused():  # nobody there: nothing to end
                await runner.switch(None, reason="idle")
        log.error("local audio session failed repeatedly; stopped")
    finally:
        await runner.end("shutdown")
        await engine.drain()
        await source.close()
        await sink.close()
