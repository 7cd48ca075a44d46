"""The conversation engine end to end, with real memory (SQLite, spaCy, e5) and a real local LLM
(SmolLM2-135M behind the llama.cpp server). Assertions are on the prompt the LLM received, not on the
small model's words."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from _llm_support import free_port, smollm2_backend, smollm2_sections

from voice_agent.assistant import Assistant
from voice_agent.config import Config, load_config
from voice_agent.conversation.guard import NOTICES
from voice_agent.memory.writes import WriteRequest

pytestmark = pytest.mark.slow

UNRELATED = [
    "What's the capital of France?",
    "How many legs does a spider have?",
    "Tell me something about the moon.",
    "What is a good name for a goldfish?",
    "How do I boil an egg?",
    "Why is the sky blue?",
    "What's two plus two?",
    "Name a famous painter.",
    "How long is a marathon?",
    "What language is spoken in Brazil?",
    "Suggest a board game for a rainy day.",
    "What does a bee make?",
    "How far away is the sun?",
    "Name a planet with rings.",
    "What is the tallest animal?",
    "How do plants drink water?",
    "What is a haiku?",
    "Which ocean is the largest?",
    "What colour are emeralds?",
    "How many days are in a leap year?",
    "What is the boiling point of water?",
    "Name a musical instrument with strings.",
    "What do pandas eat?",
    "How many continents are there?",
    "What is the opposite of cold?",
]


SMOLLM2_LOCAL = smollm2_backend(timeout_s=30)


def _config_file(tmp_path: Path, *, backends: str = SMOLLM2_LOCAL, name: str = "test.toml") -> Path:
    """A config over the defaults: the given LLM backends (SmolLM2 on a free port by default)."""
    path = tmp_path / name
    path.write_text(smollm2_sections(backends=backends), encoding="utf-8")
    return path


def _config(tmp_path: Path) -> Config:
    return load_config(_config_file(tmp_path), data_dir=tmp_path / "data", env={})


async def _script(assistant: Assistant, conversation: str, turns: list[str]) -> None:
    for text in turns:
        await assistant.chat_turn(conversation, text)


@pytest.mark.parametrize(
    ("statement", "question", "needle"),
    [
        ("我家小孩对坚果过敏，尤其是花生。", "能推荐一个适合孩子生日的蛋糕吗？", "过敏"),
        (
            "My kid is allergic to nuts, especially peanuts.",
            "Can you recommend a cake for my kid's birthday?",
            "allergic",
        ),
    ],
)
async def test_a_constraint_survives_25_unrelated_turns(
    tmp_path: Path, model_dir: Path, statement: str, question: str, needle: str
) -> None:
    config = _config(tmp_path)
    async with await Assistant.open(config) as assistant:
        await _script(assistant, "family", [statement, *UNRELATED])
        reply = await assistant.chat_turn("family", question)
        system = reply.result.prompt.messages[0]["content"]  # type: ignore[union-attr]
        assert needle in system, system
        # The window slid: older turns were condensed into summary records, the recent window is short.
        assert reply.result.prompt.layers["recent"].items <= config.prompt.recent_window_turns  # type: ignore[union-attr]
        summaries = await assistant.memory.list("family", kinds=["summary"])
        assert summaries, "turns that left the window were not condensed"
        assert reply.text  # the small model said something; its words are not judged
        # Another conversation knows nothing of it.
        other = await assistant.chat_turn("stranger", question)
        assert needle not in json.dumps(other.to_json()["prompt"], ensure_ascii=False)


async def test_a_changed_decision_supersedes_the_old_one(tmp_path: Path, model_dir: Path) -> None:
    async with await Assistant.open(_config(tmp_path)) as assistant:
        await _script(
            assistant,
            "project",
            [
                "We decided to use MySQL for the orders database.",
                "Actually, we switched from MySQL to PostgreSQL.",
            ],
        )
        reply = await assistant.chat_turn("project", "Which database do we use for orders?")
        pinned_layer = reply.result.prompt.messages[0]["content"]  # type: ignore[union-attr]
        assert "PostgreSQL" in pinned_layer
        assert "We decided to use MySQL for the orders database" not in pinned_layer
        everything = await assistant.memory.list("project", kinds=["decision"])
        old = next(r for r in everything if r.text.startswith("We decided to use MySQL"))
        new = next(r for r in everything if "PostgreSQL" in r.text)
        assert old.status == "superseded" and new.status == "active"


async def test_a_dead_endpoint_falls_back_and_a_dead_stack_apologises(
    tmp_path: Path, model_dir: Path
) -> None:
    dead = free_port()
    extra_first = f"""
