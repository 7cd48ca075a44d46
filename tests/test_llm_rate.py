"""The prompt-reading-rate estimator and the circuit breaker (pure logic, injected clock)."""

from __future__ import annotations

import threading

import pytest

from voice_agent.clock import FakeClock
from voice_agent.errors import CircuitOpenError
from voice_agent.llm.breaker import BreakerState, CircuitBreaker
from voice_agent.llm.rate import PromptRateEstimator


def machine(tokens: int, *, overhead_ms: float = 60.0, tokens_per_ms: float = 0.08) -> float:
    """First-token time of a simulated CPU model: fixed overhead plus tokens at a steady rate."""
    return overhead_ms + tokens / tokens_per_ms


def test_seed_until_measured() -> None:
    rate = PromptRateEstimator(1.5)
    assert rate.tokens_per_ms() == 1.5 and rate.overhead_ms() == 0.0
    assert not rate.observe(0, 100.0) and not rate.observe(50, 0.0) and not rate.observe(50, float("nan"))
    assert rate.tokens_per_ms() == 1.5
    with pytest.raises(ValueError, match="seed_tokens_per_ms"):
        PromptRateEstimator(0)


def test_learns_rate_and_overhead_from_mixed_prompt_sizes() -> None:
    rate = PromptRateEstimator(1.5)
    for tokens in (500, 40, 60, 30, 520, 45, 80, 35):
        assert rate.observe(tokens, machine(tokens))
    assert rate.tokens_per_ms() == pytest.approx(0.08, rel=0.02)
    assert rate.overhead_ms() == pytest.approx(60.0, rel=0.05)
    assert rate.predict_first_token_ms(200) == pytest.approx(machine(200), rel=0.02)


def test_similar_sizes_fall_back_to_the_ratio() -> None:
    rate = PromptRateEstimator(1.5)
    for _ in range(4):
        rate.observe(100, 1000.0)
    assert rate.tokens_per_ms() == pytest.approx(0.1)


def test_outliers_are_ignored_but_a_lasting_change_is_followed() -> None:
    rate = PromptRateEstimator(1.5)
    for tokens in (400, 50, 300, 60):
        rate.observe(tokens, machine(tokens))
    before = rate.tokens_per_ms()
    assert not rate.observe(300, 60_000.0)  # one stalled request
    assert rate.tokens_per_ms() == before
    assert rate.snapshot()["rejected"] == 1
    assert rate.observe(200, machine(200))  # back to normal: the stall was a one-off
    slower = [machine(n, tokens_per_ms=0.01) for n in (300, 200, 400)]  # the machine got 8x slower
    results = [rate.observe(n, ms) for n, ms in zip((300, 200, 400), slower, strict=True)]
    assert results == [False, False, True]
    assert rate.tokens_per_ms() == pytest.approx(0.01, rel=0.15)


def test_estimate_follows_newer_samples() -> None:
    rate = PromptRateEstimator(1.5, outlier_factor=10)
    for tokens in (300, 50, 400, 40):
        rate.observe(tokens, machine(tokens, tokens_per_ms=0.1))
    for tokens in (300, 50, 400, 40) * 4:
        rate.observe(tokens, machine(tokens, tokens_per_ms=0.05))
    assert rate.tokens_per_ms() == pytest.approx(0.05, rel=0.1)


def test_thread_safe_under_concurrent_updates() -> None:
    rate = PromptRateEstimator(1.5, window=64)
    errors: list[BaseException] = []

    def feed(offset: int) -> None:
        try:
            for i in range(200):
                tokens = 20 + (i * 37 + offset) % 500
                rate.observe(tokens, machine(tokens))
                assert rate.tokens_per_ms() > 0
        except BaseException as err:
            errors.append(err)

    threads = [threading.Thread(target=feed, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert rate.snapshot()["accepted"] == 800
    assert rate.tokens_per_ms() == pytest.approx(0.08, rel=0.02)


def test_breaker_cycle_with_a_fake_clock() -> None:
    clock = FakeClock()
    breaker = CircuitBreaker("remote", failures_to_open=3, reset_s=10, clock=clock)
    for _ in range(2):
        breaker.before_call()
        breaker.record_failure()
    assert breaker.state is BreakerState.CLOSED and breaker.consecutive_failures == 2
    breaker.before_call()
    breaker.record_failure()
    assert breaker.state is BreakerState.OPEN
    with pytest.raises(CircuitOpenError) as info:
        breaker.before_call()
    assert info.value.retry_in_s == pytest.approx(10.0) and info.value.retryable

    clock.advance_ms(9_999)
    assert breaker.state is BreakerState.OPEN
    clock.advance_ms(1)
    assert breaker.state is BreakerState.HALF_OPEN
    breaker.before_call()  # the one probe
    with pytest.raises(CircuitOpenError):
        breaker.before_call()  # a second caller waits for the probe's verdict
    breaker.record_failure()  # probe failed: open for another full period
    assert breaker.state is BreakerState.OPEN
    clock.advance_ms(10_000)
    breaker.before_call()
    breaker.release()  # the probe was cancelled: no verdict, another probe may go
    breaker.before_call()
    breaker.record_success()
    assert breaker.state is BreakerState.CLOSED and breaker.consecutive_failures == 0
    breaker.before_call()


def test_success_resets_the_failure_count() -> None:
    breaker = CircuitBreaker("x", failures_to_open=2, reset_s=1, clock=FakeClock())
    for _ in range(5):
        breaker.record_failure()
        breaker.record_success()
    assert breaker.state is BreakerState.CLOSED
    with pytest.raises(ValueError):
        CircuitBreaker("x", failures_to_open=0, reset_s=1, clock=FakeClock())
