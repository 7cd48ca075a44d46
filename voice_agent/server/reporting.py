"""What a client's turn events become: protocol events for the page, metrics, and PII-free log lines."""

from __future__ import annotations

from typing import Any

from voice_agent.config import Config
from voice_agent.server import logs
from voice_agent.server.metrics import ServerMetrics
from voice_agent.session import TurnResult
from voice_agent.text.sentences import count_words


def turn_outcome(result: TurnResult) -> str:
    if result.trace.attrs.get("rate_limited"):
        return "rate_limited"
    if result.error or result.trace.first("llm.error") is not None:
        return "error"
    if result.interrupted:
        return "interrupted"
    return "ok"


def record_turn(metrics: ServerMetrics, config: Config, result: TurnResult) -> str:
    """Count one finished turn: outcome, voice-to-voice, errors by stage, fallbacks used."""
    trace = result.trace
    outcome = turn_outcome(result)
    metrics.turns.inc(outcome=outcome)
    v2v = trace.voice_to_voice_ms()
    if v2v is not None and outcome != "rate_limited":
        metrics.voice_to_voice.observe(v2v / 1000.0)
    if trace.first("llm.error") is not None:
        metrics.errors.inc(stage="llm")
        metrics.fallbacks.inc(stage="llm", backend="apology")
    llm = trace.attrs.get("llm")
    if isinstance(llm, dict):
        for backend in llm.get("fallbacks") or ():
            metrics.fallbacks.inc(stage="llm", backend=str(backend))
    if result.error:
        metrics.errors.inc(stage="tts" if result.error.startswith("tts") else "reply")
    if trace.attrs.get("commit_error"):
        metrics.errors.inc(stage="memory")
    tts = trace.first("tts.first_audio")
    if (
        tts is not None
        and config.tts.backend == "piper"
        and tts.attrs.get("backend") not in (None, "", "piper")
    ):
        metrics.fallbacks.inc(stage="tts", backend=str(tts.attrs.get("backend")))
    return outcome


def turn_done_event(result: TurnResult, outcome: str) -> dict[str, Any]:
    v2v = result.trace.voice_to_voice_ms()
    return {
        "type": "turn_done",
        "turn": result.trace.turn_id,
        "outcome": outcome,
        "interrupted": result.interrupted,
        "spoken": result.spoken_text,
        "voice_to_voice_ms": None if v2v is None else round(v2v, 1),
    }


def log_turn(public: str, result: TurnResult, outcome: str) -> None:
    """Counts and durations only: never what was said."""
    v2v = result.trace.voice_to_voice_ms()
    logs.event(
        "turn",
        conversation=public,
        turn=result.trace.turn_id,
        outcome=outcome,
        voice_to_voice_ms=None if v2v is None else round(v2v, 1),
        user_words=count_words(result.user_text),
        spoken_words=count_words(result.spoken_text),
        flagged_sentences=result.flagged_sentences,
        endpoint=result.trace.attrs.get("endpoint_reason"),
    )
