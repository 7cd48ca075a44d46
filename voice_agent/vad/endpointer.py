"""Streaming endpointing: per-frame speech probabilities in, speech events and ``Utterance``s out.

- pre-roll: the frames before the speech onset are kept, so the first syllable is not lost;
- the turn ends after ``end_silence_ms`` of silence, or after ``complete_silence_ms`` when the
  transcript of the speech so far looks like a complete sentence (``hint_complete``);
- speech shorter than ``min_speech_ms`` (a cough, a click) is rejected, never a turn;
- an utterance longer than ``max_utterance_s`` is cut there;
- while the assistant speaks (half duplex) only speech above the barge-in threshold counts.

Pure logic (no model, no clock): times come from the frames, so tests can drive it exactly.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Literal

import numpy as np

from voice_agent.config import VadConfig
from voice_agent.frames import PcmFloat32, Utterance

HYSTERESIS = 0.15  # in speech, a frame is silence only below threshold - HYSTERESIS
TRAILING_KEEP_MS = 160  # silence kept after the last speech frame (Whisper likes a little)


@dataclass(frozen=True)
class SpeechStarted:
    utterance_id: int
    onset_ns: int  # start of the first speech frame
    t_ns: int  # when the start was confirmed
    during_playback: bool


@dataclass(frozen=True)
class SpeechPaused:
    """Silence began after speech: a good moment to decode what was said (it may be the end)."""

    utterance_id: int
    audio: PcmFloat32  # pre-roll + speech so far
    speech_end_ns: int
    t_ns: int


@dataclass(frozen=True)
class SpeechResumed:
    utterance_id: int
    t_ns: int


@dataclass(frozen=True)
class UtteranceEnded:
    utterance_id: int
    utterance: Utterance
    reason: Literal["silence", "complete", "max_length", "end_of_stream"]


@dataclass(frozen=True)
class SpeechRejected:
    utterance_id: int
    t_ns: int
    speech_ms: float
    reason: str


EndpointEvent = SpeechStarted | SpeechPaused | SpeechResumed | UtteranceEnded | SpeechRejected


class Endpointer:
    def __init__(
        self,
        config: VadConfig,
        *,
        sample_rate_hz: int = 16_000,
        frame_samples: int = 512,
        complete_silence_ms: int = 250,
        pause_ms: int = 128,
        confirm_ms: int = 96,
        barge_in_confirm_ms: int = 160,
        echo_tail_ms: int = 200,
    ) -> None:
        self.config = config
        self.sample_rate_hz = sample_rate_hz
        self.frame_samples = frame_samples
        self.frame_ms = 1000.0 * frame_samples / sample_rate_hz
        self._frame_ns = int(self.frame_ms * 1e6)
        self.complete_silence_ms = min(complete_silence_ms, config.end_silence_ms)
        self.pause_ms = min(pause_ms, self.complete_silence_ms)
        self._confirm_frames = max(1, round(confirm_ms / self.frame_ms))
        self._barge_confirm_frames = max(1, round(barge_in_confirm_ms / self.frame_ms))
        self._echo_tail_ns = int(echo_tail_ms * 1e6)
        self._preroll: deque[PcmFloat32] = deque(maxlen=max(0, round(config.preroll_ms / self.frame_ms)))
        self._assistant_speaking = False
        self._high_until_ns = 0
        self._next_id = 0
        self._reset_speech()

    # -- state -------------------------------------------------------------------------------------
    def _reset_speech(self) -> None:
        self.in_speech = False
        self.utterance_id = -1
        self._frames: list[PcmFloat32] = []
        self._samples = 0
        self._onset_ns = 0
        self._start_ns = 0
        self._speech_end_ns = 0
        self._speech_end_samples = 0  # samples of audio up to the end of the last speech frame
        self._voiced_frames = 0
        self._run_voiced = 0
        self._silence_frames = 0
        self._started = False
        self._paused = False
        self._complete_hint = False
        self._during_playback = False

    def set_assistant_speaking(self, speaking: bool, t_ns: int = 0) -> None:
        """Half duplex: while the assistant speaks (and ``echo_tail_ms`` after), only speech above
        ``barge_in_threshold`` counts. Full duplex: the normal threshold always."""
        if self._assistant_speaking and not speaking:
            self._high_until_ns = t_ns + self._echo_tail_ns
        self._assistant_speaking = speaking

    def _high_threshold(self, t_ns: int) -> bool:
        if self.config.duplex == "full":
            return False
        return self._assistant_speaking or t_ns < self._high_until_ns

    def threshold(self, t_ns: int) -> float:
        return self.config.barge_in_threshold if self._high_threshold(t_ns) else self.config.threshold

    @property
    def confirmed(self) -> bool:
        """The current speech has been confirmed (``SpeechStarted`` was emitted)."""
        return self._started

    @property
    def in_silence(self) -> bool:
        """In speech, but the latest frame was silence (the person may be stopping)."""
        return self._silence_frames > 0

    @property
    def paused(self) -> bool:
        """In speech, but silence has lasted ``pause_ms`` (the speculative final decode has begun)."""
        return self._paused

    @property
    def audio_samples(self) -> int:
        return self._samples

    def speech_audio(self) -> PcmFloat32:
        """Pre-roll + speech of the current utterance so far (empty when not in speech)."""
        if not self._frames:
            return np.zeros(0, dtype=np.float32)
        return np.concatenate(self._frames)

    def hint_complete(self, utterance_id: int, decoded_samples: int, complete: bool) -> None:
        """The transcript of the first ``decoded_samples`` of utterance ``utterance_id`` looks
        complete (or not). Only counts if it covers all the speech heard so far."""
        if utterance_id == self.utterance_id and self.in_speech:
            self._complete_hint = complete and decoded_samples >= self._speech_end_samples

    # -- frames ------------------------------------------------------------------------------------
    def push(self, frame: PcmFloat32, probability: float, t_ns: int) -> list[EndpointEvent]:
        threshold = self.threshold(t_ns)
        if not self.in_speech:
            if probability >= threshold:
                return self._begin(frame, t_ns)
            self._preroll.append(frame)
            return []
        return self._continue(frame, probability, t_ns, threshold)

    def _begin(self, frame: PcmFloat32, t_ns: int) -> list[EndpointEvent]:
        self._reset_speech()
        self.in_speech = True
        self.utterance_id = self._next_id
        self._next_id += 1
        self._during_playback = self._high_threshold(t_ns)
        self._frames = [*self._preroll, frame]
        self._samples = sum(len(f) for f in self._frames)
        self._preroll.clear()
        self._start_ns = t_ns - len(self._frames[:-1]) * self._frame_ns
        self._onset_ns = t_ns
        self._mark_voiced(t_ns)
        return self._maybe_confirm(t_ns)

    def _mark_voiced(self, t_ns: int) -> None:
        self._voiced_frames += 1
        self._run_voiced += 1
        self._silence_frames = 0
        self._speech_end_ns = t_ns + self._frame_ns
        self._speech_end_samples = self._samples

    def _maybe_confirm(self, t_ns: int) -> list[EndpointEvent]:
        needed = self._barge_confirm_frames if self._during_playback else self._confirm_frames
        if not self._started and self._run_voiced >= needed:
            self._started = True
            return [
                SpeechStarted(self.utterance_id, self._onset_ns, t_ns + self._frame_ns, self._during_playback)
            ]
        return []

    def _continue(
        self, frame: PcmFloat32, probability: float, t_ns: int, threshold: float
    ) -> list[EndpointEvent]:
        self._frames.append(frame)
        self._samples += len(frame)
        events: list[EndpointEvent] = []
        if probability >= max(0.01, threshold - HYSTERESIS):
            if self._paused:
                self._paused = False
                self._complete_hint = False
                events.append(SpeechResumed(self.utterance_id, t_ns))
            self._mark_voiced(t_ns)
            events += self._maybe_confirm(t_ns)
        else:
            self._run_voiced = 0
            self._silence_frames += 1
        silence_ms = self._silence_frames * self.frame_ms
        now_ns = t_ns + self._frame_ns
        if self._silence_frames and not self._paused and silence_ms >= self.pause_ms and self._started:
            self._paused = True
            events.append(SpeechPaused(self.utterance_id, self.speech_audio(), self._speech_end_ns, now_ns))
        if silence_ms >= self.config.end_silence_ms:
            events += self._end("silence", now_ns)
        elif self._complete_hint and silence_ms >= self.complete_silence_ms:
            events += self._end("complete", now_ns)
        elif (now_ns - self._start_ns) / 1e9 >= self.config.max_utterance_s:
            events += self._end("max_length", now_ns)
        return events

    def finish(self, t_ns: int) -> list[EndpointEvent]:
        """The stream ended: close any utterance in progress."""
        return self._end("end_of_stream", t_ns) if self.in_speech else []

    def _end(
        self, reason: Literal["silence", "complete", "max_length", "end_of_stream"], now_ns: int
    ) -> list[EndpointEvent]:
        uid = self.utterance_id
        speech_ms = self._voiced_frames * self.frame_ms
        keep = self._speech_end_samples + int(self.sample_rate_hz * TRAILING_KEEP_MS / 1000)
        audio = self.speech_audio()[:keep]
        started, onset, speech_end = self._started, self._onset_ns, self._speech_end_ns
        tail = (
            self._frames[-self._preroll.maxlen :] if self._preroll.maxlen and reason != "max_length" else []
        )
        self._reset_speech()
        self._preroll.extend(tail)  # silence after this turn is pre-roll of the next one
        if speech_ms < self.config.min_speech_ms or not started:
            return [SpeechRejected(uid, now_ns, speech_ms, "too short")] if started else []
        utterance = Utterance(
            audio=audio,
            sample_rate_hz=self.sample_rate_hz,
            speech_start_ns=onset,
            speech_end_ns=speech_end,
            endpoint_ns=now_ns,
        )
        return [UtteranceEnded(uid, utterance, reason)]
