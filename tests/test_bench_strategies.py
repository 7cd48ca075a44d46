"""`voice-agent bench strategies` end to end on a tiny LoCoMo-format dataset with real memory (SQLite,
spaCy, MiniLM) and a real local LLM (SmolLM2-135M): the JSON schema, a valid PNG, the report, and
Ctrl-C writing what was measured (``partial: true``). The small model's answers are not judged."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _bench_support import assert_png, smollm2_config_file, write_tiny_locomo

from voice_agent.cli import main
from voice_agent.provision import load_manifest

pytestmark = pytest.mark.slow

STRATEGIES = ("full-context", "top-4", "top-8", "voice-agent")
SUMMARY_KEYS = {
    "calls", "errors", "first_token_ms", "prompt_tokens", "prompt_tokens_estimated", "cached_tokens_mean",
    "completion_tokens_mean", "records_mean", "retrieve_ms", "budget_tokens_mean", "evidence_recall",
    "answer_contains_gold", "answer_f1", "cost_per_1000_turns",
}  # fmt: skip
BY_CATEGORY = {"overall", "1", "2", "3", "4"}


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory, model_dir: Path) -> tuple[int, dict, Path]:
    tmp = tmp_path_factory.mktemp("strategies")
    dataset = write_tiny_locomo(tmp / "tiny.json")
    out = tmp / "out"
    code = main(
        [
            "bench", "strategies", "--dataset", str(dataset), "--config", str(smollm2_config_file(tmp)),
            "--json", str(out / "strategies.json"), "--plot", str(out / "strategies.png"),
            "--questions", "3", "--quiet",
        ]
    )  # fmt: skip
    return code, json.loads((out / "strategies.json").read_text(encoding="utf-8")), out


def test_report_schema(run: tuple[int, dict, Path]) -> None:
    code, report, _ = run
    assert code == 0
    assert report["kind"] == "strategies" and report["schema"] == 1 and report["partial"] is False
    assert report["questions"] == 3
    sample = report["sample"]
    assert (
        sample["size"] == 3 and sample["requested"] == 3 and sample["seed"] == 7 and sample["population"] == 3
    )
    assert sample["by_category"] == {"1": 1, "2": 1, "4": 1}  # category 5 is left out
    assert list(report["strategies"]) == list(STRATEGIES)
    for name, data in report["strategies"].items():
        assert set(data) == SUMMARY_KEYS, name
        assert data["calls"] == 3 and data["errors"] == 0
        assert (
            0
            < data["first_token_ms"]["p50"]
            <= data["first_token_ms"]["p95"]
            <= data["first_token_ms"]["max"]
        )
        assert data["prompt_tokens"]["mean"] > 0
        for metric in ("evidence_recall", "answer_contains_gold", "answer_f1"):
            assert set(data[metric]) == BY_CATEGORY
            assert 0.0 <= data[metric]["overall"] <= 1.0
            assert data[metric]["3"] is None  # no open-domain question in the tiny set
    assert report["context_window"] == 2048 and report["max_reply_tokens"] == 12
    assert "small local models answer poorly" in report["note"]
    assert len(report["per_question"]) == 3
    for entry in report["per_question"]:
        assert set(entry["strategies"]) == set(STRATEGIES)
        assert all(isinstance(c["answer"], str) for c in entry["strategies"].values())


def test_strategies_differ_as_they_should(run: tuple[int, dict, Path]) -> None:
    _, report, _ = run
    s = report["strategies"]
    # The whole 12-turn conversation fits the window: every evidence turn is in the prompt.
    assert s["full-context"]["evidence_recall"]["overall"] == 1.0
    assert s["full-context"]["records_mean"] == 12
    assert s["top-4"]["records_mean"] == 4 and s["top-8"]["records_mean"] == 8
    assert s["full-context"]["prompt_tokens"]["mean"] > s["top-8"]["prompt_tokens"]["mean"]
    assert s["top-8"]["prompt_tokens"]["mean"] > s["top-4"]["prompt_tokens"]["mean"]
    assert s["top-8"]["evidence_recall"]["overall"] >= s["top-4"]["evidence_recall"]["overall"]
    # voice-agent retrieves within the budget the engine derives from the measured prompt-reading rate.
    assert s["voice-agent"]["budget_tokens_mean"] is not None
    assert 0 <= s["voice-agent"]["budget_tokens_mean"] <= 500
    for name in ("full-context", "top-4", "top-8"):
        assert s[name]["budget_tokens_mean"] is None
    rate = report["prompt_rate"]
    assert rate["seed"]["samples"] == 0 and rate["at_end"]["samples"] >= 1


def test_costs_follow_the_price_table(run: tuple[int, dict, Path]) -> None:
    _, report, _ = run
    prices = report["prices"]
    assert prices["noted"] and prices["currency"] == "USD" and prices["file"].endswith("prices.toml")
    for data in report["strategies"].values():
        cost = data["cost_per_1000_turns"]
        assert set(cost) == set(prices["models"])
        assert cost["local"] == 0.0
        for model, price in prices["models"].items():
            expected = 1000 * (
                data["prompt_tokens"]["mean"] * price["input_per_million"]
                + data["completion_tokens_mean"] * price["output_per_million"]
            ) / 1e6  # fmt: skip
            # the report rounds both means to 0.1 token and the cost to 0.0001
            slack = 1000 * 0.05 * (price["input_per_million"] + price["output_per_million"]) / 1e6 + 1e-4
            assert cost[model] == pytest.approx(expected, abs=slack)
    costs = {n: d["cost_per_1000_turns"]["gpt-4o-mini"] for n, d in report["strategies"].items()}
    assert costs["full-context"] > costs["top-4"]


def test_provenance_is_recorded(run: tuple[int, dict, Path]) -> None:
    _, report, _ = run
    meta = report["meta"]
    assert meta["machine"]["cores"] >= 1 and meta["machine"]["cpu"] and meta["machine"]["ram_gib"]
    assert meta["versions"]["voice-agent"] and meta["versions"]["numpy"]
    assert meta["seed"] == 7 and meta["started"] <= meta["date"]
    assert meta["machine"]["load_avg_1m_at_start"] >= 0 and meta["machine"]["load_avg_1m_at_end"] >= 0
    assert meta["config"]["llm"]["local"]["model"] == "smollm2-135m"
    manifest = {m.id: m for m in load_manifest().models}
    models = {m["id"]: m for m in meta["models"]}
    assert {"smollm2-135m", "minilm", "spacy-en"} <= set(models)
    smol = models["smollm2-135m"]
    assert smol["state"] == "ok" and smol["sha256_verified"] is True
    assert [f["sha256"] for f in smol["files"]] == [f.sha256 for f in manifest["smollm2-135m"].files]


def test_plot_and_report(run: tuple[int, dict, Path]) -> None:
    _, _, out = run
    assert_png(out / "strategies.png")
    assert main(["bench", "report", str(out / "strategies.json"), "--out", str(out / "report.md")]) == 0
    text = (out / "report.md").read_text(encoding="utf-8")
    assert "## Memory strategies side by side" in text
    assert "| strategy | first token p50 (ms) |" in text
    assert all(f"| {name} |" in text for name in STRATEGIES)
    assert "Cost per 1,000 turns" in text and "small local models answer poorly" in text
    assert_png(out / "report-plots" / "A-strategies.png")


def test_ctrl_c_writes_a_partial_report(tmp_path: Path, model_dir: Path) -> None:
    dataset = write_tiny_locomo(tmp_path / "tiny.json")
    out = tmp_path / "partial.json"
    cmd = [
        sys.executable, "-m", "voice_agent.cli", "bench", "strategies", "--dataset", str(dataset),
        "--config", str(smollm2_config_file(tmp_path)), "--json", str(out), "--questions", "3",
        "--no-verify-models",
    ]  # fmt: skip
    # A shell that starts pytest in the background leaves SIGINT ignored, and an ignored signal stays
    # ignored across exec: the child then never sees Ctrl-C. Handled in the parent, it starts default.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        proc = subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ)
        )
    finally:
        signal.signal(signal.SIGINT, previous)
    deadline = time.monotonic() + 600
    assert proc.stderr is not None
    for line in proc.stderr:  # the progress bar: interrupt once the first call was measured
        if line.startswith("strategies: calls") or time.monotonic() > deadline:
            break
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, err[-2000:]
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["partial"] is True and report["meta"]["interrupted"] is True
    assert report["sample"]["size"] == 3
    answered = sum(len(q["strategies"]) for q in report["per_question"])
    assert 1 <= answered < 12
