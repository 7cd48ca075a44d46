"""Phone numbers of any country as people write them, checked with Google's ``phonenumbers`` metadata.

``pii_numbers`` knows the shapes of Chinese and North American numbers and their spoken forms
(幺三八…, "five five five"); this module adds what only per-country metadata can tell:

- a candidate is a run of digits joined by spaces, dots, dashes, slashes or parentheses, maybe with a
  leading ``+``/``00`` and an extension (``x769``, ``ext. 12``, ``分机 8``), which stays with its number;
- ``+44 20 7946 0958`` / ``0044 …`` is parsed as international; a national number (``020 7946 0958``)
  is parsed in the configured region (``privacy.phone_region``, default from the locale). Valid
  numbers become E.164 (``+442079460958``), so a number said in national and in international form gives
  one placeholder;
- with no region, or when the number is not valid there, it is still a phone when it is valid in one of
  the common regions: kept as written (digits only, flag ``national``), never given a guessed country;
- after a cue word ("call me at", "phone:", "mobile", "fax", "tel", "电话", "手机") any run of 6+ digits
  is a phone, valid or not (a mis-heard digit must not expose the rest).

Dates, times, prices, versions and counts are not candidates: a candidate needs 7+ digits grouped as
phones are (not ``2024-05-08``, not ``3.11.7``, not ``$1.299.99``), or the cue.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any

from voice_agent.memory.pii_numbers import Detection, to_ascii_digits

# The regions tried, in this order, for a number written without a country code when the configured
# region does not take it (or none is configured): the most populous and most travelled ones.
COMMON_REGIONS = (
    "GB", "US", "DE", "FR", "IT", "ES", "PT", "NL", "BE", "CH", "AT", "PL", "CZ", "SK", "SI", "HR", "HU",
    "RO", "BG", "GR", "DK", "SE", "NO", "FI", "IE", "AU", "NZ", "IN", "JP", "KR", "CN", "TW", "HK", "SG",
    "MY", "PH", "ID", "TH", "VN", "BR", "MX", "AR", "CO", "CL", "PE", "ZA", "NG", "KE", "EG", "MA", "TR",
    "RU", "UA", "IL", "AE", "SA", "PK", "BD", "LT", "LV", "EE", "RS", "IS", "LU",
)  # fmt: skip
_EXT = r"(?:[ \t]*[,;]?[ \t]*(?:x|ext\.?|extension|分机)[ \t]*(?P<ext>\d{1,6})(?!\d))?"
_CANDIDATE = re.compile(
    r"(?<![\w+\uff0b.,/:#-])(?P<plus>[+\uff0b][ \t]?)?(?:\((?:0|\d{1,5})\)[ \t]?)?"
    r"[0-9\uff10-\uff19][0-9\uff10-\uff19 \t\u00a0().\-\u2010\u2011\u2013/]{4,30}[0-9\uff10-\uff19]"
    r"(?![0-9\uff10-\uff19])" + _EXT + r"(?![^\W_])",
    re.IGNORECASE,
)
_GROUP = re.compile(r"[0-9\uff10-\uff19]+")
_CUE = re.compile(
    r"(?i:(?<![A-Za-z])(?:call(?:[ \t]+(?:me|us|him|her|them))?(?:[ \t]+(?:at|on))?|reach(?:[ \t]+(?:me|us))?"
    r"[ \t]+(?:at|on)|text(?:[ \t]+(?:me|us))?[ \t]+(?:at|on)|ring(?:[ \t]+(?:me|us))?(?:[ \t]+on)?|"
    r"dial|phone|telephone|tel|mobile|cell(?:[ \t]*phone)?|fax|whats[ \t]?app|landline|hotline|"
    r"contact(?:[ \t]+number)?|ph|mob|téléphone|telefon|telefono|teléfono|handy|portable)"
    r"\.?(?:[ \t]+(?:number|no\.?|num|#))?(?:[ \t]*(?:is|was|:|=|-|at|on|#|\())?[ \t]*)$"
    r"|(?:电话|手机|手机号|联系电话|联系方式|座机|传真|热线)(?:号码|号)?(?:是|为|：|:)?[ \t]*$"
)
_CUE_LOOKBACK = 40
_MIN_CUED_DIGITS = 6
_MIN_DIGITS = 8
_ISO_DATE = re.compile(r"(?:19|20)\d\d[-./](?:0[1-9]|1[0-2])[-./](?:0[1-9]|[12]\d|3[01])")
_IP = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")
_LETTER = re.compile(r"[^\W\d_]")
_YEAR = re.compile(r"(?:19|20)\d\d")
_DATE = re.compile(
    r"(?:19|20)\d\d[-./](?:0?[1-9]|1[0-2])[-./](?:0?[1-9]|[12]\d|3[01])|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}"
)


def region_from_locale(env: Mapping[str, str] | None = None) -> str | None:
    """The country of the locale (``LANG=en_GB.UTF-8`` → ``GB``); None for C/POSIX or no country."""
    env = os.environ if env is None else env
    for var in ("LC_ALL", "LC_TELEPHONE", "LANG"):
        value = env.get(var, "")
        m = re.match(r"[a-z]{2,3}_([A-Z]{2})\b", value)
        if m:
            return m.group(1)
        if value:
            return None
    return None


def check_region(region: str | None) -> str | None:
    """``region`` as an ISO 3166 alpha-2 code phonenumbers knows; None stays None. ValueError otherwise."""
    if region is None or region.strip().lower() in ("", "none"):
        return None
    code = region.strip().upper()
    import phonenumbers

    if code not in phonenumbers.SUPPORTED_REGIONS:
        raise ValueError(f"unknown phone region {region!r}: expected a two-letter country code like GB")
    return code


class PhoneFinder:
    """Phone numbers in text, for one configured region (or none)."""

    def __init__(self, region: str | None = None) -> None:
        self.region = check_region(region)

    def find(self, text: str) -> Iterator[Detection]:
        if sum(ch.isdigit() for ch in text) < _MIN_CUED_DIGITS:
            return
        for m in _CANDIDATE.finditer(text):
            found = self._judge(text, m)
            if found is not None:
                yield found

    def normalise(self, digits: str) -> str | None:
        """E.164 of a national number (digits, trunk prefix kept) in the configured region, or None.

        Valid there, or of a possible length there and said with the region's trunk prefix: a
        national number is the owner's region's unless it has a country code."""
        if self.region is None:
            return None
        number = _parse(digits, self.region)
        if number is None:
            return None
        if _valid(number) or (digits.startswith(self._trunk) and self._trunk and _possible(number)):
            return _e164(number)
        return None

    @property
    def _trunk(self) -> str:
        import phonenumbers

        meta = phonenumbers.PhoneMetadata.metadata_for_region(self.region or "")
        return (meta.national_prefix or "") if meta is not None else ""

    def _judge(self, text: str, m: re.Match[str]) -> Detection | None:
        ext = m.group("ext")
        body_end = m.start("ext") if ext else m.end()
        while body_end > m.start() and not text[body_end - 1].isdigit():
            body_end -= 1  # "… 0958 x769": the body ends at its last digit
        before = max(0, m.start() - _CUE_LOOKBACK)
        cued = _LETTER.search(text, before, m.start()) is not None and (
            _CUE.search(text, before, m.start()) is not None
        )
        groups = [g.span() for g in _GROUP.finditer(text, m.start(), body_end)]
        # The whole run, else the run less its last or its first group ("in 2023 020 7946 0958").
        windows = [(0, len(groups))] + ([(0, len(groups) - 1), (1, len(groups))] if len(groups) > 2 else [])
        if len(groups) >= 2 and _YEAR.fullmatch(text[groups[0][0] : groups[0][1]]):
            windows = [(1, len(groups))]  # "in 2023 020 7946 0958": a year, then the number
        for first, last in windows:
            start = m.start() if first == 0 else groups[first][0]
            end = body_end if last == len(groups) else groups[last - 1][1]
            found = self._window(text, start, end, cued=cued and first == 0, plus=bool(m.group("plus")))
            if found is not None:
                canonical, flags = found
                if ext and end == body_end:
                    return Detection(start, m.end(), "PHONE", f"{canonical};ext={ext}", flags)
                return Detection(start, end, "PHONE", canonical, flags)
        return None

    def _window(
        self, text: str, start: int, end: int, *, cued: bool, plus: bool
    ) -> tuple[str, tuple[str, ...]] | None:
        body = text[start:end]
        digits = re.sub(r"\D", "", to_ascii_digits(body))
        longest = 16 if digits[:1] == "0" else 15  # E.164 holds 15 digits; a trunk 0 adds one
        if len(digits) < (_MIN_CUED_DIGITS if cued else _MIN_DIGITS) or len(digits) > longest:
            return None
        international = plus or (digits[:2] == "00" and digits[2:3] not in ("", "0"))
        if not cued and not international and _not_a_phone(body, digits):
            return None
        canonical = self._canonical(body, digits, international=international)
        if canonical is None:
            return (digits, ("cued",)) if cued else None
        return canonical, (() if canonical.startswith("+") else ("national",))

    def _canonical(self, body: str, digits: str, *, international: bool) -> str | None:
        if international:
            # A country code is a strong sign: a number of a possible length for it is taken.
            number = _parse("+" + (digits[2:] if digits.startswith("00") else digits), None)
            return _e164(number) if number is not None and _possible(number) else None
        national = re.sub(r"\D", "", to_ascii_digits(re.sub(r"\(0\)", "0", body)))
        if self.region is not None:
            number = _parse(national, self.region)
            if number is not None and _valid(number):
                return _e164(number)
        if _valid_somewhere(national):
            return self.normalise(national) or national  # the country is unknown: kept as written
        return None


def _not_a_phone(body: str, digits: str) -> bool:
    """Dates, versions, addresses of machines, ISBNs and counts are not phone numbers without a cue."""
    stripped = body.strip()
    if _ISO_DATE.search(stripped) or _DATE.fullmatch(stripped) or _IP.fullmatch(stripped):
        return True
    groups = [g for g in re.split(r"[^0-9\uff10-\uff19]+", stripped.removeprefix("(0)")) if g]
    trunk = digits.startswith("0")
    if len(groups) == 1:
        return not trunk  # one solid block: a count, an order or a timestamp unless it has a trunk 0
    if any(len(g) == 1 for g in groups) or [len(g) for g in groups] == [3, 2, 4]:
        return True  # 978-3-16-148410-0, 1 2 3 4 5, 666-12-3456 (the SSN pattern's, not a phone)
    if not trunk and len(groups[0]) <= 2 and all(len(g) == 3 for g in groups[1:]):
        return True  # 1 234 567: thousands, as many languages write them
    # 3.11.7, 1.299.99
    return "." in stripped and not trunk and len({len(g) for g in groups}) > 1 and len(groups) <= 3


@lru_cache(maxsize=4096)
def _valid_somewhere(digits: str) -> bool:
    """Whether ``digits`` (as said in a country, trunk prefix included) is a number of some common region:
    its national number fits the region's number pattern. One regex per region, no full parse."""
    for prefix, pattern in _region_patterns():
        national = digits[len(prefix) :] if prefix and digits.startswith(prefix) else digits
        if pattern.fullmatch(national):
            return True
    return False


@lru_cache(maxsize=1)
def _region_patterns() -> list[tuple[str, re.Pattern[str]]]:
    import phonenumbers

    patterns = []
    for region in COMMON_REGIONS:
        meta = phonenumbers.PhoneMetadata.metadata_for_region(region)
        if meta is None or meta.general_desc is None or not meta.general_desc.national_number_pattern:
            continue
        patterns.append((meta.national_prefix or "", re.compile(meta.general_desc.national_number_pattern)))
    return patterns


def _parse(text: str, region: str | None) -> Any:
    import phonenumbers

    try:
        return phonenumbers.parse(text, region)
    except phonenumbers.NumberParseException:
        return None


def _valid(number: Any) -> bool:
    import phonenumbers

    return bool(phonenumbers.is_valid_number(number))


def _possible(number: Any) -> bool:
    import phonenumbers

    return bool(phonenumbers.is_possible_number(number))


def _e164(number: Any) -> str:
    import phonenumbers

    return str(phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164))
