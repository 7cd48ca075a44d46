"""The retrieved block does not repeat what the recent window already shows word for word (it would cost
prompt-reading time on the critical path and add nothing); once the window moves on, the memory is
retrieved again."""

from __future__ import annotations

from pathlib import Path

import pytest
from _llm_support import smollm2_sections

from voice_agent.assistant import Assistant
from voice_agent.config import load_config

pytestmark = pytest.mark.slow


async def test_window_turns_are_not_repeated_in_the_memory_block(tmp_path: Path, model_dir: Path) -> None:
    path = tmp_path / "test.toml"
    path.write_text(
        smollm2_sections(llm_extra="rewarm_prefix = false")
        + "recent_window_turns = 2\nrecent_min_turns = 2\n"  # appended to [prompt]
        + "[memory]\nbudget_floor_tokens = 400\n",  # room for every memory of this short chat
        encoding="utf-8",
    )
    config = load_config(path, data_dir=tmp_path / "data", env={})
    assert config.prompt.recent_window_turns == 2
    async with await Assistant.open(config) as assistant:
        fact = await assistant.chat_turn("c", "My sister Joanna works as a nurse in a hospital by the sea.")
        await assistant.engine.settle("c")
        asked = await assistant.chat_turn("c", "What does my sister Joanna do for work?")
        result = asked.result
        assert result is not None and result.prompt is not None
        window_text = " ".join(m["content"] for m in result.prompt.messages[1:-1])
        assert "nurse" in window_text  # the window shows the fact ...
        assert all(r.source != fact.trace.turn_id for r in result.retrieved)  # ... so the block does not
        for text in ("The weather was grey all week.", "I repainted the kitchen on Sunday."):
            await assistant.chat_turn("c", text)
            await assistant.engine.settle("c")
        later = await assistant.chat_turn("c", "Remind me, what does my sister Joanna do for work?")
        assert later.result is not None
        ids = {r.source for r in [*later.result.retrieved, *later.result.pinned]}
        assert fact.trace.turn_id in ids, later.result.recall_info  # out of the window: recalled again