[[llm.backends]]
name = "remote"
kind = "openai"
base_url = "http://127.0.0.1:{dead}/v1"
model = "gpt-test"
timeout_s = 3
max_retries = 0
"""
    path = _config_file(tmp_path, backends=extra_first + SMOLLM2_LOCAL, name="fallback.toml")
    config = load_config(path, data_dir=tmp_path / "data", env={})
    async with await Assistant.open(config) as assistant:
        reply = await assistant.chat_turn("c", "Say hello.")
        assert reply.result.llm_stats["backend"] == "local"
        assert "remote" in reply.result.llm_stats["fallbacks"]
        assert reply.text and "can't reach" not in reply.text

    only_dead = _config_file(tmp_path, backends=extra_first, name="dead.toml")
    config = load_config(only_dead, data_dir=tmp_path / "data2", env={})
    async with await Assistant.open(config) as assistant:
        reply = await assistant.chat_turn("c", "Say hello.")
        assert "can't reach my language model" in reply.text
        assert reply.trace.first("llm.error") is not None
        # The user's turn was still remembered.
        await assistant.engine.drain()
        assert await assistant.memory.list("c")


async def _deltas(text: str) -> AsyncIterator[str]:
    for word in text.split(" "):
        yield word + " "


async def test_the_loopback_guard_replaces_another_persons_fact(tmp_path: Path, model_dir: Path) -> None:
    async with await Assistant.open(_config(tmp_path), start_llm=False) as assistant:
        await assistant.memory.remember(
            WriteRequest(
                "bob",
                "user",
                "My locker code is 4512 and my cat Whiskers sleeps in the blue basket.",
                source="b1",
            ),
        )
        trace = assistant.new_trace("alice")
        # The token stream stands in for an LLM that leaks Bob's fact into Alice's reply.
        leaked = "Sure. Your locker code is 4512 and your cat Whiskers sleeps in the blue basket."
        released = [r async for r in assistant.guard.sentences("alice", _deltas(leaked), trace)]
        texts = [r.text for r in released]
        assert NOTICES["en"] in texts
        assert not any("4512" in t or "Whiskers" in t for t in texts)
        assert trace.first("loopback.flagged") is not None
        # Bob himself may hear it, and generic replies pass.
        own = [r async for r in assistant.guard.sentences("bob", _deltas(leaked), assistant.new_trace("bob"))]
        assert not any(r.flagged for r in own)
        generic = "Sure, I can help with that. Let me know if you need anything else."
        plain = [
            r
            async for r in assistant.guard.sentences("alice", _deltas(generic), assistant.new_trace("alice"))
        ]
        assert not any(r.flagged for r in plain)


def test_a_restarted_process_continues_the_conversation(tmp_path: Path, model_dir: Path) -> None:
    config_path = _config_file(tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith("VOICE_AGENT_")}
    base = [sys.executable, "-m", "voice_agent.cli", "chat", "--config", str(config_path)]
    base += ["--data-dir", str(tmp_path / "data"), "--conversation", "alice"]
    first = subprocess.run(
        [*base, "--once", "Remember that my daughter is allergic to peanuts."],
        capture_output=True, text=True, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert first.returncode == 0, first.stderr
    second = subprocess.run(
        [*base, "--json", "--once", "What should I bake for her birthday?"],
        capture_output=True, text=True, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert second.returncode == 0, second.stderr
    report = json.loads(second.stdout)
    messages = report["prompt"]["messages"]
    assert "allergic to peanuts" in messages[0]["content"]
    assert any(m["role"] == "user" and "allergic" in m["content"] for m in messages[1:-1])
    assert report["prompt"]["layers"]["pinned"]["items"] >= 1
    assert {"reply", "retrieved", "trace", "llm"} <= set(report)


async def test_each_prompt_extends_the_previous_one(tmp_path: Path, model_dir: Path) -> None:
    async with await Assistant.open(_config(tmp_path)) as assistant:
        await assistant.chat_turn("c", "Remember that I take my coffee black.")
        first = await assistant.chat_turn("c", "We went hiking at Mount Tam last weekend.")
        second = await assistant.chat_turn("c", "What do I drink in the morning?")
        before = first.result.prompt.messages  # type: ignore[union-attr]
        after = second.result.prompt.messages  # type: ignore[union-attr]
        # Same system + pinned prefix, the previous user message exactly as sent, then the spoken reply.
        assert after[: len(before)] == before
        assert after[len(before)] == {"role": "assistant", "content": first.text}
        stages = second.trace.attrs["retrieve"]["timings_ms"]  # where the turn's recall time went
        assert {"embed", "vector_search", "keyword_search", "rerank", "pack", "total"} <= set(stages)


def _prompt_reads(log: Path) -> list[tuple[int, int]]:
    """(tokens reused from the KV cache, tokens read) of each request, from the llama.cpp server's log."""
    found = re.findall(
        r"(\d+) prefix-match hit, remaining (\d+) prompt tokens", log.read_text(errors="replace")
    )
    return [(int(hit), int(left)) for hit, left in found]


