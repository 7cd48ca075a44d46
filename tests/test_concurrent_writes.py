"""No lost writes: kiosk visitors committing turns and erasing their conversations at the same time, in
one process (asyncio tasks, threads) and from two processes against one data directory, lose no turn and
fail no erase; everything asked to be erased is gone from every table (records, vectors, keywords,
fingerprints, vault, turn log). The workload is in ``_commit_storm.py``; vectors are random (the subject
is the SQLite file, not embedding quality; the engine-level test below uses the real models)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from _commit_storm import THINGS, OtherProcess, Parts, StormLog, audit, storm, visitor

SEED = 11
STREETS = ("Baker", "Rose", "Mill", "Castle", "Harbour")


def assert_clean(data_dir: Path, log: StormLog) -> None:
    result = audit(data_dir, log)
    lost, failed = result.lost_turns, result.failed_erases
    print(f"storm: {result.turns} turns, {lost} lost; {result.erases} erases, {failed} failed")
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
    parts = await Parts.open(tmp_path)  # creates the file before the other process opens it
    other = OtherProcess(tmp_path, prefix="p", visitors=6, turns=10, erase_p=0.25, seed=SEED)
    try:
        await other.start()
        other.go()
        log = await storm(parts, "q", visitors=6, turns=10, erase_p=0.25, seed=SEED, threads=False)
        log.merge(await other.finish())
    finally:
        await other.kill()
        await parts.close()
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
async def test_engine_visitors_beside_another_process_lose_nothing(
    tmp_path: Path, models: tuple[Any, Any], caplog: pytest.LogCaptureFixture
) -> None:
    """Kiosk visitors through the real engine and Memory (MiniLM, spaCy, scrubber, vault) while another
    process (a second kiosk, the CLI) writes and erases in the same file the whole time."""
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
    other = OtherProcess(tmp_path, prefix="p", visitors=3, turns=5, erase_p=0.25, seed=SEED, until_stop=True)
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

    log = StormLog()
    try:
        await other.start()
        other.go()
        for one in await asyncio.gather(*(visitor_of(f"e{i}") for i in range(5))):
            log.merge(one)
        await asyncio.gather(*(engine.drain() for engine in engines))
        log.merge(await other.finish())
    finally:
        await other.kill()
        await turns.close()
        await memory.close()
    assert {c[0] for c in log.kept} | {c[0] for c in log.erased} == {"e", "p"}
    assert not [r.getMessage() for r in caplog.records if "failed" in r.getMessage()]
    assert_clean(tmp_path, log)


# -- the policy itself --------------------------------------------------------------------------------
def test_a_write_waits_out_a_lock_held_past_the_busy_timeout_and_gives_up_clearly(tmp_path: Path) -> None:
    import threading

    from voice_agent.errors import StoreError
    from voice_agent.memory.store.sqlite_conn import connect, write_transaction

    path = tmp_path / "policy.sqlite3"
    holder = connect(path, synchronous="NORMAL", vectors=False)
    holder.execute("CREATE TABLE t (x INTEGER)")
    writer = connect(path, synchronous="NORMAL", busy_timeout_ms=20, vectors=False)
    holder.execute("BEGIN IMMEDIATE")
    with pytest.raises(StoreError, match="busy"):  # a bounded wait, then a clear error
        write_transaction(writer, lambda c: c.execute("INSERT INTO t VALUES (1)"), deadline_s=0.2)
    released = threading.Event()

    def release_later() -> None:
        released.wait(timeout=30)
        holder.execute("COMMIT")

    thread = threading.Thread(target=release_later)
    thread.start()
    try:
        # Far longer than the 20 ms busy timeout: the write is retried, never dropped.
        threading.Timer(0.3, released.set).start()
        write_transaction(writer, lambda c: c.execute("INSERT INTO t VALUES (2)"), deadline_s=30)
    finally:
        released.set()
        thread.join()
    assert [r[0] for r in writer.execute("SELECT x FROM t")] == [2]
    holder.close()
    writer.close()
