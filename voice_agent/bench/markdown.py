"""`voice-agent bench report RUN.json… --out report.md`: one Markdown report from benchmark runs.

Runs are labelled A, B, C… in the order given. Each kind (memory, strategies, latency; adoption and
security as tables only) gets its tables and its plots (regenerated from the JSON into
``<report name>-plots/`` beside the report); when several runs of one kind are given, their figures
stand side by side with the ratio of each run to the first, so two configs or two machines can be
compared. The provenance section lists what each run ran on.
"""

from __future__ import annotations

import json
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from voice_agent.bench.markdown_quality import adoption_section, fmt, security_section
from voice_agent.errors import InputError

KINDS = ("latency", "strategies", "memory", "adoption", "security")
KIND_TITLES = {
    "latency": "Voice-to-voice latency (bench latency)",
    "strategies": "Memory strategies side by side (bench strategies)",
    "memory": "Retrieval recall within a token budget (bench memory)",
    "adoption": "Replies that use what was remembered (bench adoption)",
    "security": "Injection attempts against memory (bench security)",
}
PLOTTED = ("latency", "strategies", "memory")  # the other kinds are tables only
Value = float | int | str | bool | None


@dataclass
class Run:
    label: str
    path: Path
    kind: str
    data: dict[str, Any]

    @property
    def meta(self) -> dict[str, Any]:
        return dict(self.data.get("meta") or {})

    @property
    def title(self) -> str:
        machine = self.meta.get("machine") or {}
        date = str(self.meta.get("date", "?"))[:10]
        return f"{self.label}: `{self.path.name}` ({machine.get('cpu', '?')}, {date})"


def load_run(path: str | Path, label: str) -> Run:
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError as err:
        raise InputError(f"run file not found: {p}") from err
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise InputError(f"run file {p} is not valid JSON: {err}") from err
    if not isinstance(data, dict):
        raise InputError(f"run file {p}: expected a JSON object")
    kind = data.get("kind")
    if kind is None and isinstance(data.get("systems"), dict) and "budget_tokens" in data:
        kind = "memory"  # `bench memory` reports carry no kind field
    if kind not in KINDS:
        raise InputError(f"run file {p}: not a benchmark report of a known kind ({', '.join(KINDS)})")
    return Run(label, p, str(kind), data)


# -- formatting --------------------------------------------------------------------------------------


def ratio(first: Value, other: Value) -> str:
    if isinstance(first, bool) or isinstance(other, bool):
        return "–"
    if not isinstance(first, int | float) or not isinstance(other, int | float) or first == 0:
        return "–"
    return f"×{other / first:.2f}"


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return [*lines, ""]


def get(data: Any, *keys: str) -> Value:
    for key in keys:
        if not isinstance(data, dict) or key not in data:
            return None
        data = data[key]
    return data if isinstance(data, int | float | str | bool) or data is None else None


# A metric: (row label, how to read it from a run's JSON, digits).
Metric = tuple[str, Callable[[dict[str, Any]], Value], int]


def side_by_side(runs: Sequence[Run], metrics: Sequence[Metric]) -> list[str]:
    """One row per metric, a column per run, and the ratio of each later run to the first."""
    header = ["metric", *(r.label for r in runs), *(f"{r.label}/{runs[0].label}" for r in runs[1:])]
    rows = []
    for label, read, digits in metrics:
        values = [read(r.data) for r in runs]
        rows.append([label, *(fmt(v, digits) for v in values), *(ratio(values[0], v) for v in values[1:])])
    return table(header, rows)


# -- per kind ----------------------------------------------------------------------------------------
LATENCY_STAGES = (
    ("endpoint_ms", "endpointing delay (ms)"),
    ("asr_final_ms", "ASR final, after speech end (ms)"),
    ("retrieve_ms", "retrieval (ms)"),
    ("prompt_tokens", "prompt tokens"),
    ("llm_first_token_ms", "LLM first token, from request (ms)"),
    ("first_sentence_ms", "first clause, after first token (ms)"),
    ("tts_first_audio_ms", "TTS first audio (ms)"),
    ("voice_to_voice_ms", "**voice-to-voice** (ms)"),
)


