"""A body that cannot take something, told the way people tell it: "his eczema just can't handle
chlorine", "my gut just can't cope with rhubarb" (what "it" was is found first, ``constraint_pronouns``);
a test that found the cause: "the patch test lit up for epoxy resin", "did the patch test and it's
lanolin", "did a patch test and lanolin lit up"; and a food stopped, said as an idiom: "I've knocked the
broccoli on the head" (beside a reaction or food talk, else a known food only: "knocked the idea on the
head" stops nothing)."""

from __future__ import annotations

import re

from voice_agent.conversation.constraint_shapes import FOOD_TALK, has_symptom

_I = re.IGNORECASE
# The thing, up to three words, ended by punctuation or a joining word.
_THING = (
    r"(?P<x>[a-z][a-z'-]*(?:[ -][a-z][a-z'-]*){0,2}?)(?=\s*(?:[.,;:!?()]|$|\s+(?:and|but|so|or|which|that|"
    r"the|since|because|like|anymore|any more|at all|either)\b))"
)
BODY_CANT_EN = re.compile(
    r"\b(?:my|his|her|our|their|your)\s+(?:poor\s+)?(?:skin|gut|guts|stomach|tummy|belly|eczema|asthma|body|"
    r"chest|lungs|system|insides|bowels?|sinuses|head|kidneys|liver)\s+"
    r"(?:just\s+|really\s+|simply\s+|honestly\s+|still\s+|never\s+)?"
    r"(?:can't|cannot|can not|couldn't|won't|doesn't|does not|don't|never could)\s+"
    r"(?:handle|tolerate|take|cope with|deal with|agree with|stand|process|manage)\s+"
    r"(?!(?:it|them|that|this|much|anything|any|the heat|the cold|stress)\b)" + _THING,
    _I,
)
# ("patch-tested me and it lit up like a Christmas tree for epoxy resin")
_TEST = r"\b(?:patch|prick|skin(?:-prick)?|allergy|blood|breath|intolerance)[\s-]+test(?:s|ed)?\b"
TEST_FOUND_EN = re.compile(
    _TEST + r"[^.!?]{0,40}?"
    r"\b(?:lit up (?:like [^.!?]{0,25}? )?for|came back (?:positive )?for|showed(?: up)?|flagged(?: up)?|"
    r"picked up|"
    r"(?:and|said|says|found|confirmed)(?: that)? it(?:'s| is| was))\s+"
    r"(?:the\s+|an?\s+)?(?:allergy to\s+|reaction to\s+)?"
    # (a verdict is no thing: "it's official, I'm lactose intolerant")
    r"(?!(?:official|confirmed|true|final|settled|positive|negative|done|over|real|definite)\b)" + _THING,
    _I,
)
# The thing, then its finding: "did a patch test and lanolin lit up like a Christmas tree".
TEST_LIT_UP_EN = re.compile(
    _TEST + r"[^.!?]{0,40}?\b(?:and|where|when|,)\s+(?:the\s+)?(?P<x>[a-z][a-z'-]*(?: [a-z][a-z'-]*)?)\s+"
    r"(?:lit up|came up|came back positive|showed up|flared up|was positive|went red)\b",
    _I,
)
_NO_THING = frozenset(("idea", "plan", "whole thing", "thing", "it", "that", "job", "trip", "party"))
KNOCKED_OFF_EN = re.compile(
    r"\bknock(?:ed|ing)?\s+(?:the\s+|my\s+|all\s+the\s+)?(?P<x>[a-z]+(?: [a-z]+)?)\s+on the head\b", _I
)


def body_matches(text: str) -> list[tuple[re.Match[str], str, bool]]:
    """Each thing a body cannot take, as (match with the thing in group ``x``, kind, known topics only)."""
    found: list[tuple[re.Match[str], str, bool]] = []
    found += [(m, "intolerance", False) for m in BODY_CANT_EN.finditer(text)]
    found += [(m, "allergy", False) for m in [*TEST_FOUND_EN.finditer(text), *TEST_LIT_UP_EN.finditer(text)]]
    # (any thing where the person tells of a reaction or of food; else only a known food)
    told = has_symptom(text) or FOOD_TALK.search(text) is not None
    found += [(m, "avoid", not told) for m in KNOCKED_OFF_EN.finditer(text) if m.group("x") not in _NO_THING]
    return found
