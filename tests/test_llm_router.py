"""The router over real endpoints: a real SmolLM2 llama.cpp server, dead ports, a second server that
is stopped and started, and a small real HTTP server that answers with errors, hangs or cuts a reply."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from _llm_support import StubEndpoint, free_port, smollm2_gguf

from voice_agent.clock import FakeClock
from voice_agent.errors import BackendError
from voice_agent.llm.base import ChatBackend
from voice_agent.llm.breaker import BreakerState
from voice_agent.llm.local_server import LocalLlamaServer
from voice_agent.llm.openai_backend import OpenAIBackend
from voice_agent.llm.rate import PromptRateEstimator
from voice_agent.llm.router import LlmRouter
from voice_agent.llm.tokens import TokenCounter

pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module")]

SYSTEM = {"role": "system", "content": "You are a helpful assistant. Answer in one short sentence."}
QUESTION = [SYSTEM, {"role": "user", "content": "Name a colour."}]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def server(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[LocalLlamaServer]:
    srv = LocalLlamaServer(
        smollm2_gguf(),
        log_path=tmp_path_factory.mktemp("llm-logs") / "llama-server.log",
        port=free_port(),
        n_ctx=1024,
        n_threads=1,
        model_alias="smollm2-135m",
    )
    await srv.start()
    yield srv
    await srv.stop()


@pytest.fixture(scope="module")
def counter() -> TokenCounter:
    return TokenCounter.from_gguf(smollm2_gguf())


def local(server: LocalLlamaServer, name: str = "local") -> OpenAIBackend:
    return OpenAIBackend(
        name, base_url=server.base_url, model="smollm2-135m", timeout_s=60, extra_body={"cache_prompt": True}
    )


def remote(name: str, base_url: str, **kwargs: float) -> OpenAIBackend:
    return OpenAIBackend(name, base_url=base_url, model="remote-model", api_key="sk-test", **kwargs)


def router_of(*backends: ChatBackend, **kwargs: object) -> LlmRouter:
    options: dict[str, object] = {"max_tokens": 6, "temperature": 0.0, "retry_backoff_s": 0.01}
    options.update(kwargs)
    return LlmRouter(list(backends), **options)  # type: ignore[arg-type]


async def test_dead_port_falls_back_and_the_turn_completes(server: LocalLlamaServer) -> None:
    dead = remote("dead", f"http://127.0.0.1:{free_port()}/v1", timeout_s=5.0)
    async with router_of(dead, local(server), max_retries={"dead": 1, "local": 0}) as router:
        stream = router.stream(QUESTION)
        text = "".join([d async for d in stream])
    stats = stream.stats
    assert text.strip()
    assert stats.completed and stats.backend == "local" and stats.fallbacks == ["dead"]
    assert stats.attempts == 3  # the connection error is retryable: tried twice, then the fallback
    assert len(stats.errors) == 2 and all("cannot connect" in e for e in stats.errors)
    assert stats.total_ms < 5_000 + 60_000
    assert router.last_stats is stats


async def test_hanging_endpoint_hits_the_first_token_timeout(server: LocalLlamaServer) -> None:
    stub = await StubEndpoint("hang").start()
    try:
        hanging = remote("hanging", stub.base_url, timeout_s=10.0, first_token_timeout_s=0.5)
        async with router_of(hanging, local(server), max_retries=0) as router:
            text, stats = await router.complete(QUESTION)
    finally:
        await stub.stop()
    assert text and stats.backend == "local"
    assert len(stub.requests) == 1
    assert "no first token within 0.5 s" in stats.errors[0]
    assert stats.first_token_ms is not None and stats.first_token_ms >= 500


@pytest.mark.parametrize("status", [429, 503])
async def test_retryable_statuses_are_retried(server: LocalLlamaServer, status: int) -> None:
    stub = await StubEndpoint("status", status=status, message="busy").start()
    try:
        async with router_of(remote("busy", stub.base_url), local(server), max_retries=2) as router:
            text, stats = await router.complete(QUESTION)
    finally:
        await stub.stop()
    assert len(stub.requests) == 3  # first try + 2 retries
    assert text and stats.backend == "local" and stats.attempts == 4
    assert all(f"HTTP {status}" in e for e in stats.errors)


async def test_wrong_model_404_is_not_retried(server: LocalLlamaServer) -> None:
    stub = await StubEndpoint("status", status=404, message="model 'no-such-model' not found").start()
    try:
        wrong = OpenAIBackend("ollama", base_url=stub.base_url, model="no-such-model")
        async with router_of(wrong, local(server), max_retries=3) as router:
            text, stats = await router.complete(QUESTION)
    finally:
        await stub.stop()
    assert len(stub.requests) == 1 and stub.requests[0]["model"] == "no-such-model"
    assert text and stats.backend == "local" and stats.attempts == 2
    assert "HTTP 404" in stats.errors[0] and "model name or the base_url path is wrong" in stats.errors[0]


async def test_wrong_path_on_the_real_server_is_a_404_without_retry(server: LocalLlamaServer) -> None:
    wrong = remote("wrong-path", server.base_url.replace("/v1", "/nope/v1"))
    async with router_of(wrong, max_retries=3) as router:
        with pytest.raises(BackendError, match="HTTP 404") as info:
            await router.complete(QUESTION)
        assert router.last_stats is not None and router.last_stats.attempts == 1
    assert not info.value.retryable


async def test_request_errors_do_not_open_the_breaker(server: LocalLlamaServer) -> None:
    stub = await StubEndpoint("status", status=400, message="context length exceeded").start()
    try:
        async with router_of(remote("strict", stub.base_url), local(server), breaker_failures=1) as router:
            for _ in range(2):
                _, stats = await router.complete(QUESTION, max_tokens=2)
                assert "HTTP 400" in stats.errors[0] and stats.backend == "local"
            assert router.breakers["strict"].state is BreakerState.CLOSED
    finally:
        await stub.stop()
    assert len(stub.requests) == 2


async def test_failure_after_text_raises_instead_of_splicing(server: LocalLlamaServer) -> None:
    stub = await StubEndpoint("cut").start()
    received: list[str] = []
    try:
        async with router_of(remote("flaky", stub.base_url), local(server), max_retries=2) as router:
            stream = router.stream(QUESTION)
            with pytest.raises(BackendError, match="mid-reply") as info:
                async for delta in stream:
                    received.append(delta)
    finally:
        await stub.stop()
    assert received == ["Half an ans"]
    assert not info.value.retryable
    assert stream.stats.backend == "flaky" and stream.stats.attempts == 1 and stream.stats.fallbacks == []
    assert len(stub.requests) == 1


async def test_breaker_opens_then_closes_when_the_endpoint_returns(
    server: LocalLlamaServer, tmp_path: Path
) -> None:
    clock = FakeClock()
    primary_server = LocalLlamaServer(
        smollm2_gguf(), log_path=tmp_path / "primary.log", port=free_port(), n_ctx=512, n_threads=1
    )
    primary = local(primary_server, "primary")
    async with router_of(
        primary, local(server), breaker_failures=2, breaker_reset_s=30, clock=clock, max_retries=0
    ) as router:
        breaker = router.breakers["primary"]
        for _ in range(2):  # nothing listens on the primary's port yet
            _, stats = await router.complete(QUESTION, max_tokens=2)
            assert stats.backend == "local" and "cannot connect" in stats.errors[0]
        assert breaker.state is BreakerState.OPEN

        _, stats = await router.complete(QUESTION, max_tokens=2)
        assert stats.attempts == 1 and "circuit open" in stats.errors[0]  # not even tried

        clock.advance_ms(30_000)  # half-open: one probe, which fails, opens it again
        assert breaker.state is BreakerState.HALF_OPEN
        _, stats = await router.complete(QUESTION, max_tokens=2)
        assert "cannot connect" in stats.errors[0] and breaker.state is BreakerState.OPEN

        await primary_server.start()  # the endpoint returns
        try:
            _, stats = await router.complete(QUESTION, max_tokens=2)
            assert stats.backend == "local"  # still open until the reset time has passed
            clock.advance_ms(30_000)
            text, stats = await router.complete(QUESTION, max_tokens=2)
            assert text and stats.backend == "primary" and stats.errors == []
            assert breaker.state is BreakerState.CLOSED
        finally:
            await primary_server.stop()


async def test_every_backend_failing_is_one_clear_error() -> None:
    dead1, dead2 = free_port(), free_port()
    a, b = remote("a", f"http://127.0.0.1:{dead1}/v1"), remote("b", f"http://127.0.0.1:{dead2}/v1")
    async with router_of(a, b, max_retries=0) as router:
        with pytest.raises(BackendError, match="every LLM backend failed") as info:
            await router.complete(QUESTION)
    assert info.value.retryable
    assert f"127.0.0.1:{dead1}" in str(info.value) and f"127.0.0.1:{dead2}" in str(info.value)


async def test_stats_feed_the_prompt_rate_and_see_the_shared_prefix(
    server: LocalLlamaServer, counter: TokenCounter
) -> None:
    rate = PromptRateEstimator(1.5)
    long_system = {"role": "system", "content": "You are a careful assistant. " + "Keep answers short. " * 40}
    first = [long_system, {"role": "user", "content": "Name a fruit."}]
    second = [long_system, {"role": "user", "content": "Name a country in Europe."}]
    async with router_of(local(server), rate=rate, token_counter=counter) as router:
        _, stats1 = await router.complete(first)
        _, stats2 = await router.complete(second)
    assert stats1.prompt_tokens == counter.count_messages(first) and stats1.prompt_tokens_estimated
    assert stats1.first_token_ms is not None and stats1.completion_tokens
    assert stats2.cached_tokens_estimated and stats2.cached_tokens is not None
    assert stats2.cached_tokens >= counter.count_messages([long_system]) - 4
    assert stats2.new_prompt_tokens is not None and stats2.new_prompt_tokens < 20
    snapshot = rate.snapshot()
    assert snapshot["accepted"] + snapshot["rejected"] == 2 and snapshot["accepted"] >= 1
    assert rate.tokens_per_ms() != 1.5


async def test_abandoned_stream_leaves_the_router_usable(server: LocalLlamaServer) -> None:
    async with router_of(local(server), breaker_failures=1, max_tokens=64) as router:
        stream = router.stream(QUESTION)
        async for _ in stream:
            break
        await stream.aclose()
        assert router.breakers["local"].state is BreakerState.CLOSED
        text, stats = await router.complete(QUESTION, max_tokens=3)
    assert text and stats.completed


async def test_prefix_memory_sees_a_prefix_across_an_interleaved_call(
    server: LocalLlamaServer, counter: TokenCounter
) -> None:
    system = {"role": "system", "content": "You are a voice assistant. " + "Remember the user's facts. " * 20}
    other = [{"role": "system", "content": "Extract facts."}, {"role": "user", "content": "I like tea."}]
    turn1 = [system, {"role": "user", "content": "Hello."}]
    turn2 = [system, {"role": "user", "content": "What do I like?"}]
    cached: dict[int, int | None] = {}
    for memory in (1, 4):
        async with router_of(local(server), token_counter=counter, prefix_memory=memory) as router:
            await router.complete(turn1, max_tokens=2)
            await router.complete(other, max_tokens=2)
            _, stats = await router.complete(turn2, max_tokens=2)
        cached[memory] = stats.cached_tokens
    assert cached[1] == 0  # one slot: the interleaved call replaced the prefix
    system_tokens = counter.count_messages([system], add_generation_prompt=False)
    assert cached[4] is not None and cached[4] >= system_tokens


async def test_a_local_timeout_is_not_retried(server: LocalLlamaServer) -> None:
    stub = await StubEndpoint("hang").start()
    try:
        busy = OpenAIBackend("busy-local", base_url=stub.base_url, model="m", first_token_timeout_s=0.3,
                             retry_timeouts=False)  # fmt: skip
        async with router_of(busy, local(server), max_retries=2) as router:
            text, stats = await router.complete(QUESTION)
    finally:
        await stub.stop()
    assert text and stats.backend == "local"
    assert len(stub.requests) == 1 and stats.attempts == 2
