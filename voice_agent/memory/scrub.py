"""PII scrubbing: personal values become typed placeholders with a keyed, irreversible hash.

    >>> scrubber = Scrubber(install_key)
    >>> result = scrubber.scrub("call me on 138 0013 8000")
    >>> result.text
    'call me on [PHONE:3f0c9a…]'
    >>> vault.put(conversation_id, result.found)   # raw values go to the vault, then are dropped

A placeholder is ``[KIND:<12 hex>]``: the first 48 bits of HMAC-SHA256(k, KIND NUL canonical value),
where k is derived from the per-install secret (see ``keys.py``). The canonical value folds every way
of writing it (``138-0013-8000``, ``+86 13800138000``, ``一三八零零一三八零零零`` → ``+8613800138000``), so
the same value always gives the same token. 48 bits keep accidental collisions negligible
(~2e-3 with a million distinct values of one kind in one install) while staying short in prompts.

Kinds: PHONE, ID (Chinese resident ID, US SSN, IBAN, passport / licence / account numbers after their
name), CARD, EMAIL, ADDRESS and NAME. Phones of other countries are checked with ``phonenumbers`` in the
configured region (``pii_phones.py``); addresses of the world's street orders are in ``pii_world.py``.
Names come from a ``PersonNameFinder`` given to the scrubber (name lists, jieba for Chinese) and from
the PERSON spans of the caller's spaCy parse (``name_spans``).
Scrubbing is deterministic, pure CPU, linear in the text; text already holding placeholders is left as is.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from voice_agent.errors import InputError
from voice_agent.memory.keys import placeholder_hmac_key
from voice_agent.memory.pii_cued import canonical_code, find_cued_ids, find_cued_numbers, find_ibans
from voice_agent.memory.pii_numbers import Detection, find_numbers
from voice_agent.memory.pii_phones import PhoneFinder
from voice_agent.memory.pii_text import (
    canonical_chinese_address,
    canonical_email,
    canonical_english_address,
    find_chinese_addresses,
    find_emails,
    find_english_addresses,
)
from voice_agent.memory.pii_world import find_world_addresses
from voice_agent.text.cjk import is_han
from voice_agent.text.placeholders import KINDS as KINDS
from voice_agent.text.placeholders import PLACEHOLDER_HEX_CHARS as PLACEHOLDER_HEX_CHARS
from voice_agent.text.placeholders import PLACEHOLDER_RE as PLACEHOLDER_RE
from voice_agent.text.placeholders import placeholder

if TYPE_CHECKING:
    from voice_agent.memory.person_names import PersonNameFinder

# When two findings overlap, the longer wins; on equal length, the more specific kind.
_PRIORITY = {kind: rank for rank, kind in enumerate(("EMAIL", "ID", "CARD", "PHONE", "ADDRESS", "NAME"))}
_POSSESSIVE = re.compile(r"(?:['’]s|['’])$")


@dataclass(frozen=True, repr=False)
class PiiFinding:
    """One personal value found in a text. ``value`` is raw: hand it to the vault, then drop it.

    ``repr``/``str`` never show ``value`` or ``canonical``, so findings are safe to log.
    """

    kind: str
    placeholder: str
    value: str = field(compare=False)
    canonical: str = field(compare=False)  # the normalised form the placeholder hashes
    start: int = 0  # span in the scrubbed input text
    end: int = 0
    flags: tuple[str, ...] = ()  # e.g. "check_char_mismatch" (likely mis-heard ID), "luhn_failed"

    def __repr__(self) -> str:
        flags = f", flags={self.flags!r}" if self.flags else ""
        span = f"({self.start}, {self.end})"
        return f"PiiFinding(kind={self.kind!r}, placeholder={self.placeholder!r}, span={span}{flags})"

    __str__ = __repr__


@dataclass(frozen=True)
class ScrubResult:
    text: str  # the input with every finding replaced by its placeholder
    found: list[PiiFinding]

    @property
    def placeholders(self) -> tuple[str, ...]:
        """Distinct placeholders in order of first appearance (for ``MemoryRecord.pii_tokens``)."""
        return tuple(dict.fromkeys(f.placeholder for f in self.found))


class Scrubber:
    """Replace PII with placeholders. ``key`` is the install secret (≥32 bytes); the HMAC key is derived.

    ``phone_region``: the country national numbers are read in (``GB``: ``020 7946 0958`` is
    ``+442079460958``); None reads none, and keeps such numbers as written. ``names``: a started (or
    lazily starting) ``PersonNameFinder``; without one, only the ``name_spans`` given are names.
    """

    def __init__(
        self,
        key: bytes,
        *,
        kinds: Collection[str] = KINDS,
        phone_region: str | None = None,
        names: PersonNameFinder | None = None,
    ) -> None:
        unknown = set(kinds) - set(KINDS)
        if unknown:
            raise ValueError(f"unknown PII kinds {sorted(unknown)}; expected some of {KINDS}")
        self._hmac_key = placeholder_hmac_key(key)
        self._kinds = frozenset(kinds)
        self.phones = PhoneFinder(phone_region)
        self.names = names

    def placeholder(self, kind: str, canonical: str) -> str:
        """The placeholder of an already canonical value (as in ``PiiFinding.canonical``)."""
        if kind not in KINDS:
            raise ValueError(f"unknown PII kind {kind!r}; expected one of {KINDS}")
        message = f"{kind}\x00{canonical}".encode("utf-8", "surrogatepass")
        digest = hmac.new(self._hmac_key, message, hashlib.sha256).hexdigest()
        return placeholder(kind, digest)

    def placeholder_for(self, kind: str, value: str) -> str:
        """The placeholder of ``value`` written any way, e.g. ``("PHONE", "+86 138-0013-8000")``."""
        if kind == "PHONE":
            whole = value.strip()
            for d in self._phones(whole):
                if d.start == 0 and d.end == len(whole):
                    return self.placeholder(kind, d.canonical)
        return self.placeholder(kind, canonical_value(kind, value))

    def scrub(self, text: str, *, name_spans: Sequence[tuple[int, int]] = ()) -> ScrubResult:
        """Replace every PII value in ``text``; ``name_spans`` are character spans of person names."""
        _check_text(text)
        detections: list[Detection] = []
        if text:
            detections.extend(self._detect(text))
        if name_spans and "NAME" in self._kinds:
            detections.extend(_name_detections(text, self._plausible(text, name_spans)))
        return self._replace(text, detections)

    def scrub_names(self, text: str, spans: Sequence[tuple[int, int]]) -> ScrubResult:
        """Replace only the given character spans (person names from a parser) with NAME placeholders."""
        _check_text(text)
        return self._replace(text, list(_name_detections(text, self._plausible(text, spans))))

    def _plausible(self, text: str, spans: Sequence[tuple[int, int]]) -> Sequence[tuple[int, int]]:
        """A parser's PERSON spans, less common words it took for names (with a name finder only)."""
        if self.names is None:
            return spans
        checked = []
        for span in spans:
            try:
                start, end = int(span[0]), int(span[1])
            except (TypeError, ValueError, IndexError):
                checked.append(span)  # _name_detections names the bad span
                continue
            if not 0 <= start <= end <= len(text) or self.names.plausible(text, (start, end)):
                checked.append(span)
        return checked

    def _detect(self, text: str) -> Iterable[Detection]:
        kinds = self._kinds
        if "EMAIL" in kinds:
            yield from find_emails(text)
        numbers = list(find_numbers(text)) if kinds & {"PHONE", "ID", "CARD"} else []
        yield from (d for d in numbers if d.kind in kinds and d.kind != "PHONE")
        if "PHONE" in kinds:
            yield from self._phones(text, numbers)
        if "ID" in kinds:  # a number's own pattern knows its kind better than a cue word before it
            yield from find_ibans(text)
            yield from (c for c in find_cued_ids(text) if not any(_overlap(c, d) for d in numbers))
        spans = {(d.start, d.end) for d in numbers}
        yield from (d for d in find_cued_numbers(text) if d.kind in kinds and (d.start, d.end) not in spans)
        if "ADDRESS" in kinds:
            yield from find_english_addresses(text)
            yield from find_chinese_addresses(text)
            yield from find_world_addresses(text)
        if "NAME" in kinds and self.names is not None:
            yield from _name_detections(text, self.names.spans(text))

    def _phones(self, text: str, numbers: Sequence[Detection] | None = None) -> Iterable[Detection]:
        """Phones of the number patterns first (they know Chinese and spoken forms), national ones
        read in the configured region, then those only the per-country metadata finds."""
        if numbers is None:
            numbers = list(find_numbers(text))
        for d in numbers:
            if d.kind == "PHONE":
                if "national" in d.flags:
                    e164 = self.phones.normalise(d.canonical)
                    d = Detection(d.start, d.end, d.kind, e164, ()) if e164 else d
                yield d
        yield from self.phones.find(text)

    def _replace(self, text: str, detections: list[Detection]) -> ScrubResult:
        if not detections:
            return ScrubResult(text, [])
        occupied = bytearray(len(text))
        for m in PLACEHOLDER_RE.finditer(text):  # never scrub inside an existing placeholder
            occupied[m.start() : m.end()] = b"\x01" * (m.end() - m.start())
        chosen: list[Detection] = []
        for d in sorted(detections, key=lambda d: (d.start - d.end, _PRIORITY[d.kind], d.start)):
            if occupied.find(1, d.start, d.end) == -1:
                occupied[d.start : d.end] = b"\x01" * (d.end - d.start)
                chosen.append(d)
        chosen.sort(key=lambda d: d.start)
        pieces: list[str] = []
        found: list[PiiFinding] = []
        cursor = 0
        for d in chosen:
            token = self.placeholder(d.kind, d.canonical)
            pieces.append(text[cursor : d.start])
            pieces.append(token)
            found.append(
                PiiFinding(d.kind, token, text[d.start : d.end], d.canonical, d.start, d.end, d.flags)
            )
            cursor = d.end
        pieces.append(text[cursor:])
        return ScrubResult("".join(pieces), found)


