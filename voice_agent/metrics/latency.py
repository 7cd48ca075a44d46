"""Per-stage latencies of one turn, from its trace record, and the one-line summary ``talk`` prints.

All figures are measured from the moment the user stopped speaking (``vad.speech_end``):
endpoint (the silence wait), asr (final transcript ready), llm (first token after the transcript),
sentence (first speakable clause after the first token), tts (synthesis of the first clause),
voice-to-voice (first reply audio out).
"""

from __future__ import annotations

from typing import Any

from voice_agent.metrics.trace import TurnTrace

STAGES = ("endpoint_ms", "asr_final_ms", "llm_first_token_ms", "first_sentence_ms", "tts_first_audio_ms")


def _spans(record: dict[str, Any]) -> dict[str, dict[str, Any]]:
    first: dict[str, dict[str, Any]] = {}
    for span in record.get("spans", []):
        first.setdefault(span["name"], span)
    return first


def _start(span: dict[str, Any] | None) -> float | None:
    return None if span is None else float(span["start_ms"])


def _end(span: dict[str, Any] | None) -> float | None:
    return None if span is None else float(span["start_ms"]) + float(span["duration_ms"])


def _diff(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else round(b - a, 1)


def stage_latencies(trace: TurnTrace | dict[str, Any]) -> dict[str, float | None]:
    """Milliseconds per stage (None where the turn never reached that stage)."""
    record = trace.to_record() if isinstance(trace, TurnTrace) else trace
    spans = _spans(record)
    speech_end = _start(spans.get("vad.speech_end"))
    asr_end = _end(spans.get("asr.final"))
    first_token = _start(spans.get("llm.first_token"))
    first_sentence = _start(spans.get("first_sentence"))
    tts = spans.get("tts.first_audio")
    playback = _start(spans.get("playback.start"))
    first_audio = playback if playback is not None else _end(tts)
    return {
        "endpoint_ms": _diff(speech_end, _end(spans.get("vad.end"))),
        "asr_final_ms": _diff(speech_end, asr_end),
        "llm_first_token_ms": _diff(asr_end, first_token),
        "first_sentence_ms": _diff(first_token, first_sentence),
        "tts_first_audio_ms": None if tts is None else round(float(tts["duration_ms"]), 1),
        "voice_to_voice_ms": _diff(speech_end, first_audio),
    }


def format_summary(trace: TurnTrace | dict[str, Any]) -> str:
    """``turn 1a2b3c: voice-to-voice 912 ms = endpoint 256 + asr +31 + llm 402 + ...``"""
    record = trace.to_record() if isinstance(trace, TurnTrace) else trace
    lat = stage_latencies(record)

    def ms(key: str) -> str:
        value = lat.get(key)
        return "-" if value is None else f"{value:.0f}"

    flags = []
    if record.get("interrupted"):
        flags.append("barge-in")
    if record.get("asr_speculative"):
        flags.append("speculative asr")
    if record.get("endpoint_reason") == "complete":
        flags.append("early endpoint")
    if record.get("flagged_sentences"):
        flags.append(f"{record['flagged_sentences']} flagged")
    if record.get("error"):
        flags.append("error")
    tail = f" [{', '.join(flags)}]" if flags else ""
    return (
        f"turn {record.get('turn_id', '?')}: voice-to-voice {ms('voice_to_voice_ms')} ms | "
        f"endpoint {ms('endpoint_ms')} | asr final {ms('asr_final_ms')} | "
        f"llm first token +{ms('llm_first_token_ms')} | "
        f"first clause +{ms('first_sentence_ms')} | tts {ms('tts_first_audio_ms')}{tail}"
    )
