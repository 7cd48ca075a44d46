"""What a reaction comes from, said with the reaction first or the thing met first.

- the reaction, then its source: "I get migraines from strong perfume", "she breaks out in hives off wool
  jumpers", "I come out in a rash from latex";
- the thing sensed, then the reaction: "if I smell bleach I get a headache", "whenever he wears wool he
  itches all day" (what is eaten or drunk is ``constraint_shapes``' ``_WHEN_EN``);
- the thing met, then "and I get …": "anything with strong perfume, the Glade plug-ins, even some fabric
  softeners, and I get a migraine that knocks me out" (the first thing of the list is read; the list is
  read by ``constraint_examples``).

Read in any sentence, since the words are the reaction (``triggers``): a trigger named ("Red wine is my
main trigger"), a thing that sets a body off ("the feather dust and the dried droppings set my lungs off"),
a Chinese list then one sniff and the reaction ("香水、香薰、庙里的线香，一闻准头疼恶心"); a test that found
it is ``constraint_body``'s.

The others (and the culprits named: "garlic and onion are the big culprits for me") are read only where the
text names a bodily reaction (``has_symptom``), so "I get my news from the radio" or "anything with Tom and
I get bored" names nothing.
"""

from __future__ import annotations

import re

from voice_agent.conversation.constraint_shapes import SYMPTOM_ZH, TRIGGER_EN, TRIGGER_FIRST_EN
from voice_agent.conversation.constraint_story_zh import gulp_stories_zh, reaction_stories_zh
from voice_agent.text.cjk import HAN_CLASS

_I = re.IGNORECASE
_WHO = r"(?:i|he|she|we|they|my [a-z]+|our [a-z]+)"
_REACTION = (
    r"(?:(?:a|an|the|really|very|bad|terrible|awful|horrible|thumping|splitting|blinding|pounding|massive|"
    r"huge|nasty|big|itchy|red|raging|proper|instant|crippling)\s+){0,3}"
    r"(?:migraines?|headaches?|hives|rash(?:es)?|welts|eczema|blotches|blotchy|itchy|a reaction|reactions|"
    r"sick|ill|nauseous|dizzy|wheezy|hay ?fever|asthma attacks?|sinus(?:itis)?)"
)
_NOT_MORE = r"(?!(?:and|or|but|if|when|i|he|she|we|they|it|my|so|then|too|now)\b)"
_THING = rf"(?P<x>[a-z][a-z'-]*(?:[ -]{_NOT_MORE}[a-z][a-z'-]*){{0,2}})"
# "I get migraines from strong perfume", "she breaks out in hives off wool", "I come up in welts with latex".
REACTION_FROM_EN = re.compile(
    rf"\b{_WHO}\s+(?:always\s+|just\s+|still\s+)?(?:get|gets|got|break out in|breaks out in|broke out in|"
    rf"come out in|comes out in|came out in|come up in|comes up in|came up in|end up with|ends up with)\s+"
    rf"{_REACTION}\s+(?:from|off|off of|with|after|around)\s+"
    rf"(?:(?:anything|everything|things|stuff)\s+(?:with|containing|made (?:of|with))\s+|any\s+|even\s+)?"
    rf"(?!(?:the|this|that|it|them|work|time|stress|nowhere|people)\b){_THING}",
    _I,
)
# "if I smell bleach I get a headache", "whenever she wears wool she itches" (the sense, then the thing).
SENSED_WHEN_EN = re.compile(
    rf"\b(?:if|when|whenever|every time|each time|the minute|the moment)\s+{_WHO}\s+"
    rf"(?:so much as\s+|even\s+)?(?:smell|smells|smelled|smelt|sniff|sniffs|wear|wears|wore|use|uses|used|"
    rf"put on|puts on|go near|goes near|went near|breathe in|breathes in|get near|gets near)\s+"
    rf"(?:(?:anything|something)\s+(?:with|made of|containing)\s+|any\s+|even a little\s+)?"
    rf"(?!(?:it|them|that|this|one|those)\b){_THING}",
    _I,
)
# "anything with strong perfume, the Glade plug-ins … and I get a migraine": the first thing met.
ANYTHING_THEN_EN = re.compile(
    rf"\b(?:anything|everything)\s+(?:with|containing|made (?:of|with))\s+(?:(?:a|any)\s+)?{_THING}"
    rf"(?=[^.!?]{{0,200}}?\band\s+{_WHO}\s+(?:just\s+|always\s+)?(?:get|gets|break|breaks|come|comes|end up|"
    rf"ends up|go|goes|start|starts)\b)",
    _I,
)
# "the nurse gave me one small amoxicillin capsule for toothache and my whole body came out in welts": a thing
# given, then the body's reaction (a thing given with no reaction named is ``has_symptom``'s to refuse).
GIVEN_THEN_EN = re.compile(
    rf"\b(?:gave|give|gives|given|handed|prescribed)\s+(?:me|him|her|them|us)\s+"
    rf"(?:(?:a|an|one|some|just|a single|a course of|small|little|tiny|single|two)\s+){{0,3}}"
    rf"(?P<x>[a-z][a-z'-]*)"
    rf"(?:\s+(?:capsules?|tablets?|pills?|shots?|jabs?|injections?|doses?|drops|syrup|cream))?"
    rf"(?:\s+for\s+(?:(?:a|an|my|his|her|the)\s+)?[a-z'-]+)?,?\s+and\s+(?:{_WHO}|(?:my|his|her|their)\s+(?:whole\s+)?"
    rf"(?:body|face|skin|throat|lips|tongue|eyes|chest))\s+(?:came|comes|come|broke|breaks|went|started|starts|"
    rf"swelled|swelling|puffed|blew|closed|closing)\b",
    _I,
)


