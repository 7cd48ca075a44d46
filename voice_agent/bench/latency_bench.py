"""`voice-agent bench latency`: real speech through the live code path, stage by stage.

Each clip is played into a ``VoiceSession`` through ``FileSource(realtime=True)`` — frames arrive at the
speed of speech, so VAD endpointing, streaming ASR and the reply compete for the CPU as they do with a
microphone — followed by a short tail of silence. Replies go to a sink that "plays" at once (``NullSink``)
or to a WAV file. The session uses the real conversation engine (memory, prompt, the configured LLM) and
the real TTS. One conversation throughout, the clips being its successive turns (N runs = N passes over the
clips); a warm-up clip first (loads and caches what the first turn would otherwise pay for), not reported.

Per turn, from its trace: the stages of ``metrics.latency.stage_latencies`` plus retrieval, prompt
tokens and the router's own first-token time; and the turn cut into consecutive segments of
voice-to-voice (the waterfall): endpointing, ASR after the endpoint, scrub + retrieve + prompt, LLM first
token, first clause, TTS first audio (with the loopback check), to playback.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from voice_agent.audio.base import PlaybackReport, PlayedChunk
from voice_agent.bench.report import Progress, percentiles
from voice_agent.clock import Clock, MonotonicClock
from voice_agent.errors import InputError
from voice_agent.frames import SpeechChunk
from voice_agent.metrics.latency import stage_latencies

AUDIO_SUFFIXES = (".wav", ".flac", ".mp3", ".ogg", ".m4a")
TARGET_P50_MS = 1500.0  # issue #4: voice-to-voice p50 on this machine
SEGMENTS = (
    "endpoint", "asr_tail", "memory_prompt", "llm_first_token", "first_clause", "tts_first_audio",
    "to_playback",
)  # fmt: skip
STAGES = (
    "endpoint_ms", "asr_final_ms", "retrieve_ms", "prompt_tokens", "llm_first_token_ms",
    "first_sentence_ms", "tts_first_audio_ms", "voice_to_voice_ms", "answer_voice_to_voice_ms",
)  # fmt: skip


class NullSink:
    """A speaker that plays everything the moment it is written (no device, no file)."""

    def __init__(self, sample_rate_hz: int = 22_050, clock: Clock | None = None) -> None:
        self.sample_rate_hz = sample_rate_hz
        self._clock = clock or MonotonicClock()
        self._chunks: list[PlayedChunk] = []

    async def write(self, chunk: SpeechChunk) -> None:
        n = len(chunk.pcm)
        self._chunks.append(
            PlayedChunk(chunk.sentence_index, chunk.text, n, n, chunk.sample_rate_hz, self._clock.now_ns())
        )

    async def stop(self) -> PlaybackReport:
        report = PlaybackReport(tuple(self._chunks), stopped_ns=self._clock.now_ns())
        self._chunks = []
        return report

    async def drain(self) -> PlaybackReport:
        report = PlaybackReport(tuple(self._chunks))
        self._chunks = []
        return report

    async def close(self) -> None:
        self._chunks = []


def find_clips(path: str | Path) -> list[Path]:
    """One audio file, or the audio files of a directory (sorted by name)."""
    p = Path(path)
    if p.is_file():
        return [p]
    if p.is_dir():
        clips = sorted(f for f in p.iterdir() if f.is_file() and f.suffix.lower() in AUDIO_SUFFIXES)
        if clips:
            return clips
        raise InputError(f"no audio file ({', '.join(AUDIO_SUFFIXES)}) in directory {p}")
    raise InputError(f"audio not found: {p}")


# -- reading traces -----------------------------------------------------------------------------------
def _first(record: dict[str, Any]) -> dict[str, dict[str, Any]]:
    spans: dict[str, dict[str, Any]] = {}
    for span in record.get("spans", []):
        spans.setdefault(span["name"], span)
    return spans


def _start(span: dict[str, Any] | None) -> float | None:
    return None if span is None else float(span["start_ms"])


def _end(span: dict[str, Any] | None) -> float | None:
    return None if span is None else float(span["start_ms"]) + float(span["duration_ms"])


def turn_segments(record: dict[str, Any]) -> dict[str, float] | None:
    """Voice-to-voice of one turn cut into consecutive segments (they add up to it); None when the turn
    never reached first audio."""
    spans = _first(record)
    speech_end = _start(spans.get("vad.speech_end"))
    audio = _start(spans.get("playback.start"))
    if audio is None:
        audio = _end(spans.get("tts.first_audio"))
    if speech_end is None or audio is None:
        return None
    checkpoints = [
        _end(spans.get("vad.end")),
        _end(spans.get("asr.final")),
        _start(spans.get("prompt.tokens")),
        _start(spans.get("llm.first_token")),
        _start(spans.get("first_sentence")),
        _end(spans.get("tts.first_audio")),
        audio,
    ]
    out: dict[str, float] = {}
    previous = speech_end
    for name, point in zip(SEGMENTS, checkpoints, strict=True):
        at = previous if point is None else min(max(previous, point), max(previous, audio))
        out[name] = round(at - previous, 1)
        previous = at
    return out


def turn_figures(record: dict[str, Any]) -> dict[str, Any]:
    """What the report keeps of one turn: stage figures, segments and flags (no words of either side)."""
    spans = _first(record)
    lat = stage_latencies(record)
    prompt = spans.get("prompt.tokens", {}).get("attrs", {})
    retrieve = spans.get("retrieve")
    llm = record.get("llm") or {}
    return {
        "turn_id": record.get("turn_id"),
        "endpoint_ms": lat["endpoint_ms"],
        "asr_final_ms": lat["asr_final_ms"],
        "retrieve_ms": None if retrieve is None else round(float(retrieve["duration_ms"]), 1),
        "prompt_tokens": prompt.get("total"),
        "llm_first_token_ms": llm.get("first_token_ms", lat["llm_first_token_ms"]),
        "llm_cached_tokens": llm.get("cached_tokens"),
        "llm_decode_tokens_per_s": llm.get("decode_tokens_per_s"),  # low: the CPU was contended
        "first_sentence_ms": lat["first_sentence_ms"],
        "tts_first_audio_ms": lat["tts_first_audio_ms"],
        "voice_to_voice_ms": lat["voice_to_voice_ms"],
        "segments": turn_segments(record),
        "endpoint_reason": record.get("endpoint_reason"),
        "asr_speculative": record.get("asr_speculative"),
        "speech_ms": record.get("speech_ms"),
        "user_words": record.get("user_words"),
        "reply_words": record.get("reply_words"),
        "interrupted": bool(record.get("interrupted")),
        "flagged_sentences": record.get("flagged_sentences", 0),
        "error": record.get("error"),
        "holding_phrase": bool(record.get("holding_phrase")),
        # after a holding phrase, voice-to-voice counts the phrase; this is the answer's own first audio
        "answer_voice_to_voice_ms": _answer_v2v(spans, lat["voice_to_voice_ms"]),
        "speculated": bool((retrieve or {}).get("attrs", {}).get("speculated")),
        "llm_queued_ahead": llm.get("queued_ahead"),
        "critical_path": _critical_path(record.get("critical_path")),
    }


def _answer_v2v(spans: dict[str, dict[str, Any]], voice_to_voice_ms: float | None) -> float | None:
    speech_end, answer = _start(spans.get("vad.speech_end")), _start(spans.get("answer.first_audio"))
    if speech_end is None or answer is None:
        return voice_to_voice_ms
    return round(answer - speech_end, 1)


def _critical_path(report: Any) -> dict[str, Any] | None:
    """What else ran while the turn was between the endpoint and its first audio (tail hunting)."""
    if not isinstance(report, dict):
        return None
    keys = (
        "wall_ms", "process_cpu_ms", "process_cores", "llm_server_cpu_ms", "machine_busy_cores",
        "loadavg_1m", "cores", "background", "deferred", "deferred_names", "concurrent_holds",
        "gc_collections", "gc_pause_ms",
    )  # fmt: skip
    return {k: report[k] for k in keys if k in report}


def slow_turns(turns: Sequence[dict[str, Any]], count: int = 3) -> list[dict[str, Any]]:
    """The slowest turns, each with its likely cause: the biggest segment, what ran beside it, how busy
    the machine was (more busy cores than this process used: something else took the CPU)."""
    timed = [t for t in turns if t.get("voice_to_voice_ms") is not None]
    out = []
    for turn in sorted(timed, key=lambda t: -float(t["voice_to_voice_ms"]))[:count]:
        segments = turn.get("segments") or {}
        cp = turn.get("critical_path") or {}
        busy, own = cp.get("machine_busy_cores"), cp.get("process_cores")
        llm_cores = (cp.get("llm_server_cpu_ms") or 0.0) / max(float(cp.get("wall_ms") or 1.0), 1.0)
        others = None if busy is None or own is None else round(max(0.0, busy - own - llm_cores), 2)
        out.append(
            {
                "turn_id": turn.get("turn_id"),
                "voice_to_voice_ms": turn["voice_to_voice_ms"],
                "biggest_segment": max(segments, key=lambda k: segments[k]) if segments else None,
                "background": cp.get("background", []),
                "deferred": cp.get("deferred", 0),
                "machine_busy_cores": busy,
                "other_processes_cores": others,
                "llm_queued_ahead": turn.get("llm_queued_ahead"),
                "holding_phrase": turn.get("holding_phrase", False),
            }
        )
    return out


def _critical_path_summary(turns: Sequence[dict[str, Any]]) -> dict[str, Any]:
    reports = [t["critical_path"] for t in turns if t.get("critical_path")]
    return {
        "turns": len(reports),
        "process_cores": _stats([float(r["process_cores"]) for r in reports if "process_cores" in r]),
        "machine_busy_cores": _stats(
            [float(r["machine_busy_cores"]) for r in reports if "machine_busy_cores" in r]
        ),
        "turns_with_background": sum(1 for r in reports if r.get("background")),
        "deferred": sum(int(r.get("deferred", 0)) for r in reports),
        "gc_pause_ms": _stats([float(r["gc_pause_ms"]) for r in reports if "gc_pause_ms" in r]),
        "holding_phrases": sum(1 for t in turns if t.get("holding_phrase")),
        "speculated_turns": sum(1 for t in turns if t.get("speculated")),
    }


def _stats(values: Sequence[float]) -> dict[str, float]:
    clean = [v for v in values if v is not None and math.isfinite(v)]
    return {**percentiles(clean), "max": round(max(clean), 2) if clean else 0.0, "n": len(clean)}


def summarise_turns(turns: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Per stage p50/p95/max; per segment p50 and mean share of voice-to-voice; the median turn."""
    stages = {key: _stats([t[key] for t in turns if t.get(key) is not None]) for key in STAGES}
    timed = [t for t in turns if t.get("segments") and t.get("voice_to_voice_ms") is not None]
    segments: dict[str, Any] = {}
    total = sum(float(t["voice_to_voice_ms"]) for t in timed)
    for name in SEGMENTS:
        values = [float(t["segments"][name]) for t in timed]
        segments[name] = {
            **_stats(values),
            "share": round(sum(values) / total, 3) if total > 0 else 0.0,
        }
    median = None
    if timed:
        ordered = sorted(timed, key=lambda t: float(t["voice_to_voice_ms"]))
        median = ordered[max(0, math.ceil(len(ordered) / 2) - 1)]
    return {
        "stages": stages,
        "segments": segments,
        "median_turn": median,
        "critical_path": _critical_path_summary(turns),
        "slow_turns": slow_turns(turns),
    }


def clip_info(path: Path, samples: np.ndarray, rate: int) -> dict[str, Any]:
    return {
        "file": str(path),
        "duration_s": round(len(samples) / rate, 2),
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
    }


def progress_bar(total: int, show: bool) -> Progress:
    return Progress("latency: turns", total, enabled=show)
