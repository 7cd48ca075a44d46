"""Whether a turn asks something (English and Chinese), from its words: a question mark, a sentence-final
吗 / 呢, or an English sentence that opens with a question word or an auxiliary verb. A transcript often has
no question mark, so the opening words count too."""

from __future__ import annotations

import re

_QUESTION = re.compile(
    r"[?？]\s*$|[吗呢][。.？?！!]?\s*$|"
    r"^\s*(?:(?:and|so|ok|okay|well|hey|hi|um|uh)[,\s]+)*"
    r"(?:what|which|when|where|who|whom|whose|why|how|do|does|did|can|could|would|should|shall|will|"
    r"is|are|am|was|were|have|has|may|might)\b",
    re.IGNORECASE,
)


def is_question(text: str) -> bool:
    return bool(_QUESTION.search(text.strip()))