def canonical_value(kind: str, value: str) -> str:
    """The canonical form the placeholder of ``value`` hashes; ``InputError`` if it is not a ``kind``."""
    if kind in ("PHONE", "ID", "CARD"):
        whole = value.strip()
        for d in find_numbers(whole):
            if d.kind == kind and d.start == 0 and d.end == len(whole):
                return d.canonical
        if (
            kind == "ID"
            and re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9 -]{4,40}", whole)
            and sum(map(str.isdigit, whole)) >= 5
        ):
            return canonical_code(whole)  # a passport, licence, account number or IBAN
        raise InputError(f"the value given is not one whole {kind} number ({len(whole)} characters)")
    if kind == "EMAIL":
        return canonical_email(value)
    if kind == "ADDRESS":
        if any(is_han(ch) for ch in value):
            return canonical_chinese_address(value)
        return canonical_english_address(value)
    if kind == "NAME":
        return canonical_name(value)
    raise ValueError(f"unknown PII kind {kind!r}; expected one of {KINDS}")


def canonical_name(name: str) -> str:
    return " ".join(_POSSESSIVE.sub("", name.strip()).split()).casefold()


def _name_detections(text: str, spans: Sequence[tuple[int, int]]) -> Iterable[Detection]:
    for span in spans:
        try:
            start, end = int(span[0]), int(span[1])
        except (TypeError, ValueError, IndexError) as err:
            raise InputError(f"a name span must be a (start, end) pair of ints, got {span!r}") from err
        if not 0 <= start <= end <= len(text):
            raise InputError(f"name span ({start}, {end}) is outside the text of {len(text)} characters")
        raw = text[start:end]
        trimmed = _POSSESSIVE.sub("", raw.rstrip())
        start += len(trimmed) - len(trimmed.lstrip())
        end = start + len(trimmed.strip())
        if end > start:
            yield Detection(start, end, "NAME", canonical_name(text[start:end]))


def _overlap(a: Detection, b: Detection) -> bool:
    return a.start < b.end and b.start < a.end


def _check_text(text: object) -> None:
    if not isinstance(text, str):
        raise InputError(f"scrub: text must be str, got {type(text).__name__} (decode bytes first)")
