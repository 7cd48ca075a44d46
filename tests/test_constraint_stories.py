"""Rules told inside a story, in regional words (conversation/constraints.py, constraint_shapes.py):
the thing is named in the sentence of the reaction or the one beside it, a list after the verb is each
item, and amounts, people and products named in passing are no rule."""

from __future__ import annotations

import pytest

from voice_agent.conversation.constraints import constraints_from_texts


def _keys(text: str) -> list[str]:
    return sorted(c.key for c in constraints_from_texts([text]).constraints)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        (
            "It was the lupini beans, eh, those yellow ones her nonna puts out. I had a couple handfuls and "
            "my lips puffed right up. Apparently they even sneak the flour into some gluten-free breads now.",
            "lupin",
        ),
        (
            "Tomatoes, taters, bell peppers, they just do not agree with me. It's the nightshades, honey.",
            "nightshades",
        ),
        ("I'm eighteen months off the pokies now.", "gambling"),
        ("I no fit chop okro at all. That slimy thing, e dey turn my stomach.", "okra"),
        ("我们丹东人打小吃蚕蛹长大的，我居然吃蚕蛹过敏。", "insects"),
        ("说出来你都不信，我居然吃榴莲过敏。", "allergy:榴莲"),
        ("大夫说我不能吃蚕蛹、蚂蚱这些虫子。", "insects"),
        ("我对味素真的很没办法。只要外面吃到放很多味素的，像卤肉饭、羹汤那种，就头超痛。", "msg"),
        ("我而家好抗拒去动物园、海洋馆嗰啲地方。", "zoos"),
        ("我这个人冇别的毛病，就是恰不得葱。", "avoid:葱"),
        ("Coffee gives me the jitters.", "coffee"),
        ("The consultant said it is penicillin allergy, a serious one.", "allergy:penicillin"),
        ("整医院打了一针才缓过来。大夫说我是松子过敏。", "allergy:松子"),
        ("还说核桃、榛子、杏仁这些树上结的坚果也容易交叉过敏。", "nuts"),
        ("荔枝、龙眼、榴莲、芒果呢啲热气生果，我食几粒就喉咙痛、生飞滋。", "intolerance:荔枝"),  # 食: eat
        ("荔枝、龙眼、榴莲、芒果这些水果，我一口都不能碰。", "mango"),  # (a known fruit)
    ],
)
def test_a_rule_told_inside_a_story_is_found(text: str, key: str) -> None:
    assert key in _keys(text), (text, _keys(text))


@pytest.mark.parametrize(
    ("text", "not_key"),
    [
        ("I had a couple handfuls and my lips puffed right up.", "allergy:couple handfuls"),
        ("They even sneak the flour into some gluten-free breads and pastas now.", "diet:gluten-free"),
        (
            "Any soup that draws, my mother don give up on me since I was small, e dey turn my stomach.",
            "intolerance:mother don",
        ),
        ("只要外面吃到放很多味素的，像卤肉饭、羹汤那种，不到半小时就头超痛。", "meat"),
        ("俺就好一口大米饭，一顿不吃米饭就跟没吃饭一样。", "avoid:米饭"),  # rice is what he loves
        ("俺就好一口大米饭，一顿不吃米饭就跟没吃饭一样。", "avoid:没吃饭一样"),
        ("大夫说我是松子过敏。", "allergy:夫说我是松子"),
        ("荔枝、龙眼这些，我吃几颗就上火。", "intolerance:几颗"),  # a quantity is no thing
        ("我去食堂吃饭，食物很好。", "avoid:食物"),
    ],
)
def test_amounts_people_products_and_asides_are_no_rule(text: str, not_key: str) -> None:
    assert not_key not in _keys(text), (text, _keys(text))


def test_a_zoo_or_gambling_is_kept_off_not_an_intolerance() -> None:
    kinds = {
        c.key: c.kind for c in constraints_from_texts(["我而家好抗拒去动物园、海洋馆嗰啲地方。"]).constraints
    }
    assert kinds["zoos"] == "avoid"
    assert (
        constraints_from_texts(["I'm still a gluten-free person."]).constraints[0].key == "diet:gluten-free"
    )
    assert _keys("I'm off to Paris next week.") == [] and _keys("I quit my job last year.") == []
