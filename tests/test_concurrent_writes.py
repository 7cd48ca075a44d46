"""No lost writes: kiosk visitors committing turns and erasing their conversations at the same time, in
one process (asyncio tasks, threads) and from two processes against one data directory, lose no turn and
fail no erase; everything asked to be erased is gone from every table (records, vectors, keywords,
fingerprints, vault, turn log). The workload is in ``_commit_storm.py``; vectors are random (the subject
is the SQLite file, not embedding quality; the engine-level test below uses the real models)."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from _commit_storm import THINGS, Parts, StormLog, audit, log_from_json, storm, visitor

ROOT = Path(__file__).resolve().parent.parent
SEED = 11
STREETS = ("Baker", "Rose", "Mill", "Castle", "Harbour")


def assert_clean(data_dir: Path, log: StormLog) -> None:
    result = audit(data_dir, log)
    assert result.turns > 0 and result.erases > 0, result  # the storm did commit and erase
    assert (result.lost_turns, result.failed_erases) == (0, 0), result


@pytest.mark.parametrize("threads", [False, True], ids=["asyncio", "threads"])
async def test_visitors_committing_and_erasing_at_once_lose_nothing(tmp_path: Path, threads: bool) -> None:
    parts = await Parts.open(tmp_path)
    try:
        log = await storm(parts, "v", visitors=8, turns=10, erase_p=0.25, seed=SEED, threads=threads)
    finally:
        await parts.close()
    assert_clean(tmp_path, log)


async def test_two_processes_on_one_data_dir_lose_nothing(tmp_path: Path) -> None:
    """A second kiosk process (or the CLI beside the server) storming the same file at the same time."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    parts = await Parts.open(tmp_path)  # creates the file before the other process opens it
    script = str(ROOT / "tests" / "_commit_storm.py")
    child = await asyncio.create_subprocess_exec(
        *(sys.executable, script, str(tmp_path), str(SEED), "p", "6", "10", "0.25"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
        cwd=ROOT,
    )
    try:
        assert child.stdout is not None and child.stderr is not None
        ready = await asyncio.wait_for(child.stdout.readline(), timeout=120)
        assert ready.decode().strip() == "ready", (await child.stderr.read()).decode()[-2000:]
        (tmp_path / "go").touch()
        log = await storm(parts, "q", visitors=6, turns=10, erase_p=0.25, seed=SEED, threads=False)
        out, err = await asyncio.wait_for(child.communicate(), timeout=300)
    finally:
        if child.returncode is None:
            child.kill()
            await child.wait()
        await parts.close()
    assert child.returncode == 0, err.decode()[-2000:]
    log.merge(log_from_json(out.decode().strip().splitlines()[-1]))
    assert {c[0] for c in log.kept} | {c[0] for c in log.erased} == {"p", "q"}  # both processes wrote
    assert_clean(tmp_path, log)


# -- the same storm through the conversation engine and the Memory facade, with the real models ------
class ScriptedLlm:
    """The LLM at its network edge: a short reply about the user's words, streamed in two pieces."""

    last_stats = None

    async def stream(
        self, messages: list[dict[str, str]], *, max_tokens: int, temperature: float
    ) -> AsyncIterator[str]:
        words = messages[-1]["content"].split()
        yield "Noted: "
        yield " ".join(words[-3:])


@pytest.fixture(scope="module")
def models() -> tuple[Any, Any]:
    from voice_agent.memory.chunker import ClauseChunker
    from voice_agent.memory.embed import MiniLmEmbedder

    embedder, chunker = MiniLmEmbedder(), ClauseChunker()
    embedder.start()
    chunker.start(["en"])
    return embedder, chunker


@pytest.mark.slow
async def test_engine_visitors_committing_and_erasing_lose_nothing(
    tmp_path: Path, models: tuple[Any, Any], caplog: pytest.LogCaptureFixture
) -> None:
    from voice_agent.config import load_config
    from voice_agent.conversation.engine import ConversationEngine
    from voice_agent.conversation.turns import TurnLog
    from voice_agent.memory.service import Memory
    from voice_agent.metrics.trace import TurnTrace

    config = load_config(data_dir=tmp_path, env={"VOICE_AGENT_MEMORY__EMBEDDER": "minilm"})
    embedder, chunker = models
    memory = await Memory.open(config, embedder=embedder, chunker=chunker, env={})
    turns = TurnLog(config.store_path())
    await turns.open()
    engines: list[ConversationEngine] = []

    def visitor_of(name: str) -> Any:
        engine = ConversationEngine(config, memory, ScriptedLlm(), turns)
        engines.append(engine)

        async def commit(conv: str, turn_id: str, rng: Any) -> None:
            text = (
                f"My favourite {rng.choice(THINGS)} shop is on {rng.choice(STREETS)} Street, "
                f"call me on 138 {rng.randrange(1000, 9999)} {rng.randrange(1000, 9999)}."
            )
            trace = TurnTrace(conv, turn_id=turn_id)
            reply = "".join([delta async for delta in engine.respond(conv, text, trace)])
            await engine.commit(conv, text, reply, trace)

        async def erase_conv(conv: str) -> None:  # what the kiosk's erase does
            await engine.drain()
            await memory.forget(conv)
            await turns.forget(conv)
            memory.release(conv)

        return visitor(name, commit, erase_conv, turns=4, erase_p=0.3, seed=SEED)

    try:
        logs = await asyncio.gather(*(visitor_of(f"e{i}") for i in range(5)))
        await asyncio.gather(*(engine.drain() for engine in engines))
    finally:
        await turns.close()
        await memory.close()
    log = StormLog()
    for one in logs:
        log.merge(one)
    assert not [r.getMessage() for r in caplog.records if "failed" in r.getMessage()]
    assert_clean(tmp_path, log)
