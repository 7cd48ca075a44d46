"""Silero VAD on real speech, the endpointer's rules (driven frame by frame), and the turn detector:
silence, noise and coughs give no turn; speech gives one, with its first syllable."""

from __future__ import annotations

import asyncio
from pathlib import Path

import numpy as np
import pytest
from _speech_support import cough, librivox_clips, noise, silence

from voice_agent.asr.whisper import WhisperRecognizer
from voice_agent.audio.files import FileSource, read_audio
from voice_agent.config import AsrConfig, Config, VadConfig
from voice_agent.vad.base import VoiceActivityDetector
from voice_agent.vad.endpointer import (
    Endpointer,
    SpeechPaused,
    SpeechRejected,
    SpeechResumed,
    SpeechStarted,
    UtteranceEnded,
)
from voice_agent.vad.silero import SileroVad

FRAME = 512
FRAME_NS = 32_000_000


@pytest.fixture(scope="module")
def vad() -> SileroVad:
    detector = SileroVad()
    asyncio.run(detector.start())
    return detector


def test_silero_tells_speech_from_silence_and_noise(vad: SileroVad) -> None:
    assert isinstance(vad, VoiceActivityDetector)
    speech = read_audio(librivox_clips()[1][0])
    vad.reset()
    probs = vad.probabilities(speech[: len(speech) // FRAME * FRAME])
    assert len(probs) == len(speech) // FRAME
    assert np.mean(np.array(probs) > 0.5) > 0.5  # most of a read sentence is speech
    vad.reset()
    assert max(vad.probabilities(silence(2.048))) < 0.2
    vad.reset()
    assert np.mean(np.array(vad.probabilities(noise(3.0)[: 93 * FRAME])) > 0.5) < 0.05
    with pytest.raises(ValueError, match="multiple of 512"):
        vad.probabilities(np.zeros(100, dtype=np.float32))


def _drive(endpointer: Endpointer, probs: list[float], start_frame: int = 0) -> list[object]:
    events: list[object] = []
    for k, p in enumerate(probs, start=start_frame):
        frame = np.full(FRAME, float(k), dtype=np.float32)  # frame k holds the value k: audio is traceable
        events += endpointer.push(frame, p, k * FRAME_NS)
    return events


def _config(**kw: object) -> VadConfig:
    return VadConfig(**{"end_silence_ms": 400, "preroll_ms": 300, "min_speech_ms": 250, **kw})  # type: ignore[arg-type]


def test_endpointer_keeps_preroll_and_ends_after_the_silence() -> None:
    ep = Endpointer(_config())
    events = _drive(ep, [0.0] * 20 + [0.9] * 15 + [0.1] * 13)
    started = [e for e in events if isinstance(e, SpeechStarted)]
    ended = [e for e in events if isinstance(e, UtteranceEnded)]
    assert len(started) == 1 and started[0].onset_ns == 20 * FRAME_NS
    assert len(ended) == 1 and ended[0].reason == "silence"
    utterance = ended[0].utterance
    assert utterance.audio[0] == 11.0  # 300 ms pre-roll = 9 frames before the onset at frame 20
    assert len(utterance.audio) == (9 + 15 + 5) * FRAME  # pre-roll, speech, 160 ms of trailing silence
    assert utterance.audio[-1] == 39.0
    assert utterance.speech_end_ns == 35 * FRAME_NS
    assert utterance.endpoint_ns - utterance.speech_end_ns == 13 * FRAME_NS  # 416 ms >= 400 ms of silence
    assert any(isinstance(e, SpeechPaused) for e in events)


def test_complete_sentence_hint_ends_the_turn_earlier() -> None:
    ep = Endpointer(_config(), complete_silence_ms=250, pause_ms=128)
    events = _drive(ep, [0.0] * 5 + [0.9] * 15 + [0.1] * 4)
    paused = [e for e in events if isinstance(e, SpeechPaused)]
    assert paused and not any(isinstance(e, UtteranceEnded) for e in events)
    ep.hint_complete(paused[0].utterance_id, len(paused[0].audio), complete=True)
    more = _drive(ep, [0.1] * 10, start_frame=24)
    ended = [e for e in more if isinstance(e, UtteranceEnded)]
    assert ended and ended[0].reason == "complete"
    assert (
        ended[0].utterance.endpoint_ns - ended[0].utterance.speech_end_ns == 8 * FRAME_NS
    )  # 256 ms, not 416


def test_incomplete_hint_or_resumed_speech_waits_for_the_full_silence() -> None:
    ep = Endpointer(_config())
    events = _drive(ep, [0.9] * 10 + [0.1] * 5)
    paused = next(e for e in events if isinstance(e, SpeechPaused))
    ep.hint_complete(paused.utterance_id, len(paused.audio), complete=True)
    events = _drive(ep, [0.9] * 3 + [0.1] * 9, start_frame=15)  # speech resumed: the hint is void
    assert any(isinstance(e, SpeechResumed) for e in events)
    assert not any(isinstance(e, UtteranceEnded) for e in events)
    events = _drive(ep, [0.1] * 5, start_frame=27)
    assert [e.reason for e in events if isinstance(e, UtteranceEnded)] == ["silence"]


def test_short_bursts_are_rejected_and_blips_ignored() -> None:
    ep = Endpointer(_config(min_speech_ms=250))
    events = _drive(ep, [0.9] * 5 + [0.1] * 14)  # 160 ms: a cough
    assert [type(e) for e in events if not isinstance(e, SpeechPaused)] == [SpeechStarted, SpeechRejected]
    events = _drive(ep, [0.9] + [0.1] * 14, start_frame=19)  # one frame: never even a start
    assert events == []


def test_max_utterance_length_cuts_the_turn() -> None:
    ep = Endpointer(_config(max_utterance_s=1.0))
    events = _drive(ep, [0.9] * 40)
    ended = [e for e in events if isinstance(e, UtteranceEnded)]
    assert ended and ended[0].reason == "max_length"
    assert len(ended[0].utterance.audio) <= 32 * FRAME + 1


def test_half_duplex_needs_the_barge_in_threshold_while_the_assistant_speaks() -> None:
    ep = Endpointer(_config(threshold=0.5, barge_in_threshold=0.85))
    ep.set_assistant_speaking(True)
    assert _drive(ep, [0.7] * 20) == []  # echo-level speech is ignored during playback
    events = _drive(ep, [0.95] * 6, start_frame=20)
    started = [e for e in events if isinstance(e, SpeechStarted)]
    assert started and started[0].during_playback
    assert started[0].t_ns - started[0].onset_ns == 5 * FRAME_NS  # confirmed after 160 ms
    full = Endpointer(_config(threshold=0.5, duplex="full"))
    full.set_assistant_speaking(True)
    assert any(isinstance(e, SpeechStarted) for e in _drive(full, [0.7] * 5))


def test_echo_tail_keeps_the_high_threshold_briefly_after_playback() -> None:
    ep = Endpointer(_config(), echo_tail_ms=200)
    ep.set_assistant_speaking(True, t_ns=0)
    ep.set_assistant_speaking(False, t_ns=10 * FRAME_NS)
    assert ep.threshold(12 * FRAME_NS) == ep.config.barge_in_threshold
    assert ep.threshold(17 * FRAME_NS) == ep.config.threshold


# -- the turn detector on real audio, with real Whisper ------------------------------------------------
@pytest.fixture(scope="module")
def recognizer(model_dir: Path) -> WhisperRecognizer:
    asr = WhisperRecognizer(AsrConfig(model="whisper-base"), model_dir)
    asyncio.run(asr.start())
    return asr


async def _turn_events(audio: np.ndarray, vad: SileroVad, recognizer: WhisperRecognizer) -> list[object]:
    from voice_agent.turn_detection import TurnDetector, UserTurn

    detector = TurnDetector(Config(), vad=vad, recognizer=recognizer)
    events: list[object] = []
    async for event in detector.events(FileSource(samples=audio)):
        events.append(event)
        if isinstance(event, UserTurn):
            detector.resume()
    return events


@pytest.mark.slow
@pytest.mark.parametrize(
    "make",
    [
        lambda: silence(5.0),
        lambda: noise(6.0, level=0.05),
        lambda: noise(6.0, level=0.3, seed=11),
        lambda: np.concatenate([silence(1.0), cough(), silence(1.0), cough(seed=5), silence(1.0)]),
    ],
    ids=["silence", "quiet-noise", "loud-noise", "coughs"],
)
async def test_silence_noise_and_coughs_make_no_turn(
    make: object, vad: SileroVad, recognizer: WhisperRecognizer
) -> None:
    from voice_agent.turn_detection import UserTurn

    assert callable(make)
    events = await _turn_events(make(), vad, recognizer)
    assert not [e for e in events if isinstance(e, UserTurn)]


@pytest.mark.slow
async def test_speech_after_silence_is_one_turn_with_its_first_word(
    vad: SileroVad, recognizer: WhisperRecognizer
) -> None:
    from voice_agent.turn_detection import UserTurn

    clip, reference = librivox_clips()[4]
    audio = np.concatenate([silence(1.5), read_audio(clip), silence(1.5)])
    turns = [e for e in await _turn_events(audio, vad, recognizer) if isinstance(e, UserTurn)]
    assert len(turns) == 1
    assert turns[0].text.lower().split()[0] == reference.split()[0]  # "he": the pre-roll kept it
    assert turns[0].result.words and turns[0].result.words[0].start_s < 0.5
