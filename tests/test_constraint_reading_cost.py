"""Reading constraints stays cheap as memory grows: each topic key's pattern is compiled once, and a
remembered text is read once (the pinned records are read again on every turn, before the LLM is
called)."""

from __future__ import annotations

from voice_agent.conversation.constraint_shapes import key_matches
from voice_agent.conversation.constraints import _parsed, parse_constraints


def test_topic_keys_are_matched_with_patterns_compiled_once() -> None:
    assert [m.group(0) for m in key_matches("no nuts, no ice skating", "nut")] == ["nuts"]
    assert key_matches("ice skating", "ice") == [] and len(key_matches("花生和花生酱", "花生")) == 2


def test_a_remembered_statement_is_read_for_constraints_once() -> None:
    told = "My husband Dev can't have anything with sesame, he ends up in A&E."
    first = parse_constraints(told)
    hits = _parsed.cache_info().hits
    again = parse_constraints(told)
    assert again == first and again is not first and _parsed.cache_info().hits == hits + 1
    again.clear()  # a caller's list is its own
    assert parse_constraints(told) == first and [c.key for c in first] == ["sesame"]
