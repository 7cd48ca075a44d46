"""Which remembered facts are restated right before the turn ("Remember: my kid is allergic to nuts.").

Small models follow what sits next to the turn, not what sits in a long system prompt. The line carries
the person's constraints (they matter whenever food, drink or plans come up, and breaking one harms the
person) and the pinned facts that retrieval found relevant to this turn, in the person's own first-person
words, newest first, at most a few.
"""

from __future__ import annotations

from collections.abc import Sequence

from voice_agent.conversation.constraints import ConstraintSet
from voice_agent.memory.records import MemoryRecord

MAX_CONSTRAINTS = 3
MAX_RELEVANT_FACTS = 2


def turn_reminders(
    pinned: Sequence[MemoryRecord], recalled: Sequence[MemoryRecord], constraints: ConstraintSet
) -> list[str]:
    """The texts for the reminder line: constraint statements first, then relevant pinned facts."""
    pinned_by_id = {r.id: r for r in pinned if r.status == "active"}
    pinned_texts = {r.text for r in pinned_by_id.values()}
    stated = [c.source for c in constraints.constraints if c.source in pinned_texts]
    newest = sorted(pinned_by_id.values(), key=lambda r: -r.created_at)
    ordered_constraints = [r.text for r in newest if r.text in stated][:MAX_CONSTRAINTS]
    relevant = [
        r.text for r in recalled if r.id in pinned_by_id and r.status == "active" and r.text not in stated
    ][:MAX_RELEVANT_FACTS]
    return list(dict.fromkeys([*ordered_constraints, *relevant]))
