"""The loopback check with the real MiniLM embedder and spaCy: replies quoting another conversation's
memory are caught, generic and merely topical replies are not, and nothing of the other conversation
is ever exposed."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from voice_agent.config import load_config
from voice_agent.memory.loopback import first_person
from voice_agent.memory.loopback_eval import GENERIC_REPLIES, LEAKING_REPLIES, measure_loopback
from voice_agent.memory.service import Memory
from voice_agent.memory.writes import WriteRequest

pytestmark = pytest.mark.slow


@pytest.fixture
async def memory(tmp_path: Path) -> AsyncIterator[Memory]:
    config = load_config(data_dir=tmp_path / "data", env={"VOICE_AGENT_MEMORY__EMBEDDER": "minilm"})
    m = await Memory.open(config, env={})
    yield m
    await m.close()


def test_replies_are_read_in_the_first_person() -> None:
    assert first_person("Your daughter starts school, you said.") == "my daughter starts school, I said."
    assert first_person("You're allergic to it") == "I'm allergic to it"
    assert first_person("你的电话号码") == "我的电话号码"


async def test_generic_replies_pass_and_paraphrased_leaks_are_caught(memory: Memory) -> None:
    result = await measure_loopback(memory)
    refused = [d["sentence"] for d in result.details if d["set"] == "generic" and d["flagged"]]
    assert refused == []  # no ordinary reply is refused
    assert result.topical_flagged == 0  # talking about the same topic is not quoting
    missed = [d["sentence"] for d in result.details if d["set"] == "leak" and not d["flagged"]]
    assert result.true_positive_rate >= 0.9, missed
    leak = next(d for d in result.details if d["set"] == "leak" and d["flagged"])
    assert leak["similarity"] >= leak["threshold"] == memory.config.memory.loopback_threshold
    assert leak["reason"] == "quotes another conversation" and leak["matches"] >= 1
    assert set(leak) >= {"flagged", "similarity", "raw_similarity", "generic_similarity", "reason"}
    assert not any(key in leak for key in ("text", "conversation_id", "record_id"))
    assert len(GENERIC_REPLIES) >= 30 and len(LEAKING_REPLIES) >= 10


async def test_a_conversation_may_quote_its_own_memory(memory: Memory) -> None:
    await memory.remember(
        WriteRequest("owner", "user", "I'm allergic to penicillin and I had a bad reaction in 2019.")
    )
    own = await memory.loopback("owner", "You're allergic to penicillin after a bad reaction in 2019.")
    assert not own.flagged
    other = await memory.loopback(
        "someone else", "You're allergic to penicillin after a bad reaction in 2019."
    )
    assert other.flagged


async def test_assistant_words_and_stock_phrases_get_no_fingerprint(memory: Memory) -> None:
    await memory.remember(
        WriteRequest("a", "assistant", "Your appointment with the cardiologist is on the 4th of June.")
    )
    await memory.remember(WriteRequest("a", "user", "Sure, I can help with that."))
    quoted = await memory.loopback("b", "Your appointment with the cardiologist is on the 4th of June.")
    assert not quoted.flagged and quoted.matches == 0
    assert not (await memory.loopback("b", "Sure, I can help with that.")).flagged
