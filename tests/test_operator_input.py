"""What an operator hands the CLI is held to the rules of what a visitor says: imported records get the
limits of a live write (and their token counts are recounted), an empty id never means "every
conversation", ids typed on the command line (a person's name and phone number, an e-mail address) are
stored, traced and logged only as the install's keyed hash, and an ingest resumes without duplicating.

The CLI runs in this process with the real memory components (MiniLM, spaCy, SQLite); the LLM is an
endpoint nobody listens on, so a chat turn takes the apology path without a model server.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _llm_support import free_port

from voice_agent.cli import main
from voice_agent.memory.transfer import FORMAT, parse_import

RAW_CONVERSATION = "sarah-connor-13800138000"
RAW_USER = "jane.doe@example.com"


def _document(records: list[dict[str, Any]], conversation: str = "restore-me") -> dict[str, Any]:
    return {"format": FORMAT, "version": 1, "conversation_id": conversation, "records": records}


def test_import_refuses_what_a_live_write_refuses_and_never_trusts_token_count() -> None:
    document = _document(
        [
            {"id": "big", "conversation_id": "c", "text": "peanuts " * 130_000, "kind": "constraint",
             "token_count": 1},
            {"id": "binary", "conversation_id": "c", "text": "ab\x00cd", "kind": "fact"},
            {"id": "fine", "conversation_id": "c", "text": "I never eat peanuts.", "kind": "constraint",
             "token_count": 1},
        ]
    )  # fmt: skip
    records, report = parse_import(document, max_chars=20_000)
    assert [r.id for r in records] == ["fine"]
    assert len(report.failed) == 2
    assert "record 0" in report.failed[0] and "limit is 20000" in report.failed[0]
    assert "record 1" in report.failed[1] and "NUL" in report.failed[1]
    assert records[0].token_count == 0  # the file's count is dropped; the import recounts


# -- through the CLI, with the real memory components ------------------------------------------------
@pytest.fixture
def setup(tmp_path: Path) -> tuple[Path, Path]:
    """(config file, data dir): MiniLM embeddings, an LLM endpoint that is down."""
    config = tmp_path / "operator.toml"
    config.write_text(
        f"""
[memory]
embedder = "minilm"

