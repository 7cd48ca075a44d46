"""`voice-agent bench memory` on a tiny LoCoMo-format dataset: the JSON schema of issue 7, a valid PNG,
and defensive parsing (malformed evidence, empty lists, unknown ids, numeric answers)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from voice_agent.bench.dataset import load_locomo, parse_session_date
from voice_agent.bench.report import percentiles
from voice_agent.cli import main
from voice_agent.errors import InputError

TINY: list[dict[str, Any]] = [
    {
        "sample_id": "tiny-1",
        "conversation": {
            "speaker_a": "Ana",
            "speaker_b": "Ben",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ana", "dia_id": "D1:1", "text": "I adopted a grey cat called Miso last week."},
                {
                    "speaker": "Ben",
                    "dia_id": "D1:2",
                    "text": "Lovely! I started learning the cello in March.",
                },
                {"speaker": "Ana", "dia_id": "D1:3", "text": "I work as a nurse at the children's hospital."},
            ],
            "session_2_date_time": "10:00 am on 20 May, 2023",
            "session_2": [
                {"speaker": "Ben", "dia_id": "D2:1", "text": "My sister moved to Lisbon for a new job."},
                {"speaker": "Ana", "dia_id": "D2:2", "text": "Miso knocked my plants over twice."},
                {"speaker": "Ana", "dia_id": "D2:3", "text": "   "},
            ],
        },
        "qa": [
            {"question": "What pet did Ana adopt?", "answer": "a cat", "evidence": ["D1:1"], "category": 4},
            {
                "question": "When did Ben start the cello?",
                "answer": 2023,
                "evidence": ["D1:2"],
                "category": 2,
            },
            {"question": "What did Miso do?", "answer": "plants", "evidence": ["D1:1; D2:2"], "category": 1},
            {
                "question": "Where does Ana work?",
                "answer": "hospital",
                "evidence": ["D1:3", "D9:9"],
                "category": 3,
            },
            {"question": "Would Ben move?", "answer": "maybe", "evidence": [], "category": 3},
            {
                "question": "What did Ana say about Mars?",
                "adversarial_answer": "x",
                "evidence": [],
                "category": 5,
            },
        ],
    },
    {"conversation": {"session_1": [{"speaker": "C", "text": "A turn without an id."}]}, "qa": []},
    "not a sample",
]


def write_tiny(path: Path) -> Path:
    path.write_text(json.dumps(TINY), encoding="utf-8")
    return path


def test_dataset_parsing_is_defensive_and_counts_skips(tmp_path: Path) -> None:
    dataset = load_locomo(write_tiny(tmp_path / "tiny.json"))
    assert [s.sample_id for s in dataset.samples] == ["tiny-1", "sample-1"]
    questions = dataset.questions()
    assert [q.evidence for q in questions] == [("D1:1",), ("D1:2",), ("D1:1", "D2:2"), ("D1:3",)]
    assert questions[1].answer == "2023"
    assert dataset.skipped == {
        "turn_without_text": 1,
        "evidence_malformed_entry_split": 1,
        "evidence_unknown_id": 1,
        "question_without_usable_evidence": 1,
        "sample_missing_id": 1,
        "turn_missing_or_duplicate_id": 1,
        "sample_without_conversation": 1,
    }
    assert dataset.samples[0].turns[0].created_at == parse_session_date("1:56 pm on 8 May, 2023")
    with pytest.raises(InputError):
        load_locomo(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(InputError, match="JSON"):
        load_locomo(tmp_path / "bad.json")


def test_percentiles_are_nearest_rank() -> None:
    assert percentiles([5.0, 1.0, 3.0, 2.0, 4.0]) == {"p50": 3.0, "p95": 5.0}
    assert percentiles([]) == {"p50": 0.0, "p95": 0.0}


@pytest.mark.slow
def test_bench_memory_writes_the_schema_and_a_png(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("VOICE_AGENT_MEMORY__EMBEDDER", "minilm")
    monkeypatch.delenv("VOICE_AGENT_PII_KEY", raising=False)
    out, plot = tmp_path / "out.json", tmp_path / "out.png"
    rc = main(
        ["bench", "memory", "--dataset", str(write_tiny(tmp_path / "tiny.json")), "--json", str(out),
         "--budget-tokens", "60", "--plot", str(plot), "--quiet", "--pii-keys", "2"]
    )  # fmt: skip
    assert rc == 0
    report = json.loads(out.read_text())
    over_keys = report["systems"]["voice-agent"].pop("recall_over_keys")  # the spread over two bench keys
    assert over_keys["keys"] == 2 and len(over_keys["overall"]) == 2
    assert over_keys["overall"][0] == report["systems"]["voice-agent"]["recall"]["overall"]
    assert over_keys["min"] <= over_keys["mean"] <= over_keys["max"]
    assert report["meta"]["pii_key"] == "bench key 0"
    assert report["questions"] == 4 and report["budget_tokens"] == 60
    assert set(report["systems"]) == {"voice-agent", "baseline-turn-cosine", "baseline-turn-bm25"}
    for name, system in report["systems"].items():
        stages = {"stages_ms"} if name == "voice-agent" else set()
        keys = {"recall", "tokens_mean", "retrieve_ms", "write_ms", "write_cpu_ms", "ingest_turns_per_s"}
        assert set(system) == keys | stages | {"ingest_cpu_ms_per_turn"}, name
        assert system["ingest_turns_per_s"] > 0 and system["write_cpu_ms"]["p95"] > 0
        assert system["ingest_cpu_ms_per_turn"] > 0
        assert set(system["recall"]) == {"overall", "1", "2", "3", "4"}
        assert all(0.0 <= v <= 1.0 for v in system["recall"].values())
        assert 0 < system["tokens_mean"] <= 60
        for key in ("retrieve_ms", "write_ms"):
            assert set(system[key]) == {"p50", "p95"} and 0 < system[key]["p50"] <= system[key]["p95"]
    assert report["systems"]["voice-agent"]["recall"]["4"] == 1.0  # the cat question is easy
    stages = report["systems"]["voice-agent"]["stages_ms"]  # where recall's time goes
    assert {"embed", "vector_search", "keyword_search", "fusion", "rerank", "pack", "total"} <= set(stages)
    assert stages["total"]["p95"] >= stages["vector_search"]["p95"]
    assert report["meta"]["skipped"]["evidence_unknown_id"] == 1
    assert report["meta"]["machine"]["cores"] and report["meta"]["versions"]["voice-agent"]
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and plot.stat().st_size > 5000
    printed = json.loads(capsys.readouterr().out)
    assert printed["json"] == str(out)


def test_bench_memory_rejects_a_bad_budget(tmp_path: Path) -> None:
    dataset = str(write_tiny(tmp_path / "t.json"))
    out = str(tmp_path / "o.json")
    rc = main(["bench", "memory", "--dataset", dataset, "--json", out, "--budget-tokens", "0"])
    assert rc == 1 and not (tmp_path / "o.json").exists()


@pytest.mark.slow
@pytest.mark.parametrize("ann_min_records", ["0", "500"])
def test_bench_memory_scale_reports_each_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ann_min_records: str
) -> None:
    monkeypatch.setenv("VOICE_AGENT_MEMORY__EMBEDDER", "minilm")
    monkeypatch.delenv("VOICE_AGENT_PII_KEY", raising=False)
    monkeypatch.delenv("WEAVIATE_URL", raising=False)
    out, plot = tmp_path / "scale.json", tmp_path / "scale.png"
    rc = main(
        ["bench", "memory", "--dataset", str(write_tiny(tmp_path / "tiny.json")), "--json", str(out),
         "--scale", "1k,2k", "--queries", "6", "--ann-min-records", ann_min_records, "--plot", str(plot),
         "--quiet"]
    )  # fmt: skip
    assert rc == 0
    report = json.loads(out.read_text())
    assert [e["records"] for e in report["scale"]] == [1000, 2000]
    for entry in report["scale"]:
        assert entry["conversations"] == 1 and entry["store"] == "sqlite" and entry["queries"] == 6
        assert 0 < entry["retrieve_ms"]["p50"] <= entry["retrieve_ms"]["p95"]
        assert 0 < entry["retrieve_cpu_ms"]["p50"] <= entry["retrieve_cpu_ms"]["p95"]
        assert 0 < entry["retrieve_prepared_ms"]["p50"] <= entry["retrieve_prepared_ms"]["p95"]
        assert 0.0 <= entry["recall_vs_exact"] <= 1.0
        assert entry["rss_mb"] > 0 and entry["bytes_per_record"] > 100 and entry["build_s"] >= 0
        assert {"embed", "vector_search", "keyword_search"} <= set(entry["stages_ms"])
        assert entry["gc"]["gc_collections"] >= 0 and entry["gc"]["gc_pause_ms"] >= 0  # during the recalls
    if ann_min_records == "0":  # exact search only: nothing to build, the exact answer itself
        assert all(e["build_s"] == 0 and e["recall_vs_exact"] == 1.0 for e in report["scale"])
        assert all(e["ann_min_records"] is None for e in report["scale"])
        assert all(e["index"] == "sqlite-vec scan" for e in report["scale"])
    else:
        assert all(e["build_s"] > 0 and e["index"] == "hnsw" for e in report["scale"])
    assert all(e["load_avg_1m"] >= 0 for e in report["scale"])
    assert "embedded pool" in report["scale_method"]
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
