"""Person names without a cue, in English and Chinese text, for the scrubber.

English (and other Latin, Greek, Cyrillic script) names are found three ways and joined:

- the PERSON entities of a spaCy parse, when the caller has one (``spans(text, doc=doc)``);
- lists of first names and surnames ranked in the top 500 of some country (from the names-dataset
  package, see ``scripts/build_name_lists.py``): a run of capitalised words holding a known name
  (``Steffen Mauer``, ``Crystal Murdock``), or a known first name alone (``Caroline``); common words
  that are also names (May, Will, Grace, Friday) and runs holding place words (Park, Street, Bridge)
  count only beside another name;
- a title before capitalised words: ``Dr. Okafor``, ``Mrs Patel``, ``Herr Schmidt``.

Chinese names are found by ``person_names_zh``: jieba's part-of-speech tags (``nr``) checked against the
surnames, with the cue and title rules of ``names_zh``; so ``白雅宁是一位43岁的…``, ``主治医生刘德华`` and
``全名禤海燕`` are names without 我叫 or 老师, and 师范, 祝酒词 and 项目经理 stay words.

A name found once is found again later in the same text: its first name, surname or (Chinese) given
name said alone. Across utterances the write path's ``KnownNames`` does the same from the vault.

``start()`` loads the lists (tens of ms) and, for Chinese, jieba's dictionary (about a second; jieba
caches its prefix dictionary on disk); the first call of ``spans`` starts what it needs if not done.
"""

from __future__ import annotations

import gzip
import logging
import re
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from voice_agent.memory.name_cues import cued_name_spans
from voice_agent.memory.name_runs_en import (
    accent_after,
    capitalised_runs,
    destination_before,
    mixed_case,
    place_before,
    sentence_start,
    title_before,
    verb_title_before,
    without_leading_words,
    without_possessive,
)
from voice_agent.memory.name_words_en import COMMON_EN, IRREGULAR_PAST, LEADING, PLACE
from voice_agent.memory.names_zh import COMPOUND_SURNAMES
from voice_agent.memory.person_names_zh import ChineseNameFinder, SpanMarks
from voice_agent.text.cjk import HAN_RE
from voice_agent.text.holidays import saints_days

Span = tuple[int, int]


_ARTICLE_BEFORE = re.compile(r"(?<![\w])(?:the|a|an)[ \t]+$", re.IGNORECASE)  # ("The Kia finally gave up")
_SURNAME_SHAPE = re.compile(r"(?:Ma?c|O['’]|Fitz)[A-Z][a-z]{2,}")
_NOT_PERSON_LABELS = frozenset({"GPE", "LOC", "NORP", "FAC", "ORG", "EVENT", "PRODUCT", "WORK_OF_ART"})
_CJK = HAN_RE
_WORD = re.compile(r"[^\W\d_]+")
_VERB_OF_INITIALS = re.compile(r"[A-Z]{2,}(?:ing|ed|’d|'d)")  # ("DJing", "BBQed")
_LOG = logging.getLogger(__name__)


_NAMES_DIR = Path(__file__).resolve().parent.parent / "defaults" / "names"


def _read_list(filename: str, *, lines: bool = False) -> frozenset[str]:
    data = (_NAMES_DIR / filename).read_bytes()
    text = gzip.decompress(data).decode("utf-8")
    return (
        frozenset(line.strip() for line in text.splitlines() if line.strip())
        if lines
        else frozenset(text.split())
    )


def _extra_first() -> frozenset[str]:
    """Popular given names that names-dataset ranks too low to keep (Isla, Maisie, Imogen…)."""
    lines = (_NAMES_DIR / "first_extra.txt").read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


