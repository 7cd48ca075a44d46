"""Speculation before the endpoint: a stable memory-block order across the partials of one utterance, and
no prefill sent once the pause at the end of speech has opened the critical path."""

from __future__ import annotations

import asyncio

from voice_agent.clock import MonotonicClock
from voice_agent.config import Config
from voice_agent.conversation.speculate import Prepared, Speculator, stable_order
from voice_agent.memory.records import MemoryRecord
from voice_agent.scheduling import CriticalPathScheduler


def _record(record_id: str) -> MemoryRecord:
    return MemoryRecord(id=record_id, conversation_id="c", text=f"clause {record_id}")


class _Recalled:
    def __init__(self, records: list[MemoryRecord]) -> None:
        self._records = records

    @property
    def records(self) -> list[MemoryRecord]:
        return self._records

    @property
    def tokens_used(self) -> int:
        return 10 * len(self._records)

    def info(self) -> dict[str, int]:
        return {"records": len(self._records)}


def test_stable_order_keeps_the_previous_block_first_in_its_order() -> None:
    a, b, c, d = (_record(x) for x in "abcd")
    assert [r.id for r in stable_order([c, d, a], [a, b, c])] == ["a", "c", "d"]
    assert [r.id for r in stable_order([b, a], [])] == ["b", "a"]  # no previous block: relevance order
    assert stable_order([], [a]) == []


class _Harness:
    """A Speculator over a real scheduler, with a retrieval the test releases and a counted send."""

    def __init__(self) -> None:
        base = Config()
        config = base.model_copy(
            update={"llm": base.llm.model_copy(update={"speculative_min_interval_ms": 0})}
        )
        self.scheduler = CriticalPathScheduler()
        self.retrieval_done = asyncio.Event()
        self.release_retrieval = asyncio.Event()
        self.sent: list[str] = []
        self.previous: list[Prepared | None] = []
        self.speculator = Speculator(config, self.scheduler, MonotonicClock(), self._prepare, self._send)

    async def _prepare(self, conversation_id: str, text: str, previous: Prepared | None) -> Prepared:
        self.previous.append(previous)
        await self.release_retrieval.wait()
        self.retrieval_done.set()
        records = [_record(w) for w in text.split()]
        return Prepared(text, _Recalled(records), (), ordered=tuple(records))

    async def _send(self, prepared: Prepared) -> bool:
        self.sent.append(prepared.text)
        return True


async def test_a_retrieval_that_ends_in_the_pause_is_not_sent_and_the_turn_cancels_it() -> None:
    h = _Harness()
    assert h.speculator.offer("c", "tell me about")
    await asyncio.sleep(0)
    h.scheduler.hold("pause-1", kind="pause")  # the person stopped: the final decode runs now
    h.release_retrieval.set()
    await h.retrieval_done.wait()
    await asyncio.sleep(0.05)
    assert h.sent == []  # waiting at the gate, not queued at the LLM
    assert h.speculator.take("c", "tell me about", []) is None  # nothing prepared was sent before
    await asyncio.sleep(0.05)
    h.scheduler.release("pause-1")
    await asyncio.sleep(0.05)
    assert h.sent == []  # cancelled by the turn: never sent
    assert h.speculator.stats.prefills == 0


async def test_a_speculation_waits_out_a_short_pause_and_the_next_one_sees_it() -> None:
    h = _Harness()
    h.release_retrieval.set()
    h.scheduler.hold("pause-1", kind="pause")
    assert h.speculator.offer("c", "tell me")
    await h.retrieval_done.wait()
    await asyncio.sleep(0.05)
    assert h.sent == []
    h.scheduler.release("pause-1")  # the person went on speaking
    await h.speculator.settle("c")
    assert h.sent == ["tell me"] and h.speculator.stats.prefills == 1

    assert h.speculator.offer("c", "tell me about it")
    await h.speculator.settle("c")
    previous = h.previous[-1]
    assert previous is not None and previous.text == "tell me"  # for the block's stable order
    prepared = h.speculator.take("c", "tell me about it please", [])
    assert prepared is not None and prepared.text == "tell me about it" and prepared.sent
