"""Routing LLM calls over an ordered list of backends: retries, fallback, a circuit breaker each.

A backend that fails before its first token is retried (only when the error is retryable, up to its
retry count), then the next backend is tried. Once text has been handed to the caller the answer is
committed: a failure mid-stream raises instead of splicing a second backend's answer onto the first.
Every call leaves an ``LlmCallStats``; its first-token time and the prompt tokens the server actually
read feed the ``PromptRateEstimator`` that the retrieval budget uses.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import AsyncGenerator, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from voice_agent.clock import Clock, MonotonicClock
from voice_agent.config import Config
from voice_agent.errors import BackendError, CircuitOpenError, ModelError
from voice_agent.llm.base import ChatBackend, GeneratorStream, LlmCallStats, Message
from voice_agent.llm.breaker import CircuitBreaker
from voice_agent.llm.local_server import LocalLlamaServer, server_from_config
from voice_agent.llm.openai_backend import LlmRequestError, OpenAIBackend
from voice_agent.llm.rate import PromptRateEstimator
from voice_agent.llm.tokens import TokenCounter

log = logging.getLogger(__name__)


class LlmRouter:
    """Streams a reply from the first backend that can give one."""

    def __init__(
        self,
        backends: Sequence[ChatBackend],
        *,
        breaker_failures: int = 3,
        breaker_reset_s: float = 30.0,
        clock: Clock | None = None,
        rate: PromptRateEstimator | None = None,
        max_retries: int | Mapping[str, int] = 1,
        retry_backoff_s: float = 0.2,
        token_counter: TokenCounter | None = None,
        max_tokens: int = 160,
        temperature: float = 0.3,
        servers: Sequence[LocalLlamaServer] = (),
        prefix_memory: int | Mapping[str, int] = 1,
    ) -> None:
        """``prefix_memory``: how many recent prompts a backend may still hold a KV prefix of, to
        estimate the cached tokens of a call when the server does not report them (1: llama.cpp's one
        slot; more with its RAM prompt cache)."""
        if not backends:
            raise ValueError("LlmRouter needs at least one backend")
        names = [b.name for b in backends]
        if len(set(names)) != len(names):
            raise ValueError(f"backend names must be unique, got {names}")
        self.backends = tuple(backends)
        self.clock: Clock = clock or MonotonicClock()
        self.rate = rate or PromptRateEstimator()
        self.token_counter = token_counter or TokenCounter.estimate()
        self.breakers = {
            name: CircuitBreaker(
                name, failures_to_open=breaker_failures, reset_s=breaker_reset_s, clock=self.clock
            )
            for name in names
        }
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.servers = tuple(servers)
        self.last_stats: LlmCallStats | None = None
        self._retries = max_retries
        self._backoff_s = retry_backoff_s
        self._timer = MonotonicClock()  # latencies are real time even when the breaker's clock is fake
        self._prefix_memory = prefix_memory
        self._recent_prompts: dict[str, deque[list[Message]]] = {}
        self.in_flight: dict[str, int] = {name: 0 for name in names}  # requests under way per backend

    def stream(
        self,
        messages: list[Message],
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> RoutedStream:
        """The reply as text deltas; ``.stats`` of the returned stream fills in as it goes."""
        if not messages or any("role" not in m or "content" not in m for m in messages):
            raise ValueError("messages must be a non-empty list of {'role', 'content'} dicts")
        stats = LlmCallStats()
        self.last_stats = stats
        gen = self._route(
            list(messages),
            self.max_tokens if max_tokens is None else max_tokens,
            self.temperature if temperature is None else temperature,
            stats,
        )
        return RoutedStream(gen, stats)

    async def complete(
        self,
        messages: list[Message],
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
    ) -> tuple[str, LlmCallStats]:
        """The whole reply at once (for background work such as memory extraction)."""
        stream = self.stream(messages, max_tokens=max_tokens, temperature=temperature)
        parts = [delta async for delta in stream]
        return "".join(parts), stream.stats

    async def start(self) -> None:
        """Start local servers now, so that the first turn does not wait for a model to load."""
        for backend in self.backends:
            starter = getattr(backend, "start", None)
            if starter is not None:
                await starter()

    async def aclose(self) -> None:
        """Close every backend (stopping the local servers they own)."""
        for backend in self.backends:
            try:
                await backend.aclose()
            except Exception as err:  # keep closing the others
                log.warning("closing LLM backend %s failed: %s", backend.name, err)

    async def __aenter__(self) -> LlmRouter:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    def _memory_for(self, name: str) -> int:
        if isinstance(self._prefix_memory, Mapping):
            return max(1, int(self._prefix_memory.get(name, 1)))
        return max(1, self._prefix_memory)

    def _retries_for(self, name: str) -> int:
        if isinstance(self._retries, Mapping):
            return int(self._retries.get(name, 0))
        return self._retries

    async def _route(
        self, messages: list[Message], max_tokens: int, temperature: float, stats: LlmCallStats
    ) -> AsyncGenerator[str, None]:
        started_ns = self._timer.now_ns()
        retryable_seen = False
        for backend in self.backends:
            outcome = _Attempt(
                backend, self.breakers[backend.name], stats, started_ns, self._timer, self.in_flight
            )
            for attempt in range(self._retries_for(backend.name) + 1):
                try:
                    outcome.breaker.before_call()
                except CircuitOpenError as open_err:
                    stats.errors.append(str(open_err))
                    retryable_seen = True
                    break
                stats.attempts += 1
                async with contextlib.aclosing(outcome.run(messages, max_tokens, temperature)) as deltas:
                    async for delta in deltas:
                        yield delta
                if outcome.completed:
                    self._finish(backend.name, messages, outcome, stats)
                    return
                failed = outcome.error
                assert failed is not None
                retryable_seen = retryable_seen or failed.retryable
                if not failed.retryable or attempt == self._retries_for(backend.name):
                    break
                await asyncio.sleep(self._backoff_s * (attempt + 1))
            stats.fallbacks.append(backend.name)
        stats.total_ms = (self._timer.now_ns() - started_ns) / 1e6
        raise BackendError("every LLM backend failed: " + "; ".join(stats.errors), retryable=retryable_seen)

    def _finish(self, name: str, messages: list[Message], outcome: _Attempt, stats: LlmCallStats) -> None:
        stats.backend = name
        stats.completed = True
        stats.total_ms = (self._timer.now_ns() - outcome.route_started_ns) / 1e6
        usage = outcome.usage
        reply = "".join(outcome.text)
        if usage is not None and usage.prompt_tokens is not None:
            stats.prompt_tokens = usage.prompt_tokens
        else:
            stats.prompt_tokens = self.token_counter.count_messages(messages)
            stats.prompt_tokens_estimated = True
        if usage is not None and usage.completion_tokens is not None:
            stats.completion_tokens = usage.completion_tokens
        else:
            stats.completion_tokens = self.token_counter.count(reply)
        if usage is not None and usage.cached_tokens is not None:
            stats.cached_tokens = usage.cached_tokens
        else:
            stats.cached_tokens = self._shared_prefix_tokens(self._recent_prompts.get(name, ()), messages)
            stats.cached_tokens_estimated = True
        recent = self._recent_prompts.setdefault(name, deque(maxlen=self._memory_for(name)))
        recent.append([*messages, {"role": "assistant", "content": reply}])
        new_tokens = stats.new_prompt_tokens
        if outcome.attempt_first_token_ms is not None and new_tokens:
            self.rate.observe(new_tokens, outcome.attempt_first_token_ms)

    def _shared_prefix_tokens(self, recent: Sequence[list[Message]], messages: list[Message]) -> int:
        """Tokens of the longest prompt prefix the server may still hold from recent calls (its KV cache;
        with a RAM prompt cache, any of the last few prompts)."""
        best: tuple[int, int] = (0, 0)  # (shared whole messages, shared chars of the next one)
        for previous in recent:
            same = 0
            while same < min(len(previous), len(messages)) and previous[same] == messages[same]:
                same += 1
            chars = 0
            if same < min(len(previous), len(messages)) and previous[same]["role"] == messages[same]["role"]:
                chars = _common_prefix_len(previous[same]["content"], messages[same]["content"])
            best = max(best, (same, chars))
        same, chars = best
        if same == 0 and chars == 0:
            return 0
        shared = self.token_counter.count_messages(messages[:same], add_generation_prompt=False)
        if chars:
            shared += self.token_counter.count(messages[same]["content"][:chars])
        return max(0, min(shared, self.token_counter.count_messages(messages) - 1))


def _common_prefix_len(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


class _Attempt:
    """One try on one backend: streams its deltas and keeps the verdict for the router."""

    def __init__(
        self,
        backend: ChatBackend,
        breaker: CircuitBreaker,
        stats: LlmCallStats,
        route_started_ns: int,
        timer: Clock,
        in_flight: dict[str, int],
    ) -> None:
        self.backend = backend
        self.in_flight = in_flight
        self.breaker = breaker
        self.stats = stats
        self.route_started_ns = route_started_ns
        self.timer = timer
        self.completed = False
        self.error: BackendError | None = None
        self.text: list[str] = []
        self.usage: Any = None
        self.attempt_first_token_ms: float | None = None

    async def run(
        self, messages: list[Message], max_tokens: int, temperature: float
    ) -> AsyncGenerator[str, None]:
        self.completed, self.error, self.text = False, None, []
        attempt_ns = self.timer.now_ns()
        name = self.backend.name
        ahead = self.in_flight.get(name, 0)
        if getattr(self.backend, "queue_aware", False):
            inner = self.backend.stream(  # type: ignore[call-arg]
                messages, max_tokens=max_tokens, temperature=temperature, queued_ahead=ahead
            )
        else:
            inner = self.backend.stream(messages, max_tokens=max_tokens, temperature=temperature)
        self.usage = getattr(inner, "usage", None)
        self.stats.queued_ahead = ahead
        self.in_flight[name] = ahead + 1
        verdict = False
        try:
            async for delta in inner:
                if not self.text:
                    now = self.timer.now_ns()
                    self.attempt_first_token_ms = (now - attempt_ns) / 1e6
                    self.stats.first_token_ms = (now - self.route_started_ns) / 1e6
                    self.stats.backend = name
                    self.breaker.record_success()
                    verdict = True
                self.text.append(delta)
                yield delta
        except BackendError as err:
            self.stats.errors.append(str(err))
            verdict = True
            if self.text:  # text already went out: never splice another backend's answer onto it
                self.breaker.record_failure()
                raise BackendError(
                    f"failed mid-reply after text was sent: {err}", backend=name, retryable=False
                ) from err
            if isinstance(err, LlmRequestError):
                self.breaker.record_success()  # it answered; the request itself was refused
            else:
                self.breaker.record_failure()
            self.error = err
            return
        finally:
            self.in_flight[name] = max(0, self.in_flight.get(name, 1) - 1)
            if self.usage is not None:
                self.stats.first_token_limit_s = getattr(self.usage, "first_token_limit_s", None)
                self.stats.busy_extensions = getattr(self.usage, "busy_extensions", 0)
            if not verdict:
                self.breaker.release()
            closer = getattr(inner, "aclose", None)
            if closer is not None:
                await closer()
        if not self.text:
            self.breaker.record_success()  # an empty reply is still an answer
        self.completed = True


class RoutedStream(GeneratorStream):
    """Deltas of one routed call, with its ``stats``."""

    def __init__(self, gen: AsyncGenerator[str, None], stats: LlmCallStats) -> None:
        super().__init__(gen)
        self.stats = stats


def build_router(
    config: Config,
    data_dir: Path | None = None,
    *,
    env: Mapping[str, str] | None = None,
    clock: Clock | None = None,
) -> LlmRouter:
    """The router for ``config.llm.backends``; a ``local`` backend owns a ``LocalLlamaServer``."""
    backends: list[ChatBackend] = []
    servers: list[LocalLlamaServer] = []
    counter: TokenCounter | None = None
    for endpoint in config.llm.backends:
        if endpoint.kind == "local":
            server = server_from_config(config, data_dir=data_dir, model_id=endpoint.model or None)
            local_counter = _gguf_counter(server.model_path)
            counter = counter or local_counter
            servers.append(server)
            backends.append(
                OpenAIBackend(
                    endpoint.name,
                    base_url=server.base_url,
                    model=server.model_alias,
                    timeout_s=endpoint.timeout_s,
                    first_token_timeout_s=endpoint.first_token_timeout_s,
                    extra_body={"cache_prompt": True},  # llama.cpp: reuse the KV cache across turns
                    token_counter=local_counter,
                    retry_timeouts=False,  # the server is still busy with the abandoned request
                    prepare=server.ensure_running,
                    on_close=server.stop,
                    queue_aware=config.llm.queue_aware_timeout,  # one request at a time: others queue
                    server_cpu_s=server.cpu_seconds if config.llm.queue_aware_timeout else None,
                )
            )
        else:
            backends.append(OpenAIBackend.from_endpoint(endpoint, env=env))
    return LlmRouter(
        backends,
        breaker_failures=config.llm.breaker_failures,
        breaker_reset_s=config.llm.breaker_reset_s,
        clock=clock,
        rate=PromptRateEstimator(config.memory.seed_prompt_rate_tokens_per_ms),
        max_retries={e.name: e.max_retries for e in config.llm.backends},
        token_counter=counter,
        max_tokens=config.llm.max_tokens,
        temperature=config.llm.temperature,
        servers=servers,
        prefix_memory={e.name: _prefix_memory(e.kind, config) for e in config.llm.backends},
    )


def _prefix_memory(kind: str, config: Config) -> int:
    """A llama.cpp server holds the last prompt's KV; with its RAM cache, states of several more."""
    return 8 if kind == "local" and config.llm.local.prompt_cache_mb > 0 else 1


def _gguf_counter(path: Path) -> TokenCounter | None:
    try:
        return TokenCounter.from_gguf(path)
    except ModelError:
        return None  # the server start will report the missing model clearly
    except Exception as err:  # no llama_cpp installed: estimate instead
        log.info("token counting falls back to an estimate: %s", err)
        return None