async def test_a_changed_prefix_is_read_before_the_next_turn(tmp_path: Path, model_dir: Path) -> None:
    config = _config(tmp_path)
    log = config.data_dir / "logs" / "llama-server.log"
    async with await Assistant.open(config) as assistant:
        engine = assistant.engine
        # Pinning an item changes the system message: the whole prefix is new for the next turn.
        await assistant.chat_turn("c", "Remember that I take my coffee black.")
        await engine.settle("c")
        assert engine.rewarms == 1
        before = len(_prompt_reads(log))
        await assistant.chat_turn("c", "We went hiking at Mount Tam last weekend.")
        hit, left = _prompt_reads(log)[before]  # the turn's own request
        assert hit > left, (hit, left)  # the server read only the new turn, not the re-pinned prefix
        await engine.settle("c")
        assert engine.rewarms == 1  # that turn changed nothing before its own words: no prefill

    off = config.model_copy(update={"llm": config.llm.model_copy(update={"rewarm_prefix": False})})
    async with await Assistant.open(off) as assistant:
        await assistant.chat_turn("d", "Remember that my sister is called Jo.")
        await assistant.engine.settle("d")
        before = len(_prompt_reads(log))
        await assistant.chat_turn("d", "We went hiking at Mount Tam last weekend.")
        reads = _prompt_reads(log)[before:]
        hit, left = reads[0]  # the turn's own request (a regenerated reply would read only its end)
        assert assistant.engine.rewarms == 0 and hit < left, reads  # without it, read again


async def test_memory_writes_are_never_cancelled_by_a_wait_or_a_shutdown(
    tmp_path: Path, model_dir: Path
) -> None:
    config = _config(tmp_path)
    async with await Assistant.open(config) as assistant:
        assistant.engine.pending_write_wait_s = 0.0  # waiters give up at once
        # The second turn starts while the first reply's write runs, and its wait gives up at once.
        turns = [
            await assistant.chat_turn("c", "My neighbour's parrot is called Captain."),
            await assistant.chat_turn("c", "Tomorrow I will repaint the garden fence."),
        ]
    # Closed right after the turn, with the reply's write still running: neither the prefill that
    # waited for it nor the shutdown that stopped the prefill may take the write down with them.
    async with await Assistant.open(config) as assistant:
        records = await assistant.memory.list("c")
    stored = {(r.role, r.source) for r in records}
    for turn in turns:
        assert ("user", turn.trace.turn_id) in stored, stored
        assert not turn.text or ("assistant", turn.trace.turn_id) in stored, stored
