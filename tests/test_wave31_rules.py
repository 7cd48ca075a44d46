"""Wave 31: places named in passing in a story of being unwell are no rules; a list of things kept off is
read to its end and said back whole."""

from __future__ import annotations

import pytest

from voice_agent.conversation.acknowledge import acknowledgement
from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints
from voice_agent.conversation.reminders import guided_constraints


def _keys(text: str) -> set[str]:
    return {c.key for c in parse_constraints(text)}


def _opening(fact: str, turn: str, language: str = "en") -> str:
    constraints = constraints_from_texts([fact])
    said = acknowledgement(guided_constraints(constraints, [fact], turn), constraints, language, turn)
    return said.text if said else ""


@pytest.mark.parametrize(
    ("text", "not_read"),
    [
        # a town's name
        (
            "One wee dram at my cousin's ceilidh and I came out in red blotches up my neck, then spent half "
            "the night being sick in my auntie's downstairs loo in Broughty Ferry.",
            "boats",
        ),
        # a likeness, and the reaction told in the next sentence
        (
            "Only seat left was facing backwards, ended up standing in the vestibule with my forehead on the "
            "window like a sad dog. Always been like that: if I'm going backwards, I'm sick, full stop.",
            "dogs",
        ),
        # a job, a whole clause away from the swelling
        (
            "But since I retired off the buses the GP's had me on blood pressure tablets, and every time I "
            "had a bag of the stuff my ankles swelled up like balloons and the numbers went sky high.",
            "coaches",
        ),
    ],
)
def test_a_place_or_animal_named_in_passing_beside_a_symptom_is_no_rule(text: str, not_read: str) -> None:
    assert not_read not in _keys(text)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("I get sick on every ferry, even the short ones.", "boats"),
        ("Dogs make me sneeze like mad.", "dogs"),
        # a refusal that points back at the sentence before
        ("Stairs are a different matter altogether. I can't do them. Not a single flight.", "stairs"),
    ],
)
def test_a_place_or_animal_said_with_its_reaction_or_refused_is_still_a_rule(text: str, read: str) -> None:
    assert read in _keys(text)


def test_a_drink_at_odds_after_a_dash_is_read_with_its_reaction() -> None:
    fact = (
        "Honestly, I'm the worst Scot going — whisky and me just do not get on. One wee dram and I came "
        "out in red blotches, then spent half the night being sick."
    )
    assert ("intolerance", "intolerance:whisky") in {(c.kind, c.key) for c in parse_constraints(fact)}


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("No onion, no garlic, nothing non-veg, not even eggs, and chai is gone too.",
         {"onion", "garlic", "meat", "eggs"}),
        ("Mum's rule: no meat, no fish, no eggs, and no onion or garlic either.",
         {"meat", "fish", "eggs", "onion", "garlic"}),
        ("So it's no meat, no fish, no eggs, and not even onion, garlic or mushrooms now.",
         {"meat", "fish", "eggs", "onion", "garlic", "mushrooms"}),
        ("My mum's strict: no beef in the house, ever, not even a stock cube.", {"beef", "avoid:stock cube"}),
    ],
)  # fmt: skip
def test_a_list_of_things_kept_off_is_read_to_its_end(text: str, read: set[str]) -> None:
    assert read <= _keys(text)


@pytest.mark.parametrize(
    ("text", "not_read"),
    [
        # what is allowed after the list
        ("So that's no meat, no dairy, no sugar, nothing with yeast, no coffee, just fruit, vegetables, "
         "whole grains, beans and water.", {"avoid:vegetables", "avoid:beans", "avoid:water"}),
        # circumstances, not things
        ("They're devout, so no coffee, no tea, and absolutely no alcohol, not even a splash in a sauce.",
         {"avoid:splash in a sauce", "avoid:splash"}),
        ("So no roti, no naan, no chapati, nothing made with atta.", {"avoid:made with atta", "avoid:made"}),
    ],
)  # fmt: skip
def test_a_list_ends_where_the_things_kept_off_end(text: str, not_read: set[str]) -> None:
    keys = _keys(text)
    assert len(keys) >= 3 and not keys & not_read


def test_the_opening_names_the_things_a_statement_keeps_off_together() -> None:
    fact = (
        "Since Ba passed I took the kanthi at the mandir, so I'm strict now. No meat, no eggs, and no "
        "onion or garlic at all, not even a little bit in the tarka."
    )
    turn = "My two granddaughters want me to teach them to cook on Sunday. Suggest three dishes we can make."
    opening = _opening(fact, turn)
    assert opening.startswith("Leaving out ") and opening.endswith(", as you told me, ")
    assert {"meat", "eggs", "onion"} <= set(opening.replace(",", " ").split())
    # (what it says passes the check that keeps those things out of the reply)
    assert constraints_from_texts([fact]).check(opening) is None


def test_a_single_thing_kept_off_is_named_alone() -> None:
    fact = "Oh, and heads up, she absolutely hates olives. Green, black, kalamata, doesn't matter."
    turn = "I'm putting together a grazing board for her book club night. What should go on it?"
    assert _opening(fact, turn) == "Leaving out olives, as you told me, "
