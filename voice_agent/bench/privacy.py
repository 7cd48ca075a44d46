"""``voice-agent bench privacy``: how much personal data the scrubber catches, what it takes that it
should not, and how long it takes.

Input: labelled texts, one JSON object a line::

    {"text": "...", "lang": "en", "split": "heldout",
     "spans": [{"kind": "NAME", "start": 12, "end": 22}, ...]}      # or "values": [{"kind", "value"}]

Each text is scrubbed as the memory's write path scrubs a query or a turn (``WritePath.scrub``): the
patterns, the person names of the name lists and of jieba, the PERSON entities of the English spaCy
parse, and later mentions of names already found. A value counts as scrubbed when its raw string no
longer appears anywhere in the output (the check the issue's reviewers made on the data directory).

Reported: recall per kind and language (and per split, when the file has splits); false positives per
1,000 ordinary turns of a LoCoMo file (``--fp-dataset``), where names of the conversation's speakers
count apart (real names, fine to scrub) and every other placeholder is listed for inspection; and the
time per utterance (p50/p95) of the scrub and, apart, of the spaCy parse the write path makes anyway.
"""

from __future__ import annotations

import json
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from voice_agent.errors import InputError
from voice_agent.memory.names import EnglishNameFinder, person_spans
from voice_agent.memory.person_names import PersonNameFinder
from voice_agent.memory.scrub import KINDS, Scrubber, ScrubResult
from voice_agent.memory.writepath import KnownNames, WritePath
from voice_agent.text.cjk import is_han

BENCH_KEY = bytes(range(32))  # placeholders are only compared within one run


@dataclass(frozen=True)
class LabelledText:
    text: str
    lang: str
    split: str
    values: tuple[tuple[str, str], ...]  # (kind, raw value)


def load_labelled(path: str | Path) -> list[LabelledText]:
    """Read a JSONL file of labelled texts; ``InputError`` names the line that is wrong."""
    rows: list[LabelledText] = []
    with Path(path).open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                rows.append(_parse_row(json.loads(line)))
            except (ValueError, KeyError, TypeError) as err:
                raise InputError(f"{path}: line {number}: {err}") from err
    if not rows:
        raise InputError(f"{path}: no labelled texts")
    return rows


def _parse_row(row: dict[str, Any]) -> LabelledText:
    text = str(row["text"])
    values: list[tuple[str, str]] = []
    for span in row.get("spans", []):
        start, end = int(span["start"]), int(span["end"])
        if not 0 <= start < end <= len(text):
            raise ValueError(f"span {start}-{end} is outside the text of {len(text)} characters")
        values.append((_kind(span["kind"]), text[start:end]))
    values += [(_kind(v["kind"]), str(v["value"])) for v in row.get("values", [])]
    return LabelledText(text, str(row.get("lang", "en")), str(row.get("split", "all")), tuple(values))


def _kind(kind: object) -> str:
    value = str(kind).upper()
    if value not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; expected one of {KINDS}")
    return value


class BenchScrubber:
    """The write path's scrub of one text, with the English parse the chunker would make."""

    def __init__(self, phone_region: str | None, *, ner: bool = True, lists: bool = True) -> None:
        """``ner``: with the English parse's PERSON spans; ``lists``: with the name finder (name lists,
        jieba) — both, as the write path has them, or either alone to compare them."""
        self.names = PersonNameFinder() if lists else None
        self.scrubber = Scrubber(BENCH_KEY, phone_region=phone_region, names=self.names)
        self.ner = EnglishNameFinder() if ner else None
        self._conversation = 0

    def start(self) -> None:
        if self.names is not None:
            self.names.start()
        if self.ner is not None:
            self.ner.start()

    def scrub(self, text: str, lang: str, *, repeat: int = 1) -> tuple[ScrubResult, float, float]:
        """(result, scrub ms, parse ms); each call is a conversation of its own. With ``repeat`` > 1 the
        times are the best of that many runs (a shared, loaded machine adds noise, never speed)."""
        scrub_ms, parse_ms = [], []
        for _ in range(max(1, repeat)):
            self._conversation += 1
            writer = WritePath(self.scrubber, None, None, KnownNames(lambda _conversation: set()))
            t0 = time.perf_counter()
            spans: list[tuple[int, int]] = []
            if self.ner is not None and lang != "zh":
                spans = person_spans(self.ner.parse(text))
            t1 = time.perf_counter()
            result = writer.scrub(f"bench-{self._conversation}", text, spans)
            t2 = time.perf_counter()
            scrub_ms.append((t2 - t1) * 1e3)
            parse_ms.append((t1 - t0) * 1e3)
        return result, min(scrub_ms), min(parse_ms)