def latency_section(runs: Sequence[Run]) -> list[str]:
    out: list[str] = []
    for run in runs:
        d = run.data
        out += [f"### {run.title}", ""]
        clips = len(get_list(d, "audio", "clips"))
        load_start = fmt(get(run.meta, "machine", "load_avg_1m_at_start"), 2)
        out.append(
            f"{d.get('turns_measured')} turns: {d.get('runs')} run(s) over {clips} clip(s) after "
            f"{d.get('warmup_turns')} warm-up clip(s); target p50 {fmt(d.get('target_p50_ms'), 0)} ms "
            f"(met: {fmt(d.get('meets_target'))}). Load average (1 min) at start/end: "
            f"{load_start} / {_load_end(run)}."
            + (
                f" Prefix prefills between turns: {d['prefix_prefills']}."
                if d.get("prefix_prefills") is not None
                else ""
            )
            + (" **Partial run (interrupted).**" if d.get("partial") else "")
        )
        out.append("")
        rows = [
            [
                label,
                *(
                    fmt(get(d, "stages", key, p), 0 if key == "prompt_tokens" else 1)
                    for p in ("p50", "p95", "max")
                ),
            ]
            for key, label in LATENCY_STAGES
        ]
        out += table(["stage", "p50", "p95", "max"], rows)
        seg_rows = [
            [
                name,
                fmt(get(d, "median_turn", "segments", name)),
                fmt(get(d, "segments", name, "p50")),
                fmt(100 * float(get(d, "segments", name, "share") or 0.0), 0) + " %",
            ]
            for name in (d.get("segments") or {})
        ]
        out += ["Where voice-to-voice goes (consecutive segments after the user stops speaking):", ""]
        out += table(["segment", "median turn (ms)", "p50 over turns (ms)", "share of the total"], seg_rows)
        out += _slow_turns(d)
    if len(runs) > 1:
        metrics: list[Metric] = [
            (f"{label} {p}", _reader("stages", key, p), 1)
            for key, label in LATENCY_STAGES
            for p in ("p50", "p95")
        ]
        out += ["### Side by side", "", *side_by_side(runs, metrics)]
    return out


def _slow_turns(d: dict[str, Any]) -> list[str]:
    """The slowest turns and what ran beside them on the critical path (tail hunting)."""
    slow = get_list(d, "slow_turns")
    if not slow:
        return []
    rows = [
        [
            str(t.get("turn_id")),
            fmt(t.get("voice_to_voice_ms"), 0),
            str(t.get("biggest_segment")),
            ", ".join(t.get("background") or []) or "none",
            fmt(t.get("machine_busy_cores"), 2),
            fmt(t.get("other_processes_cores"), 2),
        ]
        for t in slow
    ]
    header = ["turn", "voice-to-voice (ms)", "biggest segment", "background meanwhile", "busy cores",
              "other processes (cores)"]  # fmt: skip
    return ["", "Slowest turns and what else ran on their critical path:", "", *table(header, rows)]


def _load_end(run: Run) -> str:
    value = get(run.meta, "machine", "load_avg_1m_at_end")
    return fmt(value if value is not None else get(run.data, "load_avg_1m_at_end"), 2)


def get_list(data: Any, *keys: str) -> list[Any]:
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data if isinstance(data, list) else []


def _reader(*keys: str) -> Callable[[dict[str, Any]], Value]:
    return lambda data: get(data, *keys)


