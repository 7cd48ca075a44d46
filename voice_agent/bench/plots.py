"""Benchmark plots (matplotlib, headless, PNG)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_memory(report: dict[str, Any], out: str | Path) -> Path:
    """Two panels: evidence recall per question category for each system, and retrieve/write latency."""
    plt = _pyplot()
    systems = list(report["systems"])
    keys = ["overall", "1", "2", "3", "4"]
    labels = ["overall", "1 multi-hop", "2 temporal", "3 open-domain", "4 single-hop"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5), gridspec_kw={"width_ratios": [3, 2]})
    width = 0.8 / max(1, len(systems))
    for i, name in enumerate(systems):
        recall = report["systems"][name]["recall"]
        xs = [k + i * width for k in range(len(keys))]
        bars = left.bar(xs, [recall.get(k, 0.0) for k in keys], width, label=name)
        left.bar_label(bars, fmt="%.2f", fontsize=7)
    left.set_xticks([k + width * (len(systems) - 1) / 2 for k in range(len(keys))], labels, fontsize=8)
    left.set_ylim(0, 1.05)
    left.set_ylabel("evidence recall")
    left.set_title(
        f"Evidence recall within {report['budget_tokens']} tokens ({report['questions']} questions)"
    )
    left.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncols=min(4, len(systems)))
    metrics = [("retrieve_ms", "p50"), ("retrieve_ms", "p95"), ("write_ms", "p50"), ("write_ms", "p95")]
    for i, name in enumerate(systems):
        values = [report["systems"][name][m][p] for m, p in metrics]
        xs = [k + i * width for k in range(len(metrics))]
        right.bar(xs, values, width, label=name)
    right.set_xticks(
        [k + width * (len(systems) - 1) / 2 for k in range(len(metrics))],
        ["retrieve p50", "retrieve p95", "write p50", "write p95"],
        fontsize=8,
    )
    right.set_ylabel("ms")
    right.set_title("Latency per question / per turn")
    machine = report.get("meta", {}).get("machine", {})
    fig.suptitle(f"{machine.get('cpu', '')} · {machine.get('cores', '?')} cores", fontsize=8)
    fig.tight_layout()
    target = Path(out)
    target.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(target, format="png", dpi=110)
    plt.close(fig)
    return target


def plot_scale(report: dict[str, Any], out: str | Path) -> Path:
    """Retrieval latency (p50, p95, query embedding included) against records, one line per store."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    stores = sorted({entry.get("store", "sqlite") for entry in report["scale"]})
    for store in stores:
        entries = sorted(
            (e for e in report["scale"] if e.get("store", "sqlite") == store), key=lambda e: e["records"]
        )
        xs = [e["records"] for e in entries]
        for point, style in (("p50", "o-"), ("p95", "s--")):
            ax.plot(xs, [e["retrieve_ms"][point] for e in entries], style, label=f"{store} {point}")
        for e in entries:
            ax.annotate(f"{e['conversations']} conv", (e["records"], e["retrieve_ms"]["p95"]), fontsize=7)
    ax.set_xscale("log")
    ax.set_xlabel("records")
    ax.set_ylabel("retrieve ms (query embedding included)")
    ax.set_title("Memory retrieval latency against records (wall; JSON has CPU ms too)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    machine = report.get("meta", {}).get("machine", {})
    load = machine.get("load_avg_1m_at_start")
    fig.suptitle(f"{machine.get('cpu', '')} · {machine.get('cores', '?')} cores · load {load}", fontsize=8)
    fig.tight_layout()
    target = Path(out)
    target.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(target, format="png", dpi=110)
    plt.close(fig)
    return target
