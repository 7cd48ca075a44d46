"""The critical path with real components: memory (SQLite, spaCy, e5), SmolLM2-135M behind the llama.cpp
server, and for the voice turn Silero, Whisper and piper.

- A turn's memory write waits until the turn's first audio (first text in the text path) and still lands
  before the next turn reads: asserted on the scheduler's event log and the store, never on times.
- Work before the endpoint: a speculative prefill whose final text differs costs the turn nothing more
  (one LLM request, its own retrieval); one whose final text extends it is reused.
- One core (`taskset -c 0`): every turn of a spoken conversation completes, with one thread per stage.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from _llm_support import smollm2_sections
from _speech_support import silence, speak

from voice_agent.assistant import Assistant
from voice_agent.audio.files import FileSource, write_wav
from voice_agent.bench.latency_bench import NullSink
from voice_agent.config import Config, load_config
from voice_agent.metrics.trace import TurnTrace, read_traces
from voice_agent.scheduling import CriticalPathScheduler
from voice_agent.session import VoiceSession
from voice_agent.speech import SpeechStack

pytestmark = pytest.mark.slow

FACTS = [
    "My sister Jo lives in Lisbon and works as a marine biologist.",
    "We adopted a grey cat called Pepper from the shelter in March.",
    "I am training for the Berlin marathon and run forty kilometres a week.",
    "My favourite dish is mushroom risotto with lots of parmesan.",
    "The car is due for its inspection at the garage on Elm Street next month.",
    "My father collects old maps of the Scottish Highlands.",
]
LARGE = " ".join(FACTS * 6)  # about 2,400 characters: many clauses to parse and embed


def _config(tmp_path: Path, model_dir: Path, llm_extra: str = "") -> Config:
    """SmolLM2; deferral bounded only by a minute, so the order does not depend on the CPU's speed."""
    path = tmp_path / "test.toml"
    sections = smollm2_sections(llm_extra=llm_extra) + "\n[scheduling]\nmax_deferral_s = 60\n"
    path.write_text(sections, encoding="utf-8")
    config = load_config(path, data_dir=tmp_path / "data", env={})
    return config.model_copy(update={"model_dir": model_dir})


def _events(scheduler: CriticalPathScheduler, *names: str) -> list[tuple[str, str, dict[str, Any]]]:
    return [(e.event, e.name, e.detail) for e in scheduler.events if e.name in names]


def _index(events: list[tuple[str, str, dict[str, Any]]], event: str, name: str) -> int:
    return next(i for i, (e, n, _) in enumerate(events) if e == event and n == name)


async def test_a_large_utterances_write_waits_for_the_first_text_and_lands_before_the_next_turn(
    tmp_path: Path, model_dir: Path
) -> None:
    config = _config(tmp_path, model_dir)
    # no recent window: the next turn can only know the large utterance through its memory records
    # (a turn the window shows word for word is left out of the memory block)
    config = config.model_copy(update={"prompt": config.prompt.model_copy(update={"recent_window_turns": 0})})
    async with await Assistant.open(config) as assistant:
        engine, scheduler = assistant.engine, assistant.engine.scheduler
        engine.pending_write_wait_s = 120  # the next turn waits for the write however slow this CPU is
        trace = TurnTrace("c")
        deltas = [d async for d in engine.respond("c", LARGE, trace)]
        assert "".join(deltas).strip()
        await engine.settle("c")  # the released write runs (a busy CPU may not have started it yet)
        log = _events(scheduler, trace.turn_id, "memory.write")
        # hold → the write is deferred → the first text releases the hold → the write resumes and runs
        assert [(e, n) for e, n, _ in log[:3]] == [
            ("hold", trace.turn_id),
            ("deferred", "memory.write"),
            ("release", trace.turn_id),
        ]
        assert log[2][2] == {"at": "first_delta"}
        assert _index(log, "release", trace.turn_id) < _index(log, "started", "memory.write")
        report = trace.attrs["critical_path"]
        assert report["deferred_names"] == ["memory.write"] and "memory.write" not in report["background"]
        await engine.commit("c", LARGE, "".join(deltas), trace)

        second = await assistant.chat_turn("c", "Which city does my sister Jo live in?")
        stored = await assistant.memory.list("c")
    assert ("user", trace.turn_id) in {(r.role, r.source) for r in stored}  # the deferred write landed
    read = [*second.result.retrieved, *second.result.pinned]
    assert any(r.source == trace.turn_id for r in read)  # ... before the next turn read its memories