class PersonNameFinder:
    """Names in English and Chinese text; thread-safe after ``start``."""

    def __init__(self) -> None:
        self._first: frozenset[str] = frozenset()
        self._last: frozenset[str] = frozenset()
        self._words: frozenset[str] = frozenset()  # English adjectives, adverbs, verbs, stop words
        self._nouns: frozenset[str] = frozenset()
        self._places: frozenset[str] = frozenset()  # multi-word place names ("Buenos Aires")
        self._zh = ChineseNameFinder()
        self._lock = threading.Lock()

    def start(self, languages: Iterable[str] = ("en", "zh")) -> None:
        """Load the name lists (``en``) and jieba's dictionary (``zh``)."""
        wanted = set(languages)
        with self._lock:
            if "en" in wanted and not self._first:
                self._last = _read_list("last.txt.gz")
                self._words = _read_list("english.txt.gz") | IRREGULAR_PAST
                self._nouns = _read_list("nouns.txt.gz")
                self._places = _read_list("places.txt.gz", lines=True)
                self._first = _read_list("first.txt.gz") | _extra_first()  # last: it marks the lists loaded
            if "zh" in wanted:
                self._zh.start()

    def spans(self, text: str, doc: Any = None) -> list[Span]:
        """Character spans of the person names in ``text``; ``doc``: its spaCy parse, if there is one."""
        found: list[Span] = []
        if _CJK.search(text):
            found += self.chinese_spans(text)
        if any("A" <= ch <= "Z" or ch > "\u00bf" for ch in text):
            found += self.latin_spans(text, doc)
        if not found:
            return []
        return _merge(found + _later_mentions(text, found))

    def latin_spans(self, text: str, doc: Any = None) -> list[Span]:
        if not self._first:
            self.start(["en"])
        spans: list[Span] = []
        persons, blocked = SpanMarks(len(text)), SpanMarks(len(text))
        if doc is not None:
            for ent in doc.ents:
                if ent.label_ in ("PERSON", "PER"):
                    start = without_leading_words(text, ent.start_char, ent.end_char)
                    if not self._not_a_person(text, start, ent.end_char):
                        spans.append((start, ent.end_char))
                        persons.take((start, ent.end_char))
                elif ent.label_ in _NOT_PERSON_LABELS:
                    blocked.take((ent.start_char, ent.end_char))
        for holiday in saints_days(text):
            blocked.take(holiday)
        for run in capitalised_runs(text):
            span = self._judge_run(text, run)
            if span is not None and not persons.covers(span) and blocked.free(span):
                spans.append(span)
        # The words around a name give it away whatever the name is (the parser's ORG or not).
        spans += cued_name_spans(text, self._is_common_or_place)
        return [span for span in spans if not self._said_lowercase(text, span)]

    def _said_lowercase(self, text: str, span: Span) -> bool:
        """One capitalised word, no listed first name, that the same text also says in lowercase: the
        word, capitalised where a sentence starts ("…made stuffed peppers for tea. Peppers and me have
        never got on"), not a name."""
        word = text[span[0] : span[1]]
        if not word[:1].isupper() or not word[1:].islower() or word in self._first:
            return False
        low = word.casefold()
        return re.search(rf"(?<![^\W\d_]){re.escape(low)}(?![^\W\d_])", text) is not None

    def chinese_spans(self, text: str) -> list[Span]:
        if not self._zh.started:
            self.start(["zh"])
        return self._zh.spans(text)

    def plausible(self, text: str, span: Span) -> bool:
        """Whether a parser's PERSON span can be a name: the small English model also tags "Glad",
        "Nah" or "kinda nerve"; a single common word counts only when it is a listed name."""
        name = text[span[0] : span[1]]
        if _CJK.search(name):
            return self._zh.plausible(text, span)
        if not self._first:
            self.start(["en"])
        if not any(ch.isupper() for ch in name) or self._not_a_person(text, span[0], span[1]):
            return False
        if _VERB_OF_INITIALS.fullmatch(name):
            return False  # "roped into DJing our Karen's 50th": a verb made of initials
        words = [w.casefold().rstrip(".") for w in name.split()]
        if len(words) > 1 and words[-1] in PLACE:
            return False  # "Kenya High", "Moi Girls": a school or a place, not a person
        if len(words) > 1:
            return not all(w in COMMON_EN or w in LEADING or w in self._words for w in words)
        low = words[0]
        if low in COMMON_EN or low in LEADING:
            return False
        listed = name in self._first or name in self._last
        if low in self._words or (low in self._nouns and sentence_start(text, span[0])):
            return listed
        return True

    def _is_common(self, low: str) -> bool:
        return low in self._words or low in self._nouns or low in COMMON_EN or low in LEADING

    def _is_common_or_place(self, word: str) -> bool:
        low = word.casefold()
        return self._is_common(low) or low in PLACE or word in self._places

    def _known(self, word: str) -> bool:
        """A listed first name or surname that is not also a common word ("Lucky", "Glad", "May"), or a
        surname by its shape (MacLeod, McAllister, O'Neill, FitzGerald)."""
        low = word.casefold()
        if _SURNAME_SHAPE.fullmatch(word):
            return True
        return low not in COMMON_EN and low not in self._words and (word in self._first or word in self._last)

    def _not_a_person(self, text: str, start: int, end: int) -> bool:
        """The small NER's PERSON that is no one: a dropped-g word ("Fixin' to…", "De christenin' set…",
        a word no name is), or one word that names a place or a thing and no listed first name or surname
        ("fae Glasgow"), or a word no first name is where something is or happens ("in Kraków",
        "in Truro") or before an accent ("Orkney accent")."""
        span = text[start:end]
        words = list(_WORD.finditer(span))
        if any(self._dropped_g(text, m.start() + start, m.end() + start) for m in words):
            return True
        if len(words) == 1 and span not in self._first and destination_before(text, start, end):
            return True  # "we're off to Mauritius" (a surname too): where they go
        if accent_after(text, end) or (
            not any(m.group() in self._first for m in words) and place_before(text, start, end)
        ):
            return True  # "Orkney accent", "the conference in Kraków": a place, no listed first name
        if (len(words) == 1 and span.casefold() in LEADING and span not in self._first) or any(
            s < end and start < e for s, e in saints_days(text)
        ):
            return True  # "Wat she can do ova dea?" (an opening word, in Pidgin), "the day after Valentine's"
        if len(words) != 1 or span in self._first or span in self._last:
            return False
        if title_before(text, start) and not verb_title_before(text, start):
            return False  # "Miss Manchester": a title makes it a person
        low = span.casefold()
        # (a plural too: "Gherkins, dill pickles, pickled onions, the lot")
        noun = low in self._nouns or (low.endswith("s") and low[:-1] in self._nouns)
        return noun and low not in self._words and span[:1].isupper()

    def _dropped_g(self, text: str, start: int, end: int) -> bool:
        """``text[start:end]`` is a word spoken without its final g ("fixin'", "somethin'")."""
        low = text[start:end].casefold()
        return (
            low.endswith("in")
            and text[end : end + 1] in ("'", "\u2019")
            and (low + "g" in self._words or low + "g" in self._nouns)
        )

    def _judge_run(self, text: str, run: list[tuple[int, int]]) -> Span | None:
        """The name span of a capitalised run: the words up to a possessive ("Imogen's just started":
        Imogen) judged first, then the whole run ("Ffion's Labrador": two foreign words), cut to them."""
        owner = without_possessive(text, run)
        span = self._judge_words(text, owner)
        if span is None and owner != run and (whole := self._judge_words(text, run)) is not None:
            span = (whole[0], min(whole[1], owner[-1][1])) if whole[0] < owner[-1][1] else whole
        return span

    def _judge_words(self, text: str, run: list[tuple[int, int]]) -> Span | None:
        words = [text[a:b] for a, b in run]
        lowered = [w.casefold().rstrip(".") for w in words]
        titled = title_before(text, run[0][0])
        if titled and verb_title_before(text, run[0][0]) and len(run) == 1 and not self._known(words[0]):
            titled = not self._is_common_or_place(words[0])  # "miss Manchester a bit": the verb
        while run and lowered[0] in LEADING and not titled:
            run, words, lowered = run[1:], words[1:], lowered[1:]
        # At a sentence start, a capitalised word that is no known name is the sentence's ("Contact Ngozi").
        while (
            len(run) > 1
            and sentence_start(text, run[0][0])
            and self._is_common(lowered[0])
            and not self._known(words[0])
        ):
            run, words, lowered = run[1:], words[1:], lowered[1:]
        if not run:
            return None
        if titled:
            return run[0][0], run[-1][1]
        if _ARTICLE_BEFORE.search(text, 0, run[0][0]):
            return None  # "the Honda", "a Toyota": a thing, though its word is a surname somewhere
        if accent_after(text, run[-1][1]) or (
            place_before(text, run[0][0], run[-1][1]) and not any(w in self._first for w in words)
        ):
            return None  # "out at Little France", "a Fife accent": a place, no listed first name
        if any(w in PLACE for w in lowered) or all(not mixed_case(w) for w in words):
            return None
        known = [w for w in words if self._known(w)]
        if len(run) == 1:
            # A listed first name that is also a word ("Caroline", "Art") only inside a sentence.
            starts = sentence_start(text, run[0][0])
            word_too = lowered[0] in self._words or lowered[0] in self._nouns
            first = words[0] in self._first and lowered[0] not in COMMON_EN
            return run[0] if first and (known or not starts) and not (word_too and starts) else None
        if text[run[0][0] : run[-1][1]] in self._places:
            return None  # "Buenos Aires", "Hong Kong": a place, though its words are names too
        if known or all(self._foreign(w, low) for w, low in zip(words, lowered, strict=True)):
            return run[0][0], run[-1][1]
        return None

    def _foreign(self, word: str, low: str) -> bool:
        """A capitalised word that is no English word, no common word and no place word: two or more in
        a row ("Tanses Yorulmaz", "Ευφροσύνη Στρατογιάννη") are taken for a name when unsure."""
        return (
            len(word) > 2
            and low not in self._words
            and low not in self._nouns
            and low not in COMMON_EN
            and low not in LEADING
            and low not in PLACE
            and not word.isupper()
        )


