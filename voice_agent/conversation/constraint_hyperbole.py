"""Dislikes told by exaggeration, with the thing named elsewhere in the sentence (English):

- "I'd eat the leg of the table, but coriander, God forgive me…" (anything but the thing: coriander);
- "a tin of baked beans on everything … I'd sooner eat the tin" (the container instead of what it held);
- "the whole flat reeks of cinnamon now, and honest, that stuff gies me the boak" (the stuff smelled);
- "never again will a second-hand piano cross my threshold" (a vow on what comes into the home);
- "they blast that Nashville twang all shift … I'd sooner listen to the drill rig" (what was played);
- "the PT reckons burpees build character, but I'd rather chew through a stubby holder than do another
  one" (another of what was praised);
- "if I never see another fleck of glitter as long as I live it'll be too soon" (never too soon).

Each returns the thing in the person's words; the caller reads it as something kept off."""

from __future__ import annotations

import re

from voice_agent.conversation.constraint_fronted import fronted_dislikes

_I = re.IGNORECASE
_THING = (
    r"(?P<x>[a-z]+(?:[ -](?!(?:now|again|too|still|everywhere|all|though|today|lately|for|in|on|at|up)\b)"
    r"[a-z]+)?)"
)
_STOP = r"(?=\s*(?:[,.;:!?—–-]|$|\s+(?:and|or|because|though|mind|God|honestly|to be honest)\b))"
# Anything but it: "I'd eat the leg of the table, but coriander", "I'll eat anything except olives".
_ANYTHING_BUT_EN = re.compile(
    r"\bI(?:'d| would|'ll| will)? eat (?:anything|everything|the leg (?:off|of) (?:the|a) (?:table|chair)|"
    r"the (?:table|chair|plate|furniture|wallpaper)|a scabby dog|a horse)(?: at all)?,?\s+"
    r"(?:but|except|apart from|bar|other than|besides)\s+(?:for\s+)?(?:the\s+|any\s+)?" + _THING + _STOP,
    _I,
)
_CONTAINERS = r"tin|can|jar|box|packet|bag|tub|pot|bottle|carton|punnet|plate|bowl"
# Sooner eat the container: "I'd sooner eat the tin", "I'd rather chew the box".
_SOONER_EAT_EN = re.compile(
    r"\bI(?:'d| would) (?:sooner|rather|rather just) (?:eat|chew|lick)(?: through)? the "
    rf"(?P<c>{_CONTAINERS})\b",
    _I,
)
_CONTAINER_OF_EN = re.compile(
    rf"\b(?:a|the|one|that|this|another) (?P<c>{_CONTAINERS})s? of (?:those |these |the )?" + _THING + r"\b",
    _I,
)
# The stuff smelled: "reeks of cinnamon … that stuff gies me the boak", "smells of fish … turns my stomach".
_SMELLED_EN = re.compile(
    r"\b(?:reeks?|reeking|stinks?|stinking|smells?|smelling|honks?|hums?|whiffs?|ponged) of "
    r"(?:the |that |fresh |stale |burnt )?" + _THING + r"\b",
    _I,
)
_STUFF_RETCH_EN = re.compile(
    r"\b(?:that|the|this) (?:stuff|smell|stink|pong|whiff)(?: of it)?\s+(?:still\s+|just\s+|honestly\s+)?"
    r"(?:gies|gives|gie|give|turns|makes)\s+(?:me|my stomach|my belly)\b",
    _I,
)
# Another of what was praised: "…reckons burpees build character, but … I'd rather X than do another one".
_ANOTHER_ONE_EN = re.compile(
    r"\b(?:reckons?|says?|swears?|thinks?|insists?|claims?) (?:that )?(?:the )?(?P<x>[a-z]{4,}s) "
    r"(?:build|are|make|do|will|keep|help)\b[^.!?]*?\b(?:rather|sooner)\b[^.!?]*?\bthan\s+"
    r"(?:do|doing|eat|eating|have|having|drink|drinking|watch|watching|sit through|sitting through)\s+"
    r"(?:another|one more|a single)\b",
    _I,
)
# Sooner hear anything else: "they blast that Nashville twang all shift … I'd sooner listen to the drill rig".
_SOONER_HEAR_EN = re.compile(r"\bI(?:'d| would) (?:sooner|rather) (?:listen to|hear)\b", _I)
_PLAYED_EN = re.compile(
    r"\b(?:blast|blasts|blasting|blasted|play|plays|playing|crank|cranks|cranking|pump|pumps|pumping)\s+"
    r"(?:that|the|their|his|her|this)\s+(?P<x>[A-Za-z]+(?: [a-z]+)?)\b",
    _I,
)
# Never over the threshold again: "never again will a second-hand piano cross my threshold".
_THRESHOLD_EN = re.compile(
    r"\bnever again will (?:a|an|any|another|that|one of those)\s+(?P<x>[a-z]+(?:-[a-z]+)?(?: [a-z]+)?)\s+"
    r"(?:cross|darken|come through|come into|enter|get through)\s+(?:my|our|this)\s+"
    r"(?:threshold|door|house|home)",
    _I,
)
# "If I never see another fleck of glitter as long as I live, it'll be too soon".
_NEVER_ANOTHER_TOO_SOON_EN = re.compile(
    r"\bif I never (?:see|eat|taste|smell|hear|touch|have|drink|get)\s+"
    r"(?:another|a single|one more|any more)\s+"
    r"(?:(?:fleck|speck|piece|bit|bite|slice|grain|drop|scrap|shred|crumb|spoonful|sprig|leaf|plate|bowl|cup|"
    r"glass|mouthful|whiff|note)s?\s+of\s+(?:that\s+|the\s+)?)?" + _THING + r"\b[^.!?]{0,40}?\b"
    r"(?:it(?:'ll| will| would|'d)|that(?:'ll| will| would|'d)|'twill) be too soon",
    _I,
)
# Sooner anything than do it again: "I'd sooner wrestle a croc than ever stand up and sing by meself in front
# of people again" (the thing is what would be done again).
_SOONER_THAN_AGAIN_EN = re.compile(
    r"\bI(?:'d| would) (?:sooner|rather)\b[^.!?]{3,60}?\bthan (?:ever |to )?(?:(?:get|stand) up and )?"
    r"(?P<x>[a-z][a-z' -]{3,60}?)(?: ever)? again\b",
    _I,
)
_NOT_A_THING = frozenset(("it", "that", "this", "them", "everything", "anything", "all", "food", "stuff"))


