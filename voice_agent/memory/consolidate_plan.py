"""Which old clauses condense together, and the extractive summary each group becomes (pure functions).

Eligible: ``utterance`` records still ``active``, older than the horizon (counted back from the
conversation's newest record, so a conversation resumed after a pause is not condensed at once) and not
among its newest ``keep_recent``. Facts, decisions, constraints, state and artifacts are never touched:
a person set those on purpose and they are pinned in the prompt.

Grouping: by day (a session), then in the order said, a group closes when it is full (clauses or
tokens; a turn is not cut while it fits twice the clause limit) or when the next clause turns away from
its topic (cosine to the group's mean vector below ``topic_similarity``; off by default, as the stored
clause vectors lean towards their exchange and neighbours sit near 0.96 with e5). A day's last lone clause
joins the group before it, so a second run finds nothing left to do (idempotent): a lone clause stays
only when it is the only eligible one of its day.

Summary text: the group's clauses in order, each speaker named once per run of their clauses, minus
near-duplicates (content-word Jaccard at least ``duplicate_overlap``) and clauses that carry nothing
(no content word, number or placeholder: "Wow!", "Thanks!"), which stay as sources but are not quoted.
The text is
assembled from stored, already scrubbed text only, so a summary never holds more than its sources did.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from voice_agent.memory.keywords import query_terms
from voice_agent.memory.language import estimate_tokens
from voice_agent.memory.records import MemoryRecord
from voice_agent.memory.scrub import PLACEHOLDER_RE

SOURCE_SEPARATOR = " "  # a summary's ``source``: the turn ids whose clauses it quotes, in order
_DIGIT = re.compile(r"\d")
# Words of reaction, not content: a clause of only these (and stop words) is small talk ("Wow, thanks!",
# "That sounds great!"). Anything else, a number or a placeholder makes a clause worth quoting.
_FILLER_TEXT = """
wow thanks thank cool great awesome nice yeah yes yep haha lol okay ok
sure love amazing totally really glad good hear sounds sound hey hi hello bye
wonderful fantastic incredible agree true exactly congrats congratulations appreciate happy super oh ah hmm
right absolutely definitely
"""
_FILLER: frozenset[str] = frozenset(_FILLER_TEXT.split())
_DAY_S = 86400.0


@dataclass(frozen=True)
class Policy:
    horizon_days: float = 30.0
    keep_recent: int = 500
    max_clauses: int = 8
    max_tokens: int = 40  # about one turn: small summaries rank like the clauses (LoCoMo dev: 120 -> 0.783)
    topic_similarity: float = 0.0  # off: clause vectors lean towards their exchange (neighbours ~0.96)
    duplicate_overlap: float = 0.8  # content-word Jaccard from which a clause repeats one already quoted
    min_group: int = 2
    # A summary's vector: "mean" of its sources' (normalised; no model call, and in the same space as the
    # clause vectors around it, which lean towards their exchange) or "text" (the embedder on its text).
    vector: str = "mean"


@dataclass(frozen=True)
class Group:
    """Clauses of one day and topic, oldest first, with their vectors (rows match ``records``)."""

    records: tuple[MemoryRecord, ...]
    vectors: np.ndarray

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(r.id for r in self.records)


@dataclass(frozen=True)
class Summary:
    text: str
    quoted: tuple[MemoryRecord, ...]  # the clauses its text holds (the rest are sources only)

    @property
    def turn_ids(self) -> str:
        seen: dict[str, None] = {r.source: None for r in self.quoted if r.source}
        return SOURCE_SEPARATOR.join(seen)


def cutoff_time(newest_first: Sequence[float], policy: Policy) -> float | None:
    """Records created before the returned time are eligible; None: nothing is old enough yet.
    ``newest_first``: the creation times of the conversation's newest records (at least keep_recent)."""
    if not newest_first:
        return None
    by_horizon = newest_first[0] - policy.horizon_days * _DAY_S
    if policy.keep_recent <= 0:
        return by_horizon
    if len(newest_first) < policy.keep_recent:
        return None
    return min(by_horizon, newest_first[policy.keep_recent - 1])


def eligible(record: MemoryRecord, cutoff: float) -> bool:
    return record.kind == "utterance" and record.status == "active" and record.created_at < cutoff


