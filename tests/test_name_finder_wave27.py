"""The name finder on stories told the way people tell them (wave 27), through the real scrubber, name
lists and English parse: a word the same story also says in lowercase is that word where a sentence
starts ("…stuffed peppers for tea. Peppers and me have never got on"), a sentence that starts with a
past form is no name ("Took Dad to the optometrist"), and a verb made of initials is none ("DJing");
names beside them are still hashed."""

from __future__ import annotations

import pytest

from voice_agent.memory.names import EnglishNameFinder, person_spans
from voice_agent.memory.scrub import Scrubber


@pytest.fixture(scope="module")
def parser() -> EnglishNameFinder:
    finder = EnglishNameFinder()
    finder.start()
    return finder


def _names(scrubber: Scrubber, parser: EnglishNameFinder, text: str) -> list[str]:
    result = scrubber.scrub(text, name_spans=person_spans(parser.parse(text)))
    return [f.value for f in result.found if f.kind == "NAME"]


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Anyway, my Tamsin made stuffed peppers for tea after, bless her, and I've paid for it all day. "
         "Peppers and me have never got on, red, green, whatever colour.", ["Tamsin"]),
        ("Took Dad to the optometrist in Chermside yesterday. Dr Priyanka Raghunathan, 'just call me "
         "Priya, love', she said. Took forty minutes with him.", ["Dr Priyanka Raghunathan", "Priya"]),
        ("I've been roped into DJing our Karen's 90s-themed 50th at the Legion on Saturday.", ["Karen"]),
        ("Went with Ming Li and Jack Browning to the pub.", ["Ming Li", "Jack Browning"]),
        ("Drew and me went to see Said Hamid about the van.", ["Drew", "Said Hamid"]),
        ("Conor and myself are doing the West Highland Way in July.", ["Conor"]),
    ],
)  # fmt: skip
def test_common_words_at_a_sentence_start_are_not_names(
    name_scrubber: Scrubber, parser: EnglishNameFinder, text: str, names: list[str]
) -> None:
    assert _names(name_scrubber, parser, text) == names
