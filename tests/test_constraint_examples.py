"""Things named as examples of a rule, and the rule said in more spoken shapes, become checks on replies."""

from __future__ import annotations

import pytest

from voice_agent.conversation.constraint_examples import listed_examples
from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints


def _keys(text: str) -> list[str]:
    return [c.key for c in parse_constraints(text)]


@pytest.mark.parametrize(
    ("text", "items"),
    [
        ("He's not allowed anything sticky now, so popcorn, toffees, chewing gum, nuts, the lot.",
         ["popcorn", "toffees", "chewing gum", "nuts"]),
        ("Blue cheese I cannot do. Stilton, gorgonzola, any of those veiny ones.", ["Stilton", "gorgonzola"]),
        ("She's allergic to a few fruits, like kiwi, mango and pineapple.", ["kiwi", "mango", "pineapple"]),
        ("I can't eat anything fried, chips, doughnuts, that sort of thing.", ["chips", "doughnuts"]),
        ("I'm allergic to shellfish: prawns, crab, lobster.", ["shellfish", "prawns", "crab", "lobster"]),
    ],
)  # fmt: skip
def test_a_list_right_after_a_rule_is_examples_of_it(text: str, items: list[str]) -> None:
    assert listed_examples(text) == items


@pytest.mark.parametrize(
    "text",
    [
        # the list is what the party has, not what the rule names
        "My kid is allergic to nuts, so for his party we're doing pizza, chips, cake and ice cream.",
        # what the person does eat
        "I'll eat pretty much anything, snails, black pudding, tripe, you name it.",
        # a single thing is no list
        "I hate cilantro, it tastes like soap.",
    ],
)
def test_other_lists_are_not_examples(text: str) -> None:
    assert listed_examples(text) == []


def test_examples_are_checked_like_the_rule() -> None:
    said = (
        "The orthodontist sent us home with a list of what he's not allowed now, anything hard or chewy "
        "or sticky, so popcorn, toffees, chewing gum, nuts, the lot, or he'll snap a bracket."
    )
    rules = constraints_from_texts([said])
    assert rules.check("Bring a big tub of popcorn and some toffees.") is not None
    assert rules.check("Bring some peanut butter cups.") is not None  # "nuts" is the known topic
    assert rules.check("Bring yoghurt tubes, bananas and chocolate buttons.") is None


def test_a_kind_of_a_topic_disliked_is_not_the_whole_topic() -> None:
    said = (
        "I'll eat pretty much anything, snails, black pudding, tripe, you name it, but blue cheese I "
        "cannot do. Stilton, gorgonzola, any of those mouldy-veined ones, the smell alone makes me gag."
    )
    assert _keys(said) == ["avoid:blue cheese", "avoid:stilton", "avoid:gorgonzola"]
    rules = constraints_from_texts([said])
    assert rules.check("Put out a mature cheddar, a creamy brie and some grapes.") is None
    assert rules.check("A wedge of Stilton with oatcakes is a classic.") is not None
    assert rules.check("Add some blue cheese with honey.") is not None
    assert "dairy" in _keys("Cheese I can't stand.")  # the whole topic, named alone


def test_one_thing_refused_for_good() -> None:
    assert _keys("Oh and while I think of it, no musicals. Ever. I sat through Mamma Mia twice.") == [
        "avoid:musicals"
    ]
    assert _keys("No karaoke, ever, my voice is awful.") == ["avoid:karaoke"]
    assert _keys("Mornings I can't do, I'm a night owl.") == []  # "can't do" without food talk


def test_pulses_and_fruits_with_their_dishes() -> None:
    avocado = (
        "I found out the hard way that avocado and me don't mix. Had a bit of guac at a barbecue and my "
        "lips blew up, so now I've got an EpiPen."
    )
    rules = constraints_from_texts([avocado])
    assert [c.key for c in rules.constraints] == ["avocado"]
    assert rules.check("Serve tacos with a big bowl of guacamole.") is not None
    pulses = constraints_from_texts(["Any day I have hummus, a dal or a falafel wrap, I'm bloated by noon."])
    assert {c.key for c in pulses.constraints} == {"chickpeas", "lentils"}
    assert pulses.check("Try a red lentil soup.") is not None
    assert pulses.check("Try a quinoa salad with roast squash.") is None