def recall_report(rows: Sequence[LabelledText], bench: BenchScrubber, *, repeat: int = 1) -> dict[str, Any]:
    caught: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0])
    scrub_ms: list[float] = []
    parse_ms: list[float] = []
    misses: list[dict[str, str]] = []
    extras: list[dict[str, str]] = []
    found_total: Counter[str] = Counter()
    unlabelled: Counter[str] = Counter()
    for row in rows:
        result, ms, parse = bench.scrub(row.text, row.lang, repeat=repeat)
        scrub_ms.append(ms)
        parse_ms.append(parse)
        for finding in result.found:  # a placeholder over no labelled value: a false positive
            found_total[finding.kind] += 1
            if not any(finding.value in value or value in finding.value for _, value in row.values):
                unlabelled[finding.kind] += 1
                extras.append({"split": row.split, "kind": finding.kind, "value": finding.value})
        for kind, value in row.values:
            hit = value not in result.text
            for split in (row.split, "all"):
                cell = caught[(split, row.lang, kind)]
                cell[0] += int(hit)
                cell[1] += 1
            if not hit:
                misses.append({"split": row.split, "lang": row.lang, "kind": kind, "value": value})
    by_split: dict[str, Any] = {}
    for (split, lang, kind), (hits, total) in sorted(caught.items()):
        by_split.setdefault(split, {}).setdefault(lang, {})[kind] = _ratio(hits, total)
    for split, langs in by_split.items():
        kinds: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for (s, _lang, kind), (hits, total) in caught.items():
            if s == split:
                kinds[kind][0] += hits
                kinds[kind][1] += total
        langs["any"] = {kind: _ratio(h, t) for kind, (h, t) in sorted(kinds.items())}
    return {
        "texts": len(rows),
        "values": sum(len(r.values) for r in rows),
        "recall": by_split,
        "scrub_ms": _percentiles(scrub_ms),
        "parse_ms": _percentiles(parse_ms),
        "precision": {
            kind: _ratio(total - unlabelled[kind], total)["recall"]
            for kind, total in sorted(found_total.items())
        },
        "missed": misses,
        "unlabelled_findings": extras,
    }


def false_positive_report(
    turns: Sequence[tuple[str, set[str]]], bench: BenchScrubber, *, repeat: int = 1
) -> dict[str, Any]:
    """Placeholders in ordinary turns: (text, canonical speaker names of its conversation)."""
    counts: Counter[str] = Counter()
    others: Counter[str] = Counter()
    scrub_ms: list[float] = []
    for text, speakers in turns:
        result, ms, _ = bench.scrub(text, "zh" if _is_chinese(text) else "en", repeat=repeat)
        scrub_ms.append(ms)
        for finding in result.found:
            if finding.kind == "NAME" and _is_speaker(finding.canonical, speakers):
                counts["NAME_speaker"] += 1
            else:
                counts[finding.kind] += 1
                others[f"{finding.kind}: {finding.value}"] += 1
    per_1000 = {k: round(v * 1000 / max(1, len(turns)), 1) for k, v in sorted(counts.items())}
    not_names = sum(v for k, v in counts.items() if not k.startswith("NAME"))
    return {
        "turns": len(turns),
        "placeholders": dict(sorted(counts.items())),
        "per_1000_turns": per_1000,
        "non_name_per_1000_turns": round(not_names * 1000 / max(1, len(turns)), 1),
        "other_findings": dict(others.most_common(40)),
        "scrub_ms": _percentiles(scrub_ms),
    }


