"""How fast the LLM reads prompts, measured online from real requests.

The retrieval budget converts the milliseconds left before first audio into prompt tokens with this rate.
Each routed call reports the prompt tokens the server actually had to read (the prompt minus the prefix
it reused from its KV cache) and the time to the first token. The time to first token is modelled as
``overhead_ms + tokens / tokens_per_ms`` and fitted by least squares over recent samples, weighted so
that newer ones count more (an exponentially weighted moving fit, so the estimate follows the machine and
the model). While the recent samples are too alike in size to separate the two terms, the rate is the
ratio of the weighted sums (tokens over milliseconds left after the last known overhead).

A sample far from the prediction is an outlier (a stalled server, a cold start) and is ignored, unless
several in a row agree: then the machine changed and the fit restarts from them.
"""

from __future__ import annotations

import math
import threading
from collections import deque
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class _Sample:
    tokens: float
    ms: float


class PromptRateEstimator:
    """Tokens per millisecond the LLM reads prompts at. Safe to share between threads and tasks."""

    def __init__(
        self,
        seed_tokens_per_ms: float = 1.5,
        *,
        decay: float = 0.85,
        window: int = 32,
        min_spread_tokens: float = 24.0,
        outlier_factor: float = 3.0,
        regime_change_after: int = 3,
    ) -> None:
        if not (seed_tokens_per_ms > 0 and math.isfinite(seed_tokens_per_ms)):
            raise ValueError(f"seed_tokens_per_ms must be a positive number, got {seed_tokens_per_ms!r}")
        if not 0 < decay <= 1:
            raise ValueError(f"decay must be in (0, 1], got {decay!r}")
        if window < 2 or regime_change_after < 1 or outlier_factor <= 1:
            raise ValueError("window >= 2, regime_change_after >= 1 and outlier_factor > 1 are required")
        self._seed = seed_tokens_per_ms
        self._decay = decay
        self._min_spread = min_spread_tokens
        self._outlier_factor = outlier_factor
        self._regime_change_after = regime_change_after
        self._lock = threading.Lock()
        self._samples: deque[_Sample] = deque(maxlen=window)
        self._suspects: list[_Sample] = []
        self._ms_per_token = 1.0 / seed_tokens_per_ms
        self._overhead_ms = 0.0
        self._accepted = 0
        self._rejected = 0

    def tokens_per_ms(self) -> float:
        """The current estimate (the seed until the first request is measured)."""
        with self._lock:
            return 1.0 / self._ms_per_token

    def overhead_ms(self) -> float:
        """Fixed time to first token that does not depend on the prompt size (HTTP, first decode step)."""
        with self._lock:
            return self._overhead_ms

    def predict_first_token_ms(self, new_prompt_tokens: int) -> float:
        with self._lock:
            return self._overhead_ms + max(0, new_prompt_tokens) * self._ms_per_token

    def observe(self, new_prompt_tokens: int, first_token_ms: float) -> bool:
        """Feed one request: the prompt tokens the server read and its first-token time.

        Returns whether the sample was used (``False`` for unusable values and outliers).
        """
        if new_prompt_tokens <= 0 or not (first_token_ms > 0 and math.isfinite(first_token_ms)):
            return False
        sample = _Sample(float(new_prompt_tokens), float(first_token_ms))
        with self._lock:
            if self._samples and self._is_outlier(sample):
                self._suspects.append(sample)
                if len(self._suspects) < self._regime_change_after or not self._suspects_agree():
                    self._rejected += 1
                    return False
                # Several outliers in a row on the same side: the machine or the model changed.
                self._samples.clear()
                self._samples.extend(self._suspects)
                self._overhead_ms = 0.0
            else:
                self._samples.append(sample)
            self._suspects.clear()
            self._accepted += 1
            self._refit()
            return True

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            return {
                "tokens_per_ms": round(1.0 / self._ms_per_token, 5),
                "overhead_ms": round(self._overhead_ms, 2),
                "seed_tokens_per_ms": self._seed,
                "samples": len(self._samples),
                "accepted": self._accepted,
                "rejected": self._rejected,
            }

    def _predict(self, tokens: float) -> float:
        return self._overhead_ms + tokens * self._ms_per_token

    def _is_outlier(self, sample: _Sample) -> bool:
        ratio = sample.ms / max(self._predict(sample.tokens), 1e-6)
        return ratio > self._outlier_factor or ratio < 1.0 / self._outlier_factor

    def _suspects_agree(self) -> bool:
        sides = {s.ms > self._predict(s.tokens) for s in self._suspects[-self._regime_change_after :]}
        return len(sides) == 1

    def _refit(self) -> None:
        samples = list(self._samples)
        weights = [self._decay ** (len(samples) - 1 - i) for i in range(len(samples))]
        w_sum = sum(weights)
        mean_n = sum(w * s.tokens for w, s in zip(weights, samples, strict=True)) / w_sum
        mean_t = sum(w * s.ms for w, s in zip(weights, samples, strict=True)) / w_sum
        s_nn = sum(w * (s.tokens - mean_n) ** 2 for w, s in zip(weights, samples, strict=True))
        s_nt = sum(w * (s.tokens - mean_n) * (s.ms - mean_t) for w, s in zip(weights, samples, strict=True))
        min_ms = min(s.ms for s in samples)
        if s_nn / w_sum >= self._min_spread**2 and s_nt > 0:
            slope = s_nt / s_nn
            overhead = min(max(0.0, mean_t - slope * mean_n), 0.9 * min_ms)
        else:
            overhead = min(self._overhead_ms, 0.5 * min_ms)
        # Given the overhead, the per-token cost is the weighted ratio of what is left.
        left_ms = sum(w * (s.ms - overhead) for w, s in zip(weights, samples, strict=True))
        tokens = sum(w * s.tokens for w, s in zip(weights, samples, strict=True))
        self._overhead_ms = overhead
        self._ms_per_token = max(left_ms / tokens, 1e-6)