async def test_a_spoken_turns_write_waits_for_its_first_audio(tmp_path: Path, model_dir: Path) -> None:
    config = _config(tmp_path, model_dir)
    stack = SpeechStack.from_config(config)
    await stack.start()
    question = await speak(stack.synthesizer, "Remember that my neighbour's parrot is called Captain.")
    wav = write_wav(tmp_path / "q.wav", np.concatenate([silence(0.5), question, silence(1.5)]), 16000)
    try:
        async with await Assistant.open(config) as assistant:
            session = VoiceSession(
                config, responder=assistant.engine, conversation_id="v", speech=stack, guard=assistant.guard
            )
            assert session.scheduler is assistant.engine.scheduler  # one scheduler for the whole process
            results = await session.run(FileSource(wav), NullSink())
            await assistant.engine.settle("v")
            stored = await assistant.memory.list("v")
    finally:
        await stack.close()
    assert len(results) == 1 and results[0].error is None
    turn_id = results[0].trace.turn_id
    log = _events(assistant.engine.scheduler, turn_id, "memory.write")
    release = _index(log, "release", turn_id)
    assert log[release][2] == {"at": "first_audio"}  # held by the speech loop until audio went out
    assert _index(log, "deferred", "memory.write") < release < _index(log, "started", "memory.write")
    assert "critical_path" in results[0].trace.attrs
    assert ("user", turn_id) in {(r.role, r.source) for r in stored}


def _count_requests(assistant: Assistant) -> Callable[[], int]:
    """Count the LLM requests the engine makes (a counting pass-through around the real router)."""
    router = assistant.router
    original = router.stream
    calls: list[int] = []

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(*args, **kwargs)

    router.stream = counting  # type: ignore[method-assign]
    return lambda: len(calls)


async def _turn(assistant: Assistant, conversation: str, text: str) -> tuple[TurnTrace, str]:
    trace = TurnTrace(conversation)
    reply = "".join([d async for d in assistant.engine.respond(conversation, text, trace)])
    return trace, reply


def _prompt_reads(log: Path) -> list[tuple[int, int]]:
    found = re.findall(
        r"(\d+) prefix-match hit, remaining (\d+) prompt tokens", log.read_text(errors="replace")
    )
    return [(int(hit), int(left)) for hit, left in found]


async def test_a_wrong_speculation_costs_nothing_more_and_a_right_one_is_reused(
    tmp_path: Path, model_dir: Path
) -> None:
    config = _config(tmp_path, model_dir, llm_extra="speculative_prefill = true\nrewarm_prefix = false")
    async with await Assistant.open(config) as assistant:
        engine = assistant.engine
        requests = _count_requests(assistant)
        await _turn(assistant, "c", "Hello there, I just moved to a new flat.")

        assert engine.speculate("c", "Tell me about the weather in")
        await engine.speculator.settle("c")
        before = requests()
        trace, reply = await _turn(assistant, "c", "What is the capital of Germany?")
        assert requests() - before == 1 and reply.strip()  # the turn's own request, nothing more
        assert engine.speculator.stats.discarded == 1 and engine.speculator.stats.reused == 0
        retrieve = trace.first("retrieve")
        assert retrieve is not None and retrieve.attrs["speculated"] is False
        prompt = engine.last.prompt
        assert prompt is not None and "capital of Germany" in prompt.messages[-1]["content"]
        assert "weather" not in prompt.messages[-1]["content"]

        assert engine.speculate("c", "Can you suggest a good book about")
        await engine.speculator.settle("c")
        before = requests()
        trace, _ = await _turn(assistant, "c", "Can you suggest a good book about sailing?")
        assert requests() - before == 1 and engine.speculator.stats.reused == 1
        retrieve = trace.first("retrieve")
        assert retrieve is not None and retrieve.attrs["speculated"] is True
    hit, left = _prompt_reads(config.data_dir / "logs" / "llama-server.log")[-1]
    assert hit > 0 and left < hit  # the prefilled prompt was in the cache: only the last words were new


@pytest.mark.skipif(shutil.which("taskset") is None, reason="taskset is not installed")
def test_one_core_completes_every_spoken_turn(tmp_path: Path, model_dir: Path) -> None:
    config = _config(tmp_path, model_dir)
    stack = SpeechStack.from_config(config)

    async def make() -> np.ndarray:
        await stack.start()
        try:
            parts = [silence(0.5), await speak(stack.synthesizer, "What is a good name for a goldfish?")]
            parts += [silence(2.0), await speak(stack.synthesizer, "And how long do they usually live?")]
            return np.concatenate([*parts, silence(1.5)])
        finally:
            await stack.close()

    wav = write_wav(tmp_path / "two.wav", asyncio.run(make()), 16000)
    env = {k: v for k, v in os.environ.items() if not k.startswith("VOICE_AGENT_")}
    env["VOICE_AGENT_MODEL_DIR"] = str(model_dir)
    command = ["taskset", "-c", "0", sys.executable, "-m", "voice_agent.cli", "talk"]
    command += ["--config", str(tmp_path / "test.toml"), "--data-dir", str(tmp_path / "data")]
    command += [
        "--input",
        str(wav),
        "--output",
        str(tmp_path / "out.wav"),
        "--trace",
        str(tmp_path / "t.jsonl"),
    ]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=900, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    records = read_traces(tmp_path / "t.jsonl")
    assert len(records) == 2, json.dumps(records)[:2000]
    assert all(r.get("voice_to_voice_ms") is not None and not r.get("error") for r in records)
    assert all(r["critical_path"]["cores"] == 1 for r in records)
    server_log = (tmp_path / "data" / "logs" / "llama-server.log").read_text(errors="replace")
    assert "--n_threads 1 --n_threads_batch 1" in server_log
