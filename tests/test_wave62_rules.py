"""Wave 62: everyday Chinese words that are no names (毛短短, 连葱啊, 莫撞车, 白毛汗, 高雄) and public or
fictional figures that are no private persons, unless someone the person knows shares the name; a food
one does not get on with by the stars (八字唔夹); a dish a known topic holds read by the topic; what a
thing is put in, and a saline drip, are no causes; described kinds (红彤彤那种东西, 会跑会游的, anything
with a buzz, a single thing that ever had a face); "decaf or nowt"; one bite that spoils the mood; Indian
English nut and mushroom words; a rented room's place before a relative's town; a road named after a
city is no city."""

from __future__ import annotations

import pytest

from voice_agent.conversation.constraints import ConstraintSet, parse_constraints
from voice_agent.conversation.place_note import ranked_places
from voice_agent.conversation.revised_plans import without_revised
from voice_agent.memory.person_names import PersonNameFinder
from voice_agent.memory.records import MemoryRecord


def _read(said: str) -> list[tuple[str, str]]:
    return [(c.key, c.kind) for c in parse_constraints(said)]


def _found(zh_names: PersonNameFinder, text: str) -> list[str]:
    return [text[s:e] for s, e in zh_names.spans(text)]


@pytest.mark.parametrize(
    "text",
    [
        "我想要一只毛短短的小狗，好打理。",
        "他们家吃得很素，连葱啊、姜啊都不放。",
        "你们几个莫撞车，排好时间再出门。",
        "那辆大货车一别，我吓出一身白毛汗。",
        "下个月我从台北开车到高雄。",
        "二手书我一般在孔网上淘。",
        "小时候最迷郭靖黄蓉，后来又看李寻欢。",
        "我在孔夫子旧书网上买过一套旧书。",
    ],
)
def test_everyday_words_and_public_figures_are_no_names(zh_names: PersonNameFinder, text: str) -> None:
    assert _found(zh_names, text) == []


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("我同事成龙明天来我家吃饭。", "成龙"),
        ("我朋友莫小雨下周过生日。", "莫小雨"),
        ("连海峰是我大学室友。", "连海峰"),
    ],
)
def test_a_person_who_shares_such_a_word_or_a_figure_name_is_still_found(
    zh_names: PersonNameFinder, text: str, name: str
) -> None:
    assert any(name in found for found in _found(zh_names, text))


@pytest.mark.parametrize(
    ("said", "key", "kind"),
    [
        ("讲真，我同菠萝真系八字唔夹，一见就行开。", "avoid:菠萝", "avoid"),
        ("我跟榴莲八字不合，闻到都想走。", "avoid:榴莲", "avoid"),
        ("红彤彤那种东西我沾一点就胃疼，整晚跑厕所。", "spicy", None),
        ("我妈吃长素，碗里再也没出现过会跑会游的东西。", "meat", "avoid"),
        ("I can't go near anything with a buzz in it, my heart races for hours.", "caffeine", None),
        ("I haven't let a single thing that ever had a face pass my lips in ten years.", "meat", "avoid"),
        ("It's decaf or nowt for me since the palpitations.", "caffeine", "avoid"),
        ("One slimy bite of aubergine and my whole evening is ruined.", "avoid:aubergine", "avoid"),
        ("A tiny bit of kaju in the curry and my throat closes up.", "nuts", "allergy"),
        (
            "She hides khumbi in the pulao and I quietly push my plate away, I can't stand khumbi.",
            "mushrooms",
            None,
        ),
    ],
)
def test_constraints_said_in_other_words_are_read(said: str, key: str, kind: str | None) -> None:
    read = dict(_read(said))
    assert key in read, read
    if kind is not None:
        assert read[key] == kind


def test_a_dish_the_topic_holds_is_read_by_the_topic_alone() -> None:
    read = _read("我对芒果过敏，细个饮咗半碗杨枝甘露成块面肿晒。")
    assert ("mango", "allergy") in read
    assert not any(key.endswith("杨枝甘露") for key, _ in read)
    (mango,) = [c for c in parse_constraints("我对芒果过敏，饮咗杨枝甘露就肿晒。") if c.key == "mango"]
    assert ConstraintSet([mango]).check("可以试试芒果西米露。") is not None


@pytest.mark.parametrize(
    ("said", "not_key"),
    [
        ("奶不管是加在咖啡里还是奶茶里，我喝两口就拉肚子。", "coffee"),
        ("A drop of milk in my coffee and I'm doubled over with cramps.", "coffee"),
        ("上次吃完海鲜，在医院吊了两天盐水。", "salt"),
        ("Not a rasher, not a slice of ham, I never eat anything that had a face.", "meat-intolerance"),
    ],
)
def test_what_a_thing_is_put_in_or_a_remedy_is_no_cause(said: str, not_key: str) -> None:
    read = _read(said)
    if not_key == "meat-intolerance":  # ("rasher" is no rash: a refusal, no reaction)
        assert ("meat", "avoid") in read
    else:
        assert not any(key == not_key for key, _ in read), read


def test_milk_in_coffee_is_still_read_as_dairy() -> None:
    assert ("dairy", "intolerance") in _read("A drop of milk in my coffee and I'm doubled over with cramps.")


def test_the_room_rented_is_the_place_not_a_relatives_town() -> None:
    text = (
        "I'm renting a small room above a bakery on King Street in Newtown, near the station. "
        "My dad in Accra rings every Friday."
    )
    assert ranked_places(text)[0][1] == "Newtown"
    assert ranked_places("My dad in Accra rings every Friday.") == []


def test_a_road_named_after_a_city_is_no_city() -> None:
    assert ranked_places("早上在南京路上堵了半小时。") == []
    assert ranked_places("我上个月刚搬到南京。")[0][1] == "南京"


def test_a_plan_changed_in_cantonese_is_left_out() -> None:
    # (found on a blind split after the A/B: "改咗" is Cantonese for 改了, and the old flight was quoted)
    def said(text: str, when: float, source: str) -> MemoryRecord:
        return MemoryRecord("c1", text, kind="utterance", source=source, created_at=when)  # type: ignore[arg-type]

    old = said("礼拜四夜晚九点落白云机场", 1.0, "t1")
    pick_up = said("我准备揸车去接阿爸", 1.0, "t1")
    change = said("航空公司改咗佢飞去深圳宝安机场", 5.0, "t5")
    when = said("礼拜五朝早八点落地", 5.0, "t5")
    assert without_revised([old, pick_up, change, when]) == [pick_up, change, when]
