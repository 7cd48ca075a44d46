"""Wave 63: a drug given, then the body's reaction; "don't be talking to me about"; Cantonese 最憎 … 就系
嗰啲; "whoever asks me again, I'll fight them" (谁再…我跟谁急); an animal by its call (哼哼叫的, 咩咩叫的)
and a refusal of the table (上不了桌); a list of described kinds refused together; what came out of a
wheat field; a bound is no refusal ("no more than an hour's drive"); money refused is no rule; being pushed
to do a thing is the cause of "顶唔顺"; a district on a side of its town; a pet called by the household;
Cantonese particles, dental words and a few places that are no names; a spoken date quoted in digits;
dairy the body cannot take said as 乳糖不耐受."""

from __future__ import annotations

import pytest

from voice_agent.conversation.acknowledge import from_kind
from voice_agent.conversation.constraints import parse_constraints
from voice_agent.conversation.date_note import date_note
from voice_agent.conversation.likings import says_liking
from voice_agent.conversation.pet_names import pet_note
from voice_agent.conversation.place_note import ranked_places
from voice_agent.memory.person_names import PersonNameFinder
from voice_agent.memory.records import MemoryRecord
from voice_agent.text.spoken_dates_en import digit_dates, ordinal_value


def _read(said: str) -> list[tuple[str, str]]:
    return [(c.key, c.kind) for c in parse_constraints(said)]


@pytest.mark.parametrize(
    ("said", "key", "kind"),
    [
        (
            "Since that time in JSS2 when the school nurse gave me one small amoxicillin capsule for "
            "toothache and my whole body came out in welts, my throat started closing.",
            "allergy:amoxicillin",
            "allergy",
        ),
        ("Don't be talking to me about lilies, the big white stargazer yokes.", "avoid:lilies", None),
        ("我最憎就系嗰啲钢丝牙套，中学戴咗两年。", "avoid:钢丝牙套", "avoid"),
        ("我最讨厌就是那些钢丝牙套，中学戴了两年。", "avoid:钢丝牙套", "avoid"),
        ("这辈子谁再撺掇我往牙上抹那玩意儿漂白，我跟谁急。", "avoid:漂白", "avoid"),
        ("谁再叫我去相亲，我就跟他翻脸。", "avoid:相亲", "avoid"),
        ("我们家哼哼叫的那东西的肉从来上不了我们家的桌，酒也是一滴不沾。", "pork", "avoid"),
        ("哪怕隔到三张桌子有人在烤那种咩咩叫的东西，我闻到都想吐。", "lamb", "avoid"),
        ("Bless my stomach, it has declared war on anything that came out of a wheat field.", "gluten", None),
    ],
)
def test_constraints_said_in_other_words_are_read(said: str, key: str, kind: str | None) -> None:
    found = dict(_read(said))
    assert key in found, found
    if kind is not None:
        assert found[key] == kind


def test_each_kind_of_a_list_refused_together_is_read() -> None:
    said = "I haven't let a thing that ever had a mammy, or laid an egg, or gave milk, near my plate."
    assert {"meat", "fish", "eggs", "dairy"} <= dict(_read(said)).keys()
    # (described without a refusal: nothing kept off)
    assert _read("The hen that laid an egg this morning is called Bessie.") == []


@pytest.mark.parametrize(
    "said",
    [
        "I want to get away for a wild camping weekend, no more than about an hour and a half's drive.",
        "No more than two hours in the car, please.",
        "The old fella won't take a cent for it, and his cattle dog Biscuit sits under our awning.",
        "我表姐最钟意行山露营，装备多到成间屋都系帐篷炉头。我阿妈又话要我去相亲，真系顶唔顺。",
        "隔壁那只哼哼叫的猪又跑出来了。",
        "我最恨他了。",
    ],
)
def test_a_bound_money_refused_or_a_nag_is_no_rule(said: str) -> None:
    assert _read(said) == []


def test_refusals_of_the_same_shape_are_still_read() -> None:
    assert "coffee" in dict(_read("no more coffee for me."))
    assert "dairy" in dict(_read("I can't have any dairy."))


