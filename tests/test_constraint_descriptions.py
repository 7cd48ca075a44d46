"""Rules told by describing the thing, by the body's answer, or as a grudge
(constraint_described_kinds.py, constraint_symptoms_en.py, constraint_story_zh.py, constraint_idioms.py,
constraint_aversions.py, constraint_never_again_zh.py): each is read as the rule a person meant, and the
same words in an unrelated story are no rule."""

from __future__ import annotations

import pytest

from voice_agent.conversation.constraints import constraints_from_texts


def _rules(text: str) -> dict[str, str]:
    return {c.key: c.kind for c in constraints_from_texts([text]).constraints}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a diet said by what it leaves out: anything that lived, anything pulled from the ground
        (
            "Since I took my vows my kitchen runs by the old rules: nothing that ever had a life, not even "
            "an egg, and nothing pulled up from under the soil.",
            {"meat": "avoid", "fish": "avoid", "roots": "avoid"},
        ),
        ("I won't eat anything with a face.", {"meat": "avoid", "fish": "avoid"}),
        ("Honestly anything that came out of a hen makes my lips swell up.", {"eggs": "allergy"}),
        ("阿嬷吃斋，带眼睛的一口都不吃，土里长的也不碰。", {"meat": "avoid", "roots": "avoid"}),
        # a stimulant's story names the drink, not caffeine
        (
            "She keeps pushing her cold brew on me, but half a cup and my heart's going like a jackrabbit, "
            "my hands shake so bad I can't hold a pen.",
            {"caffeine": "intolerance"},
        ),
        # the body's answer right after a mouthful, and a grudge against a food
        ("我这肚子打小就不争气，一口牛奶下去，不出半拉钟头准得往厕所窜。", {"dairy": "intolerance"}),
        ("俺这肚子跟牛奶那是天生的冤家，一杯下去，肚子就咕噜咕噜的。", {"dairy": "intolerance"}),
        # someone else's fruit eaten, then the throat: an allergy
        (
            "小辰光偷吃了隔壁阿婆一只水蜜桃，喉咙口像塞了团棉花，姆妈背着我跑到医院挂急诊。",
            {"allergy:水蜜桃": "allergy"},
        ),
        # everything eaten but one thing
        ("俺这人啥都能吃，就是饭店老爱往碗里撒的那一撮香菜，闻着就难受。", {"cilantro": "avoid"}),
        ("我什么都吃，唯独苦瓜。", {"avoid:苦瓜": "avoid"}),
        # a vow never to get into the water again
        ("我当时就赌咒发誓，这辈子再也不下游泳池了。", {"avoid:游泳池": "avoid"}),
        # a strict vegetarian's word, and a list refused "also, always"
        (
            "肉边菜都不碰，还有葱、蒜、韭菜那些冲味的也一律不沾。",
            {"diet:vegetarian": "diet", "garlic": "avoid"},
        ),
    ],
)
def test_described_rules_are_read(text: str, expected: dict[str, str]) -> None:
    rules = _rules(text)
    for key, kind in expected.items():
        assert rules.get(key) == kind, (key, rules)


@pytest.mark.parametrize(
    "text",
    [
        # a race run, not a racing heart; a fish in a market, not a fish eaten
        "I've seen drier fish in the English Market. Last June I lined up for the dads' race and did the "
        "hamstring.",
        "The calf had a face like a saint and the farmer's wife had a life of her own.",
        "My heart's pounding before the exam tomorrow.",
        "我啥都能吃，就是吃不多。",
        "We dug potatoes out of the ground all afternoon.",
    ],
)
def test_the_same_words_in_a_story_are_no_rule(text: str) -> None:
    assert _rules(text) == {}
