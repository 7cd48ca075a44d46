"""LoCoMo-format datasets, parsed defensively (shared by `bench memory` and `bench strategies`).

The public format: a list of samples ``{sample_id, conversation, qa, ...}``; ``conversation`` holds
``speaker_a``, ``speaker_b`` and ``session_N`` lists of turns ``{speaker, dia_id: "D<s>:<t>", text}``
with ``session_N_date_time``; each ``qa`` item is ``{question, answer | adversarial_answer, evidence,
category}``. Real files contain malformed evidence ("D8:6; D9:17", empty lists, ids that do not
exist), answers that are numbers, and the odd missing field: everything unusable is counted in
``Dataset.skipped`` under a reason, never silently dropped.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from voice_agent.errors import InputError

_DIA_ID = re.compile(r"D\d+:\d+")
_SESSION_KEY = re.compile(r"session_(\d+)$")
_DATE_FORMATS = (
    "%I:%M %p on %d %B, %Y",
    "%I:%M %p on %d %b, %Y",
    "%d %B, %Y",
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%d",
)


@dataclass(frozen=True)
class Turn:
    dia_id: str
    speaker: str
    text: str
    session: int
    created_at: float | None = None  # the session's date, when it parses


@dataclass(frozen=True)
class Question:
    sample_id: str
    index: int
    question: str
    answer: str
    evidence: tuple[str, ...]
    category: int


@dataclass
class Sample:
    sample_id: str
    speakers: tuple[str, str]
    turns: list[Turn]
    questions: list[Question]


@dataclass
class Dataset:
    path: str
    samples: list[Sample]
    skipped: Counter[str] = field(default_factory=Counter)

    @property
    def turns(self) -> int:
        return sum(len(s.turns) for s in self.samples)

    def questions(self, *, exclude_categories: tuple[int, ...] = (5,)) -> list[Question]:
        return [q for s in self.samples for q in s.questions if q.category not in exclude_categories]


def parse_session_date(text: Any) -> float | None:
    """``"1:56 pm on 8 May, 2023"`` → POSIX seconds (UTC); None when it does not parse."""
    if not isinstance(text, str):
        return None
    cleaned = " ".join(text.replace("\u202f", " ").split())
    for fmt in _DATE_FORMATS:
        try:
            return dt.datetime.strptime(cleaned, fmt).replace(tzinfo=dt.UTC).timestamp()
        except ValueError:
            continue
    return None


def load_locomo(path: str | Path) -> Dataset:
    """Parse a LoCoMo-format JSON file; raise ``InputError`` only when nothing usable is in it."""
    p = Path(path)
    try:
        raw = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError as err:
        raise InputError(f"dataset not found: {p}") from err
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise InputError(f"dataset {p} is not valid UTF-8 JSON: {err}") from err
    if isinstance(raw, dict):
        raw = [raw]
    if not isinstance(raw, list):
        raise InputError(f"dataset {p}: expected a list of LoCoMo samples, got {type(raw).__name__}")
    dataset = Dataset(str(p), [])
    for position, item in enumerate(raw):
        sample = _sample(item, position, dataset.skipped)
        if sample is not None:
            dataset.samples.append(sample)
    if not dataset.samples:
        raise InputError(f"dataset {p}: no usable sample (skipped: {dict(dataset.skipped)})")
    return dataset


def _sample(item: Any, position: int, skipped: Counter[str]) -> Sample | None:
    if not isinstance(item, dict) or not isinstance(item.get("conversation"), dict):
        skipped["sample_without_conversation"] += 1
        return None
    sample_id = item.get("sample_id")
    if not isinstance(sample_id, str | int) or str(sample_id) == "":
        skipped["sample_missing_id"] += 1
        sample_id = f"sample-{position}"
    sample_id = str(sample_id)
    conv = item["conversation"]
    speakers = (str(conv.get("speaker_a", "A")), str(conv.get("speaker_b", "B")))
    turns = _turns(sample_id, conv, skipped)
    if not turns:
        skipped["sample_without_turns"] += 1
        return None
    known = {t.dia_id for t in turns}
    questions = []
    for index, qa in enumerate(item.get("qa") or []):
        question = _question(sample_id, index, qa, known, skipped)
        if question is not None:
            questions.append(question)
    return Sample(sample_id, speakers, turns, questions)


def _turns(sample_id: str, conv: dict[str, Any], skipped: Counter[str]) -> list[Turn]:
    sessions = sorted(
        (int(m.group(1)), key)
        for key in conv
        if (m := _SESSION_KEY.match(key)) and isinstance(conv[key], list)
    )
    turns: list[Turn] = []
    seen: set[str] = set()
    for number, key in sessions:
        created_at = parse_session_date(conv.get(f"{key}_date_time"))
        for position, raw in enumerate(conv[key]):
            if not isinstance(raw, dict) or not isinstance(raw.get("text"), str) or not raw["text"].strip():
                skipped["turn_without_text"] += 1
                continue
            dia_id = raw.get("dia_id")
            if not isinstance(dia_id, str) or not dia_id.strip() or dia_id in seen:
                skipped["turn_missing_or_duplicate_id"] += 1
                dia_id = f"{sample_id}:S{number}:{position}"
            seen.add(dia_id)
            turns.append(Turn(dia_id.strip(), str(raw.get("speaker", "")), raw["text"], number, created_at))
    return turns


def _question(sample_id: str, index: int, qa: Any, known: set[str], skipped: Counter[str]) -> Question | None:
    if not isinstance(qa, dict) or not isinstance(qa.get("question"), str) or not qa["question"].strip():
        skipped["question_without_text"] += 1
        return None
    try:
        category = int(qa.get("category"))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        skipped["question_without_category"] += 1
        return None
    answer = qa.get("answer", qa.get("adversarial_answer", ""))
    evidence: list[str] = []
    raw_evidence = qa.get("evidence") or []
    if isinstance(raw_evidence, str):
        raw_evidence = [raw_evidence]
    for entry in raw_evidence if isinstance(raw_evidence, list) else []:
        ids = _DIA_ID.findall(str(entry))
        if len(ids) > 1 or (ids and ids[0] != str(entry).strip()):
            skipped["evidence_malformed_entry_split"] += 1
        for dia_id in ids:
            if dia_id not in known:
                skipped["evidence_unknown_id"] += 1
            elif dia_id not in evidence:
                evidence.append(dia_id)
        if not ids:
            skipped["evidence_unparseable_entry"] += 1
    if not evidence and category != 5:
        skipped["question_without_usable_evidence"] += 1
        return None
    return Question(sample_id, index, qa["question"].strip(), str(answer), tuple(evidence), category)
