"""The listening half of the loop: audio frames in, user turns (final transcripts) out.

source → Silero VAD (32 ms frames, off the event loop) → endpointer → streaming ASR. While the person
speaks, partial transcripts are decoded every ``asr.partial_interval_ms`` (LocalAgreement). When a pause
begins, the final transcript is decoded at once, speculatively: if the pause turns into the end of the
turn, the transcript is already there (or nearly); if it reads as a complete sentence, the endpointer may
end the turn after ``complete_silence_ms`` instead of the full ``vad.end_silence_ms``.

A live source (microphone, file paced in real time) is read continuously, so the person can barge in;
a non-live source (a file read as fast as possible) pauses after each turn until ``resume()``, like a
person waiting for the answer.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import numpy as np

from voice_agent.asr.base import AsrResult, SpeechRecognizer
from voice_agent.asr.streaming import StreamingTranscriber
from voice_agent.audio.base import AudioSource
from voice_agent.clock import Clock, MonotonicClock
from voice_agent.config import Config
from voice_agent.errors import VoiceAgentError
from voice_agent.frames import Transcript, Utterance
from voice_agent.scheduling import CriticalPathScheduler
from voice_agent.text.complete import looks_complete
from voice_agent.vad.base import VoiceActivityDetector
from voice_agent.vad.endpointer import (
    Endpointer,
    EndpointEvent,
    SpeechPaused,
    SpeechRejected,
    SpeechResumed,
    SpeechStarted,
    UtteranceEnded,
)


@dataclass(frozen=True)
class DecodeSpan:
    start_ns: int
    end_ns: int
    text: str


@dataclass(frozen=True)
class PartialTranscript:
    utterance_id: int
    transcript: Transcript
    span: DecodeSpan
    confirmed: str = ""  # the committed words (LocalAgreement): they no longer change


@dataclass(frozen=True)
class UserTurn:
    utterance: Utterance
    result: AsrResult
    endpoint_reason: str
    final: DecodeSpan  # the decode that produced ``result``
    speculative: bool  # decoded during the pause, before the endpoint
    partials: tuple[DecodeSpan, ...] = ()

    @property
    def text(self) -> str:
        return self.result.text

    @property
    def language(self) -> str:
        return self.result.language


@dataclass(frozen=True)
class NoTurn:
    """Sound that was not a turn: too short, or no words after the hallucination filter."""

    t_ns: int
    reason: str
    dropped: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()  # the hallucination filter's rules that removed the words (no text)


TurnEvent = SpeechStarted | PartialTranscript | UserTurn | NoTurn
PAUSE_HANDOVER_S = 0.2  # an ended utterance's hold outlasts it by this much, until the reply holds


@dataclass
class _Utterance:
    """Per-utterance decoding state."""

    streamer: StreamingTranscriber
    partial_task: asyncio.Task[Transcript] | None = None
    partial_started_ns: int = 0
    partials: list[DecodeSpan] = field(default_factory=list)
    speculative: asyncio.Task[AsrResult] | None = None
    speculative_started_ns: int = 0
    speculative_samples: int = 0
    speculative_valid: bool = False
    hinted: bool = False


class TurnDetector:
    def __init__(
        self,
        config: Config,
        *,
        vad: VoiceActivityDetector,
        recognizer: SpeechRecognizer,
        clock: Clock | None = None,
        scheduler: CriticalPathScheduler | None = None,
    ) -> None:
        self.config = config
        self.scheduler = scheduler
        self.vad = vad
        self.recognizer = recognizer
        self.clock = clock or MonotonicClock()
        self.endpointer = Endpointer(
            config.vad, sample_rate_hz=vad.sample_rate_hz, frame_samples=vad.frame_samples
        )
        self._utterances: dict[int, _Utterance] = {}
        self._resume = asyncio.Event()
        self._queue: asyncio.Queue[TurnEvent | None] = asyncio.Queue()
        self._background: set[asyncio.Task[None]] = set()

    def set_assistant_speaking(self, speaking: bool) -> None:
        self.endpointer.set_assistant_speaking(speaking, self.clock.now_ns())

    @property
    def user_speaking(self) -> bool:
        """Confirmed speech is in progress right now."""
        return self.endpointer.in_speech and self.endpointer.confirmed

    def resume(self) -> None:
        """Non-live sources: the reply to the last turn is over, read on."""
        self._resume.set()

    async def events(self, source: AudioSource) -> AsyncIterator[TurnEvent]:
        """Turn events until the source ends."""
        if source.sample_rate_hz != self.vad.sample_rate_hz:
            raise ValueError(
                f"source rate {source.sample_rate_hz} Hz, VAD needs {self.vad.sample_rate_hz} Hz"
            )
        self.vad.reset()
        pump = asyncio.create_task(self._pump(source), name="turn-detector")
        try:
            while True:
                event = await self._queue.get()
                if event is None:
                    break
                yield event
            await pump  # re-raise what stopped it
        finally:
            pump.cancel()
            for task in [*self._background]:
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pump

    # -- the pump: frames → events -------------------------------------------------------------------
    async def _pump(self, source: AudioSource) -> None:
        try:
            frame_samples = self.vad.frame_samples
            frame_ns = frame_samples * 1_000_000_000 // self.vad.sample_rate_hz
            pending = np.zeros(0, dtype=np.float32)
            pending_t_ns = 0
            last_t_ns = self.clock.now_ns()
            async for frame in source:
                if not len(pending):
                    pending_t_ns = frame.t_ns
                pending = np.concatenate([pending, frame.samples])
                usable = len(pending) - len(pending) % frame_samples
                if not usable:
                    continue
                block, pending = pending[:usable], pending[usable:]
                probs = await asyncio.to_thread(self.vad.probabilities, block)
                for k, prob in enumerate(probs):
                    t_ns = pending_t_ns + k * frame_ns
                    piece = block[k * frame_samples : (k + 1) * frame_samples]
                    await self._handle(self.endpointer.push(piece, prob, t_ns), source.is_live)
                pending_t_ns += len(probs) * frame_ns
                last_t_ns = pending_t_ns
                await self._after_frames(source.is_live)
            await self._handle(self.endpointer.finish(last_t_ns), source.is_live)
            if self._background:
                await asyncio.gather(*self._background, return_exceptions=True)
        finally:
            self._queue.put_nowait(None)

    async def _handle(self, events: list[EndpointEvent], live: bool) -> None:
        for event in events:
            if isinstance(event, SpeechStarted):
                self._utterances[event.utterance_id] = _Utterance(
                    StreamingTranscriber(
                        self.recognizer,
                        language=self.config.asr.language,
                        trim_window=self.config.asr.trim_window,
                    )
                )
                self._queue.put_nowait(event)
            elif isinstance(event, SpeechPaused):
                self._hold_pause(event.utterance_id)
                self._start_speculative(event)
            elif isinstance(event, SpeechResumed):
                self._release_pause(event.utterance_id)
                state = self._utterances.get(event.utterance_id)
                if state is not None:
                    state.speculative_valid = False
            elif isinstance(event, SpeechRejected):
                self._release_pause(event.utterance_id)
                self._drop(event.utterance_id)
                self._queue.put_nowait(
                    NoTurn(event.t_ns, f"{event.reason} ({event.speech_ms:.0f} ms of speech)")
                )
            elif isinstance(event, UtteranceEnded):
                try:
                    await self._ended(event, live)
                finally:  # a moment later: the reply takes over the critical path first
                    asyncio.get_running_loop().call_later(
                        PAUSE_HANDOVER_S, self._release_pause, event.utterance_id
                    )

    def _hold_pause(self, utterance_id: int) -> None:
        """The pause at the end of an utterance is on the critical path (its final decode runs now)."""
        if self.scheduler is not None:
            self.scheduler.hold(f"pause-{id(self)}-{utterance_id}", kind="pause")

    def _release_pause(self, utterance_id: int) -> None:
        if self.scheduler is not None:
            self.scheduler.release(f"pause-{id(self)}-{utterance_id}")

    def _start_speculative(self, event: SpeechPaused) -> None:
        state = self._utterances.get(event.utterance_id)
        if state is None or not self.config.asr.streaming:
            return
        state.speculative = asyncio.create_task(state.streamer.finish(event.audio))
        state.speculative_started_ns = self.clock.now_ns()
        state.speculative_samples = len(event.audio)
        state.speculative_valid = True
        state.hinted = False

    async def _after_frames(self, live: bool) -> None:
        uid = self.endpointer.utterance_id
        state = self._utterances.get(uid)
        if state is None:
            return
        if state.partial_task is not None and state.partial_task.done():
            self._collect_partial(uid, state)
        spec = state.speculative
        if (
            spec is not None
            and spec.done()
            and state.speculative_valid
            and not state.hinted
            and not spec.cancelled()
        ):
            state.hinted = True
            if spec.exception() is None:
                complete = looks_complete(spec.result().text)
                self.endpointer.hint_complete(uid, state.speculative_samples, complete)
        if (
            self.config.asr.streaming
            and self.endpointer.in_speech
            and not self.endpointer.in_silence  # a decode now would hold up the one at the pause
            and state.partial_task is None
            and (state.speculative is None or state.speculative.done())
            and not (self.scheduler is not None and self.scheduler.busy("reply"))  # a reply's first audio
            and state.streamer.needs_update(
                self.endpointer.audio_samples, self.config.asr.partial_interval_ms
            )
        ):
            state.partial_started_ns = self.clock.now_ns()
            audio = self.endpointer.speech_audio()
            state.partial_task = asyncio.create_task(self._partial(state, audio))

    async def _partial(self, state: _Utterance, audio: np.ndarray) -> Transcript:
        if self.scheduler is None:
            return await state.streamer.update(audio)
        with self.scheduler.running("asr.partial"):
            return await state.streamer.update(audio)

    def _collect_partial(self, uid: int, state: _Utterance) -> None:
        task, state.partial_task = state.partial_task, None
        if task is None or task.cancelled() or task.exception() is not None:
            return
        transcript = task.result()
        span = DecodeSpan(state.partial_started_ns, self.clock.now_ns(), transcript.text)
        state.partials.append(span)
        if transcript.text:
            confirmed = state.streamer.committed_text
            self._queue.put_nowait(PartialTranscript(uid, transcript, span, confirmed))

    async def _ended(self, event: UtteranceEnded, live: bool) -> None:
        state = self._utterances.pop(event.utterance_id, None)
        if state is None:  # never confirmed as speech
            return
        if live:
            task = asyncio.create_task(self._finalize(event, state))
            self._background.add(task)
            task.add_done_callback(self._background.discard)
        else:
            await self._finalize(event, state)
            await self._resume.wait()
            self._resume.clear()

    async def _finalize(self, event: UtteranceEnded, state: _Utterance) -> None:
        if state.partial_task is not None:  # let a running partial finish: it shares the decoder
            with contextlib.suppress(Exception):
                await state.partial_task
            self._collect_partial(event.utterance_id, state)
        utterance = event.utterance
        spec = state.speculative
        try:
            if spec is not None and state.speculative_valid and not spec.cancelled():
                started_ns, speculative = state.speculative_started_ns, True
                result = await spec
            else:
                if spec is not None:
                    spec.cancel()
                started_ns, speculative = self.clock.now_ns(), False
                result = await state.streamer.finish(utterance.audio)
        except VoiceAgentError as err:  # a failed decode loses this turn, not the session
            self._queue.put_nowait(NoTurn(utterance.endpoint_ns, f"transcription failed: {err}"))
            return
        span = DecodeSpan(started_ns, self.clock.now_ns(), result.text)
        if not result.text:
            self._queue.put_nowait(
                NoTurn(
                    utterance.endpoint_ns,
                    "no words",
                    result.dropped,
                    tuple(d.rule for d in result.dropped_segments),
                )
            )
            return
        turn = UserTurn(utterance, result, event.reason, span, speculative, tuple(state.partials))
        self._queue.put_nowait(turn)

    def _drop(self, uid: int) -> None:
        state = self._utterances.pop(uid, None)
        if state is None:
            return
        for task in (state.partial_task, state.speculative):
            if task is not None:
                task.cancel()
