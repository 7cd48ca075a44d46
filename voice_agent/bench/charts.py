"""Plots of `bench strategies` and `bench latency` (matplotlib, headless, PNG); `bench memory`'s plot is
``plots.plot_memory``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from voice_agent.bench.plots import _pyplot

# Waterfall segments, in order along a turn (see ``latency_bench.turn_segments``).
SEGMENT_LABELS = {
    "endpoint": "endpointing (silence wait)",
    "asr_tail": "ASR final after endpoint",
    "memory_prompt": "scrub + retrieve + prompt",
    "llm_first_token": "LLM first token",
    "first_clause": "first clause complete",
    "tts_first_audio": "TTS first audio",
    "to_playback": "to playback",
}


def _save(fig: Any, out: str | Path) -> Path:
    plt = _pyplot()
    target = Path(out)
    target.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(target, format="png", dpi=110)
    plt.close(fig)
    return target


def _footer(report: dict[str, Any]) -> str:
    meta = report.get("meta", {})
    machine = meta.get("machine", {})
    load = machine.get("load_avg_1m_at_start")
    return (
        f"{machine.get('cpu', '?')} · {machine.get('cores', '?')} cores · load {load} · "
        f"{str(meta.get('date', ''))[:10]}" + (" · PARTIAL RUN" if report.get("partial") else "")
    )


def plot_strategies(report: dict[str, Any], out: str | Path) -> Path:
    """Four panels: first-token latency, prompt tokens, accuracy (evidence recall, answer contains gold),
    and the cost of 1,000 turns at each priced (non-zero) model."""
    plt = _pyplot()
    names = list(report["strategies"])
    data = [report["strategies"][n] for n in names]
    xs = list(range(len(names)))
    fig, axes = plt.subplots(2, 2, figsize=(12, 8))
    (lat, tok), (acc, cost) = axes

    p50 = [d["first_token_ms"]["p50"] / 1000 for d in data]
    p95 = [d["first_token_ms"]["p95"] / 1000 for d in data]
    bars = lat.bar(
        xs,
        p50,
        0.6,
        yerr=[[0] * len(xs), [max(0.0, b - a) for a, b in zip(p50, p95, strict=True)]],
        capsize=4,
        color="tab:blue",
    )
    lat.bar_label(bars, fmt="%.2f s", fontsize=8)
    lat.set_title("LLM first-token latency (bar p50, whisker p95)")
    lat.set_ylabel("seconds")

    means = [d["prompt_tokens"]["mean"] for d in data]
    bars = tok.bar(xs, means, 0.6, color="tab:gray")
    tok.bar_label(bars, fmt="%.0f", fontsize=8)
    tok.axhline(report.get("context_window", 0), color="tab:red", linestyle=":", linewidth=1)
    tok.set_title(f"Prompt tokens, mean (dotted: {report.get('context_window')}-token window)")

    recall = [d["evidence_recall"]["overall"] or 0.0 for d in data]
    gold = [d["answer_contains_gold"]["overall"] or 0.0 for d in data]
    b1 = acc.bar([x - 0.2 for x in xs], recall, 0.4, label="evidence recall")
    b2 = acc.bar([x + 0.2 for x in xs], gold, 0.4, label="answer contains gold")
    acc.bar_label(b1, fmt="%.2f", fontsize=8)
    acc.bar_label(b2, fmt="%.2f", fontsize=8)
    acc.set_ylim(0, 1.1)
    acc.legend(fontsize=8)
    acc.set_title(f"Accuracy on {report.get('questions')} questions (answers: small local model)")

    priced = [
        m for m, p in report["prices"]["models"].items() if p["input_per_million"] or p["output_per_million"]
    ]
    width = 0.8 / max(1, len(priced))
    for i, model in enumerate(priced):
        cost.bar(
            [x + i * width - 0.4 + width / 2 for x in xs],
            [d["cost_per_1000_turns"].get(model, 0.0) for d in data],
            width,
            label=model,
        )
    cost.set_title(
        f"Cost per 1,000 turns ({report['prices']['currency']}, prices noted {report['prices']['noted']})"
    )
    if priced:
        cost.legend(fontsize=7)
    for ax in (lat, tok, acc, cost):
        ax.set_xticks(xs, names, fontsize=9)
    fig.suptitle(_footer(report), fontsize=8)
    return _save(fig, out)


def plot_latency(report: dict[str, Any], out: str | Path) -> Path:
    """Two panels: a waterfall of the median turn (segments of voice-to-voice) and the CDF of
    voice-to-voice over all measured turns."""
    plt = _pyplot()
    fig, (fall, cdf) = plt.subplots(1, 2, figsize=(13, 4.8), gridspec_kw={"width_ratios": [3, 2]})
    median = report.get("median_turn") or {}
    segments = median.get("segments") or {}
    start = 0.0
    labels = []
    for row, (key, label) in enumerate(SEGMENT_LABELS.items()):
        ms = float(segments.get(key) or 0.0)
        fall.barh(row, ms, left=start, color=f"C{row}")
        fall.text(start + ms + 8, row, f"{ms:.0f} ms", va="center", fontsize=8)
        labels.append(label)
        start += ms
    fall.set_yticks(range(len(labels)), labels, fontsize=8)
    fall.invert_yaxis()
    fall.set_xlabel("ms after the user stopped speaking")
    v2v = median.get("voice_to_voice_ms")
    fall.set_title(f"Median turn: voice-to-voice {v2v if v2v is not None else '-'} ms")
    if v2v is not None:
        fall.axvline(float(v2v), color="black", linestyle=":", linewidth=1)

    values = sorted(
        float(t["voice_to_voice_ms"])
        for t in report.get("turns", [])
        if t.get("voice_to_voice_ms") is not None
    )
    if values:
        ys = [(i + 1) / len(values) for i in range(len(values))]
        cdf.step([values[0] / 1000] + [v / 1000 for v in values], [0.0, *ys], where="post")
        cdf.scatter([v / 1000 for v in values], ys, s=10)
    target = report.get("target_p50_ms")
    if target:
        cdf.axvline(
            target / 1000,
            color="tab:red",
            linestyle=":",
            linewidth=1,
            label=f"target p50 {target / 1000:.1f} s",
        )
        cdf.legend(fontsize=8, loc="lower right")
    cdf.set_ylim(0, 1.02)
    cdf.set_xlabel("voice-to-voice (s)")
    cdf.set_ylabel("share of turns")
    cdf.set_title(f"Voice-to-voice CDF ({len(values)} turns)")
    cdf.grid(alpha=0.3)
    fig.suptitle(_footer(report), fontsize=8)
    return _save(fig, out)