def _later_mentions(text: str, found: Sequence[Span]) -> list[Span]:
    """Other mentions in ``text`` of the parts of the names found ("Steffen Mauer … Steffen")."""
    parts: set[str] = set()
    for a, b in found:
        name = text[a:b]
        if _CJK.search(name):
            parts.add(name)
            if len(name) == 3 and name[:2] not in COMPOUND_SURNAMES:
                parts.add(name[1:])  # the given name alone: 雅宁
            elif len(name) == 4:  # 欧阳娜娜: 娜娜; a name of two halves (扎西次仁): either said alone
                parts.update((name[2:],) if name[:2] in COMPOUND_SURNAMES else (name[:2], name[2:]))
        else:
            parts.update(w for w in re.findall(r"[^\W\d_][\w'’-]+", name) if len(w) >= 3)
    parts -= {p for p in parts if p.casefold() in COMMON_EN or p.casefold() in LEADING}
    out: list[Span] = []
    for chinese in (True, False):
        group = sorted((p for p in parts if bool(_CJK.search(p)) == chinese), key=len, reverse=True)
        if not group:
            continue
        alternatives = "|".join(re.escape(p) for p in group)
        pattern = alternatives if chinese else rf"(?<![^\W\d_])(?:{alternatives})(?![^\W\d_])"
        out += [m.span() for m in re.finditer(pattern, text)]
    # (and a short form of a given name found: "Mervyn Pilkington, Merv to the whole park")
    longer = [p for p in parts if not _CJK.search(p) and len(p) >= 5]
    out += [
        m.span()
        for m in _CAPITALISED.finditer(text)
        if m.group(0).casefold() not in COMMON_EN
        and m.group(0).casefold() not in LEADING
        and any(p != m.group(0) and p.startswith(m.group(0)) for p in longer)
    ]
    return out


_CAPITALISED = re.compile(r"(?<![^\W\d_])[A-Z][a-z]{2,}(?![^\W\d_])")


def _merge(spans: list[Span]) -> list[Span]:
    merged: list[Span] = []
    for a, b in sorted(spans):
        if merged and a < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return merged
