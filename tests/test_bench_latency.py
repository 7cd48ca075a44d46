"""`voice-agent bench latency` end to end: a real LibriVox clip replayed in real time through the voice
session with real VAD, Whisper tiny.en, memory, SmolLM2 behind the llama.cpp server and piper; the JSON
schema, segments that add up, traces, a valid PNG and the report (with a `bench memory` run beside it).
Speed is reported, never asserted."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from _bench_support import LIBRIVOX_SHORT, assert_png, smollm2_config_file, write_tiny_locomo

from voice_agent.bench.latency_bench import SEGMENTS, STAGES
from voice_agent.cli import main
from voice_agent.metrics.trace import read_traces

pytestmark = pytest.mark.slow

TURN_KEYS = {
    "run", "clip", "turn_id", "endpoint_ms", "asr_final_ms", "retrieve_ms", "prompt_tokens",
    "llm_first_token_ms", "llm_cached_tokens", "llm_decode_tokens_per_s", "first_sentence_ms",
    "tts_first_audio_ms", "voice_to_voice_ms", "segments", "endpoint_reason", "asr_speculative",
    "speech_ms", "user_words", "reply_words", "interrupted", "flagged_sentences", "error",
    "holding_phrase", "answer_voice_to_voice_ms", "speculated", "llm_queued_ahead", "critical_path",
}  # fmt: skip


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory, model_dir: Path) -> tuple[int, dict, Path]:
    if not LIBRIVOX_SHORT.is_file():
        pytest.skip("Debian pocketsphinx-testdata is not installed")
    tmp = tmp_path_factory.mktemp("latency")
    out = tmp / "out"
    code = main(
        [
            "bench", "latency", "--audio", str(LIBRIVOX_SHORT), "--config", str(smollm2_config_file(tmp)),
            "--runs", "2", "--warmup", "1", "--json", str(out / "latency.json"),
            "--plot", str(out / "latency.png"), "--trace", str(out / "trace.jsonl"),
            "--output", str(out / "replies.wav"), "--quiet", "--no-verify-models",
        ]
    )  # fmt: skip
    return code, json.loads((out / "latency.json").read_text(encoding="utf-8")), out


def test_report_schema(run: tuple[int, dict, Path]) -> None:
    code, report, _ = run
    assert code == 0
    assert report["kind"] == "latency" and report["schema"] == 1 and report["partial"] is False
    assert report["runs"] == 2 and report["warmup_turns"] == 1 and report["sink"] == "wav"
    clip = report["audio"]["clips"][0]
    assert clip["sha256"] == hashlib.sha256(LIBRIVOX_SHORT.read_bytes()).hexdigest()
    assert 2.5 < clip["duration_s"] < 3.5
    assert set(report["stages"]) == set(STAGES) and set(report["segments"]) == set(SEGMENTS)
    for name, stats in report["stages"].items():
        assert {"p50", "p95", "max", "n"} <= set(stats), name
        assert stats["p50"] <= stats["p95"] <= stats["max"]
    assert report["turns_measured"] == len(report["turns"]) >= 2
    assert {t["run"] for t in report["turns"]} == {1, 2}  # every run produced its turn
    assert report["target_p50_ms"] == 1500.0 and isinstance(report["meets_target"], bool)
    assert report["startup_s"] > 0 and report["clips_without_turn"] == 0
    assert report["threads"]["cores"] >= 1 and report["scheduler"]["critical_path"] is True
    assert len(report["slow_turns"]) >= 1 and report["critical_path"]["turns"] == report["turns_measured"]


def test_every_turn_went_through_every_stage(run: tuple[int, dict, Path]) -> None:
    _, report, _ = run
    for turn in report["turns"]:
        assert set(turn) == TURN_KEYS
        assert turn["error"] is None and not turn["interrupted"]
        for key in ("endpoint_ms", "asr_final_ms", "llm_first_token_ms", "tts_first_audio_ms"):
            assert turn[key] is not None and turn[key] > 0, key
        assert turn["prompt_tokens"] > 0 and turn["user_words"] > 0 and turn["reply_words"] > 0
        segments = turn["segments"]
        assert all(segments[name] >= 0 for name in SEGMENTS)
        assert sum(segments.values()) == pytest.approx(turn["voice_to_voice_ms"], abs=1.0)
        # Voice-to-voice cannot be shorter than the silence the endpointer waited for.
        assert turn["voice_to_voice_ms"] >= turn["endpoint_ms"]
        assert turn["answer_voice_to_voice_ms"] >= turn["voice_to_voice_ms"]
        cp = turn["critical_path"]  # what else ran on the critical path (tail hunting)
        assert cp["wall_ms"] > 0 and cp["process_cpu_ms"] >= 0 and cp["cores"] >= 1
        assert isinstance(cp["background"], list) and cp["deferred"] >= 0
    median = report["median_turn"]
    ordered = sorted(t["voice_to_voice_ms"] for t in report["turns"])
    assert median["voice_to_voice_ms"] in ordered
    assert sum(s["share"] for s in report["segments"].values()) == pytest.approx(1.0, abs=0.01)


def test_traces_and_provenance(run: tuple[int, dict, Path]) -> None:
    _, report, out = run
    records = read_traces(out / "trace.jsonl")
    assert [r["turn_id"] for r in records] == [t["turn_id"] for t in report["turns"]]
    assert all(r["voice_to_voice_ms"] > 0 for r in records)
    meta = report["meta"]
    models = {m["id"]: m for m in meta["models"]}
    assert {"whisper-tiny-en", "silero-vad", "smollm2-135m", "minilm", "piper-joe-medium"} <= set(models)
    assert all(m["state"] == "ok" for m in models.values() if m["id"] != "espeak-ng")
    assert meta["config"]["asr"]["model"] == "whisper-tiny-en"
    assert meta["machine"]["cores"] >= 1
    assert meta["machine"]["load_avg_1m_at_start"] >= 0 and meta["machine"]["load_avg_1m_at_end"] >= 0
    assert meta["started"] <= meta["date"]
    assert (out / "replies.wav").stat().st_size > 44  # the replies were "played" into the WAV sink


def test_plot_and_report_beside_a_memory_run(run: tuple[int, dict, Path], tmp_path: Path) -> None:
    _, _, out = run
    assert_png(out / "latency.png")
    dataset = write_tiny_locomo(tmp_path / "tiny.json")
    config = smollm2_config_file(tmp_path)
    memory = tmp_path / "memory.json"
    assert main(["bench", "memory", "--dataset", str(dataset), "--config", str(config), "--json", str(memory),
                 "--quiet"]) == 0  # fmt: skip
    report = tmp_path / "report.md"
    runs = [str(out / "latency.json"), str(memory), str(memory)]
    assert main(["bench", "report", *runs, "--out", str(report)]) == 0
    text = report.read_text(encoding="utf-8")
    assert "## Voice-to-voice latency (bench latency)" in text
    assert "## Retrieval recall within a token budget (bench memory)" in text
    assert "| stage | p50 | p95 | max |" in text and "| **voice-to-voice** (ms) |" in text
    assert "| system | recall |" in text and "| metric | B | C | C/B |" in text
    recall_row = next(line for line in text.splitlines() if line.startswith("| voice-agent: recall |"))
    assert recall_row.rstrip().endswith("| ×1.00 |")  # the same run twice
    for label, kind in (("A", "latency"), ("B", "memory"), ("C", "memory")):
        assert f"](report-plots/{label}-{kind}.png)" in text
        assert_png(tmp_path / "report-plots" / f"{label}-{kind}.png")
    assert "## Provenance" in text and "whisper-tiny-en" in text
