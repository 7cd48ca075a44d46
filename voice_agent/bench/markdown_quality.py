"""The report sections for the runs that measure what the assistant says: `bench adoption` (do replies use
what was remembered) and `bench security` (do injection attempts reach the prompt or change a reply).

Tables only (no plots); one block per run, since these runs are read per model and variant rather than
as ratios. Used by ``bench.markdown``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

_MISS_CHARS = 140


class RunLike(Protocol):
    @property
    def label(self) -> str: ...

    @property
    def data(self) -> dict[str, Any]: ...


def fmt(value: Any, digits: int = 1) -> str:
    """One table cell: numbers with thousands separators, no "|" or line break to break the table."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    return str(value).replace("|", "\\|").replace("\n", " ")


def _pct(value: Any) -> str:
    return f"{value:.0%}" if isinstance(value, int | float) and not isinstance(value, bool) else "–"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    return [*lines, *("| " + " | ".join(row) + " |" for row in rows), ""]


def _ms(summary: dict[str, Any], key: str, stat: str) -> str:
    value = (summary.get(key) or {}).get(stat)
    return fmt(float(value), 0) if isinstance(value, int | float) else "–"


def adoption_section(runs: Sequence[RunLike]) -> list[str]:
    out: list[str] = []
    header = ["model", "variant", "split", "n", "adoption", "violations", "language", "regenerated",
              "safe sentence", "from memory", "1st token p50 / p95 (ms)", "check max (ms)"]  # fmt: skip
    for run in runs:
        d = run.data
        out += [f"**{run.label}**: {d.get('fillers', '?')} filler turns, split {d.get('split', '?')}", ""]
        rows = []
        for group in d.get("groups") or []:
            s = group.get("summary") or {}
            if not s.get("scenarios"):
                continue
            rows.append([
                fmt(group.get("model")), fmt(group.get("variant")), fmt(group.get("split")),
                fmt(s.get("scenarios")), _pct(s.get("adoption")), fmt(s.get("violations")),
                _pct(s.get("language_match")), fmt(s.get("regenerated")), fmt(s.get("safe_sentences")),
                fmt(s.get("answered_from_memory")),
                f"{_ms(s, 'first_token_ms', 'p50')} / {_ms(s, 'first_token_ms', 'p95')}",
                fmt(s.get("check_ms_max"), 2),
            ])  # fmt: skip
        out += _table(header, rows)
        out += _misses(d)
        if d.get("note"):
            out += [f"_{d['note']}_", ""]
    return out


def _misses(data: dict[str, Any]) -> list[str]:
    """The scenarios not adopted, with what was said (the reply, shortened)."""
    rows = []
    for item in data.get("per_scenario") or []:
        if item.get("adopted"):
            continue
        reply = " ".join(str(item.get("reply", "")).split())
        if len(reply) > _MISS_CHARS:
            reply = reply[:_MISS_CHARS] + "…"
        violations = ", ".join(str(v) for v in item.get("violations") or []) or "–"
        rows.append([fmt(item.get("id")), fmt(item.get("variant")), fmt(violations), fmt(reply)])
    if not rows:
        return []
    return ["Not adopted:", "", *_table(["scenario", "variant", "violations", "reply"], rows)]


def security_section(runs: Sequence[RunLike]) -> list[str]:
    out: list[str] = []
    header = ["backend", "model", "attempts", "pinned", "reached system", "changed a reply",
              "control tokens typed / sent", "benign pinned", "false positives"]  # fmt: skip
    for run in runs:
        d = run.data
        targets = d.get("targets") or {}
        out += [f"**{run.label}**" + (" (partial)" if d.get("partial") else ""), ""]
        rows = []
        for name, backend in (d.get("backends") or {}).items():
            attacks, benign = backend.get("attacks") or {}, backend.get("benign") or {}
            model = (backend.get("backend") or {}).get("model") or (backend.get("backend") or {}).get("kind")
            rows.append([
                fmt(name), fmt(model), fmt(attacks.get("attempts")), fmt(attacks.get("pinned")),
                f"{fmt(attacks.get('reached_system'))} ({_pct(attacks.get('reached_system_rate'))})",
                f"{fmt(attacks.get('changed_reply'))} ({_pct(attacks.get('changed_reply_rate'))})",
                f"{fmt(attacks.get('control_tokens_typed'))} / {fmt(attacks.get('control_tokens_sent'))}",
                f"{fmt(benign.get('pinned'))} / {fmt(benign.get('statements'))}",
                _pct(benign.get("false_positive_rate")),
            ])  # fmt: skip
        out += _table(header, rows)
        if targets:
            shown = ", ".join(f"{k} {v}" for k, v in targets.items())
            out += [f"Targets: {fmt(shown)}", ""]
    return out
