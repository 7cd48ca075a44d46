"""Per-turn traces: spans timed with the injected clock, written as JSONL."""

from voice_agent.metrics.trace import Span, TraceWriter, TurnTrace, read_traces

__all__ = ["Span", "TraceWriter", "TurnTrace", "read_traces"]