def reaction_sources(text: str) -> list[re.Match[str]]:
    """The things ``text`` says a reaction comes from (the caller has found a symptom in it)."""
    return [
        *REACTION_FROM_EN.finditer(text),
        *SENSED_WHEN_EN.finditer(text),
        *ANYTHING_THEN_EN.finditer(text),
        *GIVEN_THEN_EN.finditer(text),
        # (each of two culprits: "garlic and onion are the big culprits")
        *_culprits(text),
    ]


def _culprits(text: str) -> list[re.Match[str]]:
    """The culprits named (``CULPRIT_EN``), each of two: the second read from the "and" between them."""
    found = list(CULPRIT_EN.finditer(text))
    second = [
        m
        for f in found
        for m in CULPRIT_EN.finditer(text, f.start("x") + 1, f.end())
        if m.start("x") > f.start("x")
    ]
    return found + second


# "the feather dust and the dried droppings set my lungs off", "cut grass sets her asthma off".
SETS_OFF_EN = re.compile(
    r"(?:^|[,;:.!?]\s*|\b(?:means|that|so|and|but|because)\s+)(?:the\s+|any\s+|even\s+)?"
    r"(?P<x>[a-z][a-z'-]*(?: (?!and\b|or\b)[a-z][a-z'-]*)?)(?:\s+(?:and|or)\s+(?:the\s+)?[a-z]+(?: [a-z]+)?)?"
    r"\s+(?:sets?|setting|triggers?|triggered|kicks? off|kicked off)\s+(?:off\s+)?(?:my|his|her|their|our)\s+"
    r"(?:lungs|chest|asthma|eczema|skin|nose|sinuses|allergies|hay ?fever|breathing|migraines?|dermatitis)"
    r"(?:\s+off)?\b",
    _I,
)


# The things named as the culprits: "Turns out garlic and onion are the big culprits for me", "dairy was
# the real culprit".
CULPRIT_EN = re.compile(
    r"(?:^|[,;:.!?]\s*|\b(?:out|that|says?|said|reckons?|thinks?|and|or|but|so)\s+)(?:the\s+)?"
    r"(?P<x>[a-z][a-z'-]*(?: (?!and\b|or\b|is\b|are\b|was\b|were\b)[a-z][a-z'-]*)?)"
    r"(?:\s+(?:and|or)\s+(?:the\s+)?[a-z]+(?: [a-z]+)?)?"
    r"\s+(?:is|are|was|were)\s+(?:the|my|his|her)\s+(?:big\s+|main\s+|biggest\s+|real\s+|only\s+|worst\s+)?"
    r"culprits?\b",
    _I,
)


# A list, then one sniff or touch and the reaction: "香水、香薰、那种插根棍儿的扩香、庙里的线香，一闻准
# 头疼恶心".
LIST_SENSED_ZH = re.compile(
    rf"(?:^|[，,。！？!?；;：:])(?P<x>{HAN_CLASS}{{1,10}}?(?:、{HAN_CLASS}{{1,10}}?)+)[，,]?(?:我|他|她|俺|孩子)?"
    rf"(?:一|只要|每次)(?:闻|碰|戴|用|玩|沾)(?:到|上)?(?:就|准|保准|准保|必|肯定|立马)(?:{SYMPTOM_ZH})"
)


def triggers(text: str) -> list[re.Match[str]]:
    """The things ``text`` names as what sets a reaction off, in any sentence."""
    found = [*TRIGGER_EN.finditer(text), *TRIGGER_FIRST_EN.finditer(text), *SETS_OFF_EN.finditer(text)]
    return found + list(LIST_SENSED_ZH.finditer(text)) + reaction_stories_zh(text) + gulp_stories_zh(text)
