"""The turn loop for audio: one task per reply, cancelled on barge-in.

    source → TurnDetector (VAD, endpointing, streaming ASR) → Responder.respond (text deltas)
           → SentenceSplitter → loopback check → TTS (sentence N+1 while N plays) → sink

Barge-in: when the person starts speaking while the assistant talks, playback is cut (the sink stops
within 100 ms) and the reply task is cancelled; ``Responder.commit`` gets only what was actually played,
trimmed per sentence by the samples played. If the person goes on talking before any reply audio was
played, the reply is dropped and both utterances form one turn. Half duplex by default: during playback
only speech above ``vad.barge_in_threshold`` counts (``vad.duplex = "full"`` for a headset).
Commits run on their own tasks and are never cancelled. File mode and live mode run this same code.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from voice_agent.audio.base import AudioSink, AudioSource, PlaybackReport
from voice_agent.clock import Clock, MonotonicClock
from voice_agent.config import Config
from voice_agent.conversation.base import Responder
from voice_agent.conversation.guard import SentenceGuard
from voice_agent.errors import VoiceAgentError
from voice_agent.frames import Sentence
from voice_agent.metrics.latency import format_summary
from voice_agent.metrics.trace import Span, TraceWriter, TurnTrace
from voice_agent.scheduling import CriticalPathScheduler
from voice_agent.speech import SpeechStack
from voice_agent.text.cjk import has_han
from voice_agent.text.sentences import SentenceSplitter, count_words, join_spoken
from voice_agent.turn_detection import NoTurn, PartialTranscript, TurnDetector, TurnEvent, UserTurn
from voice_agent.vad.endpointer import SpeechStarted

log = logging.getLogger(__name__)

ERROR_NOTICE = "Sorry, I can't answer that right now."


@dataclass
class TurnResult:
    turn_id: str
    user_text: str
    language: str
    reply_text: str  # what the reply said (flagged sentences replaced by the notice)
    spoken_text: str  # what was played: this entered the history
    interrupted: bool
    playback: PlaybackReport
    trace: TurnTrace
    flagged_sentences: int = 0
    error: str | None = None

    def summary(self) -> str:
        return format_summary(self.trace)


@dataclass
class _Reply:
    turn: UserTurn
    user_text: str
    trace: TurnTrace
    sentences: dict[int, str] = field(default_factory=dict)  # index -> text sent to TTS
    written: bool = False
    merged: bool = False
    flagged: int = 0
    notice_given: bool = False
    barge: dict[str, Any] | None = None
    barge_report: PlaybackReport | None = None
    stopping: bool = False  # barge-in under way: write nothing more
    error: str | None = None


class VoiceSession:
    def __init__(
        self,
        config: Config,
        *,
        responder: Responder,
        conversation_id: str,
        speech: SpeechStack,
        clock: Clock | None = None,
        guard: SentenceGuard | None = None,
        trace_writer: TraceWriter | None = None,
        on_turn: Callable[[TurnResult], None] | None = None,
        on_event: Callable[[TurnEvent], None] | None = None,
        scheduler: CriticalPathScheduler | None = None,
    ) -> None:
        """``scheduler``: the critical-path scheduler shared with the responder (by default the
        responder's own, else a new one)."""
        if not conversation_id:
            raise VoiceAgentError("a voice session needs a conversation id")
        self.config = config
        self.responder = responder
        self.conversation_id = conversation_id
        self.speech = speech
        self.clock = clock or MonotonicClock()
        self.guard = guard
        self.trace_writer = trace_writer
        self.on_turn = on_turn
        self.on_event = on_event
        shared = getattr(responder, "scheduler", None)
        self.scheduler = scheduler or (
            shared
            if isinstance(shared, CriticalPathScheduler)
            else CriticalPathScheduler(
                enabled=config.scheduling.critical_path,
                max_deferral_s=config.scheduling.max_deferral_s,
            )
        )
        self.results: list[TurnResult] = []
        self._reply_task: asyncio.Task[None] | None = None
        self._reply: _Reply | None = None
        self._carry: tuple[UserTurn, str] | None = None  # a turn held back: the person kept talking
        self._commits: set[asyncio.Task[None]] = set()
        self._detector: TurnDetector | None = None
        self._sink: AudioSink | None = None

    # -- the loop ------------------------------------------------------------------------------------
    async def run(self, source: AudioSource, sink: AudioSink) -> list[TurnResult]:
        """Listen and answer until the source ends (a file) or the task is cancelled (live)."""
        detector = TurnDetector(
            self.config,
            vad=self.speech.vad,
            recognizer=self.speech.recognizer,
            clock=self.clock,
            scheduler=self.scheduler,
        )
        self._detector, self._sink = detector, sink
        try:
            async for event in detector.events(source):
                if self.on_event is not None:
                    self.on_event(event)
                if isinstance(event, SpeechStarted):
                    await self._on_speech_started(event)
                elif isinstance(event, UserTurn):
                    await self._on_user_turn(event, source.is_live)
                elif isinstance(event, NoTurn):
                    await self._on_no_turn(source.is_live)
                elif isinstance(event, PartialTranscript):
                    self._on_partial(event)
            if self._carry is not None:  # the stream ended right after a held-back turn: answer it
                turn, text = self._carry
                self._carry = None
                await self._start_reply(turn, text, live=False)
            if self._reply_task is not None:
                await asyncio.wait({self._reply_task})
        finally:
            if self._reply_task is not None and not self._reply_task.done():
                self._reply_task.cancel()
                await asyncio.wait({self._reply_task})
            if self._commits:
                await asyncio.wait(set(self._commits))
        return self.results

    async def _on_speech_started(self, event: SpeechStarted) -> None:
        task, reply = self._reply_task, self._reply
        if task is None or task.done() or reply is None:
            return
        assert self._sink is not None
        if reply.written:  # the assistant is talking: barge-in
            reply.stopping = True
            report = await self._sink.stop()
            stopped_ns = report.stopped_ns or self.clock.now_ns()
            reply.barge_report = report
            reply.barge = {
                "detected_ms_after_onset": round((event.t_ns - event.onset_ns) / 1e6, 1),
                "stop_ms_after_detection": round((stopped_ns - event.t_ns) / 1e6, 1),
                "played_ms": round(report.ms_played, 1),
            }
        else:  # still thinking and the person goes on: fold both utterances into one turn
            reply.merged = True
            self._carry = (reply.turn, reply.user_text)
        task.cancel()

    def _on_partial(self, event: PartialTranscript) -> None:
        """Newly confirmed words while the person speaks: the responder may start on them."""
        speculate = getattr(self.responder, "speculate", None)
        if event.confirmed and speculate is not None and self.config.llm.speculative_prefill:
            speculate(self.conversation_id, event.confirmed)

    async def _on_user_turn(self, turn: UserTurn, live: bool) -> None:
        user_text = turn.text
        if self._carry is not None:
            user_text = join_spoken(self._carry[1], turn.text)
            self._carry = None
        task, reply = self._reply_task, self._reply
        if task is not None and not task.done() and reply is not None:
            if not reply.written:  # its utterance and this one are one thought: answer them together
                reply.merged = True
                user_text = join_spoken(reply.user_text, user_text)
            task.cancel()
            await asyncio.wait({task})
        assert self._detector is not None
        if live and self._detector.user_speaking:  # the person already goes on: wait for the rest
            self._carry = (turn, user_text)
            return
        await self._start_reply(turn, user_text, live)

    async def _on_no_turn(self, live: bool) -> None:
        if self._carry is not None:  # the "continuation" was a cough: answer the held-back turn now
            (turn, text), self._carry = self._carry, None
            await self._start_reply(turn, text, live)

    async def _start_reply(self, turn: UserTurn, user_text: str, live: bool) -> None:
        reply = _Reply(turn, user_text, self._new_trace(turn))
        self._reply = reply
        # Until its first audio, background work (memory writes, prefills) waits for this reply.
        self.scheduler.hold(reply.trace.turn_id, kind="reply", trace=reply.trace)
        self._reply_task = asyncio.create_task(self._reply_turn(reply), name=f"reply-{reply.trace.turn_id}")
        if not live:
            await asyncio.wait({self._reply_task})
            assert self._detector is not None
            self._detector.resume()

    # -- one reply ----------------------------------------------------------------------------------
    async def _reply_turn(self, reply: _Reply) -> None:
        assert self._sink is not None and self._detector is not None
        sink = self._sink
        try:
            await self._speak(reply)
            report = await sink.drain()
        except asyncio.CancelledError:
            report = reply.barge_report if reply.barge_report is not None else await sink.stop()
            self._finish(reply, report, interrupted=True)
            raise
        except Exception as err:  # a failed reply must not end the session
            log.exception("reply failed")
            reply.error = f"{type(err).__name__}: {err}"
            report = await self._apologize(reply, sink)
            self._finish(reply, report, interrupted=False)
        else:
            self._finish(reply, report, interrupted=False)
        finally:
            self.scheduler.release(reply.trace.turn_id, at="reply_end")
            self._detector.set_assistant_speaking(False)

    async def _speak(self, reply: _Reply) -> None:
        queue: asyncio.Queue[Sentence | None] = asyncio.Queue()
        producer = asyncio.create_task(self._produce(reply, queue))
        try:
            while (sentence := await queue.get()) is not None:
                await self._say(reply, sentence)
            await producer  # raise the LLM's error, if any
        finally:
            if not producer.done():
                producer.cancel()
                await asyncio.wait({producer})

    async def _produce(self, reply: _Reply, queue: asyncio.Queue[Sentence | None]) -> None:
        """LLM deltas → sentences → loopback check → queue (runs ahead of TTS and playback)."""
        trace = reply.trace
        splitter = SentenceSplitter(
            first_clause_min_words=self.config.tts.first_clause_min_words,
            first_clause_max_words=self.config.tts.first_clause_max_words,
            clock=self.clock,
        )
        try:
            async for delta in self.responder.respond(self.conversation_id, reply.user_text, trace):
                if trace.first("llm.first_token") is None and trace.first("llm.holding") is None:
                    trace.mark("llm.first_token")
                for sentence in splitter.push(delta):
                    await self._release(reply, sentence, queue)
            for sentence in splitter.flush():
                await self._release(reply, sentence, queue)
        finally:
            queue.put_nowait(None)

    async def _release(
        self, reply: _Reply, sentence: Sentence, queue: asyncio.Queue[Sentence | None]
    ) -> None:
        if sentence.index == 0:
            reply.trace.mark("first_sentence", at_ns=sentence.t_ns, words=count_words(sentence.text))
        text = sentence.text
        if self.guard is not None:  # loopback check and owner hints, shared with the text chat
            released = await self.guard.release(self.conversation_id, text, sentence.index, reply.trace)
            if released.flagged:
                reply.flagged += 1
                if reply.notice_given:
                    return
                reply.notice_given = True
            text = released.text
        queue.put_nowait(Sentence(text, sentence.index, self.clock.now_ns()))

    async def _say(self, reply: _Reply, sentence: Sentence) -> None:
        assert self._sink is not None and self._detector is not None
        reply.sentences[sentence.index] = sentence.text
        try:
            async for chunk in self.speech.synthesizer.synthesize(
                sentence.text, language=reply.turn.language, sentence_index=sentence.index
            ):
                if reply.trace.first("tts.first_audio") is None:
                    reply.trace.add(
                        Span(
                            "tts.first_audio",
                            sentence.t_ns,
                            self.clock.now_ns(),
                            {"backend": chunk.meta.get("backend", "")},
                        )
                    )
                if (
                    sentence.index == 1
                    and reply.trace.attrs.get("holding_phrase")
                    and reply.trace.first("answer.first_audio") is None
                ):  # the answer after a holding phrase: its own first audio, for honest latency figures
                    reply.trace.mark("answer.first_audio")
                if reply.stopping:
                    return
                await self._sink.write(chunk)
                if not reply.written:
                    reply.written = True
                    self.scheduler.release(reply.trace.turn_id, at="first_audio")
                    self._detector.set_assistant_speaking(True)
        except VoiceAgentError as err:  # one sentence lost, not the reply
            log.warning("TTS failed for sentence %d: %s", sentence.index, err)
            reply.error = f"tts: {err}"

    async def _apologize(self, reply: _Reply, sink: AudioSink) -> PlaybackReport:
        if reply.written:
            return await sink.drain()
        try:
            await self._say(reply, Sentence(ERROR_NOTICE, 0, self.clock.now_ns()))
        except Exception:  # nothing left to try
            log.exception("could not speak the error notice")
        return await sink.drain()

    # -- bookkeeping ----------------------------------------------------------------------------------
    def _new_trace(self, turn: UserTurn) -> TurnTrace:
        u = turn.utterance
        trace = TurnTrace(self.conversation_id, clock=self.clock, origin_ns=u.speech_start_ns)
        trace.mark("vad.speech_end", at_ns=u.speech_end_ns)
        trace.add(Span("vad.end", u.speech_end_ns, u.endpoint_ns, {"reason": turn.endpoint_reason}))
        for partial in turn.partials:
            trace.add(
                Span("asr.partial", partial.start_ns, partial.end_ns, {"words": count_words(partial.text)})
            )
        trace.add(
            Span(
                "asr.final",
                turn.final.start_ns,
                turn.final.end_ns,
                {"speculative": turn.speculative, "language": turn.language, "words": count_words(turn.text)},
            )
        )
        trace.attrs.update(
            {
                "endpoint_reason": turn.endpoint_reason,
                "asr_speculative": turn.speculative,
                "language": turn.language,
                "speech_ms": round((u.speech_end_ns - u.speech_start_ns) / 1e6, 1),
            }
        )
        return trace

    def _finish(self, reply: _Reply, report: PlaybackReport, *, interrupted: bool) -> None:
        trace = reply.trace
        if report.first_audio_ns is not None:
            trace.mark("playback.start", at_ns=report.first_audio_ns)
        spoken = spoken_text(report, reply.sentences)
        reply_text = join_spoken(*(reply.sentences[i] for i in sorted(reply.sentences)))
        trace.attrs.update(
            {
                "interrupted": interrupted and not reply.merged,
                "user_words": count_words(reply.user_text),
                "reply_words": count_words(reply_text),
                "spoken_words": count_words(spoken),
                "flagged_sentences": reply.flagged,
            }
        )
        if reply.barge:
            trace.attrs["barge_in"] = reply.barge
        if reply.error:
            trace.attrs["error"] = reply.error
        if reply.merged and not reply.written:
            trace.attrs["merged_into_next_turn"] = True
            return  # answered together with what the person said next
        result = TurnResult(
            trace.turn_id,
            reply.user_text,
            reply.turn.language,
            reply_text,
            spoken,
            interrupted,
            report,
            trace,
            reply.flagged,
            reply.error,
        )
        self.results.append(result)
        if self.on_turn is not None:
            self.on_turn(result)
        task = asyncio.create_task(self._commit(result))
        self._commits.add(task)
        task.add_done_callback(self._commits.discard)

    async def _commit(self, result: TurnResult) -> None:
        """Runs on its own task: never cancelled by a barge-in."""
        try:
            await self.responder.commit(
                self.conversation_id, result.user_text, result.spoken_text, result.trace
            )
        except Exception:
            log.exception("commit failed for turn %s", result.turn_id)
            result.trace.attrs["commit_error"] = True
        if self.trace_writer is not None and self.config.trace.enabled:
            await asyncio.to_thread(self.trace_writer.write, result.trace)


def _is_cjk_text(text: str) -> bool:
    return has_han(text)


def _prefix(text: str, fraction: float) -> str:
    """The part of ``text`` spoken when ``fraction`` of its audio was played (whole words only)."""
    if _is_cjk_text(text):
        return text[: int(len(text) * fraction)]
    words = text.split()
    return " ".join(words[: int(len(words) * fraction)])


def spoken_text(report: PlaybackReport, sentences: dict[int, str]) -> str:
    """What the listener heard: whole sentences played to the end, then the played part of the one cut."""
    played: dict[int, list[int]] = {}
    for chunk in report.chunks:
        acc = played.setdefault(chunk.sentence_index, [0, 0])
        acc[0] += chunk.samples_played
        acc[1] += chunk.samples_total
    parts: list[str] = []
    for index in sorted(sentences):
        done, total = played.get(index, [0, 0])
        if total == 0:
            break
        if done >= total:
            parts.append(sentences[index])
            continue
        parts.append(_prefix(sentences[index], done / total))
        break
    return join_spoken(*parts)
