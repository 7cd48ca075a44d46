"""Where a long liking is cut to be said back: the clause a pointing lead introduces, and the comma parts a
long clause opens with."""

from __future__ import annotations

import re

# A liking clause that only points at what follows it: "I'll tell you what's kept me sane since I retired:".
POINTS_AHEAD = re.compile(r"\bwhat(?:'s| (?:has|keeps|kept|makes|made|gets|got))\b[^:]*$", re.IGNORECASE)


def first_commas(clause: str, most: int) -> str:
    """The comma parts a long clause opens with, as many as fit ``most`` characters ("chuck me in a freezing
    tarn … and I'm grinning all day" of "…, the colder the better, our little group went in…")."""
    told = ""
    for part in clause.split(", "):
        if len(told) + 2 + len(part) >= most:  # (room for the full stop)
            break
        told = f"{told}, {part}" if told else part
    return told