[[llm.backends]]
name = "remote"
kind = "openai"
base_url = "http://127.0.0.1:{free_port()}/v1"
model = "gpt-test"
timeout_s = 3
max_retries = 0
""",
        encoding="utf-8",
    )
    return config, tmp_path / "data"


def cli(setup: tuple[Path, Path], capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    config, data = setup
    capsys.readouterr()
    code = main([*args, "--config", str(config), "--data-dir", str(data)])
    out, err = capsys.readouterr()
    return code, out, err


def _all_bytes(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file())


@pytest.mark.slow
def test_an_empty_conversation_id_lists_nothing(
    setup: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = cli(setup, capsys, "memory", "add", "--conversation", "alice", "--text", "I live in Oslo.")
    assert code == 0, err
    code, out, _ = cli(setup, capsys, "memory", "list", "--json")
    listed = json.loads(out)["conversations"]
    assert code == 0 and len(listed) == 1
    for empty in ("", "   "):
        code, out, err = cli(setup, capsys, "memory", "list", "--conversation", empty, "--json")
        assert code == 1 and "empty" in err
        assert listed[0] not in out


@pytest.mark.slow
def test_operator_ids_reach_no_file_and_no_log(
    setup: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, data = setup
    code, out, err = cli(
        setup, capsys, "chat", "--conversation", RAW_CONVERSATION, "--user", RAW_USER,
        "--once", "I am learning to play the cello.", "--json",
    )  # fmt: skip
    assert code == 0, err
    stored_as = json.loads(out)["conversation_id"]
    assert stored_as.startswith("user-") and RAW_CONVERSATION not in stored_as
    trace = (data / "traces" / "trace.jsonl").read_text(encoding="utf-8")
    assert stored_as in trace
    everything = _all_bytes(data) + err.encode()
    for raw in (RAW_CONVERSATION, "13800138000", RAW_USER, "jane.doe"):
        assert raw.encode() not in everything, raw
    # The same typed id reaches the same conversation every time.
    code, out, err = cli(setup, capsys, "memory", "list", "--conversation", RAW_CONVERSATION, "--json")
    records = json.loads(out)["records"]
    assert code == 0 and records, err
    assert {r["conversation_id"] for r in records} == {stored_as}
    assert all(r["user_id"].startswith("user-") for r in records if r["role"] == "user")
    # ... and so does the stored form, as `memory list` shows it.
    code, out, _ = cli(setup, capsys, "memory", "list", "--conversation", stored_as, "--json")
    assert [r["id"] for r in json.loads(out)["records"]] == [r["id"] for r in records]


@pytest.mark.slow
def test_import_through_the_cli_stores_recounted_records_only(
    setup: tuple[Path, Path], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    export = tmp_path / "export.json"
    records = [
        {"id": "big", "conversation_id": "x", "text": "a" * 1_000_000, "kind": "constraint",
         "token_count": 1},
        {"id": "fine", "conversation_id": "x", "text": "I never eat peanuts, not even a trace of them.",
         "kind": "constraint", "token_count": 1, "user_id": RAW_USER},
    ]  # fmt: skip
    export.write_text(json.dumps(_document(records, RAW_CONVERSATION)), encoding="utf-8")
    code, out, err = cli(setup, capsys, "memory", "import", str(export), "--json")
    report = json.loads(out)
    assert code == 1 and report["imported"] == 1 and len(report["failed"]) == 1, err
    code, out, _ = cli(setup, capsys, "memory", "list", "--conversation", RAW_CONVERSATION, "--json")
    (stored,) = json.loads(out)["records"]
    assert "peanuts" in stored["text"] and stored["token_count"] > 5
    assert stored["user_id"].startswith("user-")
    assert RAW_USER.encode() not in _all_bytes(setup[1])


TURNS = [
    ("Caroline", "I adopted a rescue dog called Max last week."),
    ("Melanie", "That's lovely, what breed is he?"),
    ("Caroline", "He is a beagle mix and he loves the beach."),
    ("Melanie", "I started pottery classes on Tuesday evenings."),
    ("Caroline", "My sister moved to Lisbon for a new job in March."),
    ("Melanie", "We are planning a camping trip to the lake in August."),
]


def _locomo(path: Path, turns: list[tuple[str, str]]) -> Path:
    session = [{"speaker": s, "dia_id": f"D1:{i + 1}", "text": t} for i, (s, t) in enumerate(turns)]
    sample = {
        "sample_id": "conv-7",
        "conversation": {"speaker_a": "Caroline", "speaker_b": "Melanie", "session_1": session,
                         "session_1_date_time": "1:56 pm on 8 May, 2023"},
        "qa": [],
    }  # fmt: skip
    path.write_text(json.dumps([sample]), encoding="utf-8")
    return path


def _stored(setup: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> list[tuple[str, str]]:
    code, out, _ = cli(
        setup, capsys, "memory", "list", "--conversation", "conv-7", "--limit", "1000", "--json"
    )
    assert code == 0
    return sorted((r["source"], r["text"]) for r in json.loads(out)["records"])


@pytest.mark.slow
def test_an_interrupted_ingest_resumes_and_a_repeated_one_adds_nothing(
    setup: tuple[Path, Path], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    full = _locomo(tmp_path / "full.json", TURNS)
    # "Interrupted" after three turns: the first run stored only those.
    code, out, err = cli(setup, capsys, "memory", "ingest", str(_locomo(tmp_path / "part.json", TURNS[:3])),
                         "--format", "locomo", "--json")  # fmt: skip
    assert code == 0, err
    first = json.loads(out)["records"]
    code, out, err = cli(setup, capsys, "memory", "ingest", str(full), "--format", "locomo", "--json")
    resumed = json.loads(out)
    assert code == 0 and resumed["resumed"] == 3 and resumed["records"] > 0, err
    after_resume = _stored(setup, capsys)
    assert len(after_resume) == first + resumed["records"]
    assert {source for source, _ in after_resume} == {f"D1:{i}" for i in range(1, 7)}
    code, out, _ = cli(setup, capsys, "memory", "ingest", str(full), "--format", "locomo", "--json")
    again = json.loads(out)
    assert (again["records"], again["resumed"]) == (0, 6)
    assert _stored(setup, capsys) == after_resume  # nothing added, nothing duplicated
    assert len(set(after_resume)) == len(after_resume)
