"""What the reply check did to one reply: attempts, violations, the safe sentence, the language, the
check's cost per sentence and the opening said before the model's words (copied into the turn result)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class CheckOutcome:
    """What the check did to one reply (the engine copies it into its turn result)."""

    attempts: int = 1
    violations: list[dict[str, Any]] = field(default_factory=list)
    safe_sentence: bool = False
    language_mismatch: bool = False
    check_ms: list[float] = field(default_factory=list)
    opening: str = ""  # the acknowledgement said before the model's words, if any

    def to_json(self) -> dict[str, Any]:
        return {
            "attempts": self.attempts,
            "violations": self.violations,
            "safe_sentence": self.safe_sentence,
            "language_mismatch": self.language_mismatch,
            "check_ms_max": round(max(self.check_ms), 3) if self.check_ms else 0.0,
            "opening": self.opening,
        }
