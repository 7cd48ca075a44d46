"""Where a constraint's things are named in a text: one pattern for its English and Chinese terms (an
English term as a whole word, with its plural; "ice cream" also as "ice-cream"), and the Chinese names
inside a word that means something else (肉桂, 鸡蛋, 酒店), which do not count."""

from __future__ import annotations

import functools
import re

from voice_agent.conversation.constraint_topic import ZhTerm

__all__ = ["excluded", "terms_pattern"]


@functools.cache
def terms_pattern(terms_en: tuple[str, ...], terms_zh: tuple[ZhTerm, ...]) -> re.Pattern[str]:
    """The pattern that finds any of the terms (longest first); one that finds nothing without terms."""
    english = sorted({t for t in terms_en if t}, key=len, reverse=True)
    chinese = sorted({t.text for t in terms_zh}, key=len, reverse=True)
    parts = []
    if english:
        words = "|".join(re.escape(t).replace(r"\ ", r"[\s-]+") for t in english)
        parts.append(rf"(?<![a-z])(?:{words})(?:s|es)?(?![a-z])")
    if chinese:
        parts.append("|".join(re.escape(t) for t in chinese))
    return re.compile("|".join(parts) or r"(?!x)x", re.IGNORECASE)


def excluded(text: str, match: re.Match[str], terms_zh: tuple[ZhTerm, ...]) -> bool:
    """A Chinese term inside a word that means something else (肉桂, 鸡蛋, 酒店)."""
    word = match.group(0)
    for term in terms_zh:
        if term.text != word:
            continue
        before = text[: match.start()]
        after = text[match.end() :]
        return any(before.endswith(b) for b in term.not_before) or any(
            after.startswith(a) for a in term.not_after
        )
    return False
