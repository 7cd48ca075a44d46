"""`voice-agent bench long-life`: evidence recall and retrieval time before and after consolidation, on a
conversation made ``--copies`` times as long.

The long life (``long_life_sample``): the dataset's first conversation said ``copies`` times in a row,
one *life epoch* per copy. Copy ``c`` is dated ``c × (span + gap_days)`` later than the original (span:
first to last session), its turn ids are ``L<c>:<dia_id>``, and its two speakers get other names
(copy 0 keeps the original ones; the names are replaced as whole words in the text too). So every epoch
tells the same events of other people: the hardest distractors there are, since only the names (which
the scrubber turns into placeholders) and the dates tell them apart.

Questions are asked of the oldest epoch (fully consolidated under any policy: "old facts still found")
and of the newest (mostly kept as it was), with the epoch's names. Two scores:

- ``strict``: only the asked epoch's evidence turns count (a lower bound: a same-event turn of another
  epoch is a miss even when it holds the same words);
- ``any_epoch``: an evidence turn of any epoch counts (an upper bound).

One ingest through the full write path; each policy then runs on a copy of that data directory:
``none`` (today), ``default`` (the configured ``[memory.consolidation]``) and ``aggressive``
(everything but the newest 50 records).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import shutil
import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from voice_agent.bench.dataset import Question, Sample, Turn, load_locomo
from voice_agent.bench.report import Progress, percentiles, run_meta, write_json
from voice_agent.config import Config
from voice_agent.errors import InputError
from voice_agent.memory.consolidate import consolidate, policy_from_config
from voice_agent.memory.consolidate_plan import Policy, turn_ids

CONVERSATION = "long-life"
# Other people for copies 1..: first names the scrubber's lists know, as the original speakers are.
NAME_PAIRS = (
    ("Priya", "Joanna"), ("Hannah", "Rosa"), ("Olivia", "Nadia"), ("Sofia", "Irene"), ("Laura", "Vera"),
    ("Chloe", "Diana"), ("Elena", "Fiona"), ("Grace", "Helen"), ("Julia", "Kate"), ("Lucy", "Maria"),
    ("Nora", "Paula"), ("Ruth", "Tina"),
)  # fmt: skip
DAY_S = 86400.0


def long_life_sample(
    sample: Sample, copies: int, gap_days: float = 30.0
) -> tuple[Sample, dict[int, list[Question]]]:
    """The sample said ``copies`` times (see the module doc) and, per asked epoch, its questions."""
    if copies < 1:
        raise InputError(f"--copies must be at least 1, got {copies}")
    if copies - 1 > len(NAME_PAIRS):
        raise InputError(f"--copies can be at most {len(NAME_PAIRS) + 1}")
    times = [t.created_at for t in sample.turns if t.created_at is not None]
    span = (max(times) - min(times)) if times else 0.0
    shift = span + gap_days * DAY_S
    turns: list[Turn] = []
    for copy in range(copies):
        rename = _renamer(sample.speakers, copy)
        for t in sample.turns:
            when = None if t.created_at is None else t.created_at + copy * shift
            turns.append(Turn(f"L{copy}:{t.dia_id}", rename(t.speaker), rename(t.text), t.session, when))
    asked = sorted({0, copies - 1})
    questions = {copy: _epoch_questions(sample, copy) for copy in asked}
    return Sample(CONVERSATION, sample.speakers, turns, []), questions


def _epoch_questions(sample: Sample, copy: int) -> list[Question]:
    rename = _renamer(sample.speakers, copy)
    return [
        replace(
            q,
            sample_id=CONVERSATION,
            question=rename(q.question),
            evidence=tuple(f"L{copy}:{e}" for e in q.evidence),
        )
        for q in sample.questions
        if q.category != 5
    ]


def _renamer(speakers: tuple[str, str], copy: int) -> Any:
    if copy == 0:
        return lambda text: text
    new = NAME_PAIRS[copy - 1]
    table: dict[str, str] = {}
    for old, name in zip(speakers, new, strict=True):
        table[old] = name
        if len(old) > 4:
            table[old[:3]] = name[:3]  # nicknames ("Mel" for Melanie)
    pattern = re.compile(
        r"\b(" + "|".join(re.escape(k) for k in sorted(table, key=len, reverse=True)) + r")\b"
    )
    return lambda text: pattern.sub(lambda m: table[m.group(1)], text)


async def _ingest(memory: Any, sample: Sample, show: bool) -> float:
    bar = Progress("long-life: ingest", len(sample.turns), enabled=show)
    start = time.perf_counter()
    for turn in sample.turns:
        with contextlib.suppress(InputError):  # a turn the write path refuses is skipped
            await memory.remember(
                CONVERSATION, "user", turn.text, source=turn.dia_id, speaker=turn.speaker or None,
                created_at=turn.created_at,
            )  # fmt: skip
        bar.advance()
    bar.close()
    return time.perf_counter() - start


async def _ask(memory: Any, questions: dict[int, list[Question]], budget: int, show: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    times: list[float] = []
    for copy, asked in questions.items():
        strict: list[float] = []
        any_epoch: list[float] = []
        bar = Progress(f"long-life: questions of epoch {copy}", len(asked), enabled=show)
        for q in asked:
            t0 = time.perf_counter()
            result = await memory.recall(CONVERSATION, q.question, budget_tokens=budget)
            times.append((time.perf_counter() - t0) * 1e3)
            sources = {s for r in result.records for s in turn_ids(r)}
            plain = {s.split(":", 1)[1] for s in sources if ":" in s}
            strict.append(sum(e in sources for e in q.evidence) / len(q.evidence))
            any_epoch.append(sum(e.split(":", 1)[1] in plain for e in q.evidence) / len(q.evidence))
            bar.advance()
        bar.close()
        out[f"epoch_{copy}"] = {
            "questions": len(asked),
            "recall_strict": round(statistics.fmean(strict), 4) if strict else 0.0,
            "recall_any_epoch": round(statistics.fmean(any_epoch), 4) if any_epoch else 0.0,
        }
    out["retrieve_ms"] = percentiles(times)
    return out


def _counts(memory: Any) -> dict[str, int]:
    def count(conn: Any) -> dict[str, int]:
        status = dict(conn.execute("SELECT status, count(*) FROM records GROUP BY status").fetchall())
        summaries = conn.execute("SELECT count(*) FROM records WHERE kind = 'summary'").fetchone()[0]
        indexed = conn.execute("SELECT count(*) FROM records_vec").fetchone()[0]
        return {
            "records_on_disk": int(sum(status.values())),
            "active": int(status.get("active", 0)),
            "consolidated": int(status.get("consolidated", 0)),
            "summaries": int(summaries),
            "indexed_vectors": int(indexed),
        }

    return dict(memory.store.run_read(count))


async def run_long_life(
    dataset_path: str | Path,
    config: Config,
    *,
    copies: int = 10,
    budget_tokens: int = 500,
    policies: Sequence[str] = ("none", "default", "aggressive"),
    json_out: str | Path | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    from voice_agent.memory.service import Memory

    dataset = load_locomo(dataset_path)
    if not dataset.samples:
        raise InputError(f"{dataset_path}: no conversation")
    sample, questions = long_life_sample(dataset.samples[0], copies)
    chosen = {"none": None, "default": policy_from_config(config.memory.consolidation),
              "aggressive": Policy(horizon_days=0, keep_recent=50)}  # fmt: skip
    unknown = set(policies) - set(chosen)
    if unknown:
        raise InputError(f"unknown policies {sorted(unknown)}; choose from {sorted(chosen)}")
    runs: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="va-bench-long-life-") as tmp:
        base = Path(tmp) / "base"
        memory = await Memory.open(config.model_copy(update={"data_dir": base}))
        parts = (memory.embedder, memory.chunker)
        try:
            ingest_s = await _ingest(memory, sample, progress)
        finally:
            await memory.close()
        for name in policies:
            here = Path(tmp) / name
            shutil.copytree(base, here)
            memory = await Memory.open(
                config.model_copy(update={"data_dir": here}), embedder=parts[0], chunker=parts[1]
            )
            try:
                runs[name] = await _one_policy(memory, chosen[name], questions, budget_tokens, progress)
            finally:
                await memory.close()
            shutil.rmtree(here, ignore_errors=True)
    report = {
        "copies": copies,
        "turns": len(sample.turns),
        "budget_tokens": budget_tokens,
        "ingest_s": round(ingest_s, 1),
        "policies": runs,
        "meta": run_meta(config={"memory": config.memory.model_dump(mode="json")}, dataset=str(dataset_path)),
    }
    if json_out is not None:
        write_json(json_out, report)
    return report


async def _one_policy(
    memory: Any, policy: Policy | None, questions: dict[int, list[Question]], budget: int, show: bool
) -> dict[str, Any]:
    before = _counts(memory)
    run: dict[str, Any] = {"records_before": before}
    if policy is not None:
        report = await consolidate(memory, CONVERSATION, policy=policy)
        run["policy"] = policy.__dict__
        run["consolidation"] = report.to_json()
    run["records_after"] = _counts(memory)
    run.update(await _ask(memory, questions, budget, show))
    return run


def main(argv: Sequence[str] | None = None) -> int:
    import argparse
    import json

    from voice_agent.config import load_config

    parser = argparse.ArgumentParser(prog="voice-agent bench long-life", description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", required=True)
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--budget-tokens", type=int, default=500)
    parser.add_argument("--policy", action="append", choices=["none", "default", "aggressive"])
    parser.add_argument("--json", dest="json_out")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    report = asyncio.run(
        run_long_life(
            args.dataset, load_config(), copies=args.copies, budget_tokens=args.budget_tokens,
            policies=args.policy or ("none", "default", "aggressive"), json_out=args.json_out,
            progress=not args.quiet,
        )
    )  # fmt: skip
    print(json.dumps({k: v for k, v in report.items() if k != "meta"}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
