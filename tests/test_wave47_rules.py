"""Wave 47: constraints read in more shapes, among them Cantonese 戒咗/戒埋/戒晒 ("quit") as 戒掉."""

from __future__ import annotations

import pytest

from voice_agent.conversation.constraints import parse_constraints


def _keys(text: str) -> list[str]:
    return [c.key for c in parse_constraints(text)]


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("我老豆上年已经戒埋烟，连啤酒都唔饮。", ["avoid:烟"]),
        ("佢戒咗酒成年，饮茶就得。", ["alcohol"]),
        ("我戒晒啲甜嘢。", ["avoid:甜嘢"]),
    ],
)
def test_constraints_read_in_new_shapes(text: str, keys: list[str]) -> None:
    assert _keys(text) == keys


@pytest.mark.parametrize("text", ["佢送咗只戒指俾我。", "警戒线外面唔好企。"])
def test_no_constraint_read_from_other_words(text: str) -> None:
    assert _keys(text) == []
