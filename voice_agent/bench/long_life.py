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

Epoch 0 goes through the full write path (scrub, clauses, embeddings). Epochs 1.. are copies of its
stored records (``_clone_epochs``): the names' placeholders are swapped for the ones the scrubber gives
the epoch's names, turn ids and dates are shifted, and the clause vectors are kept (re-ingesting 4,190
turns takes about an hour on two loaded cores; the write path would only embed another pseudonym).
Each policy then runs on a copy of that data directory:
``none`` (today), ``default`` (the configured ``[memory.consolidation]``) and ``aggressive``
(everything but the newest 50 records).
"""

from __future__ import annotations

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

import numpy as np

from voice_agent.bench.bench_key import with_bench_key
from voice_agent.bench.dataset import Question, Sample, Turn, load_locomo
from voice_agent.bench.report import Progress, percentiles, run_meta, write_json
from voice_agent.config import Config
from voice_agent.errors import InputError
from voice_agent.memory.consolidate import consolidate, policy_from_config
from voice_agent.memory.consolidate_plan import Policy, turn_ids
from voice_agent.memory.records import new_record_id
from voice_agent.memory.store.base import StoreQuery, Tenant, WriteBatch
from voice_agent.memory.writes import WriteRequest

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
    shift = epoch_shift(sample, gap_days)
    turns: list[Turn] = []
    for copy in range(copies):
        rename = _renamer(sample.speakers, copy)
        for t in sample.turns:
            when = None if t.created_at is None else t.created_at + copy * shift
            turns.append(Turn(f"L{copy}:{t.dia_id}", rename(t.speaker), rename(t.text), t.session, when))
    asked = sorted({0, copies - 1})
    questions = {copy: _epoch_questions(sample, copy) for copy in asked}
    return Sample(CONVERSATION, sample.speakers, turns, []), questions


def epoch_shift(sample: Sample, gap_days: float = 30.0) -> float:
    """Seconds between the starts of two epochs: the conversation's span plus ``gap_days``."""
    times = [t.created_at for t in sample.turns if t.created_at is not None]
    return (max(times) - min(times) if times else 0.0) + gap_days * DAY_S


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


def _name_table(speakers: tuple[str, str], copy: int) -> dict[str, str]:
    """Old name -> the epoch's name (with nicknames: "Mel" for Melanie); empty for epoch 0."""
    if copy == 0:
        return {}
    table: dict[str, str] = {}
    for old, name in zip(speakers, NAME_PAIRS[copy - 1], strict=True):
        table[old] = name
        if len(old) > 4:
            table[old[:3]] = name[:3]
    return table


def _renamer(speakers: tuple[str, str], copy: int) -> Any:
    table = _name_table(speakers, copy)
    if not table:
        return lambda text: text
    pattern = re.compile(
        r"\b(" + "|".join(re.escape(k) for k in sorted(table, key=len, reverse=True)) + r")\b"
    )
    return lambda text: pattern.sub(lambda m: table[m.group(1)], text)


async def _clone_epochs(memory: Any, speakers: tuple[str, str], copies: int, shift_s: float) -> float:
    """Epochs 1.. as copies of epoch 0's stored records: the names' placeholders swapped for the
    placeholders the scrubber gives the epoch's names, turn ids and dates shifted, the clause vectors
    kept (the write path would embed another pseudonym there; nothing else would differ)."""
    started = time.perf_counter()
    tenant = Tenant(CONVERSATION)
    hits = await memory.store.search(tenant, StoreQuery(limit=1_000_000, with_vectors=True))
    originals = [h.record for h in hits if h.record.source.startswith("L0:") and h.record.vector is not None]
    vectors = np.asarray([r.vector for r in originals], dtype=np.float32)
    for copy in range(1, copies):
        swap = {
            memory.scrubber.placeholder_for("NAME", old): memory.scrubber.placeholder_for("NAME", new)
            for old, new in _name_table(speakers, copy).items()
        }
        pattern = re.compile("|".join(re.escape(k) for k in swap))

        def sub(text: str, pattern: re.Pattern[str] = pattern, swap: dict[str, str] = swap) -> str:
            return pattern.sub(lambda m: swap[m.group(0)], text)

        records = [
            r.with_(
                id=new_record_id(),
                text=sub(r.text),
                speaker=sub(r.speaker) if r.speaker else None,
                pii_tokens=tuple(sub(t) for t in r.pii_tokens),
                source=f"L{copy}:{r.source.split(':', 1)[1]}",
                created_at=r.created_at + copy * shift_s,
                vector=None,
            )
            for r in originals
        ]
        for start in range(0, len(records), 1000):
            batch = WriteBatch(records=records[start : start + 1000], vectors=vectors[start : start + 1000])
            await memory.store.write(tenant, batch)
    return time.perf_counter() - started


async def _ingest(memory: Any, sample: Sample, show: bool) -> float:
    bar = Progress("long-life: ingest", len(sample.turns), enabled=show)
    start = time.perf_counter()
    for turn in sample.turns:
        with contextlib.suppress(InputError):  # a turn the write path refuses is skipped
            await memory.remember(
                WriteRequest(
                    CONVERSATION, "user", turn.text, source=turn.dia_id, speaker=turn.speaker or None,
                    created_at=turn.created_at,
                )
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
    ingested: str | Path | None = None,
) -> dict[str, Any]:
    """``ingested``: a directory that keeps the ingested data between runs (the ingest is the slow part):
    used as it is when it holds a finished ingest of the same set, else filled."""
    from voice_agent.memory.service import Memory

    dataset = load_locomo(dataset_path)
    if not dataset.samples:
        raise InputError(f"{dataset_path}: no conversation")
    original = dataset.samples[0]
    first, _ = long_life_sample(original, 1)
    _, questions = long_life_sample(original, copies)
    chosen = {"none": None, "default": policy_from_config(config.memory.consolidation),
              "aggressive": Policy(horizon_days=0, keep_recent=50)}  # fmt: skip
    unknown = set(policies) - set(chosen)
    if unknown:
        raise InputError(f"unknown policies {sorted(unknown)}; choose from {sorted(chosen)}")
    runs: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="va-bench-long-life-") as tmp:
        base = Path(ingested) if ingested is not None else Path(tmp) / "base"
        marker = base / "long-life-epoch0.done"
        memory = await Memory.open(with_bench_key(config, base))
        parts = (memory.embedder, memory.chunker)
        try:
            ingest_s = (
                float(marker.read_text()) if marker.exists() else await _ingest(memory, first, progress)
            )
        finally:
            await memory.close()
        marker.write_text(f"{ingest_s:.1f}")
        for name in policies:
            here = Path(tmp) / name
            shutil.copytree(base, here)
            memory = await Memory.open(with_bench_key(config, here), embedder=parts[0], chunker=parts[1])
            try:
                clone_s = await _clone_epochs(memory, original.speakers, copies, epoch_shift(original))
                runs[name] = await _one_policy(memory, chosen[name], questions, budget_tokens, progress)
                runs[name]["clone_s"] = round(clone_s, 1)
            finally:
                await memory.close()
            shutil.rmtree(here, ignore_errors=True)
    report = {
        "copies": copies,
        "turns": len(original.turns) * copies,
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
