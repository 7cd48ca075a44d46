"""A commit storm: kiosk visitors committing turns and erasing their conversations at the same time,
against one data directory, from asyncio tasks, from threads, or from a second process.

Each visitor commits turns the way a turn is committed (the vault rows of the scrubbed words, the turn
log's user row, the utterance's records with their vectors, fingerprints and vault rows in one
transaction, the turn log's reply row, the reply's record) and, at seeded random moments, erases its
conversation the way the kiosk does (records, vectors, keywords, fingerprints, vault, turn log) and goes
on in a fresh one. :func:`audit` then reads the file: every kept turn must be there in full, and nothing
of an erased conversation may remain.

Run as a script (``python tests/_commit_storm.py DATA_DIR SEED PREFIX``) it is the second process: it
prints ``ready`` once open, waits for the file ``DATA_DIR/go``, storms, and prints its log as JSON.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from voice_agent.conversation.turns import TurnLog
from voice_agent.memory.records import MemoryRecord
from voice_agent.memory.scrub import Scrubber
from voice_agent.memory.store.base import Tenant, WriteBatch
from voice_agent.memory.store.sqlite import SqliteStore
from voice_agent.memory.vault import PiiVault

DIM = 16
KEY = bytes(range(32))  # the test install key (both processes must share it)
STORE = "memory.sqlite3"
SCRIPT = Path(__file__).resolve()
ROOT = SCRIPT.parent.parent  # on the child's PYTHONPATH: this checkout's voice_agent
THINGS = ("tea", "the sea", "chess", "jazz", "rain", "trains", "bread", "maps")


@dataclass
class StormLog:
    """What the visitors did, as they saw it: turns they committed (conversation -> turn ids) in
    conversations they did not erase, conversations they erased, and the errors they were given."""

    attempted: int = 0
    kept: dict[str, list[str]] = field(default_factory=dict)
    erased: list[str] = field(default_factory=list)
    failed_commits: list[str] = field(default_factory=list)
    failed_erases: list[str] = field(default_factory=list)

    def merge(self, other: StormLog) -> None:
        self.attempted += other.attempted
        self.kept.update(other.kept)
        self.erased += other.erased
        self.failed_commits += other.failed_commits
        self.failed_erases += other.failed_erases


@dataclass
class Audit:
    """What the file holds against the log: turns lost (kept but incomplete, or whose commit failed)
    and erases failed (raised, or something of the conversation remains)."""

    turns: int
    lost_turns: int
    erases: int
    failed_erases: int
    leftovers: dict[str, dict[str, int]]
    errors: list[str]


# -- the store-level visitor ------------------------------------------------------------------------
@dataclass
class Parts:
    store: SqliteStore
    vault: PiiVault
    turns: TurnLog
    scrubber: Scrubber

    @classmethod
    async def open(cls, data_dir: Path) -> Parts:
        """The store, vault and turn log of ``data_dir``; vectors of the dimension (and under the
        embedder name) the file already holds, so this can storm beside a real Memory."""
        path = data_dir / STORE
        store = SqliteStore(path)
        dim, embedder = _vector_meta(path)
        await store.open(dim=dim, embedder=embedder)
        vault = await asyncio.to_thread(store.local.run, lambda conn: PiiVault(conn, KEY))
        turns = TurnLog(path)
        await turns.open()
        return cls(store, vault, turns, Scrubber(KEY))

    async def close(self) -> None:
        await self.turns.close()
        await self.store.close()


def _vector_meta(path: Path) -> tuple[int, str]:
    if not path.exists():
        return DIM, "test-random"
    import apsw

    conn = apsw.Connection(str(path), flags=apsw.SQLITE_OPEN_READONLY)
    try:
        conn.set_busy_timeout(5000)
        meta = dict(conn.execute("SELECT key, value FROM meta WHERE key IN ('dim', 'embedder')").fetchall())
    finally:
        conn.close()
    return (int(meta["dim"]), str(meta["embedder"])) if meta else (DIM, "test-random")


def _vector(rng: random.Random, dim: int) -> np.ndarray:
    v = np.array([rng.gauss(0.0, 1.0) for _ in range(dim)], dtype=np.float32)
    return v / np.linalg.norm(v)


async def commit_turn(parts: Parts, conv: str, turn_id: str, rng: random.Random) -> None:
    """One turn, committed as the engine commits it (user side, then the spoken reply)."""
    said = (
        f"I like {rng.choice(THINGS)} and my number is 138 {rng.randrange(1000, 9999)} "
        f"{rng.randrange(1000, 9999)}."
    )
    scrubbed = parts.scrubber.scrub(said)
    store, vault = parts.store, parts.vault
    await asyncio.to_thread(store.local.run, lambda _conn: vault.put(conv, scrubbed.found))
    await parts.turns.append(conv, turn_id, "user", scrubbed.text)
    user = MemoryRecord(conv, scrubbed.text, source=turn_id, pii_tokens=scrubbed.placeholders)
    dim = parts.store.dim
    vector = _vector(rng, dim)
    batch = WriteBatch([user], vector[None, :], {user.id: vector})
    await asyncio.to_thread(
        store.write_sync, Tenant(conv), batch, lambda _conn: vault.put(conv, scrubbed.found)
    )
    reply = f"Noted: {rng.choice(THINGS)}."
    await parts.turns.append(conv, turn_id, "assistant", reply)
    answer = MemoryRecord(conv, reply, role="assistant", source=turn_id)
    await parts.store.write(Tenant(conv), WriteBatch([answer], _vector(rng, dim)[None, :]))


async def erase(parts: Parts, conv: str) -> None:
    """What the kiosk's erase does: every record with its vault values, then the logged turns."""
    vault = parts.vault
    await asyncio.to_thread(
        parts.store.delete_sync, Tenant(conv), None, lambda _conn: vault.forget_conversation(conv)
    )
    await parts.turns.forget(conv)


