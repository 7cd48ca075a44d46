"""English words of a bodily reaction (``SYMPTOM_EN``: "bloated", "hives", "my heart races"), and a story of
a stimulant's reaction that names the drink but not the word for what is in it ("half a cup of her cold brew
and my heart's going like a jackrabbit, my hands shake": caffeine)."""

from __future__ import annotations

import re

__all__ = ["SYMPTOM_EN", "stimulant_story"]

_I = re.IGNORECASE

# (a heart that races, not a dads' race: "makes my heart race", "my heart's going like a jackrabbit")
_HEART_RACES = (
    r"(?:heart|pulse)(?:'s| is| was| starts?| goes| went)?\s+(?:to\s+)?(?:rac(?:e|es|ing)|"
    r"(?:going|pounding|hammering|thumping|banging)(?:\s+like)?)"
)
_SHAKING = r"(?:hands?|legs?) (?:\w+ )?(?:shake|shaking|tremble|trembling)"
SYMPTOM_EN = (
    r"sick|ill|unwell|bloat\w*|nauseous|"
    r"(?:back and forth|up and down|running) to the (?:loo|toilet|bathroom)|"
    r"(?:glued|stuck|chained) to the (?:loo|toilet|bathroom)|"
    r"(?:sprint\w*|running|dash\w*|bolt\w*|legging it|racing) (?:for|to) the "
    r"(?:dunny|loo|toilet|bathroom|john)|"
    r"dunny-bound|loo-bound|toilet-bound|"
    r"straight through (?:me|him|her)|red raw|blister\w*|sneez\w*|flare[sd]? up|blow(?:n)? up like|"
    r"queasy|rash(?!er)|hives|heartburn|headaches?|migraines?|itch\w*|jittery|doubled (?:over|up)|"
    r"awake|up at night|up all night|palpitations|cramps?|diarrh\w*|dizzy|swell\w*|jitters|shaky|"
    rf"{_HEART_RACES}|racing (?:heart|pulse)|{_SHAKING}|"
    # (not the fuel: "what should I grab at the gas station")
    r"gas(?!\s+(?:stations?|tank|stove|bill|prices?|pumps?|mark|can|grill|heater|cooker|fire|oven|mileage|money))|"
    r"throw up|vomit\w*|break\w* out|(?:wreck|destroy)(?:s|ed)? (?:me|him|her|my gut|my stomach)|"
    r"puff\w* (?:right |all )?up|wheez\w*|reflux|upset stomach|stomach ?ache|can't sleep|cannot sleep|"
    r"(?:my|his|her|their|your) (?:stomach|tummy|gut)|"
    r"throat (?:starts? |started |went |goes |got )?(?:clos\w*|swell\w*|tight\w*)|"
    r"clos(?:es|ing) up|anaphyla\w*|epi-?pen|"
    r"can't breathe|cannot breathe|(?:mouth )?ulcers?|"
    r"(?:lips?|face|eyes?|tongue) (?:\w+ )?(?:blew|blown|swelled|swollen|puffed|went) up|"
    r"chest (?:locked|went|got|seized) (?:up|tight)"
)

# What caffeine does, and the drinks that carry it under other names.
_STIMULATED_EN = re.compile(
    r"\b(?:jittery|jitters|shaky|palpitations|wired|(?:can't|cannot|couldn't) sleep|up all night|"
    rf"staring at the ceiling|{_HEART_RACES}|{_SHAKING})",
    _I,
)
_CAFFEINATED_EN = re.compile(
    r"\b(?:cold brew|espresso|latte|cappuccino|americano|flat white|energy (?:drinks?|cans?)|red bull|"
    r"monster|matcha|pre-?workout|double shot)s?\b",
    _I,
)


def stimulant_story(sentence: str) -> bool:
    """Whether ``sentence`` names a caffeinated drink and what caffeine does to the body beside it."""
    return bool(_CAFFEINATED_EN.search(sentence) and _STIMULATED_EN.search(sentence))
