"""Capitalised runs of English text and what stands before them, as the person-name finder reads them
(``person_names``): where a sentence starts, which capitalised words join into one run ("Ludwig van
Beethoven"), and a title before a run ("Mrs Okafor"; "miss Manchester", a verb too, only in lower case)."""

from __future__ import annotations

import re

from voice_agent.memory.name_words_en import CONNECTORS, LEADING, TITLES

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
    r"\b(?:off|fly|flying|flew|trip|holiday|holidays|vacation|travel|travelling|traveling|moved|moving"
    r"|emigrated|emigrating|relocated|relocating|heading|headed|honeymoon)"
    r"(?:[ \t]+(?:out|over|back|down|up|away))?[ \t]+(?:to|from|in)[ \t]+$",
    re.IGNORECASE,
)


def destination_before(text: str, start: int, end: int) -> bool:
    """Whether the word at ``text[start:end]`` is named as a trip's destination or origin."""
    return bool(_DESTINATION_BEFORE.search(text, 0, start)) and text[end : end + 2] not in ("'s", "’s")


def without_leading_words(text: str, start: int, end: int) -> int:
    """Where a parser's PERSON span really starts: after greeting or sentence-opening words the small
    model took into it ("Wha Marcus" → "Marcus", "Hey Priya" → "Priya")."""
    while True:
        space = text.find(" ", start, end)
        if space < 0 or text[start:space].casefold().strip(",") not in LEADING:
            return start
        start = space + 1