def locomo_turns(path: str | Path) -> list[tuple[str, set[str]]]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    samples = data if isinstance(data, list) else [data]
    turns: list[tuple[str, set[str]]] = []
    for sample in samples:
        conversation = sample.get("conversation", {})
        speakers = {
            str(conversation[k]).casefold() for k in ("speaker_a", "speaker_b") if conversation.get(k)
        }
        for key, session in conversation.items():
            if key.startswith("session_") and isinstance(session, list):
                turns += [
                    (str(t["text"]), speakers) for t in session if isinstance(t, dict) and t.get("text")
                ]
    if not turns:
        raise InputError(f"{path}: no LoCoMo turns found")
    return turns


def run_privacy_bench(
    dataset: str | Path,
    *,
    fp_dataset: str | Path | None = None,
    phone_region: str | None = None,
    splits: Iterable[str] | None = None,
    ner: bool = True,
    lists: bool = True,
    repeat: int = 1,
    json_out: str | Path | None = None,
) -> dict[str, Any]:
    rows = load_labelled(dataset)
    wanted = set(splits) if splits else None
    if wanted:
        rows = [r for r in rows if r.split in wanted]
        if not rows:
            raise InputError(f"{dataset}: no texts in split(s) {sorted(wanted)}")
    if not ner and not lists:
        raise InputError("bench privacy: names need the parse, the name finder, or both")
    bench = BenchScrubber(phone_region, ner=ner, lists=lists)
    t0 = time.perf_counter()
    bench.start()
    start_s = time.perf_counter() - t0
    report: dict[str, Any] = {
        "meta": {
            "dataset": str(dataset),
            "phone_region": phone_region,
            "ner": ner,
            "name_lists": lists,
            "start_s": round(start_s, 2),
            "timing": f"best of {repeat} runs per utterance" if repeat > 1 else "one run per utterance",
        },
        "labelled": recall_report(rows, bench, repeat=repeat),
    }
    if fp_dataset:
        report["false_positives"] = false_positive_report(locomo_turns(fp_dataset), bench, repeat=repeat)
        report["meta"]["fp_dataset"] = str(fp_dataset)
    if json_out:
        Path(json_out).write_text(json.dumps(report, ensure_ascii=False, indent=2), encoding="utf-8")
    return report


def summary(report: dict[str, Any]) -> dict[str, Any]:
    """The headline figures: recall per kind per split, FPs per 1,000 turns, and p95 times."""
    labelled = report["labelled"]
    out: dict[str, Any] = {
        "recall": {
            split: {
                lang: {kind: cell["recall"] for kind, cell in kinds.items()} for lang, kinds in langs.items()
            }
            for split, langs in labelled["recall"].items()
        },
        "scrub_ms": labelled["scrub_ms"],
        "parse_ms": labelled["parse_ms"],
        "precision": labelled["precision"],
        "missed": len(labelled["missed"]),
    }
    if "false_positives" in report:
        fp = report["false_positives"]
        out["false_positives_per_1000_turns"] = fp["per_1000_turns"]
        out["locomo_scrub_ms"] = fp["scrub_ms"]
    return out


def _ratio(hits: int, total: int) -> dict[str, Any]:
    return {"recall": round(hits / total, 4) if total else None, "caught": hits, "total": total}


def _percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"p50": 0.0, "p95": 0.0, "max": 0.0}
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"p50": round(statistics.median(ordered), 3), "p95": round(p95, 3), "max": round(ordered[-1], 3)}


def _is_speaker(canonical: str, speakers: set[str]) -> bool:
    parts = {p for s in speakers for p in (s, *s.split())}
    return canonical in parts or any(word in parts for word in canonical.split())


def _is_chinese(text: str) -> bool:
    return sum(is_han(ch) for ch in text) * 3 > len(text)
