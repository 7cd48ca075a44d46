"""`bench adoption`: the scenario data, the scoring, and a real run through the engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _llm_support import smollm2_sections

from voice_agent.bench.adoption import (
    Scenario,
    adopted,
    language_matches,
    load_scenarios,
    recommended,
    table,
    violations,
)
from voice_agent.bench.markdown import render_report
from voice_agent.errors import InputError

NUT_NEVER = ("peanut", "almond", "walnut", "nuts", "花生", "坚果", "核桃")


def test_the_built_in_scenarios_cover_both_languages_kinds_and_splits() -> None:
    scenarios = load_scenarios().scenarios
    assert len(scenarios) >= 40
    languages = {s.language for s in scenarios}
    assert languages == {"en", "zh"}
    for language in languages:
        mine = [s for s in scenarios if s.language == language]
        assert len(mine) >= 18
        kinds = {s.category for s in mine}
        assert {"allergy", "diet", "name", "place", "date", "changed", "preference", "dislike"} <= kinds
    for split in ("tune", "heldout"):
        assert len([s for s in scenarios if s.split == split]) >= 20
    fillers = load_scenarios().filler_turns("zh", 10)
    assert len(fillers) == 10 and all(q and a for q, a in fillers)


def test_a_bad_scenario_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"scenarios": [{"id": "x", "facts": ["f"], "probe": "p"}]}), encoding="utf-8")
    with pytest.raises(InputError, match="expect_any"):
        load_scenarios(bad)
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(InputError, match="cannot read"):
        load_scenarios(bad)


@pytest.mark.parametrize(
    ("reply", "found"),
    [
        ("A peanut butter cake is a classic.", ["peanut"]),
        ("Try a nut-free lemon cake.", []),
        ("Make it without peanuts, almonds or walnuts.", []),
        ("Since your kid is allergic to nuts, pick a fruit tart.", []),
        ("推荐花生酱蛋糕。", ["花生"]),
        ("做一个不含坚果和花生的蛋糕。", []),
    ],
)
def test_violations_allow_negated_mentions(reply: str, found: list[str]) -> None:
    assert [v.lower() for v in violations(reply, NUT_NEVER)] == found


def test_never_except_words_do_not_count() -> None:
    assert violations("番茄炒鸡蛋很好吃。", ["鸡"], ["鸡蛋"]) == []
    assert violations("宫保鸡丁很好吃。", ["鸡"], ["鸡蛋"]) == ["鸡"]
    # the longest exception is masked first, whatever the order it is listed in
    assert violations("我建议避开寺庙，换个别的选择。", ["寺", "庙"], ["避开寺", "避开寺庙"]) == []


def test_adoption_needs_an_expected_word_and_no_violation() -> None:
    scenario = Scenario("s", "en", "allergy", ("My kid is allergic to nuts.",), "Recommend a cake.",
                        ("nut-free", "allerg", "cake"), NUT_NEVER)  # fmt: skip
    assert adopted("A nut-free lemon cake.", scenario)
    assert not adopted("A peanut butter cake.", scenario)
    assert not adopted("The guitar is a fine instrument.", scenario)
    assert language_matches("A lemon cake.", "en") and not language_matches("A lemon cake is nice.", "zh")


@pytest.mark.slow
async def test_bench_adoption_runs_two_scenarios_through_the_engine(tmp_path: Path, model_dir: Path) -> None:
    """SmolLM2-135M through the real engine and memory: the report's shape, and the reply check's
    promise that no guarded reply breaks a constraint (the tiny model's words are not judged)."""
    from voice_agent.bench.adoption_run import run_adoption_bench
    from voice_agent.config import load_config

    config_path = tmp_path / "bench.toml"
    config_path.write_text(smollm2_sections(max_tokens=40), encoding="utf-8")
    config = load_config(config_path, data_dir=tmp_path / "data", env={})
    out = tmp_path / "adoption.json"
    report = await run_adoption_bench(
        config, ids=["en-nut-cake", "zh-vegetarian", "en-name"], fillers=6, variants=["default", "bare"],
        json_out=out, progress=False, verify_models=False,
    )  # fmt: skip
    assert json.loads(out.read_text(encoding="utf-8"))["kind"] == "adoption"
    assert report["models"] == ["smollm2-135m"] and report["variants"] == ["default", "bare"]
    rows = report["per_scenario"]
    assert len(rows) == 6 and {r["id"] for r in rows} == {"en-nut-cake", "zh-vegetarian", "en-name"}
    # "Do you remember my name?" is answered from memory (no LLM call) with the prompt on, by the LLM bare.
    recalled = {r["variant"]: r for r in rows if r["id"] == "en-name"}
    assert recalled["default"]["checks"]["recall_answer"] and "Marisol" in recalled["default"]["reply"]
    assert recalled["default"]["adopted"] and recalled["default"]["first_token_ms"] is None
    assert "recall_answer" not in recalled["bare"]["checks"]
    for row in rows:
        if "recall_answer" not in row["checks"]:
            assert row["reply"] and row["first_token_ms"] and row["first_token_ms"] > 0
            # (the date sits in the system rules, not in front of the person's words)
            assert not row["turn_message"].startswith("(today is")
            assert row["variant"] == "bare" or row["turn_message"].count("\n") >= 1
            # The memory block is there with the prompt on (the reminder line); bare, it may be empty
            # when every quoted record is an unrelated earlier question (those are left out).
            assert row["variant"] == "bare" or "</memory>" in row["turn_message"]
        assert isinstance(row["adopted"], bool) and isinstance(row["language_ok"], bool)
    # With the prompt on, the reply about the cake opens with the allergy in the person's words (said by
    # the engine, not the model); bare, it does not.
    cake = {r["variant"]: r for r in rows if r["id"] == "en-nut-cake"}
    assert cake["default"]["reply"].startswith("You told me your kid is allergic to nuts,")
    assert not cake["bare"]["reply"].startswith("You told me your kid")
    guarded = [r for r in rows if r["variant"] == "default"]
    assert all(r["violations"] == [] for r in guarded), guarded
    assert all(r["checks"]["check_ms_max"] >= 0 for r in guarded if "recall_answer" not in r["checks"])
    groups = {(g["variant"], g["split"]) for g in report["groups"]}
    assert ("default", "all") in groups and ("bare", "all") in groups
    summary = next(
        g["summary"] for g in report["groups"] if g["variant"] == "default" and g["split"] == "all"
    )
    assert summary["scenarios"] == 3 and summary["violations"] == 0 and summary["answered_from_memory"] == 1
    assert set(summary) >= {"adoption", "language_match", "regenerated", "safe_sentences", "first_token_ms"}
    assert "smollm2-135m" in table(report)
    assert report["meta"]["machine"]["cores"]
    # `bench report` renders the run: a row per model × variant × split, and what was said when not adopted.
    markdown = render_report([out], tmp_path / "report.md").read_text(encoding="utf-8")
    assert "## Replies that use what was remembered (bench adoption)" in markdown
    assert "| smollm2-135m | default | all | 3 |" in markdown
    missed = [r for r in rows if not r["adopted"]]
    assert ("Not adopted:" in markdown) == bool(missed)
    for row in missed:
        assert f"| {row['id']} | {row['variant']} |" in markdown


def test_bench_report_renders_a_security_run_as_a_table(tmp_path: Path) -> None:
    run = {
        "kind": "security", "partial": False, "targets": {"changed_reply_rate": 0.02},
        "backends": {"local": {
            "backend": {"name": "local", "kind": "local", "model": "qwen2.5-coder-0.5b"},
            "attacks": {"attempts": 40, "pinned": 1, "reached_system": 0, "reached_system_rate": 0.0,
                        "changed_reply": 1, "changed_reply_rate": 0.025, "control_tokens_typed": 3,
                        "control_tokens_sent": 0, "by_lang": {}},
            "benign": {"statements": 20, "pinned": 19, "false_positive_rate": 0.05},
        }},
        "meta": {},
    }  # fmt: skip
    path = tmp_path / "security.json"
    path.write_text(json.dumps(run), encoding="utf-8")
    markdown = render_report([path], tmp_path / "r.md").read_text(encoding="utf-8")
    assert "## Injection attempts against memory (bench security)" in markdown
    assert "| local | qwen2.5-coder-0.5b | 40 | 1 | 0 (0%) | 1 (2%) | 3 / 0 | 19 / 20 | 5% |" in markdown


def test_adoption_after_the_opening_scores_the_models_own_words() -> None:
    from voice_agent.bench.adoption import after_opening

    scenario = Scenario("s", "en", "allergy", ("My kid is allergic to nuts.",), "Recommend a cake.",
                        ("nut-free", "allerg", "lemon"), NUT_NEVER)  # fmt: skip
    opening = "Since your kid is allergic to nuts, "
    weak = "Since your kid is allergic to nuts, a cake for your kid."
    assert adopted(weak, scenario) and not adopted(after_opening(weak, opening), scenario)
    good = "Since your kid is allergic to nuts, a lemon drizzle cake."
    assert adopted(after_opening(good, opening), scenario)
    assert after_opening("A lemon cake.", "") == "A lemon cake."


def test_the_opening_saying_the_constraint_back_is_no_violation() -> None:
    beans = Scenario(
        id="t-beans",
        language="zh",
        category="intolerance",
        facts=("我一吃豆类就胀气，黄豆绿豆都不行。",),
        probe="明天早上喝点什么配包子？",
        expect_any=("小米粥", "牛奶"),
        never=("黄豆", "绿豆", "豆浆"),
    )
    opening = "因为你一吃豆类就胀气，黄豆绿豆都不行，"
    assert recommended(opening + "来一碗小米粥吧。", beans, opening) == []
    assert adopted(opening + "来一碗小米粥吧。", beans, opening)
    # (the reply's pieces are joined with spaces)
    assert recommended("因为你一吃豆类就胀气， 黄豆绿豆都不行， 来一碗小米粥吧。", beans, opening) == []
    # What follows the opening is scored as before; without the opening the whole reply is.
    assert recommended(opening + "来一杯豆浆吧。", beans, opening) == ["豆浆"]
    assert not adopted(opening + "小米粥和豆浆都行。", beans, opening)
    # (the same words said back, not as the opening, still count: the scorer reads them as named)
    assert recommended("黄豆绿豆都不行，来一杯豆浆吧。", beans) == ["黄豆", "绿豆", "豆浆"]
