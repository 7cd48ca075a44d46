"""Issue 12 end to end: real people's data written through the memory leaves no raw value in any byte of
the data directory (real SQLite, real MiniLM embedder, real spaCy chunker)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from voice_agent.config import load_config
from voice_agent.memory.service import Memory
from voice_agent.memory.writes import WriteRequest

pytestmark = pytest.mark.slow

ENV = {"VOICE_AGENT_MEMORY__EMBEDDER": "minilm", "VOICE_AGENT_PRIVACY__PHONE_REGION": "GB"}
UTTERANCES = [
    "Hi, this is Steffen Mauer. I moved to Dunajska 56, 1000 Ljubljana last month.",
    "My credit card number is 5212 3456 7890 and you can call me on 020 7946 0958.",
    "Please forward the contract to Crystal Murdock; Steffen will sign it on Friday.",
    "白雅宁是一位43岁的退休教师，住在杭州市西湖区文三路478号。她的主治医生是刘德华。",
    "ul. Miła 53, 00-950 Warszawa is where Wojciech Kowalski lives, phone +48 723 813 266.",
]
RAW = [
    "Steffen", "Mauer", "Dunajska", "Ljubljana", "5212 3456 7890", "521234567890", "7946 0958", "2079460958",
    "Crystal Murdock", "Murdock", "白雅宁", "雅宁", "文三路", "刘德华", "Miła", "Warszawa", "Wojciech",
    "Kowalski", "723 813 266", "723813266",
]  # fmt: skip


async def test_world_pii_never_reaches_the_data_dir(tmp_path: Path, parts: tuple[Any, Any]) -> None:
    data = tmp_path / "data"
    embedder, chunker = parts
    config = load_config(data_dir=data, env=ENV)
    memory = await Memory.open(config, embedder=embedder, chunker=chunker, env={})
    kinds: set[str] = set()
    for index, text in enumerate(UTTERANCES):
        records = await memory.remember(WriteRequest("world", "user", text, source=f"t{index}"))
        kinds |= {token.split(":")[0][1:] for record in records for token in record.pii_tokens}
    assert {"NAME", "ADDRESS", "PHONE", "CARD"} <= kinds
    uk = await memory.scrub("world", "is +44 20 7946 0958 still my number?")
    stored = [r.text for r in await memory.list("world")]
    assert any(uk.split()[1] in text for text in stored)  # national and international: one placeholder
    (data / "export.json").write_text(json.dumps(await memory.export("world"), ensure_ascii=False))
    await memory.close()
    blob = b"".join(p.read_bytes() for p in data.rglob("*") if p.is_file())
    leaked = [value for value in RAW if value.encode() in blob or value.lower().encode() in blob.lower()]
    assert leaked == []
    assert b"[NAME:" in blob and b"[ADDRESS:" in blob  # the search above looked at real content
