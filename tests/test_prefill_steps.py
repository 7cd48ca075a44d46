"""A changed prompt prefix is read in steps (llm.rewarm_step_tokens), so a turn that starts meanwhile
waits for one step at most; the next turn still reads only its own words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from _llm_support import smollm2_sections

from voice_agent.assistant import Assistant
from voice_agent.config import load_config
from voice_agent.conversation.prefill_steps import common_messages, prefill_steps


def _words(text: str) -> int:
    return len(text.split())


def _messages(*sizes: int) -> list[dict[str, str]]:
    return [{"role": "user", "content": " ".join(["w"] * size)} for size in sizes]


def test_steps_add_whole_messages_until_the_step_size() -> None:
    messages = _messages(50, 10, 10, 10, 40, 5)
    # 54 + 14 + 14 + 14 + 44 + 9 tokens with the template's 4 a message
    assert prefill_steps(messages, None, _words, 60) == [2, 5, 6]
    assert prefill_steps(messages, None, _words, 0) == [6]  # off: one request
    assert prefill_steps(messages, None, _words, 10_000) == [6]
    assert prefill_steps([], None, _words, 60) == []


def test_steps_start_after_what_the_server_already_read() -> None:
    messages = _messages(50, 10, 10, 10, 40, 5)
    cached = [*messages[:4], {"role": "assistant", "content": "something else"}]
    assert common_messages(messages, cached) == 4
    assert prefill_steps(messages, cached, _words, 40) == [5, 6]
    changed_first = [{"role": "system", "content": "new rules"}, *messages[1:]]
    assert common_messages(changed_first, messages) == 0  # a new system message: everything is new


def _reads(log: Path) -> list[tuple[int, int]]:
    found = re.findall(
        r"(\d+) prefix-match hit, remaining (\d+) prompt tokens", log.read_text(errors="replace")
    )
    return [(int(hit), int(left)) for hit, left in found]


@pytest.mark.slow
async def test_a_new_prefix_is_read_in_several_small_requests(tmp_path: Path, model_dir: Path) -> None:
    path = tmp_path / "test.toml"
    path.write_text(smollm2_sections(llm_extra="rewarm_step_tokens = 24"), encoding="utf-8")
    config = load_config(path, data_dir=tmp_path / "data", env={})
    log = config.data_dir / "logs" / "llama-server.log"
    async with await Assistant.open(config) as assistant:
        engine = assistant.engine
        for text in (
            "We went hiking at Mount Tam last weekend with my brother and his two dogs.",
            "The trail was muddy after the rain, so we turned back before the summit.",
            "Afterwards we had lunch at a small bakery in Mill Valley.",
        ):
            await assistant.chat_turn("c", text)
            await engine.settle("c")
        before = len(_reads(log))
        rewarms = engine.rewarms
        # Pinning an item changes the system message: the whole window after it is new again.
        await assistant.chat_turn("c", "Remember that I take my coffee black.")
        at_turn = len(_reads(log))
        await engine.settle("c")
        steps = _reads(log)[at_turn:]
        assert engine.rewarms == rewarms + 1
        assert len(steps) >= 3, steps  # several requests, each reading a part of the new prefix
        assert all(hit > 0 for hit, _ in steps[1:])  # each step built on the one before
        assert before < at_turn
        await assistant.chat_turn("c", "What do I drink in the morning?")
        hit, left = _reads(log)[-1]
        assert hit > left, (hit, left)  # the turn read only its own words
