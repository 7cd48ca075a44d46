"""E-mail addresses and street addresses, written or as ASR transcribes them.

- E-mail: ``john.smith@gmail.com`` and spoken ``john dot smith at gmail dot com`` (also ``点``/``艾特``),
  canonicalised to the lower-case written form, so both give the same placeholder.
- English street addresses: a house number, a capitalised street name and a street suffix
  (``221B Baker Street``, ``1600 Pennsylvania Avenue NW, Washington, DC 20500``), lower-case
  ``12 main street`` for the unambiguous suffixes, apartment/suite numbers, "City, ST 12345", PO boxes.
- Chinese addresses: anchored on a house number after a road (``…路88号``, ``…南路四段12号``), a
  building and room (``3栋2单元501室``), or an estate and building (``阳光小区5号楼``), extended left
  over the province / city / district / road name and right over building, unit and room.

Every pattern is bounded (no nested unbounded repetition), so matching is linear in the input.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from voice_agent.memory.pii_numbers import CN_NUMERALS, Detection, to_ascii_digits
from voice_agent.text.cjk import HAN_BASIC, is_han

# ---- e-mail -------------------------------------------------------------------------------------
_WRITTEN_EMAIL = re.compile(
    r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@(?:[A-Za-z0-9-]{1,63}\.){1,8}[A-Za-z]{2,24}"
    r"(?![A-Za-z0-9-])"
)
_TLDS = (
    "com|net|org|edu|gov|mil|int|io|co|cn|uk|de|fr|jp|kr|info|me|ai|us|ca|au|in|hk|tw|sg|biz|app|dev|"
    "ru|br|nl|es|it|ch|se|no|fi|dk|pl|nz|ie|be|at|mx"
)
_SPOKEN_JOIN = r"(?:[ \t]*(?:\.|_|-|点|下划线)[ \t]*|[ \t]+(?:dot|underscore|dash|hyphen)[ \t]+)"
_SPOKEN_DOT = r"(?:[ \t]*(?:\.|点)[ \t]*|[ \t]+dot[ \t]+)"
_SPOKEN_AT = r"(?:[ \t]+at[ \t]+|[ \t]*(?:@|艾特|at符号)[ \t]*)"
_WORD = r"[a-z0-9][a-z0-9+]{0,30}"
_SPOKEN_EMAIL = re.compile(
    rf"(?i)(?<![A-Za-z0-9])(?:{_WORD}(?:{_SPOKEN_JOIN}{_WORD}){{0,4}}){_SPOKEN_AT}"
    rf"(?:{_WORD}(?:{_SPOKEN_JOIN}{_WORD}){{0,3}}){_SPOKEN_DOT}(?:{_TLDS})(?![A-Za-z0-9])"
)
_SPOKEN_TOKENS = re.compile(r"(?i)[ \t]+(dot|underscore|dash|hyphen|at)[ \t]+|点|下划线|艾特|at符号|[ \t]+")
_SPOKEN_MAP = {"dot": ".", "underscore": "_", "dash": "-", "hyphen": "-", "at": "@", "点": "."}
_SPOKEN_MAP |= {"下划线": "_", "艾特": "@", "at符号": "@"}


def find_emails(text: str) -> Iterator[Detection]:
    if "@" in text:
        for m in _WRITTEN_EMAIL.finditer(text):
            yield Detection(m.start(), m.end(), "EMAIL", m.group().lower())
    lowered = text.lower()
    if (" at " in lowered or "艾特" in text or "@" in text) and (
        " dot " in lowered or "点" in text or "." in text
    ):
        for m in _SPOKEN_EMAIL.finditer(text):
            if "@" not in m.group() or " " in m.group():
                yield Detection(m.start(), m.end(), "EMAIL", canonical_email(m.group()))


def canonical_email(spoken: str) -> str:
    """``John Dot Smith at Gmail dot com`` → ``john.smith@gmail.com``."""

    def _sub(m: re.Match[str]) -> str:
        word = (m.group(1) or m.group()).strip().lower()
        return _SPOKEN_MAP.get(word, "")

    return _SPOKEN_TOKENS.sub(_sub, spoken.strip()).lower()


# ---- English addresses --------------------------------------------------------------------------
_SUFFIXES = (
    "Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Place|Pl|Terrace|Way|"
    "Parkway|Pkwy|Highway|Hwy|Circle|Square|Sq|Crescent|Close|Alley|Trail|Plaza|Mews"
)
_DIRS = "NE|NW|SE|SW|N|S|E|W|North|South|East|West"
_STATES = (
    "AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|"
    "NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|PR"
)
_UNIT = r"(?i:apt|apartment|suite|ste|unit|flat|floor|fl|\#)\.?[ \t]*\#?[ \t]*\d{1,5}[A-Za-z]?(?![A-Za-z0-9])"
_NUM = r"(?<![A-Za-z0-9$.,/:-])\d{1,6}[A-Za-z]?(?:-\d{1,5})?"
_CITY_STATE_ZIP = (
    rf"[A-Z][a-z]+(?:[ \t][A-Z][a-z]+){{0,2}},[ \t]*(?:{_STATES})[ \t]+\d{{5}}(?:-\d{{4}})?(?!\d)"
)
_STOPWORDS = (
    "the|a|an|to|of|in|on|at|by|for|from|with|down|up|along|across|my|your|our|their|his|her|its|this|"
    "that|and|or|but|is|are|was|were|miles?|km|kilometers?|blocks?|minutes?|hours?|days?|times?|"
    "people|more|other|different|same|new|old|long|short|whole|next|last|first"
)
_EN_ADDRESS = re.compile(
    rf"{_NUM}[ \t]+(?:(?:{_DIRS})\.?[ \t]+)?"
    rf"(?:(?:[A-Z][A-Za-z']{{0,24}}|\d{{1,3}}(?:st|nd|rd|th))[ \t]+){{1,4}}"
    rf"(?i:{_SUFFIXES})\b(?:[ \t]+(?:{_DIRS})\b)?"
    rf"|{_NUM}[ \t]+(?:(?!(?:{_STOPWORDS})\b)[a-z][a-z']{{1,24}}[ \t]+){{1,3}}(?:street|avenue|boulevard)\b"
)
_UK_POSTCODE = r"[A-Z]{1,2}\d[A-Z\d]?[ \t]?\d[A-Z]{2}(?![A-Za-z0-9])"
_EN_TAIL = re.compile(
    rf"\.?(?:,?[ \t]*{_UNIT})?(?:,[ \t]*{_CITY_STATE_ZIP}|,?[ \t]+\d{{5}}(?:-\d{{4}})?(?!\d)"
    rf"|(?:,[ \t]*[A-Z][a-z]+(?:[ \t][A-Z][a-z]+)?)?,?[ \t]+{_UK_POSTCODE})?"
)
_EN_STANDALONE = re.compile(
    rf"(?<![A-Za-z])(?i:apt|apartment|suite)\.?[ \t]*\#?[ \t]*\d{{1,5}}[A-Za-z]?(?![A-Za-z0-9])"
    rf"|(?<![A-Za-z])(?i:p\.?[ \t]?o\.?[ \t]+box)[ \t]+\d{{1,7}}(?!\d)"
    rf"|(?<![A-Za-z]){_CITY_STATE_ZIP}"
)
_EN_ABBREVIATIONS = {
    "st": "street",
    "ave": "avenue",
    "rd": "road",
    "blvd": "boulevard",
    "ln": "lane",
    "dr": "drive",
    "ct": "court",
    "pl": "place",
    "pkwy": "parkway",
    "hwy": "highway",
    "sq": "square",
    "apt": "apartment",
    "ste": "suite",
    "fl": "floor",
    "n": "north",
    "s": "south",
    "e": "east",
    "w": "west",
}


def find_english_addresses(text: str) -> Iterator[Detection]:
    for m in _EN_ADDRESS.finditer(text):
        tail = _EN_TAIL.match(text, m.end())
        end = tail.end() if tail and tail.group() != "." else m.end()  # "5 Main St. He …": a full stop
        yield Detection(m.start(), end, "ADDRESS", canonical_english_address(text[m.start() : end]))
    for m in _EN_STANDALONE.finditer(text):
        yield Detection(m.start(), m.end(), "ADDRESS", canonical_english_address(m.group()))


def canonical_english_address(text: str) -> str:
    words = re.sub(r"[^\w]+", " ", text.lower()).split()
    return " ".join(_EN_ABBREVIATIONS.get(w, w) for w in words)


# ---- Chinese addresses --------------------------------------------------------------------------
_CN_NUM = "0-9\uff10-\uff19十百千" + "".join(CN_NUMERALS)
# Words that end the lead-in before an address ("我住在…", "地址是…") are not part of a place name.
_CN_STOP = "在是住我你他她它们的到去从于和与往向了把被给就也都还要想说呢吧吗啊呀哦嗯请您址搬过来回"


def _cjk_class_without(stop: str) -> str:
    ranges: list[str] = []
    lo, last = HAN_BASIC
    for cp in sorted({ord(c) for c in stop}):
        if cp > lo:
            ranges.append(f"\\u{lo:04x}-\\u{cp - 1:04x}")
        lo = cp + 1
    ranges.append(f"\\u{lo:04x}-\\u{last:04x}")
    return "".join(ranges)


_CN_NAME = _cjk_class_without(_CN_STOP)
_BUILDING = rf"(?:[{_CN_NUM}]{{1,4}}|[A-Za-z])(?:号楼|栋|幢|座)"
_ESTATE = "小区|花园|大厦|公寓|家园|新村|苑|广场|城|园|中心"
_CN_CORE = re.compile(
    rf"(?:路|街|大道|巷|胡同|弄|道)(?:[{_CN_NUM}东南西北中]{{1,3}}段)?[ \t-]?[{_CN_NUM}]{{1,6}}(?:号院|号)"
    rf"|(?:{_ESTATE}|村){_BUILDING}"
    rf"|{_BUILDING}(?:[{_CN_NUM}]{{1,3}}单元)?[{_CN_NUM}]{{1,5}}(?:室|房)"
    rf"|[{_CN_NUM}]{{1,6}}号(?:[{_CN_NUM}]{{1,3}}单元)?[{_CN_NUM}]{{1,5}}(?:室|房)"
)
_CN_TAIL = re.compile(
    rf"(?:[A-Za-z{_CN_NAME}]{{0,12}}?(?:{_ESTATE}))?(?:{_BUILDING})?"
    rf"(?:[{_CN_NUM}]{{1,3}}单元(?:[{_CN_NUM}]{{1,5}}(?:室|房)?)?)?(?:[{_CN_NUM}]{{1,5}}(?:室|房|层|楼))?"
)
_CN_LEAD = re.compile(rf"[{_CN_NAME}]")
_CN_ADMIN = frozenset("省市区县镇乡")
_CN_MAX_LEAD = 24
_CN_MARKERS = ("号", "室", "房", "栋", "幢", "座")


def find_chinese_addresses(text: str) -> Iterator[Detection]:
    if not any(marker in text for marker in _CN_MARKERS):
        return
    for m in _CN_CORE.finditer(text):
        start = m.start()
        floor = max(0, start - _CN_MAX_LEAD)
        while start > floor and (_CN_LEAD.match(text, start - 1) or _admin_name_end(text, start)):
            start -= 1
        tail = _CN_TAIL.match(text, m.end())
        end = tail.end() if tail else m.end()
        yield Detection(start, end, "ADDRESS", canonical_chinese_address(text[start:end]))


def _admin_name_end(text: str, start: int) -> bool:
    """A stop character that ends a place name before 市/省/区/县 ("成都市", "首都区"), not a lead-in."""
    return (
        text[start : start + 1] in _CN_ADMIN
        and start >= 2
        and _CN_LEAD.match(text, start - 2) is not None
        and is_han(text[start - 1])
    )


def canonical_chinese_address(text: str) -> str:
    """Whitespace and dashes dropped, numbers (八十八, ８８) as ASCII digits."""
    compact = re.sub(r"[\s\-]+", "", text)
    return re.sub(rf"[{_CN_NUM}]+", lambda m: _cn_number(m.group()), compact)


def _cn_number(raw: str) -> str:
    ascii_digits = to_ascii_digits(raw)
    if not any(c in "十百千" for c in ascii_digits):
        return ascii_digits
    total, current = 0, 0
    for ch in ascii_digits:
        if ch.isdigit():
            current = current * 10 + int(ch) if current else int(ch)
        else:
            unit = {"十": 10, "百": 100, "千": 1000}[ch]
            total += (current or 1) * unit
            current = 0
    return str(total + current)
