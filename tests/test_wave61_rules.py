"""Wave 61: dislikes in Dongbei and Shanghainese words ("整不了", "不来事"); a missing enzyme named by what
it breaks down ("缺解酒的酶"); foods given up with 断 / 戒; a body that went on strike against a described
food; two things tasted, then one reaction ("one crumb of bread or a sip of beer and…"); sesame's West
African name; "if I never see another X it'll be too soon"; a thing's names, then "whatever they call it,
I cannot"; and what is not a thing: yellow fruit flesh is no meat, a look described after 的那种 no name,
a name-tagged word after 的 no person, a ticket bought no food."""

from __future__ import annotations

import pytest

from voice_agent.conversation.constraints import ConstraintSet, parse_constraints
from voice_agent.conversation.refusals_zh import eaten_zh
from voice_agent.memory.person_names import PersonNameFinder


def _read(said: str) -> list[tuple[str, str]]:
    return [(c.key, c.kind) for c in parse_constraints(said)]


@pytest.mark.parametrize(
    ("said", "key", "kind"),
    [
        ("芹菜那玩意儿我是真整不了，一股怪味儿，谁给我夹一筷子我能把碗推了。", "avoid:芹菜", "avoid"),
        ("我这个人别的都好讲，就是榴莲不来事，一闻到就要吐。", "avoid:榴莲", "avoid"),
        ("俺喝一小口就脸红心跳，大夫说俺天生缺那个解酒的酶。", "alcohol", "intolerance"),
        ("医生讲我肚子里缺乏分解乳糖的酶，所以喝完就闹肚子。", "dairy", "intolerance"),
        ("出家以后，连鸡蛋也一起断了。", "eggs", "avoid"),
        ("大蒜那些冲鼻子的我也通通戒掉了。", "garlic", "avoid"),
        ("我们家婆婆吃斋念佛，没再碰过任何有妈妈的东西。", "meat", "avoid"),
        (
            "Since my forties my stomach has declared war on anything that came out of a cow's udder, one "
            "milky coffee and I'm sprinting for the loo.",
            "dairy",
            "intolerance",
        ),
        ("One crumb of cake or a sip of beer and I'm doubled over for a day.", "alcohol", "intolerance"),
        ("I had a pinch of benniseed on a bun once and my throat started closing.", "sesame", "allergy"),
        ("One beer and I'm sick for two days.", "alcohol", "intolerance"),
        (
            "If I never see another slice of beetroot as long as I live, it'll be too soon.",
            "avoid:beetroot",
            "avoid",
        ),
        ("That green fellow, okra, lady finger, whatever they call it here, I just cannot.", "okra", "avoid"),
    ],
)
def test_constraints_said_in_other_words_are_read(said: str, key: str, kind: str) -> None:
    assert (key, kind) in _read(said)


def test_the_other_name_in_a_list_before_whatever_they_call_it_is_read_too() -> None:
    read = _read("That green fellow, okra, lady finger, whatever they call it here, I just cannot.")
    assert ("avoid:lady finger", "avoid") in read


def test_a_refusal_with_no_reaction_stays_a_plain_avoid() -> None:
    assert _read("I eat nothing that had a face.") == [("meat", "avoid"), ("fish", "avoid")]


@pytest.mark.parametrize(
    "said",
    [
        "我吃了两块青皮黄肉的热带水果，嘴唇就肿了。",  # (the flesh of a fruit is no meat)
        "One day and I'm doubled over with the flu.",  # (no known thing had)
        "跟他也断了联系。",  # (a person, not a food)
        "这种天气我真整不了。",  # (the weather is no thing kept off)
    ],
)
def test_what_names_no_thing_kept_off_reads_no_food(said: str) -> None:
    keys = [key for key, _ in _read(said)]
    assert "meat" not in keys and not any(key.startswith("avoid:") for key in keys), keys


def test_a_look_described_after_de_nazhong_is_no_name_of_a_thing() -> None:
    keys = [key for key, _ in _read("我最吃不消就是海边那一片片的那种白颜色一朵朵的小花。")]
    assert not any("海边" in key for key in keys), keys


def test_a_described_look_keeps_a_known_food_in_it() -> None:
    assert ("cilantro", "avoid") in _read("我最讨厌香菜的那种味道。")


def test_a_ticket_bought_is_no_food_to_leave_out_of_a_dish() -> None:
    vowed = parse_constraints("上回被骗惨了，这辈子再跟黄牛买一张票，我名字倒过来写。")
    assert vowed and all("黄牛" in c.noun_zh and not eaten_zh(c) for c in vowed)


def test_a_name_tagged_word_after_de_with_no_person_after_is_no_name(zh_names: PersonNameFinder) -> None:
    text = "隔壁小姑娘天天点那个味道的香薰蜡烛。"
    assert [text[s:e] for s, e in zh_names.spans(text)] == []


def test_a_given_name_after_de_with_a_person_after_is_still_found(zh_names: PersonNameFinder) -> None:
    text = "宿舍的美玲和佳琪都来了。"
    assert "美玲" in [text[s:e] for s, e in zh_names.spans(text)]


def test_an_unnamed_tropical_fruit_with_a_severe_reaction_rules_out_every_tropical_fruit() -> None:
    (fruit,) = parse_constraints("我吃了两块青皮黄肉、扁扁大核的热带水果，嘴唇肿得像腊肠，喉咙痒到透不过气。")
    assert (fruit.key, fruit.kind) == ("tropical fruit", "allergy")
    kept = ConstraintSet([fruit])
    assert kept.check("推荐芒果西米露。") is not None and kept.check("推荐红豆沙。") is None


@pytest.mark.parametrize(
    "said",
    [
        "那股香味熏得我头痛到要吃芬必得，闻到就想吐。",
        "The smell gave me a migraine and I took two Nurofen for the headache.",
    ],
)
def test_a_remedy_taken_for_a_pain_is_no_cause_of_it(said: str) -> None:
    assert "ibuprofen" not in [key for key, _ in _read(said)]