def strategies_section(runs: Sequence[Run]) -> list[str]:
    out: list[str] = []
    for run in runs:
        d = run.data
        sample = d.get("sample") or {}
        out += [f"### {run.title}", ""]
        out.append(
            f"{d.get('questions')} questions answered (sample of {sample.get('size')} from "
            f"{sample.get('population')}, seed {sample.get('seed')}, "
            f"by category {sample.get('by_category')}); "
            f"window {d.get('context_window')} tokens; replies up to {d.get('max_reply_tokens')} tokens; "
            f"{d.get('cache_policy')}." + (" **Partial run (interrupted).**" if d.get("partial") else "")
        )
        out.append("")
        rows = []
        for name, s in (d.get("strategies") or {}).items():
            rows.append(
                [
                    name,
                    fmt(get(s, "first_token_ms", "p50"), 0),
                    fmt(get(s, "first_token_ms", "p95"), 0),
                    fmt(get(s, "prompt_tokens", "mean"), 0),
                    fmt(get(s, "prompt_tokens", "p95"), 0),
                    fmt(get(s, "evidence_recall", "overall"), 2),
                    fmt(get(s, "answer_contains_gold", "overall"), 2),
                    fmt(get(s, "answer_f1", "overall"), 2),
                ]
            )
        out += table(
            [
                "strategy",
                "first token p50 (ms)",
                "p95 (ms)",
                "prompt tokens mean",
                "p95",
                "evidence recall",
                "answer contains gold",
                "answer F1",
            ],
            rows,
        )
        out += _cost_table(d)
        out += [f"_{d.get('note', '')}_", ""]
    if len(runs) > 1:
        names = [n for n in (runs[0].data.get("strategies") or {})]
        metrics: list[Metric] = []
        for name in names:
            metrics += [
                (f"{name}: first token p50 (ms)", _reader("strategies", name, "first_token_ms", "p50"), 0),
                (f"{name}: prompt tokens mean", _reader("strategies", name, "prompt_tokens", "mean"), 0),
                (f"{name}: evidence recall", _reader("strategies", name, "evidence_recall", "overall"), 2),
                (
                    f"{name}: answer contains gold",
                    _reader("strategies", name, "answer_contains_gold", "overall"),
                    2,
                ),
            ]
        out += ["### Side by side", "", *side_by_side(runs, metrics)]
    return out


def _cost_table(d: dict[str, Any]) -> list[str]:
    prices = d.get("prices") or {}
    models = list(prices.get("models") or {})
    if not models:
        return []
    rows = [
        [name, *(fmt(get(s, "cost_per_1000_turns", m), 4) for m in models)]
        for name, s in (d.get("strategies") or {}).items()
    ]
    lines = [
        f"Cost per 1,000 turns ({prices.get('currency', 'USD')}; prices noted {prices.get('noted')} — "
        f"{prices.get('note', '')}):",
        "",
    ]
    return lines + table(["strategy", *models], rows)


def memory_section(runs: Sequence[Run]) -> list[str]:
    out: list[str] = []
    for run in runs:
        d = run.data
        out += [f"### {run.title}", ""]
        out += [f"{d.get('questions')} questions, budget {d.get('budget_tokens')} tokens.", ""]
        rows = []
        for name, s in (d.get("systems") or {}).items():
            rows.append(
                [
                    name,
                    *(fmt(get(s, "recall", k), 2) for k in ("overall", "1", "2", "3", "4")),
                    fmt(get(s, "tokens_mean"), 0),
                    fmt(get(s, "retrieve_ms", "p50")),
                    fmt(get(s, "retrieve_ms", "p95")),
                    fmt(get(s, "write_ms", "p50")),
                    fmt(get(s, "write_ms", "p95")),
                ]
            )
        out += table(
            [
                "system",
                "recall",
                "1 multi-hop",
                "2 temporal",
                "3 open",
                "4 single-hop",
                "tokens",
                "retrieve p50 (ms)",
                "p95",
                "write p50 (ms)",
                "p95",
            ],
            rows,
        )
    if len(runs) > 1:
        metrics: list[Metric] = []
        for name in runs[0].data.get("systems") or {}:
            metrics += [
                (f"{name}: recall", _reader("systems", name, "recall", "overall"), 2),
                (f"{name}: retrieve p95 (ms)", _reader("systems", name, "retrieve_ms", "p95"), 1),
                (f"{name}: write p95 (ms)", _reader("systems", name, "write_ms", "p95"), 1),
            ]
        out += ["### Side by side", "", *side_by_side(runs, metrics)]
    return out


SECTIONS: dict[str, Callable[[Sequence[Run]], list[str]]] = {
    "latency": latency_section,
    "strategies": strategies_section,
    "memory": memory_section,
    "adoption": adoption_section,
    "security": security_section,
}