def test_chinese_condition_and_not_even_examples() -> None:
    said = "我们家小宝是蚕豆病，医生说蚕豆是一口都不能沾的，连兰花豆那种蚕豆做的零食也不行。"
    rules = constraints_from_texts([said])
    assert {c.key for c in rules.constraints} >= {"fava"}
    assert rules.check("可以做个蚕豆炒鸡蛋。") is not None
    assert rules.check("零食带点兰花豆吧。") is not None
    assert rules.check("因为小宝有蚕豆病，推荐清炒豆苗。") is None
    # "连…也不行" beside no rule is about something else
    assert parse_constraints("这周太忙了，连周末也不行。") == []


def test_feeding_a_baby_is_not_dairy() -> None:
    said = "冰的凉的一口不让碰，辣的也不行，说是喂奶孩子也受不了。"
    assert "dairy" not in _keys(said)
    assert {"spicy", "cold"} <= set(_keys(said))


def test_a_snack_is_no_negation() -> None:
    rules = constraints_from_texts(["我对花生过敏。"])
    assert rules.check("零食带点花生吧。") is not None  # 零 in 零食 is no "zero"
    assert rules.check("选零坚果的零食。") is None  # a real "zero" still negates


def test_a_thing_at_odds_with_the_person_beside_a_reaction() -> None:
    said = (
        "Tomatoes and me have basically fallen out. Anything tomatoey, pasta sauce, pizza, ketchup, even a "
        "spoon of salsa, and I'm up half the night with heartburn."
    )
    rules = constraints_from_texts([said])
    assert {"intolerance:tomatoes", "intolerance:pizza", "intolerance:ketchup"} <= set(_keys(said))
    assert rules.check("Try a pizza with tomato sauce.") is not None
    assert rules.check("A creamy mushroom risotto.") is None
    assert _keys("My sister and I fell out last year and I felt sick about it.") == []
    assert _keys("Avocado and me don't mix, my lips blew up last time.") == ["avocado"]


def test_the_taste_of_a_thing_is_the_thing() -> None:
    assert set(_keys("I honestly can't stand the taste of coconut.")) == {"avoid:coconut"}
    rules = constraints_from_texts(["I honestly can't stand the taste of coconut."])
    assert rules.check("Make a Thai green curry with coconut milk.") is not None


def test_a_reaction_after_eating_names_the_food_and_a_clinic_is_no_food() -> None:
    said = (
        "They gave the kids strawberries at nursery on Tuesday and by pick-up her whole face had come up in "
        "big red welts. The GP's referred us to the allergy clinic."
    )
    assert _keys(said) == ["allergy:strawberries"]
    assert constraints_from_texts([said]).check("Put strawberries and grapes on the platter.") is not None
    assert _keys("I had a cold and my throat was sore all week.") == []
    assert _keys("He had a fall and his wrist swelled up.") == []


def test_given_up_for_a_while_and_citrus() -> None:
    assert _keys("So I've only gone and given up chocolate for Lent.") == ["avoid:chocolate"]
    assert _keys("I gave up my job for a month of travel.") == []
    citrus = (
        "It's the citrus again: orange juice and I had three ulcers by Monday. Lemon in my water does it, so "
        "it's all off the menu for me now."
    )
    rules = constraints_from_texts([citrus])
    assert [c.key for c in rules.constraints] == ["citrus"]
    assert rules.check("Get a fresh orange and ginger juice.") is not None
    assert rules.check("Get an apple, carrot and beetroot juice.") is None


def test_the_safe_sentence_says_back_only_the_sentence_of_the_rule() -> None:
    from voice_agent.conversation.acknowledge import stating_sentences

    said = "别的茶还行，一喝绿茶就胃疼，反酸能反一下午。上回客户送了两盒明前龙井，我一口没敢动。"
    (rule,) = constraints_from_texts([said]).constraints
    assert stating_sentences(rule) == "别的茶还行，一喝绿茶就胃疼，反酸能反一下午。"
