"""The Memory facade end to end with real components: spaCy clause chunks, the MiniLM embedder, the
PII scrubber and vault, and the SQLite store in a temporary data directory."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from voice_agent.config import Config, load_config
from voice_agent.errors import InputError, TenantRequiredError
from voice_agent.memory.service import Memory
from voice_agent.memory.store.base import StoreQuery, Tenant
from voice_agent.memory.writes import WriteRequest
from voice_agent.metrics.trace import TraceWriter, TurnTrace

pytestmark = pytest.mark.slow

ENV = {"VOICE_AGENT_MEMORY__EMBEDDER": "minilm"}


def make_config(data_dir: Path) -> Config:
    return load_config(data_dir=data_dir, env=ENV)


@pytest.fixture
async def memory(tmp_path: Path, parts: tuple[Any, Any]) -> AsyncIterator[Memory]:
    embedder, chunker = parts
    m = await Memory.open(make_config(tmp_path / "data"), embedder=embedder, chunker=chunker, env={})
    yield m
    await m.close()


async def test_write_path_scrubs_chunks_embeds_and_stores(memory: Memory) -> None:
    records = await memory.remember(
        WriteRequest(
            "c1",
            "user",
            "I moved to Lisbon last spring and my number is 138 0013 8000.",
            source="t1",
            speaker="Ana Silva",
        ),
    )
    assert len(records) >= 2, [r.text for r in records]  # two clauses
    assert all(r.source == "t1" and r.conversation_id == "c1" for r in records)
    assert all(r.speaker and r.speaker.startswith("[NAME:") for r in records)
    joined = " ".join(r.text for r in records)
    assert "138" not in joined and "[PHONE:" in joined
    phone = next(t for r in records for t in r.pii_tokens if t.startswith("[PHONE:"))
    reveal = memory.vault.reveal("c1", phone)
    assert reveal == "138 0013 8000"
    assert memory.vault.reveal("c2", phone) is None
    stored = await memory.list("c1")
    assert {r.id for r in stored} == {r.id for r in records}
    result = await memory.recall("c1", "Where did I move?", budget_tokens=200)
    assert result.items and "Lisbon" in result.items[0].record.text
    assert 0 < result.tokens_used <= 200


async def test_names_once_found_are_scrubbed_everywhere(memory: Memory) -> None:
    first = await memory.remember(
        WriteRequest("c1", "user", "My sister Maria Gonzalez lives in Madrid.", source="t1")
    )
    assert not any("Gonzalez" in r.text for r in first)
    later = await memory.remember(
        WriteRequest("c1", "user", "Yesterday Gonzalez phoned about the tickets.", source="t2")
    )
    assert not any("Gonzalez" in r.text for r in later) and any("[NAME:" in r.text for r in later)
    scrubbed = await memory.scrub("c1", "Tell Maria Gonzalez I said hello")
    assert "Maria" not in scrubbed and "Gonzalez" not in scrubbed and scrubbed.startswith("Tell [NAME:")
    assert "gonzalez" in memory.names.names("c1") and "gonzalez" not in memory.names.names("other")


async def test_a_chinese_name_said_as_a_name_is_scrubbed_then_and_later(memory: Memory) -> None:
    first = await memory.remember(
        WriteRequest("zh1", "user", "我叫张伟，我女儿叫张小雨，她对花生过敏。", source="t1")
    )
    text = "".join(r.text for r in first)
    assert "张伟" not in text and "张小雨" not in text and text.count("[NAME:") >= 2, text
    assert "花生过敏" in text  # the fact itself stays
    later = await memory.remember(
        WriteRequest("zh1", "user", "张小雨明天去上学。", source="t2")
    )  # no cue this time
    assert not any("张小雨" in r.text for r in later), [r.text for r in later]
    assert "张伟" not in await memory.scrub("zh1", "张伟想订一个蛋糕")
    assert "张伟" not in memory.names.names("zh-other")  # known names stay in their conversation
    assert "张伟" not in await memory.scrub("zh-other", "张伟想订一个蛋糕")  # a name needs no cue (issue 12)


def test_known_names_match_whole_capitalised_words() -> None:
    from voice_agent.memory.writepath import KnownNames

    names = KnownNames(lambda _conversation: {"will"})
    text = "I will call Will, and Willow too."
    assert [text[a:b] for a, b in names.spans("c", text)] == ["Will"]
    names.add("c", ["maria gonzalez"])
    text = "Maria Gonzalez, then Gonzalez alone, then maria."
    assert [text[a:b] for a, b in names.spans("c", text)] == ["Maria Gonzalez", "Gonzalez"]


async def test_canary_never_crosses_conversations(memory: Memory) -> None:
    canary = "My secret project codename is papaya-quartz and the locker code is 4471."
    await memory.remember(WriteRequest("alice", "user", canary, source="a1"))
    await memory.remember(WriteRequest("alice", "user", "I also keep bees in the garden.", source="a2"))
    await memory.remember(WriteRequest("bob", "user", "I play the cello on weekends.", source="b1"))
    for query in (
        canary,
        "what is the codename of the secret project?",
        "papaya-quartz 4471 locker",
        "bees",
    ):
        result = await memory.recall("bob", query, budget_tokens=500)
        assert all(item.record.conversation_id == "bob" for item in result.items), query
        assert not any("Bluebird" in item.record.text for item in result.items)
    assert [r.conversation_id for r in await memory.list("bob")] == ["bob"]
    own = await memory.recall("alice", "codename of the secret project", budget_tokens=500)
    assert any("papaya-quartz" in item.record.text for item in own.items)


PII_TEXT = (
    "I'm Mary Johnson. Call me on +86 139-1234-5678, or at home on 一三九八七六五四三二一. "
    "My ID is 11010519491231002X and my card is 4111 1111 1111 1111. "
    "Email mary.johnson@example.com or write to 1600 Pennsylvania Avenue NW, Washington, DC 20500. "
    "My office is at 北京市海淀区中关村大街27号. In London my number is +44 20 7946 0958."
)
RAW = [
    "139-1234-5678", "13912345678", "一三九八七六五四三二一", "13987654321", "11010519491231002X",
    "110105194912", "4111 1111 1111 1111", "4111111111111111", "mary.johnson@example.com", "mary.johnson",
    "Pennsylvania", "中关村大街", "7946 0958", "2079460958", "Mary Johnson", "Johnson",
]  # fmt: skip


def _all_bytes(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in folder.rglob("*") if p.is_file())


async def test_no_raw_pii_anywhere_in_the_data_dir(tmp_path: Path, parts: tuple[Any, Any]) -> None:
    data = tmp_path / "data"
    embedder, chunker = parts
    memory = await Memory.open(make_config(data), embedder=embedder, chunker=chunker, env={})
    trace = TurnTrace("pii")
    records = await memory.remember(WriteRequest("pii", "user", PII_TEXT, source="t1"), trace=trace)
    TraceWriter(data / "traces" / "trace.jsonl").write(trace)
    found = {t.split(":")[0][1:] for r in records for t in r.pii_tokens}
    assert {"PHONE", "ID", "CARD", "EMAIL", "ADDRESS", "NAME"} <= found
    recall = await memory.recall("pii", "what is my phone number 139-1234-5678?", budget_tokens=500)
    (data / "recall.json").write_text(json.dumps(recall.to_json(), ensure_ascii=False))
    (data / "export.json").write_text(json.dumps(await memory.export("pii"), ensure_ascii=False))
    await memory.close()
    blob = _all_bytes(data)
    lowered = blob.lower()
    leaked = [v for v in RAW if v.encode() in blob or v.lower().encode() in lowered]
    assert leaked == []
    assert b"[PHONE:" in blob  # the checks above looked at real content


async def test_bad_input_is_refused_and_nothing_is_lost(memory: Memory) -> None:
    await memory.remember(WriteRequest("c1", "user", "I keep a green notebook.", source="keep"))
    before = await memory.list("c1")
    assert await memory.remember(WriteRequest("c1", "user", "")) == []
    assert await memory.remember(WriteRequest("c1", "user", "   \n\t ")) == []
    with pytest.raises(InputError, match="limit"):
        await memory.remember(WriteRequest("c1", "user", "word " * 200_000))  # 1 MB
    with pytest.raises(InputError, match="UTF-8"):
        await memory.remember(WriteRequest("c1", "user", b"caf\xe9 au lait"))
    with pytest.raises(InputError, match=r"UTF-8|binary"):
        await memory.remember(WriteRequest("c1", "user", bytes(range(256)) * 4))
    with pytest.raises(InputError, match="binary"):
        await memory.remember(WriteRequest("c1", "user", "abc\x00\x01\x02def"))
    with pytest.raises(InputError, match="binary"):
        await memory.remember(WriteRequest("c1", "user", "".join(chr(c) for c in range(1, 31)) * 3))
    with pytest.raises(InputError, match="role"):
        await memory.remember(WriteRequest("c1", "robot", "hello there"))
    with pytest.raises(TenantRequiredError):
        await memory.remember(WriteRequest("", "user", "hello there"))
    with pytest.raises(TenantRequiredError):
        await memory.recall("", "hello", budget_tokens=10)
    unknown = await memory.recall("never-seen", "anything at all", budget_tokens=100)
    assert unknown.items == [] and unknown.tokens_used == 0
    assert await memory.forget("never-seen", ids=["nope"]) == 0
    assert await memory.list("never-seen") == []
    assert [r.id for r in await memory.list("c1")] == [r.id for r in before]
    assert memory.store.integrity_check() == []  # type: ignore[attr-defined]


async def test_supersede_keeps_only_the_current_decision_active(memory: Memory) -> None:
    old = await memory.remember_item(
        "c1", "decision", "We meet on Tuesdays.", source="t1", importance=0.8, subject="meeting day"
    )
    new = (
        await memory.remember(
            WriteRequest("c1", "user", "We meet on Fridays now.", kind="decision", subject="meeting day")
        )
    )[0]
    assert new.supersedes == old.id
    assert [r.id for r in await memory.pinned("c1")] == [new.id]
    with_old = {r.id: r.status for r in await memory.pinned("c1", include_superseded=True)}
    assert with_old == {old.id: "superseded", new.id: "active"}
    result = await memory.recall("c1", "which day do we meet?", budget_tokens=200)
    assert [i.record.id for i in result.items] == [new.id]
    assert result.cut_counts()["superseded"] == 1
    # An explicit supersede: a decision stored without a subject replaces the current one.
    latest = await memory.remember_item("c1", "decision", "We meet on Mondays.", source="t3", importance=0.8)
    assert await memory.supersede("c1", latest, "meeting day") == 1
    assert [r.id for r in await memory.pinned("c1")] == [latest.id]
    await memory.mark_superseded("c1", latest.id, "later-id")
    assert await memory.pinned("c1") == []


async def test_forget_by_id_query_and_whole_conversation(memory: Memory) -> None:
    a = await memory.remember(WriteRequest("c1", "user", "My email is zed@example.org.", source="t1"))
    b = await memory.remember(WriteRequest("c1", "user", "I enjoy rock climbing in the Alps.", source="t2"))
    c = await memory.remember(WriteRequest("c1", "user", "My cat is called Biscuit.", source="t3"))
    assert await memory.forget("c1", ids=[c[0].id]) == 1
    removed = await memory.forget("c1", query="forget my email zed@example.org")
    assert removed >= 1
    left = {r.text for r in await memory.list("c1")}
    assert not any("[EMAIL:" in t for t in left) and any("climbing" in t for t in left)
    email_token = a[0].pii_tokens[0] if a[0].pii_tokens else next(t for r in a for t in r.pii_tokens)
    assert memory.vault.reveal("c1", email_token) == "zed@example.org"
    assert await memory.forget("c1") == len(b)
    assert await memory.list("c1") == []
    assert memory.vault.reveal("c1", email_token) is None


async def test_export_import_round_trip(memory: Memory) -> None:
    await memory.remember(
        WriteRequest(
            "c1", "user", "I grow tomatoes and my phone is 138 0013 8000.", source="t1", speaker="Li"
        )
    )
    fact = await memory.remember_item("c1", "fact", "Allergic to peanuts.", source="t2", importance=0.9)
    document = await memory.export("c1")
    assert document["format"] == "voice-agent-memory" and len(document["records"]) >= 2
    assert "0013 8000" not in json.dumps(document) and "13800138000" not in json.dumps(document)
    report = await memory.import_(json.loads(json.dumps(document)), conversation_id="c2")
    assert report.imported == len(document["records"]) and not report.failed
    again = await memory.import_(document, conversation_id="c2")
    assert again.imported == 0 and again.skipped == len(document["records"])
    copied = await memory.list("c2")
    assert {r.text for r in copied} == {r["text"] for r in document["records"]}
    assert any(r.text == fact.text and r.kind == "fact" and r.id != fact.id for r in copied)
    result = await memory.recall("c2", "what am I allergic to?", budget_tokens=100)
    assert result.items and "peanuts" in result.items[0].record.text
    edited = json.loads(json.dumps(document))
    edited["records"][0]["id"] = "hand-edited"
    edited["records"][0]["text"] = "call me on 139 1234 5678"
    await memory.import_(edited, conversation_id="c3")
    assert "1234 5678" not in " ".join(r.text for r in await memory.list("c3"))
    with pytest.raises(InputError):
        await memory.import_({"format": "something else"})


async def test_purge_older_than(memory: Memory) -> None:
    old = time.time() - 40 * 86400
    await memory.remember(
        WriteRequest("c1", "user", "An old memory about sailing.", source="t1", created_at=old)
    )
    await memory.remember(WriteRequest("c1", "user", "A new memory about hiking.", source="t2"))
    await memory.remember(WriteRequest("c2", "user", "Only old stuff here.", source="t3", created_at=old))
    assert await memory.purge_older_than(30) >= 2
    assert [r.source for r in await memory.list("c1")] == ["t2"]
    assert "c2" not in await memory.store.conversations()


CRASH_SCRIPT = textwrap.dedent(
    """
    import asyncio, sys
    from voice_agent.config import load_config
    from voice_agent.memory.service import Memory, WriteRequest

    async def main():
        config = load_config(data_dir=sys.argv[1], env={"VOICE_AGENT_MEMORY__EMBEDDER": "minilm"})
        memory = await Memory.open(config, env={})
        i = 0
        while True:
            text = f"On day {i} I walked the dog to the park, and then I called [PHONE:0123456789ab] at noon."
            await memory.remember(WriteRequest("crash", "user", text, source=f"u{i}"))
            print(f"committed {i}", flush=True)
            i += 1

    asyncio.run(main())
    """
)


def test_killed_mid_ingest_loses_at_most_the_utterance_in_flight(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("VOICE_AGENT_PII_KEY", None)
    proc = subprocess.Popen(
        [sys.executable, "-c", CRASH_SCRIPT, str(data)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        text=True,
    )
    committed = -1
    assert proc.stdout is not None
    deadline = time.monotonic() + 180
    while committed < 12 and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        committed = int(line.split()[1])
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert committed >= 12, "the ingest subprocess did not get going"
    counts = _reopen_counts(data)
    per_source = counts["per_source"]
    expected = {f"u{i}" for i in range(committed + 1)}
    assert expected <= set(per_source)  # everything reported committed survived the kill
    assert len(set(per_source) - expected) <= 1  # at most the one in flight, and then whole
    assert len(set(per_source.values())) == 1  # every utterance has all of its clauses
    assert counts["integrity"] == []


def _reopen_counts(data: Path) -> dict[str, Any]:
    import asyncio

    from voice_agent.memory.store.sqlite import SqliteStore

    async def run() -> dict[str, Any]:
        store = SqliteStore(data / "memory.sqlite3")
        await store.open(dim=384, embedder="all-MiniLM-L6-v2-int8")
        hits = await store.search(Tenant("crash"), StoreQuery(limit=4096))
        per_source: dict[str, int] = {}
        for hit in hits:
            per_source[hit.record.source] = per_source.get(hit.record.source, 0) + 1
        integrity = store.integrity_check()
        await store.close()
        return {"per_source": per_source, "integrity": integrity}

    return asyncio.run(run())
