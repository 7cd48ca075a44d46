"""Wave 39: what a reply's opening names and when, vows and dislikes read in more shapes, likings said
as who the person is, and the place and day said back when the model gives no answer."""

from __future__ import annotations

import pytest

from voice_agent.conversation.acknowledge import acknowledgement
from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints
from voice_agent.conversation.dated_fallback import dated_text
from voice_agent.conversation.likings import says_liking
from voice_agent.conversation.place_note import named_place
from voice_agent.memory.records import MemoryRecord


def _keys(text: str) -> set[str]:
    return {c.key for c in parse_constraints(text)}


def _opening(fact: str, turn: str, language: str = "en") -> str | None:
    constraints = constraints_from_texts([fact])
    found = acknowledgement(constraints.constraints, constraints, language, turn)
    return found.text if found else None


@pytest.mark.parametrize(
    ("text", "key"),
    [
        # the plain verb after a modal, and a name with an accent
        ("I swore I will never touch Jägermeister again, not even a sip.", "avoid:jägermeister"),
        ("I swore to my mother that I'd never put on a pair of heels again as long as I live.",
         "avoid:heels"),
        ("We'll never book that hotel again.", "avoid:hotel"),
        # "now" is no part of the thing
        ("I honestly can't stand Queen now, the second Freddie starts up I'm off to the bar.", "avoid:queen"),
        # the one thing not stood, named after it
        ("我这人什么都吃,就一样儿受不了,螺蛳粉,准确说是里头那酸笋的味儿。", "avoid:螺蛳粉"),
        ("我什么都吃，唯独一样东西碰不得：榴莲。", "avoid:榴莲"),
    ],
)  # fmt: skip
def test_more_vows_and_dislikes_are_read(text: str, key: str) -> None:
    assert key in _keys(text)


def test_no_junk_beside_the_one_thing_and_no_chance_sworn_off() -> None:
    assert _keys("我什么都吃，唯独一样东西碰不得：榴莲。") == {"avoid:榴莲"}
    assert _keys("She'll never have a chance again.") == set()


def test_being_without_in_a_story_is_no_refusal_but_an_order_still_is() -> None:
    story = "I woke up on a stoep in Franschhoek with no shoes, no phone and one eyebrow."
    assert _keys(story) == set()
    assert _keys("We had no water, no signal and no food for two days.") == set()
    assert {"onion", "garlic"} <= _keys("Please make it with no onion, no garlic, ever.")


@pytest.mark.parametrize(
    "text",
    [
        "When we go out I'm a cask ale man through and through, give me a quiet old pub.",
        "I've always been an offal man, me, tripe, kidneys, liver.",
        "Green is my colour lah, since young I wear it.",
        "我是无辣不欢的，早上一碗拌粉都要加两大勺辣椒酱。",
    ],
)
def test_a_liking_said_as_who_the_person_is(text: str) -> None:
    assert says_liking(text)


@pytest.mark.parametrize(
    "text", ["I'm a grown man, I can decide.", "He's a family man.", "I'm a married woman now."]
)
def test_who_someone_is_is_no_liking(text: str) -> None:
    assert not says_liking(text)


def test_a_dislike_or_vow_opening_says_what_it_keeps_off() -> None:
    jager = "I swore I will never touch Jägermeister again, not even a sip."
    turn = "I'm organising a stag do for fifteen of us in Joburg. Any ideas for the day?"
    assert _opening(jager, turn) == (
        "You told me you swore you will never touch Jägermeister again, not even a sip, so no Jägermeister. "
    )
    # an opening built from the kind already says it: "With no zucchini"
    zucchini = "My mother-in-law dropped off another zucchini loaf, but I can't stand zucchini, never could."
    said = _opening(zucchini, "I finally got a plot at the community garden. What should I plant?")
    assert said is not None and "no zucchini" in said


def test_open_advice_names_a_vow_but_one_thing_of_another_kind_does_not() -> None:
    camping = "We are never, ever going camping again."
    noosa = "Me and the boys are heading up to Noosa for the long weekend, what should we get up to?"
    assert _opening(camping, noosa) == "You told me you are never, ever going camping again, so no camping. "
    assert _opening(camping, "Suggest a board game for a rainy day.") is None
    assert (
        _opening("Never recommend horror movies to me.", "Can you recommend a board game for tonight?")
        is None
    )


def test_an_allergy_of_a_known_kind_is_said_with_what_it_keeps_off() -> None:
    said = _opening("My son has a severe peanut allergy.", "What should I bake for his class party?")
    assert said == "You told me your son has a severe peanut allergy, so no nuts. "


def test_a_home_moved_out_of_is_not_where_the_person_lives() -> None:
    text = "Finally moved out of my mam's in Merthyr and into a little terrace in Penarth, near the pier."
    assert named_place(text) == "Penarth"
    assert named_place("We sold the house in Leeds and moved to York.") == "York"


def test_a_weekday_of_another_week_is_not_the_day_of_a_question_that_names_its_own() -> None:
    said = "俺屋今年开春从宝鸡搬到西安临潼了。这礼拜天还得回宝鸡喝喜酒。"
    records = [MemoryRecord("c", said, role="user", source="t1", created_at=1.0)]
    assert dated_text("下个礼拜六想带娃去秦岭野生动物园耍一天,你帮我算算几点出门?", records) == ""
    # a question with no day of its own still gets the only dated statement
    assert "礼拜天" in dated_text("那我哪天有空？", records)
