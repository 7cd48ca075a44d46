"""What of a turn may be remembered when one of its sentences reads as an instruction.

A long, chatty turn can hold one sentence that trips the injection rules while the rest is the person's
own life: "…the tuner said the pin block was banjaxed…", "Tell everyone to bring cash, their card machine
is always kak." beside a brunch booked for Sunday. Leaving the whole turn out of memory loses what the
person told us, with no error anywhere. So only the sentences that carry the finding are left out, when
they are the kind everyday speech can trip (a secret named, an audience, a rule about replies). A turn
that tries to override the rules, switch the assistant's role, claim authority or inject markup is an
attack as a whole and stays out whole, as does one where what is left says too little to keep.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from voice_agent.conversation.injection import InstructionFinding, find_instruction
from voice_agent.text.sentences import join_spoken

# The categories a single sentence of ordinary talk can trip; the others mark the whole turn.
SENTENCE_LEVEL = frozenset({"secret", "audience", "output", "link"})

# Sentence ends: Chinese and English marks (a full stop only before a space and a capital or a quote,
# so "3 p.m. at the shop" stays whole), and semicolons, which join independent clauses in speech.
_SENTENCE_END = re.compile(r"(?<=[。！？!?；;])\s*|(?<=\.)\s+(?=[A-Z\"'“‘(])")

# What is left must still say something: a few words, or a short Chinese clause.
_MIN_KEPT_CHARS = 12


@dataclass(frozen=True)
class Quarantined:
    """A turn split into what may be remembered and the sentences left out (with why)."""

    kept: str
    left_out: tuple[str, ...]
    findings: tuple[InstructionFinding, ...]


def sentences_for_memory(text: str) -> list[str]:
    """``text`` cut into sentences at their marks (each keeps its own)."""
    return [part.strip() for part in _SENTENCE_END.split(text.strip()) if part.strip()]


def without_instructions(text: str) -> Quarantined:
    """``text`` with the sentences that read as an instruction left out; ``kept`` is "" when the turn
    stays out whole (an attack as a whole, every sentence tripped, or too little left)."""
    whole = find_instruction(text)
    if whole is None:
        return Quarantined(text, (), ())
    if whole.category not in SENTENCE_LEVEL:
        return Quarantined("", (text,), (whole,))
    kept: list[str] = []
    left_out: list[str] = []
    findings: list[InstructionFinding] = []
    for sentence in sentences_for_memory(text):
        finding = find_instruction(sentence)
        if finding is None:
            kept.append(sentence)
            continue
        if finding.category not in SENTENCE_LEVEL:
            return Quarantined("", (text,), (finding,))
        left_out.append(sentence)
        findings.append(finding)
    remaining = join_spoken(*kept)
    # (the sentences may read clean one by one while the whole trips a rule across them: keep nothing)
    if not findings or len(remaining) < _MIN_KEPT_CHARS or find_instruction(remaining) is not None:
        return Quarantined("", (text,), (whole,))
    return Quarantined(remaining, tuple(left_out), tuple(findings))
