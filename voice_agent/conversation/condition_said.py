"""Whether a condition named in a statement holds for the person: not one said not to hold ("I'm not
afraid of heights", "他不恐高"), nor one said in jest ("the Super Eagles match on Sunday nearly gave me
hypertension", "that bill almost gave me a heart attack")."""

from __future__ import annotations

import re

from voice_agent.conversation.constraint_diets import negated_statement

# A condition something "nearly gave" someone: a figure of speech.
_IN_JEST = re.compile(
    r"\b(?:nearly|almost|practically|about to|going to|gonna|will) (?:gave|give|gives|giving) "
    r"(?:me|him|her|us|them|everyone) (?:a |an |some )?$",
    re.IGNORECASE,
)


def condition_holds(lowered: str, condition: str) -> bool:
    """Whether ``condition`` is named in ``lowered`` (a lower-cased statement) as the person's own."""
    if condition not in lowered or negated_statement(lowered, (condition,)):
        return False
    return any(not _IN_JEST.search(lowered, 0, m.start()) for m in re.finditer(re.escape(condition), lowered))
