"""Wave 42: turns asking for a walk-through ("give me a run-down of how to do the visit") are read as asking
for a plan, so a thing the person keeps off shapes the answer."""

from __future__ import annotations

import pytest

from voice_agent.conversation.acknowledge import acknowledgement
from voice_agent.conversation.constraints import constraints_from_texts
from voice_agent.conversation.reminders import asks_plan, guided_constraints

LIFT = (
    "Ever since I got stuck in that lift at work for two and a half hours last winter, I won't get in one "
    "ever again, I take the stairs every single time even if it's fifteen floors."
)


def _opening(facts: list[str], turn: str, language: str = "en") -> str | None:
    constraints = constraints_from_texts(facts)
    said = acknowledgement(guided_constraints(constraints, facts, turn), constraints, language, turn)
    return said.text if said else None


@pytest.mark.parametrize(
    "turn",
    [
        "Can you give me a run-down of how to do the visit: parking, getting up to her ward, what to bring?",
        "Talk me through the day, would you?",
        "Walk us through the move step by step.",
        "What's the game plan for Saturday?",
    ],
)
def test_a_walk_through_is_a_plan(turn: str) -> None:
    assert asks_plan(turn)


@pytest.mark.parametrize("turn", ["The run of bad luck continues.", "I walked through the park today."])
def test_no_walk_through_is_no_plan(turn: str) -> None:
    assert not asks_plan(turn)


def test_a_vow_shapes_a_run_down() -> None:
    said = _opening(
        [LIFT],
        "My nan is up on level 10 at the hospital. Can you give me a run-down of how to do the visit: "
        "parking, getting up to her ward, what to bring and how long to stay?",
    )
    assert said is not None and "lift" in said.lower()
