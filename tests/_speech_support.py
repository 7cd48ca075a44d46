"""Helpers for the speech tests: real LibriVox clips, WER, speech made with the real piper voice,
a scripted Responder (the test double at the LLM boundary) and scripted audio sources."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from voice_agent.audio.resample import int16_to_float32, resample
from voice_agent.clock import Clock, MonotonicClock
from voice_agent.frames import AudioFrame, PcmFloat32
from voice_agent.metrics.trace import TurnTrace
from voice_agent.tts.base import SpeechSynthesizer

LIBRIVOX = Path("/usr/share/pocketsphinx/test/data/librivox")
RATE = 16_000


def librivox_clips() -> list[tuple[Path, str]]:
    """(wav, reference transcript) for the five LibriVox clips of Debian's pocketsphinx-testdata."""
    refs: dict[str, str] = {}
    for line in (LIBRIVOX / "transcription").read_text().splitlines():
        m = re.match(r"<s> (.*) </s> \((.*)\)", line.strip())
        if m:
            refs[m.group(2)] = m.group(1)
    return [(LIBRIVOX / f"{key}.wav", text) for key, text in sorted(refs.items())]


def words(text: str) -> list[str]:
    """Normalise for WER: lowercase, spoken forms of titles, hyphens as spaces, no punctuation."""
    text = text.lower().replace("mr.", "mister").replace("mrs.", "missus").replace("-", " ")
    return re.sub(r"[^a-z' ]", " ", text).split()


def edit_distance(a: list[str], b: list[str]) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1]


def word_error_rate(pairs: list[tuple[str, str]]) -> float:
    errors = sum(edit_distance(words(ref), words(hyp)) for ref, hyp in pairs)
    return errors / max(1, sum(len(words(ref)) for ref, _ in pairs))


async def speak(synthesizer: SpeechSynthesizer, text: str, rate: int = RATE) -> PcmFloat32:
    """``text`` spoken by a real TTS voice, as float32 at ``rate``."""
    pieces = []
    async for chunk in synthesizer.synthesize(text):
        pieces.append(resample(int16_to_float32(chunk.pcm), chunk.sample_rate_hz, rate))
    return np.concatenate(pieces).astype(np.float32)


def silence(seconds: float, rate: int = RATE) -> PcmFloat32:
    return np.zeros(int(seconds * rate), dtype=np.float32)


def noise(seconds: float, *, level: float = 0.05, seed: int = 7, rate: int = RATE) -> PcmFloat32:
    """Broadband noise with a slow amplitude wobble (fan, street), no speech in it."""
    rng = np.random.default_rng(seed)
    n = int(seconds * rate)
    wobble = 0.6 + 0.4 * np.sin(np.linspace(0, 6 * np.pi, n))
    return (rng.standard_normal(n) * level * wobble).astype(np.float32)


def cough(rate: int = RATE, seed: int = 3) -> PcmFloat32:
    """A cough-like burst: 150 ms of loud noise with a sharp attack and decay."""
    rng = np.random.default_rng(seed)
    n = int(0.15 * rate)
    envelope = np.exp(-np.linspace(0, 6, n)) * np.minimum(1, np.linspace(0, 20, n))
    return (rng.standard_normal(n) * 0.5 * envelope).astype(np.float32)


@dataclass
class ScriptedResponder:
    """Streams a fixed reply word by word (the LLM boundary); records what was asked and committed.
    ``reply`` may be a list: the n-th question gets the n-th reply (the last one repeats)."""

    reply: str | list[str]
    delay_s: float = 0.01
    commits: list[tuple[str, str, str]] = field(default_factory=list)  # (conversation, user, spoken)
    asked: list[str] = field(default_factory=list)

    def reply_for(self, n: int) -> str:
        replies = [self.reply] if isinstance(self.reply, str) else self.reply
        return replies[min(n, len(replies) - 1)]

    async def respond(self, conversation_id: str, user_text: str, trace: TurnTrace) -> AsyncIterator[str]:
        reply = self.reply_for(len(self.asked))
        self.asked.append(user_text)
        for i, word in enumerate(reply.split(" ")):
            await asyncio.sleep(self.delay_s)
            yield word if i == 0 else " " + word

    async def commit(self, conversation_id: str, user_text: str, spoken_reply: str, trace: TurnTrace) -> None:
        self.commits.append((conversation_id, user_text, spoken_reply))


class ScriptedMicrophone:
    """A live source (the hardware edge): real-time paced frames of a script of audio segments; when
    ``inject_when`` becomes true it splices ``interruption`` into the stream (the person barging in)."""

    is_live = True
    sample_rate_hz = RATE

    def __init__(
        self,
        audio: PcmFloat32,
        *,
        interruption: PcmFloat32 | None = None,
        inject_when: object = None,
        clock: Clock | None = None,
        frame_ms: int = 32,
    ) -> None:
        self.audio = audio
        self.interruption = interruption
        self.inject_when = inject_when
        self.injected_at_ns: int | None = None
        self.clock = clock or MonotonicClock()
        self.frame = int(RATE * frame_ms / 1000)
        self._closed = False

    async def __aiter__(self) -> AsyncIterator[AudioFrame]:
        audio = self.audio
        frame_ns = self.frame * 1_000_000_000 // RATE
        start = self.clock.now_ns()
        k = 0
        pos = 0
        while pos < len(audio) and not self._closed:
            if self._should_inject():
                self.injected_at_ns = self.clock.now_ns()
                assert self.interruption is not None
                audio = np.concatenate([audio[:pos], self.interruption, audio[pos:]])
            due = start + (k + 1) * frame_ns
            delay = due - self.clock.now_ns()
            if delay > 0:
                await asyncio.sleep(delay / 1e9)
            yield AudioFrame(audio[pos : pos + self.frame], RATE, start + k * frame_ns)
            pos += self.frame
            k += 1

    def _should_inject(self) -> bool:
        if self.interruption is None or self.injected_at_ns is not None or not callable(self.inject_when):
            return False
        return bool(self.inject_when())

    async def close(self) -> None:
        self._closed = True
