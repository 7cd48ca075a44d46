"""A turn's trace: named spans (start/end in monotonic ns) and instant marks, as one JSONL record.

Span names used across the chain: vad.end, asr.partial, asr.final, scrub, chunk, embed, memory.write,
retrieve, prompt.tokens, llm.first_token, llm.done, first_sentence, loopback, tts.first_audio,
playback.start. Voice-to-voice = ``vad.speech_end`` (user stopped speaking) → ``playback.start``
(first reply audio out), or → ``tts.first_audio`` in file mode.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from voice_agent.clock import Clock, MonotonicClock


@dataclass
class Span:
    name: str
    start_ns: int
    end_ns: int
    attrs: dict[str, Any] = field(default_factory=dict)

    @property
    def duration_ms(self) -> float:
        return (self.end_ns - self.start_ns) / 1e6

    def to_json(self, origin_ns: int) -> dict[str, Any]:
        return {
            "name": self.name,
            "start_ms": round((self.start_ns - origin_ns) / 1e6, 3),
            "duration_ms": round(self.duration_ms, 3),
            **({"attrs": self.attrs} if self.attrs else {}),
        }


class TurnTrace:
    """Collects the spans of one turn. Safe to use from worker threads."""

    def __init__(
        self,
        conversation_id: str,
        *,
        clock: Clock | None = None,
        turn_id: str | None = None,
        origin_ns: int | None = None,
    ) -> None:
        self.clock: Clock = clock or MonotonicClock()
        self.conversation_id = conversation_id
        self.turn_id = turn_id or uuid.uuid4().hex[:12]
        self.origin_ns = self.clock.now_ns() if origin_ns is None else origin_ns
        self.spans: list[Span] = []
        self.attrs: dict[str, Any] = {}
        self._lock = threading.Lock()

    def mark(self, name: str, at_ns: int | None = None, **attrs: Any) -> Span:
        """An instant event (zero-length span)."""
        t = self.clock.now_ns() if at_ns is None else at_ns
        return self.add(Span(name, t, t, dict(attrs)))

    def add(self, span: Span) -> Span:
        with self._lock:
            self.spans.append(span)
        return span

    @contextmanager
    def span(self, name: str, **attrs: Any) -> Iterator[dict[str, Any]]:
        """Time a block; the yielded dict can be filled with attributes inside the block."""
        start = self.clock.now_ns()
        extra: dict[str, Any] = dict(attrs)
        try:
            yield extra
        finally:
            self.add(Span(name, start, self.clock.now_ns(), extra))

    def first(self, name: str) -> Span | None:
        with self._lock:
            return next((s for s in self.spans if s.name == name), None)

    def elapsed_ms(self, start: str, end: str, *, use_end_of_start: bool = True) -> float | None:
        a, b = self.first(start), self.first(end)
        if a is None or b is None:
            return None
        return ((b.start_ns) - (a.end_ns if use_end_of_start else a.start_ns)) / 1e6

    def voice_to_voice_ms(self) -> float | None:
        """User stopped speaking → first reply audio (played if there is playback, else synthesised)."""
        end = "playback.start" if self.first("playback.start") else "tts.first_audio"
        return self.elapsed_ms("vad.speech_end", end)

    def to_record(self) -> dict[str, Any]:
        with self._lock:
            spans = sorted(self.spans, key=lambda s: s.start_ns)
        record: dict[str, Any] = {
            "turn_id": self.turn_id,
            "conversation_id": self.conversation_id,
            "spans": [s.to_json(self.origin_ns) for s in spans],
            **self.attrs,
        }
        v2v = self.voice_to_voice_ms()
        if v2v is not None:
            record["voice_to_voice_ms"] = round(v2v, 3)
        return record


class TraceWriter:
    """Appends turn records to a JSONL file, one line per turn; thread-safe."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()

    def write(self, trace: TurnTrace | dict[str, Any]) -> None:
        record = trace.to_record() if isinstance(trace, TurnTrace) else trace
        line = json.dumps(record, ensure_ascii=False)
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as fh:
                fh.write(line + "\n")


def read_traces(path: str | Path) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    with Path(path).open(encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if line:
                out.append(json.loads(line))
    return out