Commit = Callable[[str, str, random.Random], Awaitable[None]]
Erase = Callable[[str], Awaitable[None]]


async def visitor(
    name: str,
    commit: Commit,
    erase_conv: Erase,
    *,
    turns: int,
    erase_p: float,
    seed: int,
    until: Callable[[], bool] | None = None,
) -> StormLog:
    """``turns`` turns (and more, until ``until()`` says so, when given); after each, with
    probability ``erase_p``, erase the conversation and go on in a new one."""
    rng = random.Random(f"{seed}:{name}")
    log = StormLog()
    generation = 0
    conv = f"{name}-g{generation}"
    log.kept[conv] = []
    for number in itertools.count():
        if number >= turns and (until is None or until()):
            break
        turn_id = f"{conv}-t{number}"
        log.attempted += 1
        try:
            await commit(conv, turn_id, rng)
            log.kept[conv].append(turn_id)
        except Exception as err:  # counted, never hidden: a lost turn
            log.failed_commits.append(f"{turn_id}: {type(err).__name__}: {err}")
        if rng.random() < erase_p:
            del log.kept[conv]
            log.erased.append(conv)
            try:
                await erase_conv(conv)
            except Exception as err:  # counted: a failed erase
                log.failed_erases.append(f"{conv}: {type(err).__name__}: {err}")
            generation += 1
            conv = f"{name}-g{generation}"
            log.kept[conv] = []
    return log


async def storm(
    parts: Parts,
    prefix: str,
    *,
    visitors: int,
    turns: int,
    erase_p: float,
    seed: int,
    threads: bool,
    until: Callable[[], bool] | None = None,
) -> StormLog:
    """``visitors`` visitors at once: asyncio tasks on this loop, or each in its own thread and loop."""

    async def commit(conv: str, turn_id: str, rng: random.Random) -> None:
        await commit_turn(parts, conv, turn_id, rng)

    async def erase_conv(conv: str) -> None:
        await erase(parts, conv)

    names = [f"{prefix}{i}" for i in range(visitors)]

    def one(name: str) -> Awaitable[StormLog]:
        return visitor(name, commit, erase_conv, turns=turns, erase_p=erase_p, seed=seed, until=until)

    if not threads:
        logs = await asyncio.gather(*(one(name) for name in names))
    else:
        logs = await asyncio.gather(*(asyncio.to_thread(asyncio.run, one(name)) for name in names))  # type: ignore[arg-type]
    total = StormLog()
    for log in logs:
        total.merge(log)
    return total


# -- reading the file back ---------------------------------------------------------------------------
def audit(data_dir: Path, log: StormLog) -> Audit:
    """Compare the file with what the visitors were told."""
    import apsw
    import sqlite_vec

    conn = apsw.Connection(str(data_dir / STORE), flags=apsw.SQLITE_OPEN_READONLY)
    conn.enable_load_extension(True)
    conn.load_extension(sqlite_vec.loadable_path())
    try:
        lost = len(log.failed_commits) + sum(
            0 if _turn_complete(conn, conv, turn_id) else 1
            for conv, turn_ids in log.kept.items()
            for turn_id in turn_ids
        )
        leftovers = {conv: left for conv in log.erased if (left := remains(conn, conv))}
    finally:
        conn.close()
    failed = {entry.split(":", 1)[0] for entry in log.failed_erases} | set(leftovers)
    return Audit(
        turns=log.attempted,
        lost_turns=lost,
        erases=len(log.erased),
        failed_erases=len(failed),
        leftovers=leftovers,
        errors=(log.failed_commits + log.failed_erases)[:5],
    )


