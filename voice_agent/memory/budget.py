"""The retrieval token budget, derived from latency.

Whatever memory goes into the prompt must be read by the LLM before its first token, so the budget is
the first-audio time still left (after VAD, ASR and retrieval have spent theirs) times the rate at which
the LLM reads prompt tokens, capped. The rate is measured online from real requests by
``voice_agent.llm.rate.PromptRateEstimator`` and seeded with about 150 tokens per 100 ms
(``memory.seed_prompt_rate_tokens_per_ms``); ``memory.budget_cap_tokens`` caps it (500 by default).
"""

from __future__ import annotations

import math

from voice_agent.config import MemoryConfig


def token_budget(first_audio_budget_ms: float, spent_ms: float, tokens_per_ms: float, cap: int) -> int:
    """Tokens of retrieved memory the prompt can afford: ``(budget - spent) × rate``, within ``[0, cap]``."""
    for name, value in (("first_audio_budget_ms", first_audio_budget_ms), ("spent_ms", spent_ms),
                        ("tokens_per_ms", tokens_per_ms)):  # fmt: skip
        if not math.isfinite(value) or value < 0:
            raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
    if cap < 0:
        raise ValueError(f"cap must be >= 0, got {cap}")
    remaining_ms = max(0.0, first_audio_budget_ms - spent_ms)
    return int(min(float(cap), math.floor(remaining_ms * tokens_per_ms)))


def budget_for_turn(memory: MemoryConfig, spent_ms: float, tokens_per_ms: float | None = None) -> int:
    """The budget of one turn from config: its first-audio budget and cap, and the measured rate (the
    configured seed rate until one is measured), never below the configured floor."""
    rate = memory.seed_prompt_rate_tokens_per_ms if tokens_per_ms is None else tokens_per_ms
    budget = token_budget(memory.first_audio_budget_ms, spent_ms, rate, memory.budget_cap_tokens)
    return max(budget, min(memory.budget_floor_tokens, memory.budget_cap_tokens))
