"""The attribute ruler's indexed match: the same parts of speech, morphology and lemmas as spaCy's matcher."""

from __future__ import annotations

from typing import Any

import pytest

from voice_agent.memory.attribute_index import PatternIndex, UnsupportedPattern, index_attribute_ruler
from voice_agent.memory.chunker import ENGLISH_MODEL

TEXTS = [
    "I'd love something sweet, but my kid is allergic to peanuts.",
    "Ain't nobody got time for that, innit?",
    "She said that if it rains we'll stay home  and watch films.",
    "Those were the days; everybody knew anyone who'd been there.",
    "Can you remind me on 12 May? I've got the dentist at 3pm.",
    "Him and me went, but the others didn't.",
    "Wait... what?! No way, that's mine, not yours.",
    "My flatmate Aoife moved to Galway in 2019 because her job was there.",
]


def _annotations(nlp: Any, text: str) -> list[tuple[str, str, str, str]]:
    return [(t.text, t.pos_, str(t.morph), t.lemma_) for t in nlp(text)]


@pytest.fixture(scope="module")
def pipelines() -> tuple[Any, Any]:
    spacy = pytest.importorskip("spacy")
    plain = spacy.load(ENGLISH_MODEL, exclude=["lemmatizer"])
    indexed = spacy.load(ENGLISH_MODEL, exclude=["lemmatizer"])
    assert index_attribute_ruler(indexed)
    return plain, indexed


def test_the_indexed_ruler_sets_what_the_matcher_sets(pipelines: tuple[Any, Any]) -> None:
    plain, indexed = pipelines
    for text in TEXTS:
        assert _annotations(indexed, text) == _annotations(plain, text), text
    # the one two-token pattern ("ai" + "n't") still applies, through its own matcher
    ai = next(t for t in indexed("Ain't nobody here.") if t.lower_ == "ai")
    assert ai.lemma_ == "be"


def test_the_chunker_parses_with_the_indexed_ruler() -> None:
    pytest.importorskip("spacy")
    from voice_agent.memory.chunker import ClauseChunker

    chunker = ClauseChunker()
    chunker.start(["en"])
    ruler = chunker._pipeline("en").get_pipe("attribute_ruler")
    assert ruler.match.__module__ == "voice_agent.memory.attribute_index"


def _index(*patterns: list[list[dict[str, Any]]]) -> PatternIndex:
    ids = {"NN": 1, "VB": 2, "run": 3, "walk": 4, "nsubj": 5}
    index = PatternIndex(ids.__getitem__)
    for attr_id, pattern in enumerate(patterns):
        index.add(attr_id, pattern)
    return index


def test_patterns_apply_in_their_order_and_read_in_and_not_in() -> None:
    index = _index(
        [[{"TAG": "VB"}]],
        [[{"LOWER": {"IN": ["run", "walk"]}}]],
        [[{"TAG": "VB", "DEP": {"NOT_IN": ["nsubj"]}}]],
        [[{"IS_SPACE": True}]],
    )
    # signature: (tag, lower, dep, is_space)
    assert index.attr_ids((2, 3, 0, 0)) == (0, 1, 2)
    assert index.attr_ids((2, 3, 5, 0)) == (0, 1)  # a subject: NOT_IN excludes it
    assert index.attr_ids((1, 4, 0, 0)) == (1,)
    assert index.attr_ids((1, 9, 0, 1)) == (3,)
    assert index.attr_ids((1, 9, 0, 0)) == ()


@pytest.mark.parametrize(
    "pattern",
    [
        [[{"LOWER": "run"}, {"TAG": "NN"}]],  # two tokens
        [[{"ORTH": "run"}]],  # an attribute the index does not read
        [[{"LOWER": {"REGEX": "^r"}}]],  # an operator it does not read
    ],
)
def test_patterns_of_another_kind_are_refused_whole(pattern: list[list[dict[str, Any]]]) -> None:
    index = _index([[{"TAG": "VB"}]])
    with pytest.raises(UnsupportedPattern):
        index.add(1, [[{"TAG": "NN"}], *pattern])
    assert index.attr_ids((1, 3, 0, 0)) == ()  # nothing of the refused entry was indexed
