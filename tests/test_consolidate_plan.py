"""The consolidation plan (pure functions: grouping, clause choice, cutoffs) and the long-life set."""

from __future__ import annotations

import numpy as np
import pytest

from voice_agent.bench.dataset import Question, Sample, Turn
from voice_agent.bench.long_life import long_life_sample
from voice_agent.memory.consolidate_plan import (
    Policy,
    cutoff_time,
    plan_groups,
    summarise,
    summary_record,
    turn_ids,
)
from voice_agent.memory.records import MemoryRecord

DAY = 86400.0
T0 = 1_700_000_000.0


def _unit(*values: float) -> np.ndarray:
    v = np.asarray(values, dtype=np.float32)
    return v / np.linalg.norm(v)


def _records(spec: list[tuple[float, str, str]]) -> list[MemoryRecord]:
    return [
        MemoryRecord("c", text, source=source, created_at=when, token_count=len(text) // 4)
        for when, source, text in spec
    ]


def test_groups_split_by_day_and_topic_and_a_lone_clause_joins_its_neighbour() -> None:
    records = _records(
        [
            (T0, "a", "We adopted a puppy called Biscuit."),
            (T0 + 60, "b", "Biscuit chews every shoe in the flat."),
            (T0 + 120, "c", "My tax return is due on the 5th of April."),
            (T0 + DAY, "d", "I ran ten kilometres this morning."),
        ]
    )
    vectors = np.stack([_unit(1, 0.1, 0), _unit(1, 0.2, 0), _unit(0, 0, 1), _unit(0, 1, 0)])
    groups = plan_groups(records, vectors, Policy(topic_similarity=0.5))
    # Day 1: the puppy pair, and the tax clause (a lone last one) joins it; day 2: one clause, left alone.
    assert [g.ids for g in groups] == [(records[0].id, records[1].id, records[2].id)]


def test_groups_close_when_full() -> None:
    records = _records([(T0 + i, f"s{i}", f"Clause number {i} about the garden shed.") for i in range(7)])
    vectors = np.stack([_unit(1, 0, 0)] * 7)
    groups = plan_groups(records, vectors, Policy(max_clauses=3, topic_similarity=0.0))
    assert [len(g.records) for g in groups] == [3, 4]  # the lone seventh joins the last group


def test_summary_drops_small_talk_and_duplicates_and_names_speakers_once() -> None:
    alice, bob = "[NAME:aaaa1111]", "[NAME:bbbb2222]"
    address = "[ADDRESS:ab12cd34ef]"
    records = [
        MemoryRecord("c", f"I moved to {address} in May.", source="t1", speaker=alice, created_at=T0,
                     pii_tokens=(address,), importance=0.4),
        MemoryRecord("c", "The rent is 900 a month.", source="t1", speaker=alice, created_at=T0 + 1),
        MemoryRecord("c", "Wow, that sounds great!", source="t2", speaker=bob, created_at=T0 + 2),
        MemoryRecord("c", "The rent is 900 a month!", source="t3", speaker=alice, created_at=T0 + 3,
                     importance=0.7),
    ]  # fmt: skip
    vectors = np.stack([_unit(1, 0, 0), _unit(0, 1, 0), _unit(0, 0, 1), _unit(0, 1, 0.01)])
    group = plan_groups(records, vectors, Policy(topic_similarity=-1.0))[0]
    summary = summarise(group, Policy())
    assert summary.text == "[NAME:aaaa1111]: I moved to [ADDRESS:ab12cd34ef] in May. The rent is 900 a month."
    record = summary_record(group, summary)
    assert record.kind == "summary" and turn_ids(record) == ["t1"]
    assert record.pii_tokens == ("[ADDRESS:ab12cd34ef]",)
    assert record.created_at == T0 and record.importance == 0.7 and not record.pinned


def test_only_small_talk_still_says_something() -> None:
    records = _records([(T0, "a", "Wow!"), (T0 + 1, "b", "Thanks so much, that is awesome!")])
    group = plan_groups(records, np.stack([_unit(1, 0), _unit(1, 0.1)]), Policy())[0]
    assert summarise(group, Policy()).text == "Thanks so much, that is awesome!"


def test_cutoff_keeps_the_horizon_and_the_newest_records() -> None:
    newest_first = [T0 + 100 * DAY - i * DAY for i in range(10)]
    assert cutoff_time(newest_first, Policy(horizon_days=30, keep_recent=5)) == T0 + 70 * DAY
    assert cutoff_time(newest_first, Policy(horizon_days=1, keep_recent=5)) == T0 + 96 * DAY
    assert cutoff_time(newest_first, Policy(horizon_days=1, keep_recent=50)) is None  # too few yet
    assert cutoff_time([], Policy()) is None


def test_long_life_set_shifts_dates_renames_people_and_keeps_evidence_per_epoch() -> None:
    turns = [
        Turn("D1:1", "Caroline", "Hi Mel, I went to the support group.", 1, T0),
        Turn("D2:1", "Melanie", "Caroline, I painted a lake.", 2, T0 + 50 * DAY),
    ]
    questions = [
        Question("s", 0, "What did Caroline attend?", "support group", ("D1:1",), 4),
        Question("s", 1, "Trick?", "", ("D2:1",), 5),
    ]
    sample = Sample("s", ("Caroline", "Melanie"), turns, questions)
    long, asked = long_life_sample(sample, 3, gap_days=10)
    assert len(long.turns) == 6 and sorted(asked) == [0, 2]
    epoch2 = long.turns[4:]
    assert [t.dia_id for t in epoch2] == ["L2:D1:1", "L2:D2:1"]
    assert epoch2[0].created_at == T0 + 2 * 60 * DAY
    assert "Caroline" not in epoch2[0].text and "Mel," not in epoch2[0].text
    assert epoch2[0].speaker != "Caroline" and epoch2[0].speaker in epoch2[1].text
    assert [q.evidence for q in asked[0]] == [("L0:D1:1",)]  # adversarial questions left out
    assert asked[2][0].question == f"What did {epoch2[0].speaker} attend?"
    with pytest.raises(Exception, match="copies"):
        long_life_sample(sample, 0)
