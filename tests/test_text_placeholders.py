"""One placeholder definition: what the scrubber writes is recognised, whole, by every module that reads
scrubbed text (keywords, embedder surface, language guess, clause splitting, the vault's pattern)."""

from __future__ import annotations

from voice_agent.memory.chunker import mask_placeholders
from voice_agent.memory.keywords import keyword_text
from voice_agent.memory.language import detect_language
from voice_agent.memory.scrub import Scrubber
from voice_agent.memory.surface import embedding_text
from voice_agent.text.placeholders import PLACEHOLDER_HEX_CHARS, PLACEHOLDER_RE, PLACEHOLDER_SHAPE_RE

KEY = bytes(range(32))
TEXT = "Call me on 138 0013 8000 or write to zed@example.org, I live at 42 Elm Street, Springfield, IL 62704."


def _scrubbed() -> tuple[str, list[str]]:
    result = Scrubber(KEY).scrub(TEXT)
    return result.text, [f.placeholder for f in result.found]


def test_the_scrubbers_placeholders_match_both_patterns() -> None:
    text, placeholders = _scrubbed()
    assert {p.split(":")[0][1:] for p in placeholders} >= {"PHONE", "EMAIL", "ADDRESS"}, text
    for token in placeholders:
        exact, shape = PLACEHOLDER_RE.fullmatch(token), PLACEHOLDER_SHAPE_RE.fullmatch(token)
        assert exact is not None and shape is not None
        assert exact.groups() == shape.groups() and len(exact.group(2)) == PLACEHOLDER_HEX_CHARS


def test_every_reader_keeps_a_placeholder_whole() -> None:
    text, placeholders = _scrubbed()
    terms = keyword_text(text).split()
    surface = embedding_text(text)
    masked, spans = mask_placeholders(text)
    assert [text[a:b] for a, b in spans] == [m.group() for m in PLACEHOLDER_SHAPE_RE.finditer(text)]
    for token in placeholders:
        kind, digest = PLACEHOLDER_RE.fullmatch(token).groups()  # type: ignore[union-attr]
        assert f"{kind.lower()}_{digest}" in terms  # one BM25 term, as a query gets it
        assert token not in surface and digest not in surface  # the embedder reads a word instead
        assert token not in masked
    assert len(masked) == len(text)  # offsets stay valid


def test_placeholders_do_not_sway_the_language_guess() -> None:
    _, placeholders = _scrubbed()
    chinese = "我的电话是 " + " ".join(placeholders) + " 请记住"
    assert detect_language(chinese) == "zh"


def test_a_bracketed_word_is_not_a_placeholder() -> None:
    for text in ("[Note: call back]", "[PHONE]", "[phone:0123456789ab]", "[PHONE:xyz]"):
        assert PLACEHOLDER_SHAPE_RE.search(text) is None and PLACEHOLDER_RE.search(text) is None
        assert keyword_text(text) == " ".join(text.split()) and embedding_text(text) == text
