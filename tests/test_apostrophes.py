"""Apostrophes a transcript left out are put back where they make a negation."""

from __future__ import annotations

import pytest

from voice_agent.text.apostrophes import plain_apostrophes, with_apostrophes


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("please dont ever suggest it", "please don't ever suggest it"),
        ("i cant eat shellfish", "i can't eat shellfish"),
        ("he wont touch it", "he won't touch it"),
        ("im allergic, ive had it since", "i'm allergic, i've had it since"),
        ("She DOESNT like it", "She DOESN'T like it"),
        ("I can\u2019t", "I can't"),  # typographic, as plain_apostrophes
        ("a donut and a dent", "a donut and a dent"),  # words that only end in "nt"
        ("a crofter that cannae stand lamb", "a crofter that can't stand lamb"),  # Scots
        ("I dinnae eat fish, I'll no touch it", "I don't eat fish, I won't touch it"),
        ("nothin' off a critter", "nothing off a critter"),
    ],
)
def test_missing_apostrophes_are_put_back(said: str, read: str) -> None:
    assert with_apostrophes(said) == read


def test_plain_apostrophes_keeps_the_length() -> None:
    text = "I can\u2019t"
    assert len(plain_apostrophes(text)) == len(text)
