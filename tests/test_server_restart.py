"""Stopping the kiosk service: SIGKILL in the middle of a turn loses nothing that was stored, and the
service comes back on the same data; SIGTERM in the middle of a reply finishes the turn's history and
memory writes before the process exits."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from _llm_support import free_port
from _server_support import ServerProcess, utterances, wait_port_free, write_config

from voice_agent.config import Config, load_config
from voice_agent.conversation.turns import TurnLog
from voice_agent.memory.keys import install_key_from_config
from voice_agent.server.simclient import SimClient
from voice_agent.server.visitors import returning_conversation_id, users_key

pytestmark = pytest.mark.slow
TURN_TIMEOUT_S = 300


@pytest.fixture(scope="module")
def speech(model_dir: Path) -> dict[str, np.ndarray]:
    return utterances(
        model_dir,
        {"plant": "Please remember that my secret word is pineapple.", "ask": "What is my secret word?"},
    )


def _config(server: ServerProcess) -> Config:
    return load_config(server.config, env={}).model_copy(update={"data_dir": server.data_dir})


def _conversation(config: Config, badge: str) -> str:
    return returning_conversation_id(users_key(install_key_from_config(config)), badge)


async def _stored(config: Config, badge: str) -> dict[str, str]:
    """Record id → text for a returning user, through the Memory API (the service may be running)."""
    from voice_agent.memory.service import Memory

    memory = await Memory.open(config)
    try:
        return {r.id: r.text for r in await memory.list(_conversation(config, badge), limit=1000)}
    finally:
        await memory.close()


async def _logged(config: Config, badge: str) -> list[tuple[str, str]]:
    log = TurnLog(config.store_path())
    await log.open()
    try:
        return [(t.role, t.words) for t in await log.window(_conversation(config, badge))]
    finally:
        await log.close()


async def _until(check: Any, timeout_s: float = 30.0) -> Any:
    deadline = asyncio.get_running_loop().time() + timeout_s
    while True:
        value = await check()
        if value or asyncio.get_running_loop().time() > deadline:
            return value
        await asyncio.sleep(0.5)


async def test_sigkill_mid_turn_loses_no_stored_memory(
    tmp_path: Path, model_dir: Path, speech: dict[str, np.ndarray]
) -> None:
    llm_port = free_port()
    server = ServerProcess(write_config(tmp_path, port=free_port(), llm_port=llm_port), tmp_path / "data")
    await asyncio.to_thread(server.start)
    config = _config(server)
    try:
        async with SimClient(server.ws_url, user="badge-kill", pin="5150") as c:
            turn = await c.say(speech["plant"], timeout_s=TURN_TIMEOUT_S)
            assert not turn.timed_out and turn.outcome == "ok"

            async def planted() -> dict[str, str]:
                records = await _stored(config, "badge-kill")
                return records if any("pineapple" in t.lower() for t in records.values()) else {}

            before = await _until(planted)
            assert before, "the planted fact was never stored"
            n = len(c.events)
            await c.speak(speech["ask"])
            await c.wait_for("final", after=n, timeout_s=TURN_TIMEOUT_S)  # mid-turn: the LLM is thinking
            server.kill()
    finally:
        server.kill()
    logged_before = await _logged(config, "badge-kill")
    assert any(role == "user" and _planted(text) for role, text in logged_before), logged_before

    await asyncio.to_thread(wait_port_free, llm_port)
    await asyncio.to_thread(server.start)  # the same data dir, after a crash
    try:
        after = await _stored(config, "badge-kill")
        assert set(before) <= set(after), "records stored before the kill are gone"
        assert all(after[k] == v for k, v in before.items())
        assert (await _logged(config, "badge-kill"))[: len(logged_before)] == logged_before
        async with SimClient(server.ws_url, user="badge-kill", pin="5150") as c:  # and the visitor carries on
            turn = await c.say(speech["ask"], timeout_s=TURN_TIMEOUT_S)
        assert not turn.timed_out and turn.outcome == "ok" and turn.says
    finally:
        assert server.stop() in (0, -15), server.log_tail()


async def test_sigterm_mid_reply_finishes_the_turn_before_exiting(
    tmp_path: Path, model_dir: Path, speech: dict[str, np.ndarray]
) -> None:
    server = ServerProcess(write_config(tmp_path, port=free_port()), tmp_path / "data")
    await asyncio.to_thread(server.start)
    config = _config(server)
    try:
        async with SimClient(server.ws_url, user="badge-term", pin="5151") as c:
            await c.speak(speech["plant"])
            await c.wait_for("status", timeout_s=TURN_TIMEOUT_S, where=lambda e: e["state"] == "speaking")
            code = await asyncio.to_thread(server.stop)  # SIGTERM while the reply is playing
            assert c.closed is None or c.closed[0] in (1001, 1012, 1006, 1000)
    finally:
        server.kill()
    assert code in (0, -15), server.log_tail()
    log = server.log_text()
    assert '"event": "stopped"' in log and '"event": "visit_end"' in log
    logged = await _logged(config, "badge-term")
    assert logged[:1] and logged[0][0] == "user" and _planted(logged[0][1]), logged
    records = await _stored(config, "badge-term")
    assert any("pineapple" in t.lower() for t in records.values()), records


def _planted(heard: str) -> bool:
    """The planted sentence as the recogniser wrote it (its punctuation and case vary by CPU)."""
    return "secret word" in heard.lower() and "pineapple" in heard.lower()
