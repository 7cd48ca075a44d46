"""Capitalised runs of English text and what stands before them, as the person-name finder reads them
(``person_names``): where a sentence starts, which capitalised words join into one run ("Ludwig van
Beethoven"), and a title before a run ("Mrs Okafor"; "miss Manchester", a verb too, only in lower case)."""

from __future__ import annotations

import re

from voice_agent.memory.name_words_en import AIMED_AT, CONNECTORS, LEADING, TITLES

_UP = "A-ZÀ-ÖØ-ÞĀ-žΑ-ΩΆ-Ώ\u0400-\u042f"
_TOKEN = re.compile(rf"(?<![\w'’])[{_UP}][^\W\d_]+(?:['’-][{_UP}]?[^\W\d_]+)*(?![\w])")


def sentence_start(text: str, start: int) -> bool:
    before = text[:start].rstrip(" \t\"'“(")
    return not before or before[-1] in ".!?:;\n"


def capitalised_runs(text: str) -> list[list[tuple[int, int]]]:
    """Runs of capitalised words joined by one space or a name connector ("Ludwig van Beethoven")."""
    runs: list[list[tuple[int, int]]] = []
    current: list[tuple[int, int]] = []
    for m in _TOKEN.finditer(text):
        if current:
            gap = text[current[-1][1] : m.start()]
            joined = gap == " " or (
                gap.startswith(" ")
                and gap.endswith(" ")
                and all(part in CONNECTORS for part in gap.casefold().split())  # "van der"
            )
            if not joined or len(current) >= 4:
                runs.append(current)
                current = []
        current.append(m.span())
    if current:
        runs.append(current)
    return runs


def without_possessive(text: str, run: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The run up to its first word with a possessive or a contracted "is" / "has", without the 's
    ("Imogen's just started", "Priya's Mum rang": Imogen, Priya; "It's Siobhan" is kept whole)."""
    for index, (start, end) in enumerate(run):
        word = text[start:end]
        if word[-2:] in ("'s", "’s") and len(word) > 3 and word.casefold() not in LEADING:
            return [*run[:index], (start, end - 2)]
    return run


def title_before(text: str, start: int) -> bool:
    m = re.search(r"([^\W\d_]+)\.?[ \t]+$", text[max(0, start - 12) : start])
    return m is not None and m.group(1).casefold() in TITLES


def verb_title_before(text: str, start: int) -> bool:
    """The title before ``start`` is written in lower case and is a verb too ("I miss …", "nurse …")."""
    m = re.search(r"\b(miss|nurse|judge|doctor)[ \t]+$", text[max(0, start - 12) : start])
    return m is not None


def mixed_case(word: str) -> bool:
    return not word.isupper() or len(word) == 1


# A trip's words right before a capitalised word: it is where someone goes ("we're off to Mauritius",
# "she's moved out to Perth", "flying back from Lagos"), not whom they visit ("off to Mary's": a 's).
_DESTINATION_BEFORE = re.compile(
    r"\b(?:off|fly|flying|flew|flown|trip|holiday|holidays|vacation|travel|travels|travelling|traveling"
    r"|travelled|traveled|moved|moving"
    r"|emigrated|emigrating|relocated|relocating|heading|headed|honeymoon"
    # a way of getting there: "taking the minibus to RHS Wisley", "the train from Guildford", "driving up
    # from Stockport"
    r"|minibus|bus|coach|train|trains|flight|flights|ferry|tube|drive|driving|drove|cycle|cycling|ride"
    r"|commute|commuting)"
    r"(?:[ \t]+(?:out|over|back|down|up|away))?[ \t]+(?:to|from|in)[ \t]+(?:RHS[ \t]+)?$",
    re.IGNORECASE,
)


def destination_before(text: str, start: int, end: int) -> bool:
    """Whether the word at ``text[start:end]`` is named as a trip's destination or origin."""
    return bool(_DESTINATION_BEFORE.search(text, 0, start)) and text[end : end + 2] not in ("'s", "’s")


# Where someone is or something happens, right before a capitalised word: "the conference in Kraków",
# "she works out at Little France", "a flat near Leith". Not after a word that aims at someone
# ("laughed at Tom", "angry at Priya", "confided in Ama"), and not before a possessive ("at Mary's").
_PLACE_BEFORE = re.compile(
    r"(?:(?<![\w'’])(?P<before>[^\W\d_]+)[ \t]+)?"
    r"(?:(?:out|over|up|down|back|based|born|living|staying|held|somewhere|here|there)[ \t]+)?"
    r"(?<![\w'’])(?:in|at|near|outside|around)[ \t]+$",
    re.IGNORECASE,
)
# A word for how someone speaks right after a capitalised word: it names a place or a people, not a
# person ("Orkney accent", "a strong Geordie twang").
_ACCENT_AFTER = re.compile(r"[ \t]+(?:accent|accents|dialect|twang|brogue|lilt|burr|drawl)\b", re.IGNORECASE)


def place_before(text: str, start: int, end: int) -> bool:
    """Whether the capitalised words at ``text[start:end]`` are where someone is or something happens
    ("in Kraków", "out at Little France"), by the word before them."""
    m = _PLACE_BEFORE.search(text, max(0, start - 40), start)
    if m is None or text[end : end + 2] in ("'s", "’s") or text[end : end + 1] in ("'", "’"):
        return False
    return (m.group("before") or "").casefold() not in AIMED_AT


def accent_after(text: str, end: int) -> bool:
    """Whether a word for an accent or a dialect follows ``text[:end]`` ("Orkney accent")."""
    return bool(_ACCENT_AFTER.match(text, end))


def without_leading_words(text: str, start: int, end: int) -> int:
    """Where a parser's PERSON span really starts: after greeting or sentence-opening words the small
    model took into it ("Wha Marcus" → "Marcus", "Hey Priya" → "Priya")."""
    while True:
        space = text.find(" ", start, end)
        if space < 0 or text[start:space].casefold().strip(",") not in LEADING:
            return start
        start = space + 1
