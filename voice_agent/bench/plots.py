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
