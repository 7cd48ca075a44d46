"""One thing a person may have to avoid (:class:`Topic`), and a Chinese word with the contexts in which it
means something else (:class:`ZhTerm`): the shapes the term lists are written in (``constraint_terms`` for
food and drink, ``constraint_outings`` for places and activities)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class ZhTerm:
    text: str
    not_before: tuple[str, ...] = ()  # the term does not count right after one of these
    not_after: tuple[str, ...] = ()  # nor right before one of these


@dataclass(frozen=True)
class Topic:
    key: str
    noun_en: str  # "nuts": used in "I'll avoid nuts"
    noun_zh: str
    keys: tuple[str, ...]  # how people name it when stating the constraint (lower-case English, Chinese)
    terms_en: tuple[str, ...]  # whole words (a plural "s"/"es" is added), lower-case
    terms_zh: tuple[ZhTerm, ...] = field(default_factory=tuple)


def zh_terms(*items: str | ZhTerm) -> tuple[ZhTerm, ...]:
    return tuple(item if isinstance(item, ZhTerm) else ZhTerm(item) for item in items)