def test_a_district_is_said_with_the_town_on_whose_side_it_is() -> None:
    said = "After the divorce I got myself a wee house in Dalneigh on the west side of Inverness."
    assert ranked_places(said) == [(1, "Dalneigh, Inverness")]
    assert ranked_places("I live in Stoke on Trent.") == [(0, "Stoke on Trent")]
    assert ranked_places("We moved to Southend-on-Sea last year.") == [(0, "Southend-on-Sea")]


def _said(text: str) -> MemoryRecord:
    return MemoryRecord("c1", text)


def test_a_pet_called_by_the_household_is_named_for_the_turn() -> None:
    told = _said("我屋里那只黑猫，登记卡上的大名叫“黑旋风”，但是屋里从上到下都喊它“煤球”，一喊就下来了。")
    turn = "我屋里猫下礼拜二要去宠物医院洗牙。帮我写一张贴在航空箱上的小卡片。"
    assert pet_note(turn, [told], "zh") == "猫咪的名字：煤球。"
    assert pet_note("帮我给狗狗写个生日卡片。", [told], "zh") == ""


@pytest.mark.parametrize(
    "text",
    [
        "我屋里猫下礼拜二要去宠物医院全麻洗牙，还要拔一颗坏牙。",
        "屋企啲衫晾咗三日都未干，成屋霉味。",
        "我最憎就系嗰啲钢丝牙套，中学戴咗两年。",
        "看大唐不夜城那些穿唐制婚服的小两口。",
        "八月我跟媳妇在塞罕坝订了个房车营地住三晚。",
    ],
)
def test_everyday_words_are_no_names(zh_names: PersonNameFinder, text: str) -> None:
    assert [text[s:e] for s, e in zh_names.spans(text)] == []


@pytest.mark.parametrize(("text", "name"), [("戴军明天来。", "戴军"), ("我朋友麻晓明也去。", "麻晓明")])
def test_people_with_those_surnames_are_still_found(zh_names: PersonNameFinder, text: str, name: str) -> None:
    assert name in [text[s:e] for s, e in zh_names.spans(text)]


def test_a_spoken_date_is_quoted_in_digits() -> None:
    told = _said("Me and Jess are tying the knot on the Saturday, twenty-first of March, at the winery.")
    asked = "Can you make me a countdown checklist for the wedding with actual dates on everything?"
    note = date_note(asked, [told], "en")
    assert "21 March" in note and "twenty-first" not in note
    assert digit_dates("the first may be the hardest") == "the first may be the hardest"
    assert digit_dates("March the third and the thirty-first of December") == "3 March and 31 December"
    assert [ordinal_value(w) for w in ("first", "twelfth", "twentieth", "twenty first", "thirty-first")] == [
        1, 12, 20, 21, 31,
    ]  # fmt: skip


def test_dairy_the_body_cannot_take_is_said_as_lactose() -> None:
    (dairy,) = parse_constraints("我喝一口牛奶肚子就咕噜咕噜，一上午跑八趟厕所。")
    assert dairy.key == "dairy" and dairy.kind == "intolerance"
    assert from_kind(dairy, "zh") == "因为你说过对乳糖不耐受，"


def test_a_happy_man_given_his_things_likes_them() -> None:
    said = "See me, gie me a glitter ball, a pair of flares and the Bee Gees and I'm a happy man."
    assert says_liking(said)
    assert says_liking("Give me a flask of rooibos, my old binos and a hide, and I'm a lekker happy oke.")
    assert not says_liking("I am one unhappy man today.")


def test_a_short_form_of_a_name_found_is_hashed_too() -> None:
    finder = PersonNameFinder()
    finder.start(["en"])
    text = "The old fella on the next site, Mervyn Pilkington, Merv to the whole park, is a sparkie."
    assert [text[s:e] for s, e in finder.spans(text)] == ["Mervyn Pilkington", "Merv"]
    text = "Steffen Mauer is coming, and Steff will bring the cake."
    assert "Steff" in [text[s:e] for s, e in finder.spans(text)]
