"""A dead LLM endpoint while visitors talk: the reply is a spoken apology (text and audio), /healthz says
the endpoint is down, the per-client turn limit still holds, and the next turn after the endpoint comes
back is answered normally. The endpoint is a real llama.cpp server (SmolLM2) the test stops and restarts."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import numpy as np
import pytest
from _llm_support import free_port, smollm2_gguf
from _server_support import ServerProcess, utterances, write_config

from voice_agent.llm.local_server import LocalLlamaServer
from voice_agent.server.responder import RATE_LIMIT_NOTICE
from voice_agent.server.simclient import SimClient, TurnRecord

pytestmark = pytest.mark.slow
TURN_TIMEOUT_S = 300
ALIAS = "smollm2"


@pytest.fixture
async def llm(tmp_path: Path) -> AsyncIterator[LocalLlamaServer]:
    server = LocalLlamaServer(
        smollm2_gguf(), log_path=tmp_path / "llm.log", port=free_port(), n_ctx=2048, model_alias=ALIAS
    )
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


def _health(server: ServerProcess, want: int) -> tuple[int, dict[str, str]]:
    """/healthz until it answers ``want`` (its result is cached for a few seconds), at most 20 s."""
    deadline = time.monotonic() + 20
    while True:
        response = httpx.get(server.base + "/healthz", timeout=30)
        if response.status_code == want or time.monotonic() > deadline:
            return response.status_code, {c["name"]: c["status"] for c in response.json()["checks"]}
        time.sleep(1.0)


async def _turn(server: ServerProcess, audio: np.ndarray, turns: int = 1) -> list[TurnRecord]:
    async with SimClient(server.ws_url) as c:
        return [await c.say(audio, timeout_s=TURN_TIMEOUT_S) for _ in range(turns)]


async def test_dead_llm_gives_a_spoken_apology_and_recovers(
    tmp_path: Path, model_dir: Path, llm: LocalLlamaServer
) -> None:
    audio = (await asyncio.to_thread(utterances, model_dir, {"q": "What is the capital of France?"}))["q"]
    section = f"""
[[llm.backends]]
name = "remote"
kind = "openai"
base_url = "{llm.base_url}"
model = "{ALIAS}"
timeout_s = 60
max_retries = 0
"""
    config = write_config(
        tmp_path, port=free_port(), llm_section=section, llm_extra="breaker_reset_s = 2.0",
        server_extra="turns_per_minute = 2",
    )  # fmt: skip
    server = ServerProcess(config, tmp_path / "data")
    await asyncio.to_thread(server.start)
    try:
        (first,) = await _turn(server, audio)
        assert first.outcome == "ok" and first.says
        assert "language model" not in " ".join(first.says)

        await llm.stop()
        status, checks = await asyncio.to_thread(_health, server, 503)
        assert status == 503 and checks["llm remote"] == "fail"
        before = await asyncio.to_thread(server.metrics)
        apology, again, limited = await _turn(server, audio, turns=3)
        for turn in (apology, again):
            assert turn.outcome == "error", turn
            assert "can't reach my language model" in " ".join(turn.says), turn.says
            assert turn.audio_bytes > 22050  # spoken, not only shown
            assert "language model" in turn.spoken
        assert limited.outcome == "rate_limited" and " ".join(limited.says) == RATE_LIMIT_NOTICE  # 2 a minute
        after = await asyncio.to_thread(server.metrics)
        errors = 'voice_agent_errors_total{stage="llm"}'
        apologies = 'voice_agent_fallbacks_total{backend="apology",stage="llm"}'
        assert after[errors] == before.get(errors, 0) + 2
        assert after[apologies] == before.get(apologies, 0) + 2

        await llm.start()
        status, checks = await asyncio.to_thread(_health, server, 200)
        assert status == 200 and checks["llm remote"] == "ok"
        await asyncio.sleep(2.5)  # past the breaker's reset time
        (recovered,) = await _turn(server, audio)
        assert recovered.outcome == "ok" and recovered.says
        assert "language model" not in " ".join(recovered.says)
    finally:
        assert server.stop() in (0, -15), server.log_tail()
