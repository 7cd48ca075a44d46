"""How English speech tells a home moved to, and one moved out of: "we finally moved down to Geelong",
"out of my mam's in Merthyr and into a little terrace in Penarth", "we're Portobello folk now"
(read by ``place_note.ranked_places``)."""

from __future__ import annotations

import re

MOVED_EN = re.compile(
    r"\b(?:moved|moving|move|relocated|relocating|settled|live|living|based|emigrated|shifted|shifting|"
    # ("bought a house just outside", "New house is in", "a room in a house share out in")
    r"transferred|posted|bought|buying|built|renting|rented|new (?:house|home|flat|place|apartment)|"
    r"(?:i've|i have|we've|we have|got) (?:a|our own) (?:room|flat|house|place)|"
    # ("the keys to our BTO in Sengkang", "our flat in Leith")
    r"keys|(?:our|my) (?:own )?(?:bto|hdb|flat|house|home|apartment|condo|unit)|"
    # ("we finally closed on a condo in Canmore": a purchase completed)
    r"closed on|completed on|"
    # ("…out of my mam's in Merthyr and into a little terrace in Penarth")
    r"into (?:a|an|our|my|the) (?:\w+ ){0,2}(?:terrace|flat|house|home|place|apartment|bungalow|cottage|"
    r"studio|condo|unit|room))\b[^.,;]*$",
    re.I,
)
LEFT_EN = re.compile(r"\b(?:sold|selling|left|leaving)\b[^.,;]*$", re.I)
# A home moved out of, ranked with a place come from: "moved out of my mam's in Merthyr and into a little
# terrace in Penarth" is Penarth.
MOVED_OUT_EN = re.compile(r"\b(?:moved|moving|move) (?P<out>out (?:of|from))\b[^.,;]*$", re.I)
MOVED_ON_EN = re.compile(r"\b(?:into|now (?:in|at|on))\b", re.I)
# Where the person is now, a clause later: "…moved out of Trafford and we're now in a mill on … in Ancoats".
NOW_IN_EN = re.compile(r"\b(?:we're|we are|i'm|i am) now (?:in|at|on)\b[^.,;]*$", re.I)
# Of a place's people now: "we're officially Portobello folk now", "we're Hobart locals now".
FOLK_NOW_EN = re.compile(
    r"\b(?:we're|we are|i'm|i am)\s+(?:officially\s+|now\s+|finally\s+|proper\s+)*"
    r"(?P<place>(?-i:[A-Z][\w'-]+)(?:\s+(?-i:[A-Z][\w'-]+))?)\s+(?:folk|people|locals?|residents?)\s+now\b",
    re.I,
)
# A town left, then the one moved into: "we're out of Swansea and into Canton in Cardiff".
OUT_OF_AND_INTO_EN = re.compile(r"\bout of\s+[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?\s+and\s+$")
# Where the people the turn is about come from, which is no start of the person's journey: "My buddies
# from Edmonton want to come down … how long's the drive to each one".
FOLK_FROM_EN = re.compile(
    r"\b(?:buddies|friends|mates|pals|cousins|guys|lads|girls|colleagues|relatives|in-laws|folks|crew|gang)"
    r"\s+from\s+[A-Z][\w'-]+",
    re.IGNORECASE,
)


# A room rented or a flat bought earlier in the same clause: "I'm renting one tiny room above a pasta place on
# Lygon Street in Carlton" (more than the few words ``MOVED_EN`` is read over).
_HOME_IN_CLAUSE_EN = re.compile(
    # ("Since I shifted I'm in this small one-bedroom off Argwings Kodhek in Kilimani")
    r"\b(?:renting|rent|rented|bought|own|sharing|share|i'm in|i am in|we're in|we are in)\s+"
    r"(?:a|an|one|our|my|the|this)\s+(?:[a-z]+\s+){0,2}"
    r"(?:room|flat|house|apartment|place|studio|bedsit|unit|condo|(?:one|two|three)-bed(?:room|der)?)\b"
    r"[^,.;!?]*$",
    re.IGNORECASE,
)
# A relative's town is theirs, not the person's: "My mother in Kumasi calls every Sunday".
_KIN_EN = (
    r"mother|mum|mom|mam|ma|father|dad|parents|folks|family|sister|brother|gran|granny|grandma|grandmother|"
    r"grandad|grandpa|grandfather|aunt|auntie|aunty|uncle|cousin|in-laws|son|daughter"
)
_KIN_BEFORE_EN = re.compile(rf"\b(?:my|our)\s+(?:{_KIN_EN})\s*$", re.IGNORECASE)
# A relative's plans are theirs too: "My cousin is having her wedding at some lakeside hotel in Naivasha".
_KIN_CLAUSE_EN = re.compile(
    rf"\b(?:my|our)\s+(?:{_KIN_EN}|niece|nephew)\s+(?:is|was|are|were)\s+(?:having|holding|throwing|"
    r"planning)\b[^,.;!?]*$",
    re.IGNORECASE,
)


def english_place_rank(before: str, prep: str) -> int | None:
    """The rank (``place_note.ranked_places``: 0 a home moved to or made, 1 only named, 2 come from) of
    an English place said after ``prep`` ("in", "from", "into"), given the words ``before`` it; None for
    "into" that is no move ("ran into Sarah")."""
    near = before[-30:]
    moved, left = MOVED_EN.search(near), LEFT_EN.search(near)  # (not "sold the house in")
    moved_to = moved is not None and not (left and left.start() > moved.start())
    # ("we're now in a mill on … in", "we're now in Kilimani")
    moved_to = moved_to or NOW_IN_EN.search(before + prep) is not None
    out = MOVED_OUT_EN.search(before)  # (unless moved into another since: "…and into a terrace in")
    moved_out = out is not None and MOVED_ON_EN.search(before, out.end("out")) is None
    # ("into" a town only as a move: "out of Swansea and into Canton", not "ran into Sarah")
    moved_to = moved_to or OUT_OF_AND_INTO_EN.search(before) is not None
    if prep == "into" and not moved_to:
        return None
    if prep == "from" or moved_out or _KIN_BEFORE_EN.search(before) or _KIN_CLAUSE_EN.search(before):
        return 2  # (come from, moved out of, or a relative's town: "My mother in Kumasi")
    if moved_to or _HOME_IN_CLAUSE_EN.search(before):
        return 0
    return 1
