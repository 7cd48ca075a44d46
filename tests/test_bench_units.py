"""The benchmark harness without models: answer scoring, the stratified sample, the price table, turn
segments from real traces (fake clock), and the Markdown report with side-by-side ratios."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from _bench_support import assert_png

from voice_agent.bench.answers import contains_gold, normalise_answer, token_f1
from voice_agent.bench.dataset import Question
from voice_agent.bench.latency_bench import SEGMENTS, STAGES, find_clips, summarise_turns, turn_figures
from voice_agent.bench.markdown import fmt, load_run, ratio, render_report
from voice_agent.bench.prices import load_price_table
from voice_agent.bench.strategies import call_order, sample_questions, validate_strategies
from voice_agent.clock import FakeClock
from voice_agent.errors import ConfigError, InputError
from voice_agent.metrics.trace import Span, TurnTrace


# -- answers -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("reply", "gold", "expected"),
    [
        ("It was on 7 May 2023.", "7 May 2023", True),
        ("She has 3 kids.", 3, True),
        ("She has 3.0 kids", 3.0, True),
        ("The Eiffel Tower, in Paris!", "eiffel tower", True),
        ("An apple a day", "the apple", True),
        ("It took 100 days", 10, False),  # numbers match as whole words
        ("Caroline researched adoption agencies", "Adoption agencies", True),
        ("I don't know", "Biscuit", False),
        ("anything", "", False),
    ],
)
def test_answer_contains_gold_after_normalisation(reply: str, gold: object, expected: bool) -> None:
    assert contains_gold(reply, gold) is expected


def test_normalisation_and_token_f1() -> None:
    assert normalise_answer("  The  “Quick” fox — a story. ") == "quick fox story"
    assert normalise_answer(None) == ""
    assert token_f1("Berlin", "Berlin") == 1.0
    assert token_f1("in Berlin, Germany", "Berlin") == pytest.approx(2 * (1 / 3) * 1 / (1 / 3 + 1))
    assert token_f1("", "Berlin") == 0.0 and token_f1("Paris", "Berlin") == 0.0


# -- sampling and strategies ---------------------------------------------------------------------------
def _questions() -> list[Question]:
    sizes = {1: 30, 2: 20, 3: 5, 4: 45}
    out = []
    for category, n in sizes.items():
        out += [Question("s", len(out) + i, f"q{category}-{i}", "a", ("D1:1",), category) for i in range(n)]
    return out


def test_sample_is_stratified_seeded_and_in_dataset_order() -> None:
    population = _questions()
    sample = sample_questions(population, 20, seed=7)
    counts = {c: sum(1 for q in sample if q.category == c) for c in (1, 2, 3, 4)}
    assert counts == {1: 6, 2: 4, 3: 1, 4: 9}
    assert sample == sample_questions(population, 20, seed=7)
    assert sample != sample_questions(population, 20, seed=8)
    assert [q.index for q in sample] == sorted(q.index for q in sample)
    tiny = sample_questions(population, 4, seed=1)  # every category still has a voice
    assert sorted(q.category for q in tiny) == [1, 2, 3, 4]
    assert sample_questions(population, None, seed=1) == population
    assert sample_questions(population, 500, seed=1) == population
    with pytest.raises(InputError):
        sample_questions(population, 0, seed=1)


def test_strategy_names_and_call_order() -> None:
    names = validate_strategies(["top-4", "voice-agent", "full-context", "top-8", "top-4"])
    assert names == ["top-4", "voice-agent", "full-context", "top-8"]
    order = call_order(names)
    assert order == ["full-context", "top-4", "voice-agent", "top-8"]
    assert abs(order.index("top-4") - order.index("top-8")) > 1  # top-8 starts with top-4's records
    for bad in (["top-0"], ["rag"], ["top-x"], []):
        with pytest.raises(InputError):
            validate_strategies(bad)


# -- prices --------------------------------------------------------------------------------------------
def test_default_price_table_is_dated_and_local_is_free() -> None:
    table = load_price_table()
    assert table.noted != "unknown" and "verify" in table.note.lower()
    assert table.models["local"].input_per_million == 0.0
    cost = table.cost_per_1000_turns(1000.0, 50.0)
    assert cost["local"] == 0.0
    mini = table.models["gpt-4o-mini"]
    expected = 1000 * (1000 * mini.input_per_million + 50 * mini.output_per_million) / 1e6
    assert cost["gpt-4o-mini"] == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize(
    "body",
    [
        "noted = 'x'\n",
        "[models.a]\ninput_per_million = -1\noutput_per_million = 1\n",
        "[models.a]\ninput_per_million = 'cheap'\noutput_per_million = 1\n",
        "[models.a\n",
    ],
)
def test_bad_price_tables_name_the_file(tmp_path: Path, body: str) -> None:
    path = tmp_path / "prices.toml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(ConfigError, match=r"prices\.toml"):
        load_price_table(path)
    with pytest.raises(ConfigError, match="not found"):
        load_price_table(tmp_path / "missing.toml")


# -- latency figures from traces -----------------------------------------------------------------------
def _trace(clock: FakeClock, *, asr_ms: float, llm_ms: float, speculative: bool = False) -> dict[str, object]:
    """A turn as the session records it, on a fake clock: speech 2 s, 400 ms silence wait, ..."""
    trace = TurnTrace("c", clock=clock)
    clock.advance_ms(2000)
    speech_end = clock.now_ns()
    trace.mark("vad.speech_end", at_ns=speech_end)
    if speculative:  # decoded during the pause: done before the endpoint
        trace.add(Span("asr.final", speech_end + 50_000_000, speech_end + 50_000_000 + int(asr_ms * 1e6)))
    clock.advance_ms(400)
    trace.add(Span("vad.end", speech_end, clock.now_ns()))
    if not speculative:
        start = clock.now_ns()
        clock.advance_ms(asr_ms)
        trace.add(Span("asr.final", start, clock.now_ns()))
    with trace.span("retrieve"):
        clock.advance_ms(12)
    trace.mark("prompt.tokens", total=321)
    clock.advance_ms(llm_ms)
    trace.mark("llm.first_token")
    clock.advance_ms(150)
    trace.mark("first_sentence")
    start = clock.now_ns()
    clock.advance_ms(60)
    trace.add(Span("tts.first_audio", start, clock.now_ns()))
    clock.advance_ms(5)
    trace.mark("playback.start")
    trace.attrs["llm"] = {"first_token_ms": llm_ms, "cached_tokens": 100}
    return trace.to_record()


def test_segments_add_up_to_voice_to_voice() -> None:
    clock = FakeClock()
    for record in (
        _trace(clock, asr_ms=300, llm_ms=500),
        _trace(clock, asr_ms=200, llm_ms=700, speculative=True),
    ):
        figures = turn_figures(record)
        segments = figures["segments"]
        assert list(segments) == list(SEGMENTS)
        assert all(v >= 0 for v in segments.values())
        assert sum(segments.values()) == pytest.approx(record["voice_to_voice_ms"], abs=0.5)
        assert figures["prompt_tokens"] == 321 and figures["retrieve_ms"] == pytest.approx(12, abs=0.01)
    assert turn_figures(record)["segments"]["asr_tail"] == 0.0  # the speculative final was ready in time


def test_summary_picks_the_median_turn_and_shares_sum_to_one() -> None:
    clock = FakeClock()
    turns = [turn_figures(_trace(clock, asr_ms=300, llm_ms=ms)) for ms in (900, 100, 500, 300, 700)]
    summary = summarise_turns(turns)
    assert set(summary["stages"]) == set(STAGES)
    v2v = sorted(t["voice_to_voice_ms"] for t in turns)
    assert summary["median_turn"]["voice_to_voice_ms"] == v2v[2]
    assert summary["stages"]["voice_to_voice_ms"]["max"] == pytest.approx(v2v[-1], abs=0.1)
    assert sum(s["share"] for s in summary["segments"].values()) == pytest.approx(1.0, abs=0.01)
    assert summary["segments"]["llm_first_token"]["p50"] == pytest.approx(500, abs=0.1)


def test_find_clips(tmp_path: Path) -> None:
    (tmp_path / "b.wav").write_bytes(b"x")
    (tmp_path / "a.flac").write_bytes(b"x")
    (tmp_path / "notes.txt").write_text("x")
    assert [p.name for p in find_clips(tmp_path)] == ["a.flac", "b.wav"]
    assert find_clips(tmp_path / "b.wav") == [tmp_path / "b.wav"]
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no audio"):
        find_clips(tmp_path / "empty")
    with pytest.raises(InputError, match="not found"):
        find_clips(tmp_path / "nope.wav")


# -- the Markdown report -------------------------------------------------------------------------------
def _latency_run(path: Path, llm_ms: float, machine: str) -> Path:
    clock = FakeClock()
    turns = [turn_figures(_trace(clock, asr_ms=300, llm_ms=llm_ms + k)) for k in range(0, 50, 10)]
    report = {
        "kind": "latency", "schema": 1, "partial": False, "runs": 1, "warmup_turns": 1, "turns": turns,
        "turns_measured": len(turns), "audio": {"clips": [{"file": "x.wav"}]}, "target_p50_ms": 1500.0,
        **summarise_turns(turns),
        "meta": {"date": "2026-01-01T00:00:00+00:00", "machine": {"cpu": machine, "cores": 2, "ram_gib": 8.0},
                 "versions": {"voice-agent": "0.1.0"}, "seed": None, "config": {"asr": {"model": "x"}},
                 "models": [{"id": "m", "state": "ok", "sha256_verified": True,
                             "files": [{"path": "m.bin", "sha256": "ab" * 32, "size": 1}]}]},
    }  # fmt: skip
    path.write_text(json.dumps(report), encoding="utf-8")
    return path


def test_report_puts_two_runs_side_by_side_with_ratios(tmp_path: Path) -> None:
    a = _latency_run(tmp_path / "a.json", 500, "CPU one")
    b = _latency_run(tmp_path / "b.json", 1000, "CPU two")
    out = render_report([a, b], tmp_path / "rep" / "report.md")
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# voice-agent benchmark report")
    assert "| run | kind | file |" in text and "CPU one" in text and "CPU two" in text
    assert "| metric | A | B | B/A |" in text
    row = next(
        line for line in text.splitlines() if line.startswith("| LLM first token, from request (ms) p50")
    )
    cells = [c.strip() for c in row.strip("|").split("|")]
    a_ms, b_ms = (float(c.replace(",", "")) for c in cells[1:3])
    assert cells[3] == f"×{b_ms / a_ms:.2f}" and b_ms > a_ms
    for label in ("A", "B"):
        image = f"report-plots/{label}-latency.png"
        assert f"]({image})" in text
        assert_png(out.parent / image)
    assert "`abababababab…`" in text and "verified" in text


def test_report_rejects_what_is_not_a_run(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(InputError, match="not valid JSON"):
        load_run(bad, "A")
    bad.write_text(json.dumps({"hello": 1}), encoding="utf-8")
    with pytest.raises(InputError, match="known kind"):
        load_run(bad, "A")
    with pytest.raises(InputError, match="not found"):
        load_run(tmp_path / "missing.json", "A")
    with pytest.raises(InputError):
        render_report([], tmp_path / "r.md")


def test_formatting_helpers() -> None:
    assert fmt(None) == "–" and fmt(True) == "yes" and fmt(1234) == "1,234" and fmt(2.345, 2) == "2.35"
    assert fmt("a|b") == "a\\|b"
    assert ratio(2.0, 3.0) == "×1.50" and ratio(0, 3.0) == "–" and ratio(None, 1.0) == "–"
    assert math.isclose(float(ratio(4, 1)[1:]), 0.25)
