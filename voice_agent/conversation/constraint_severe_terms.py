"""The allergen behind a severe reaction told of a food that only contains it: "one bite of my
sister-in-law's almond friand and my throat closed up", "a slice of Christmas cake with the marzipan and
my throat closed up like a fist" name no allergen ("nuts") but a thing made of one. Beside an allergic
reaction (``SEVERE``: the throat, hives, swelling, an adrenaline pen), the things of the main allergens'
topics count as naming them; beside a milder reaction (a stomach ache after pizza) they do not: a pizza
upsets for many reasons."""

from __future__ import annotations

import re

from voice_agent.conversation.constraint_term_match import excluded, terms_pattern
from voice_agent.conversation.constraint_terms import TOPICS, Topic

__all__ = ["severe_term_topics"]

# (the allergens that close a throat; not dairy or gluten, whose foods are too many to blame one)
_ALLERGENS = ("nuts", "shellfish", "fish", "eggs", "sesame")


def severe_term_topics(sentence: str, severe: re.Pattern[str]) -> list[Topic]:
    """The main allergens whose things ``sentence`` names beside a reaction ``severe`` finds, or none."""
    if not severe.search(sentence):
        return []
    return [TOPICS[key] for key in _ALLERGENS if _names_a_thing(TOPICS[key], sentence)]


def _names_a_thing(topic: Topic, sentence: str) -> bool:
    # (one Chinese character names too much: 蛋 of 蛋挞 is no egg allergy said)
    terms_zh = tuple(term for term in topic.terms_zh if len(term.text) > 1)
    pattern = terms_pattern(topic.terms_en, terms_zh)
    return any(not excluded(sentence, match, terms_zh) for match in pattern.finditer(sentence))