def plan_groups(records: Sequence[MemoryRecord], vectors: np.ndarray, policy: Policy) -> list[Group]:
    """Groups to condense from eligible ``records`` (insertion order) with their unit ``vectors``."""
    by_day: dict[str, list[int]] = {}
    for i, record in enumerate(records):
        by_day.setdefault(time.strftime("%Y-%m-%d", time.gmtime(record.created_at)), []).append(i)
    groups: list[Group] = []
    for rows in by_day.values():
        for segment in _segments(rows, records, vectors, policy):
            if len(segment) >= policy.min_group:
                groups.append(Group(tuple(records[i] for i in segment), vectors[segment]))
    return groups


def _segments(
    rows: list[int], records: Sequence[MemoryRecord], vectors: np.ndarray, policy: Policy
) -> list[list[int]]:
    segments: list[list[int]] = []
    current: list[int] = []
    tokens = 0
    mean = np.zeros(vectors.shape[1], dtype=np.float32)
    for i in rows:
        cost = _tokens(records[i])
        full = len(current) >= policy.max_clauses or tokens + cost > policy.max_tokens
        turned = bool(current) and _cosine(mean, vectors[i]) < policy.topic_similarity
        same_turn = (
            bool(current) and bool(records[i].source) and records[i].source == records[current[-1]].source
        )
        if current and (full or turned) and not (same_turn and len(current) < 2 * policy.max_clauses):
            segments.append(current)
            current, tokens, mean = [], 0, np.zeros_like(mean)
        current.append(i)
        tokens += cost
        mean = mean + (vectors[i] - mean) / len(current)
    if current:
        if len(current) < policy.min_group and segments:
            segments[-1].extend(current)  # a lone last clause joins its neighbour: nothing left behind
        else:
            segments.append(current)
    return segments


def summarise(group: Group, policy: Policy) -> Summary:
    """The group's informative clauses, near-duplicates dropped, speakers named once per run."""
    kept: list[int] = []
    kept_words: list[set[str]] = []
    for i, record in enumerate(group.records):
        if not _informative(record.text):
            continue
        words = set(query_terms(record.text))
        if any(_jaccard(words, seen) >= policy.duplicate_overlap for seen in kept_words):
            continue
        kept.append(i)
        kept_words.append(words)
    if not kept:  # nothing but small talk: keep the longest clause, so the summary still says something
        kept = [max(range(len(group.records)), key=lambda i: len(group.records[i].text))]
    parts: list[str] = []
    speaker: str | None = None
    for i in kept:
        record = group.records[i]
        who = record.speaker or (record.role if record.role != "user" else None)
        text = record.text.strip()
        if who and who != speaker:
            parts.append(f"{who}: {text}")
        else:
            parts.append(text)
        speaker = who
    return Summary(" ".join(_sentence(p) for p in parts), tuple(group.records[i] for i in kept))


def summary_record(group: Group, summary: Summary) -> MemoryRecord:
    """The record that stands for the group in the index (kind ``summary``)."""
    first = group.records[0]
    tokens: dict[str, None] = {t: None for r in group.records for t in r.pii_tokens}
    roles = {r.role for r in group.records}
    return MemoryRecord(
        conversation_id=first.conversation_id,
        text=summary.text,
        role="user" if "user" in roles else first.role,
        kind="summary",
        source=summary.turn_ids,
        user_id=first.user_id,
        pii_tokens=tuple(tokens),
        created_at=min(r.created_at for r in group.records),  # retention removes it with its oldest source
        importance=max(r.importance for r in group.records),
        token_count=estimate_tokens(summary.text),
    )


def turn_ids(record: MemoryRecord) -> list[str]:
    """The turn ids a record quotes: its own source, or each of a summary's."""
    if record.kind == "summary":
        return [s for s in record.source.split(SOURCE_SEPARATOR) if s]
    return [record.source] if record.source else []


def _informative(text: str) -> bool:
    if PLACEHOLDER_RE.search(text) or _DIGIT.search(text):
        return True
    return any(term not in _FILLER for term in query_terms(text))


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else float(a == b)


def _sentence(text: str) -> str:
    return text if text[-1:] in ".!?。！？…" else text + "."


def _tokens(record: MemoryRecord) -> int:
    return record.token_count or estimate_tokens(record.text)


def _cosine(a: np.ndarray, b: np.ndarray) -> float:
    norm = float(np.linalg.norm(a)) * float(np.linalg.norm(b))
    return float(a @ b) / norm if norm > 0 else 0.0
