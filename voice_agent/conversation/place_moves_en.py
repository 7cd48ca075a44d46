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
    r"\b(?:renting|rent|rented|bought|own|sharing|share)\s+(?:a|an|one|our|my|the)\s+(?:[a-z]+\s+){0,2}"
    r"(?:room|flat|house|apartment|place|studio|bedsit|unit|condo)\b[^,.;!?]*$",
    re.IGNORECASE,
)
# A relative's town is theirs, not the person's: "My mother in Kumasi calls every Sunday".
_KIN_BEFORE_EN = re.compile(
    r"\b(?:my|our)\s+(?:mother|mum|mom|mam|ma|father|dad|parents|folks|family|sister|brother|gran|granny|"
    r"grandma|grandmother|grandad|grandpa|grandfather|aunt|auntie|aunty|uncle|cousin|in-laws|son|daughter)\s*$",
    re.IGNORECASE,
)


def own_place_rank(before: str, rank: int) -> int:
    """``rank`` (``ranked_places``: 0 a home, 1 named, 2 come from) of an English place, given the words
    ``before`` it: a home rented there in the same clause is 0, a relative's town 2."""
    if _KIN_BEFORE_EN.search(before[-20:].rstrip().removesuffix(" in").removesuffix(" from") + " "):
        return 2
    return 0 if rank == 1 and _HOME_IN_CLAUSE_EN.search(before) else rank
