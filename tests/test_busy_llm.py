"""A busy LLM is not a dead one: a request queued behind another gets a first-token limit that grows with
the queue, a server still working gets more time, and a late first token is covered by a short holding
phrase ("One moment.") and then the real answer, never by the apology. The slow endpoint is a real HTTP
server at the network edge (tests/_chat_endpoint.py)."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path

import openai  # noqa: F401  (imported here: its first import would count against the first token)
import pytest
from _chat_endpoint import ChatEndpoint, slow_endpoint

from voice_agent.assistant import Assistant
from voice_agent.config import load_config
from voice_agent.conversation.holding import PHRASES
from voice_agent.errors import BackendError
from voice_agent.llm.openai_backend import OpenAIBackend
from voice_agent.llm.router import LlmRouter
from voice_agent.metrics.trace import TurnTrace

ANSWER = "Paris is the capital of France, and it sits on the Seine."
MESSAGES = [{"role": "user", "content": "What is the capital of France?"}]


def _router(endpoint: ChatEndpoint, **kwargs: object) -> LlmRouter:
    backend = OpenAIBackend(
        "local-ish",
        base_url=endpoint.base_url,
        model="stub",
        timeout_s=30,
        **kwargs,  # type: ignore[arg-type]
    )
    return LlmRouter([backend], max_retries=0)


async def _two_at_once(router: LlmRouter) -> list[tuple[str, object] | BaseException]:
    await router.complete(MESSAGES)  # alone: the client is ready
    first = asyncio.create_task(router.complete(MESSAGES))
    await asyncio.sleep(0.05)  # the second request arrives while the first is being served
    second = asyncio.create_task(router.complete(MESSAGES))
    return list(await asyncio.gather(first, second, return_exceptions=True))


async def test_a_request_queued_behind_another_is_not_a_dead_backend() -> None:
    # Each request takes 1 s to its first token and the server serves one at a time: the second waits
    # about 2 s for its first token, past a 1.5 s limit unless the limit counts the request ahead.
    async with slow_endpoint(ANSWER, delay_s=1.0) as endpoint:
        aware = _router(endpoint, first_token_timeout_s=1.5, queue_aware=True)
        results = await _two_at_once(aware)
        assert all(not isinstance(r, BaseException) for r in results), results
        stats = [r[1] for r in results if not isinstance(r, BaseException)]
        assert [s.queued_ahead for s in stats] == [0, 1]  # type: ignore[attr-defined]
        assert [s.first_token_limit_s for s in stats] == [1.5, 3.0]  # type: ignore[attr-defined]
        assert aware.in_flight == {"local-ish": 0}

        blind = _router(endpoint, first_token_timeout_s=1.5, queue_aware=False)
        results = await _two_at_once(blind)
        assert not isinstance(results[0], BaseException)
        assert isinstance(results[1], BackendError) and "no first token" in str(results[1])


async def test_a_working_server_gets_more_time_and_a_silent_one_does_not() -> None:
    working = itertools.count(0.0, 0.5)  # the server process's CPU time keeps growing: it is working
    async with slow_endpoint(ANSWER, delay_s=1.2) as endpoint:
        busy = _router(endpoint, first_token_timeout_s=0.5, server_cpu_s=lambda: next(working))
        text, stats = await busy.complete(MESSAGES)
        assert text == ANSWER and stats.busy_extensions >= 1

        silent = _router(endpoint, first_token_timeout_s=0.5, server_cpu_s=lambda: 7.0)  # hung: no CPU
        with pytest.raises(BackendError, match="no first token"):
            await silent.complete(MESSAGES)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("question", "answer", "phrase"),
    [
        ("What is the capital of France?", ANSWER, PHRASES["en"]),
        ("法国的首都是哪里？", "法国的首都是巴黎。 它在塞纳河边。", PHRASES["zh"]),
    ],
)
async def test_a_late_first_token_gets_a_holding_phrase_then_the_answer(
    tmp_path: Path, model_dir: Path, question: str, answer: str, phrase: str
) -> None:
    async with slow_endpoint(answer, delay_s=1.0) as endpoint:
        config_file = tmp_path / "slow.toml"
        config_file.write_text(
            endpoint.backend("slow") + "[llm]\nholding_phrase_after_s = 0.2\nrewarm_prefix = false\n",
            encoding="utf-8",
        )
        config = load_config(config_file, data_dir=tmp_path / "data", env={})
        config = config.model_copy(update={"model_dir": model_dir})
        async with await Assistant.open(config) as assistant:
            trace = TurnTrace("c")
            deltas = [d async for d in assistant.engine.respond("c", question, trace)]  # as the speech loop
            await assistant.engine.commit("c", question, "".join(deltas), trace)
            window = await assistant.turns.window("c")
            text_reply = await assistant.chat_turn("c", question)  # a text reply is read: no phrase
    assert deltas[0].strip() == phrase  # said at once, while the LLM was still silent
    # then the whole answer (handed on piece by piece by the reply check, each piece ending in a space)
    assert "".join(deltas[1:]).strip() == answer
    apologies = ("Sorry", "抱歉")
    assert not any(word in "".join(deltas) for word in apologies)
    names = [s.name for s in sorted(trace.spans, key=lambda s: s.start_ns)]
    assert names.index("llm.holding") < names.index("llm.first_token")
    assert endpoint.served == 2  # one request a turn: the phrase did not cost another
    assert window[-1].role == "assistant" and window[-1].text == answer  # history: the answer only
    assert phrase not in text_reply.text and text_reply.trace.attrs["holding_phrase"] == phrase
