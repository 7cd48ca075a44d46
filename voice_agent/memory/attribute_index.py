"""The English pipeline's ``attribute_ruler`` with its patterns looked up per token instead of matched.

en_core_web_sm's attribute ruler maps each token's fine tag to its coarse part of speech and morphology
(and fixes a few words: "I", "'d", "something" as a pronoun). Its patterns are, but for one, one token
long, each a few equalities (TAG, LOWER, DEP, IS_SPACE, or IN / NOT_IN lists of them), and spaCy runs them
through its general ``Matcher``: about 1.4 ms a LoCoMo utterance, 2.8 ms of an English write's 37 ms CPU
under cProfile (Intel Xeon, 2026-12-03), mostly the matcher's state machine.

:func:`index_attribute_ruler` keeps the ruler (its normalised attributes, its order, its way of setting
them) and replaces only its ``match``. A token is read as four ids (tag, lower-cased form, dependency,
space), the one-token patterns that can apply are found by tag or form, and what one such signature
matches is remembered: most tokens of a conversation ("I", "the", "was") were seen before. The matches
come back in the ruler's own order (later patterns win). The few patterns of another kind (en_core_web_sm
has one: "ai" + "n't") stay in a spaCy ``Matcher`` of their own, whose matches join the others.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

_ATTRIBUTES = ("TAG", "LOWER", "DEP", "IS_SPACE")  # a token's signature, in this order
_CACHE_LIMIT = 50_000  # signatures remembered before the memo starts again

Check = Callable[[int], bool]  # a condition on one attribute's id


@dataclass(frozen=True)
class _Rule:
    attr_id: int
    checks: tuple[tuple[int, Check], ...]  # (position in the signature, condition)

    def matches(self, signature: tuple[int, ...]) -> bool:
        return all(check(signature[at]) for at, check in self.checks)


class UnsupportedPattern(ValueError):
    """A pattern this index does not read (longer than one token, another attribute or operator)."""


class PatternIndex:
    """One-token attribute patterns, found per token signature through an index on TAG or LOWER.
    ``to_id`` maps a pattern's string value to the id ``Doc.to_array`` gives (the vocabulary's hash)."""

    def __init__(self, to_id: Callable[[str], int]) -> None:
        self._to_id = to_id
        self._by: dict[tuple[int, int], list[_Rule]] = defaultdict(list)
        self._always: list[_Rule] = []
        self._memo: dict[tuple[int, ...], tuple[int, ...]] = {}

    def add(self, attr_id: int, alternatives: list[list[dict[str, Any]]]) -> None:
        """Index pattern ``attr_id`` (any of its ``alternatives``), or raise :class:`UnsupportedPattern`
        with nothing indexed."""
        rules = [self._rule(attr_id, pattern) for pattern in alternatives]
        for rule, keys in rules:
            for key in keys or ():
                self._by[key].append(rule)
            if keys is None:
                self._always.append(rule)
        self._memo.clear()

    def _id(self, value: Any) -> int:
        if isinstance(value, bool):
            return int(value)
        if isinstance(value, str):
            return self._to_id(value)
        raise UnsupportedPattern(f"value {value!r}")

    def _rule(
        self, attr_id: int, pattern: list[dict[str, Any]]
    ) -> tuple[_Rule, list[tuple[int, int]] | None]:
        if len(pattern) != 1 or not pattern[0]:
            raise UnsupportedPattern(f"pattern {pattern!r}")
        checks: list[tuple[int, Check]] = []
        keys: list[tuple[int, int]] | None = None
        for name, value in pattern[0].items():
            if name not in _ATTRIBUTES:
                raise UnsupportedPattern(f"attribute {name!r}")
            at = _ATTRIBUTES.index(name)
            check, accepted = self._check(value)
            checks.append((at, check))
            if name in ("TAG", "LOWER") and accepted is not None and keys is None:
                keys = [(at, item) for item in accepted]
        return _Rule(attr_id, tuple(checks)), keys

    def _check(self, value: Any) -> tuple[Check, frozenset[int] | None]:
        """The condition for one pattern value, and the ids it accepts (None: not a finite set)."""
        if isinstance(value, dict) and len(value) == 1:
            ((op, items),) = value.items()
            if op not in ("IN", "NOT_IN") or not isinstance(items, list):
                raise UnsupportedPattern(f"operator {op!r}")
            ids = frozenset(self._id(item) for item in items)
            if op == "IN":
                return ids.__contains__, ids
            return (lambda seen: seen not in ids), None
        one = self._id(value)
        return one.__eq__, frozenset((one,))

    def attr_ids(self, signature: tuple[int, ...]) -> tuple[int, ...]:
        """The patterns a token of this (tag, lower, dep, is_space) signature matches, in order."""
        found = self._memo.get(signature)
        if found is None:
            candidates = (
                *self._by.get((0, signature[0]), ()),
                *self._by.get((1, signature[1]), ()),
                *self._always,
            )
            found = tuple(sorted({rule.attr_id for rule in candidates if rule.matches(signature)}))
            if len(self._memo) >= _CACHE_LIMIT:
                self._memo.clear()
            self._memo[signature] = found
        return found


def index_attribute_ruler(nlp: Any) -> bool:
    """Give ``nlp``'s attribute ruler an indexed ``match`` (same matches, same order); False where the
    pipeline has no attribute ruler."""
    if "attribute_ruler" not in getattr(nlp, "pipe_names", ()):
        return False
    from spacy.attrs import IDS
    from spacy.matcher import Matcher

    ruler = nlp.get_pipe("attribute_ruler")
    strings = ruler.vocab.strings
    index, rest = PatternIndex(strings.add), Matcher(ruler.vocab)
    keys = [strings.add(str(i)) for i in range(len(ruler.attrs))]
    for attr_id, entry in enumerate(ruler.patterns):
        try:
            index.add(attr_id, entry["patterns"])
        except UnsupportedPattern:
            rest.add(str(attr_id), entry["patterns"])
    columns = [IDS[name] for name in _ATTRIBUTES]

    def match(doc: Any) -> list[tuple[int, int, int, int]]:
        rows = doc.to_array(columns).tolist() if len(doc) else []
        found = [
            (attr_id, keys[attr_id], i, i + 1)
            for i, row in enumerate(rows)
            for attr_id in index.attr_ids(tuple(row))
        ]
        if len(rest):
            found += [
                (int(strings[key]), key, start, end) for key, start, end in rest(doc, allow_missing=True)
            ]
        found.sort()
        return found

    ruler.match = match
    return True
