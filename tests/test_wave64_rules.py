"""Wave 64: an allergy named by what a test found (验出来就是那个荞麦); a described thing that keeps its own
word (铺的那种毛毛糙糙的地毯); high altitude sworn off, however the person is carried there; Shanghainese
"whoever talks me round again" (啥人再劝我…跟伊翻面孔); "I'd sooner X than ever Y again"; retching at the
least bite; 一口不让碰; likings said as "give me X", "put on X … and I'm gone", 没别的嗜好, 就好往; a home
rented or lived in, and a past visit or a relative's event that is no home; a city and a season that are no
names."""

from __future__ import annotations

import pytest

from voice_agent.conversation.constraints import parse_constraints
from voice_agent.conversation.likings import says_liking
from voice_agent.conversation.place_note import ranked_places
from voice_agent.memory.person_names import PersonNameFinder


def _keys(said: str) -> dict[str, str]:
    return {c.key: c.kind for c in parse_constraints(said)}


@pytest.mark.parametrize(
    ("said", "key", "kind"),
    [
        (
            "我小时候去日本，阿嬷点了一碗灰灰的冷面给我，才吃两口脸就肿得像发糕、喘不过气，直接被送急诊，"
            "后来验出来就是那个荞麦，医生说连荞麦壳做的枕头都不能睡，一躺就会起红疹。",
            "allergy:荞麦",
            "allergy",
        ),
        (
            "侬晓得伐，我顶顶吃不消的就是房间里向铺的那种毛毛糙糙的地毯，一脚踏上去就想到多少人踏过。",
            "avoid:地毯",
            "avoid",
        ),
        (
            "我当时就发了毒誓，这辈子海拔高过两千米的地方，八抬大轿来抬我都不去了。",
            "high altitude",
            "avoid",
        ),
        ("从那天起我讲定了，这辈子啥人再劝我去扎针，我就跟伊翻面孔。", "avoid:扎针", "avoid"),
        (
            "That night I told Mum I'd sooner wrestle a croc than ever stand up and sing by meself in front "
            "of people again.",
            "avoid:sing by meself",
            "avoid",
        ),
        (
            "Everyone goes soft for them little lidded pastries come December, but one bite o' mincemeat and "
            "I'm gipping like the cat wi' a furball.",
            "avoid:mincemeat",
            "avoid",
        ),
        ("现在天天早上扎手指头，一天两顿药，甜的那是一口不让碰。", "sugar", "avoid"),
    ],
)
def test_refusals_said_in_other_words_are_read(said: str, key: str, kind: str) -> None:
    assert _keys(said).get(key) == kind


def test_what_a_story_only_passes_through_is_no_rule() -> None:
    # (the coffee spilt on a carpet, the drive down a mountain in the night: no rule of their own)
    carpet = "我顶顶吃不消的就是房间里向铺的那种毛毛糙糙的地毯，一脚踏上去就想到多少人穿皮鞋踏过、泼过咖啡。"
    assert "coffee" not in _keys(carpet)
    altitude = (
        "前年国庆我跟到朋友去稻城，半夜脑壳痛得要炸，最后抱到氧气罐连夜开车撤下山，我当时就发了毒誓，"
        "这辈子海拔高过两千米的地方，八抬大轿来抬我都不去了。"
    )
    assert "driving" not in _keys(altitude)
    # (the pillow is an example of the grain read already, not a grain of its own cut short)
    buckwheat = "后来验出来就是那个荞麦，医生说连荞麦壳做的枕头都不能睡，一躺就会起红疹。"
    assert [key.split(":")[-1] for key in _keys(buckwheat)] == ["荞麦"]


def test_an_example_after_even_keeps_its_whole_word() -> None:
    assert _keys("我对花生过敏，连花生酱也不能吃。").get("allergy:花生酱") is None
    assert "avoid:花" not in _keys("他说连花生酱也不能碰。")


@pytest.mark.parametrize(
    "said",
    [
        "Me, I don't want no glass-box hotel with a rain shower and a minibar, give me creaky floorboards "
        "and a four-poster older than the Louisiana Purchase.",
        "Put on one of the old ballads, 'The Parting Glass' or 'Carrickfergus', and I'm gone, tears down the "
        "face.",
        "Hand me a battered western paperback with a bit of dust and a six-gun and I'm sweet as for a whole "
        "wet Sunday.",
        "我这个人没别的嗜好，下班就去文庙边那个南音社坐一坐。",
        "俺这人啥都不图，就好往那热乎乎、冒白气的水池子里一坐。",
    ],
)
def test_likings_said_in_other_words_are_read(said: str) -> None:
    assert says_liking(said)


@pytest.mark.parametrize(
    "said",
    ["Give me a minute and I'm gone.", "Pay the bill and I'm gone.", "我没啥爱好。", "我没别的爱好。"],
)
def test_leaving_or_having_no_hobby_is_no_liking(said: str) -> None:
    assert not says_liking(said)


@pytest.mark.parametrize(
    ("said", "place"),
    [
        (
            "嘛呀，上礼拜我去北京出差住那快捷酒店。我现在租的房子在和平区睦南道，五大道里头那种老洋楼。",
            "和平区睦南道",
        ),
        (
            "Since I shifted I'm in this small one-bedroom off Argwings Kodhek in Kilimani, just behind Yaya "
            "Centre.",
            "Kilimani",
        ),
    ],
)
def test_a_home_rented_or_lived_in_is_the_place(said: str, place: str) -> None:
    assert ranked_places(said)[0] == (0, place)


@pytest.mark.parametrize(
    "said",
    [
        "俺们单位上礼拜在洛阳开会，住那宾馆隔音差得很。",
        "欸我跟你讲，上次去台北住的那间商旅，床软到我整个人陷下去。",
        "My cousin is having her wedding at some lakeside hotel in Naivasha next month.",
    ],
)
def test_a_past_visit_or_a_relatives_event_is_no_home(said: str) -> None:
    assert ranked_places(said) == []


def test_a_trip_ahead_or_a_city_settled_in_is_still_a_place() -> None:
    assert ranked_places("我爸妈说干脆全家都去昆明她那儿过年，热闹。")[0][1] == "昆明"
    assert ranked_places("我去年去成都读书了。")[0] == (0, "成都")


@pytest.mark.parametrize(
    "text", ["下个月我爸妈从石家庄过来看我，住五天。", "上海这两天黄梅天，闷得来透不过气。"]
)
def test_a_city_and_a_season_are_no_names(zh_names: PersonNameFinder, text: str) -> None:
    assert [text[s:e] for s, e in zh_names.spans(text)] == []


def test_a_person_from_that_city_is_still_found(zh_names: PersonNameFinder) -> None:
    text = "石家庄的石磊说他下周过来。"
    assert "石磊" in [text[s:e] for s, e in zh_names.spans(text)]