def _turn_complete(conn: Any, conv: str, turn_id: str) -> bool:
    logged = {
        str(r[0])
        for r in conn.execute(
            "SELECT role FROM conversation_turns WHERE conversation_id = ? AND turn_id = ?", (conv, turn_id)
        )
    }
    stored = {
        str(r[0])
        for r in conn.execute(
            "SELECT role FROM records WHERE conversation_id = ? AND source = ?", (conv, turn_id)
        )
    }
    return logged == {"user", "assistant"} and stored == {"user", "assistant"}


def remains(conn: Any, conv: str) -> dict[str, int]:
    """Rows of ``conv`` left anywhere in the file: records, vectors, keywords, fingerprints, links,
    the conversation row, vault values, logged turns and the window."""
    tenant = Tenant(conv)
    fts_token = "t" + tenant.key.removeprefix("t_")
    queries = {
        "records": ("SELECT count(*) FROM records WHERE conversation_id = ?", conv),
        "conversations": ("SELECT count(*) FROM conversations WHERE id = ?", conv),
        "links": ("SELECT count(*) FROM links WHERE conversation_id = ?", conv),
        "vectors": ("SELECT count(*) FROM records_vec WHERE tenant = ?", tenant.key),
        "fingerprints": ("SELECT count(*) FROM fingerprints WHERE owner = ?", tenant.hash),
        "keywords": ("SELECT count(*) FROM records_fts WHERE records_fts MATCH ?", f'tenant:"{fts_token}"'),
        "vault": ("SELECT count(*) FROM pii_vault WHERE conversation_id = ?", conv),
        "turns": ("SELECT count(*) FROM conversation_turns WHERE conversation_id = ?", conv),
        "window": ("SELECT count(*) FROM conversation_windows WHERE conversation_id = ?", conv),
    }
    counts = {name: int(conn.execute(sql, (value,)).fetchone()[0]) for name, (sql, value) in queries.items()}
    return {name: count for name, count in counts.items() if count}


# -- the second process ----------------------------------------------------------------------------
def wait_for(path: Path, timeout_s: float = 120.0) -> None:
    give_up = time.monotonic() + timeout_s
    while not path.exists():
        if time.monotonic() > give_up:
            raise TimeoutError(f"{path} did not appear")
        time.sleep(0.01)


def main(argv: list[str]) -> int:
    data_dir, seed, prefix = Path(argv[0]), int(argv[1]), argv[2]
    visitors, turns, erase_p = int(argv[3]), int(argv[4]), float(argv[5])
    until = (data_dir / "stop").exists if argv[6:] == ["until-stop"] else None

    async def run() -> StormLog:
        parts = await Parts.open(data_dir)
        try:
            print("ready", flush=True)
            await asyncio.to_thread(wait_for, data_dir / "go")
            return await storm(
                parts, prefix, visitors=visitors, turns=turns, erase_p=erase_p, seed=seed, threads=False,
                until=until,
            )  # fmt: skip
        finally:
            await parts.close()

    print(json.dumps(asdict(asyncio.run(run()))), flush=True)
    return 0


class OtherProcess:
    """This script in a child process storming ``data_dir``: ``await start()`` (open, then ready),
    ``go()`` (storm), ``await finish()`` (stop, when it storms until told, and its log)."""

    def __init__(
        self, data_dir: Path, *, prefix: str, visitors: int, turns: int, erase_p: float, seed: int,
        until_stop: bool = False,
    ) -> None:  # fmt: skip
        self.data_dir = data_dir
        self.args = [str(data_dir), str(seed), prefix, str(visitors), str(turns), str(erase_p)]
        self.args += ["until-stop"] if until_stop else []
        self.child: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
        self.child = await asyncio.create_subprocess_exec(
            sys.executable, str(SCRIPT), *self.args,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=env, cwd=ROOT,
        )  # fmt: skip
        assert self.child.stdout is not None and self.child.stderr is not None
        ready = await asyncio.wait_for(self.child.stdout.readline(), timeout=120)
        if ready.decode().strip() != "ready":
            raise RuntimeError((await self.child.stderr.read()).decode()[-2000:])

    def go(self) -> None:
        (self.data_dir / "go").touch()

    async def finish(self) -> StormLog:
        assert self.child is not None
        (self.data_dir / "stop").touch()
        out, err = await asyncio.wait_for(self.child.communicate(), timeout=300)
        if self.child.returncode != 0:
            raise RuntimeError(err.decode()[-2000:])
        return log_from_json(out.decode().strip().splitlines()[-1])

    async def kill(self) -> None:
        if self.child is not None and self.child.returncode is None:
            self.child.kill()
            await self.child.wait()


def log_from_json(text: str) -> StormLog:
    return StormLog(**json.loads(text))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