# -- provenance --------------------------------------------------------------------------------------
def runs_table(runs: Sequence[Run]) -> list[str]:
    rows = []
    for r in runs:
        m, machine = r.meta, r.meta.get("machine") or {}
        rows.append(
            [
                r.label,
                r.kind,
                f"`{r.path.name}`",
                str(m.get("date", "–")),
                str(machine.get("cpu", "–")),
                fmt(machine.get("cores")),
                fmt(machine.get("ram_gib")),
                f"{fmt(machine.get('load_avg_1m_at_start'), 2)} / {_load_end(r)}",
                str((m.get("versions") or {}).get("voice-agent", "–")),
                fmt(m.get("seed")),
                fmt(bool(r.data.get("partial") or m.get("interrupted"))),
            ]
        )
    header = [
        "run",
        "kind",
        "file",
        "date (UTC)",
        "CPU",
        "cores",
        "RAM GiB",
        "load 1m start / end",
        "voice-agent",
        "seed",
        "partial",
    ]
    return table(header, rows)


def provenance_section(runs: Sequence[Run]) -> list[str]:
    out = ["## Provenance", ""]
    packages = sorted({p for r in runs for p in (r.meta.get("versions") or {})})
    rows = [[p, *(fmt((r.meta.get("versions") or {}).get(p)) for r in runs)] for p in packages]
    out += ["Versions:", "", *table(["package", *(r.label for r in runs)], rows)]
    model_rows = []
    for r in runs:
        for model in r.meta.get("models") or []:
            files = model.get("files") or []
            shas = ", ".join(f"{f['path']} `{str(f['sha256'])[:12]}…`" for f in files[:2]) + (
                f" (+{len(files) - 2})" if len(files) > 2 else ""
            )
            model_rows.append(
                [
                    r.label,
                    str(model.get("id")),
                    str(model.get("state")),
                    "verified" if model.get("sha256_verified") else "size only",
                    shas or "–",
                ]
            )
    if model_rows:
        out += ["Models (sha256 from the manifest; *verified*: every file hashed for the run):", ""]
        out += table(["run", "model", "state", "sha256", "files"], model_rows)
    for r in runs:
        config = r.meta.get("config") or {}
        if config:
            out += [
                f"<details><summary>{r.label}: config</summary>",
                "",
                "```json",
                json.dumps(config, indent=1, ensure_ascii=False),
                "```",
                "",
                "</details>",
                "",
            ]
    return out


# -- the report --------------------------------------------------------------------------------------
def render_report(paths: Sequence[str | Path], out: str | Path, *, plots: bool = True) -> Path:
    """Write the Markdown report (and its plots) for the given run files; returns the report's path."""
    if not paths:
        raise InputError("give at least one run JSON file")
    if len(paths) > len(string.ascii_uppercase):
        raise InputError(f"at most {len(string.ascii_uppercase)} runs in one report")
    runs = [load_run(p, string.ascii_uppercase[i]) for i, p in enumerate(paths)]
    target = Path(out)
    target.parent.mkdir(parents=True, exist_ok=True)
    plot_dir = target.with_name(f"{target.stem}-plots")
    lines = ["# voice-agent benchmark report", ""]
    lines += [f"{len(runs)} run(s). Ratios compare each run with run A (×1.00 = the same).", ""]
    lines += runs_table(runs)
    for kind in KINDS:
        group = [r for r in runs if r.kind == kind]
        if not group:
            continue
        lines += [f"## {KIND_TITLES[kind]}", ""]
        if plots and kind in PLOTTED:
            for run in group:
                png = draw(run, plot_dir / f"{run.label}-{kind}.png")
                lines += [f"![{run.label}: {kind}]({png.relative_to(target.parent).as_posix()})", ""]
        lines += SECTIONS[kind](group)
    lines += provenance_section(runs)
    target.write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")
    return target


def draw(run: Run, png: Path) -> Path:
    from voice_agent.bench.charts import plot_latency, plot_strategies
    from voice_agent.bench.plots import plot_memory

    plotter = {"latency": plot_latency, "strategies": plot_strategies, "memory": plot_memory}[run.kind]
    return plotter(run.data, png)