def _last_before(shape: re.Pattern[str], text: str, end: int, container: str = "") -> list[str]:
    """The thing of the last match of ``shape`` before ``end`` (held in ``container``, when one is
    named), or none."""
    matches = (
        [m for m in shape.finditer(text, 0, end) if m.group("c").lower() == container.lower()]
        if container
        else list(shape.finditer(text, 0, end))
    )
    return [matches[-1].group("x")] if matches else []


def exaggerated_dislikes(text: str) -> list[str]:
    """The things ``text`` says, by exaggeration, the person will not have."""
    shapes = [
        _ANYTHING_BUT_EN,
        _ANOTHER_ONE_EN,
        _THRESHOLD_EN,
        _NEVER_ANOTHER_TOO_SOON_EN,
        _SOONER_THAN_AGAIN_EN,
    ]
    found = [m.group("x") for shape in shapes for m in shape.finditer(text)]
    found += fronted_dislikes(text)  # "Liquorice, though, I'd sooner lick the bottom of a bin"
    for sooner in _SOONER_EAT_EN.finditer(text):
        found += _last_before(_CONTAINER_OF_EN, text, sooner.start(), container=sooner.group("c"))
    for sooner in _SOONER_HEAR_EN.finditer(text):
        found += _last_before(_PLAYED_EN, text, sooner.start())
    for retch in _STUFF_RETCH_EN.finditer(text):
        found += _last_before(_SMELLED_EN, text, retch.start())
    return [thing for thing in found if thing.lower() not in _NOT_A_THING]
