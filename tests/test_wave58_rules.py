"""Wave 58's readers: a dislike said first and judged after ("Liquorice, though, I'd sooner lick the bottom of
a bin", "spiders, roaches, beetles… I just cannot abide 'em", "那个榴莲哦，我硬是遭不住"); what is had
instead is no trigger ("…so now I take my filter coffee black"); "anything from the pig … cannot" keeps
pork off; likings said as "if you cut me I'd bleed cardamom", "give me one of those Korean thrillers … and
I'm a happy oke", "碰到桂花就没骨头的"; and a request said in the imperative is never answered "Got it."."""

from __future__ import annotations

import pytest
from test_reply_check import ScriptedLlm

from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints
from voice_agent.conversation.echo import orders
from voice_agent.conversation.food_requests import names_food
from voice_agent.conversation.likings import says_liking
from voice_agent.conversation.reply_check import NOTED, ReplyCheck
from voice_agent.metrics.trace import TurnTrace


def _keys(text: str) -> set[str]:
    return {c.key for c in parse_constraints(text)}


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Liquorice, though, honest to God, I'd sooner lick the bottom of a bin.", "avoid:liquorice"),
        ("Marmite? I'd sooner drink bleach.", "avoid:marmite"),
        ("I'd sooner drink bleach than eat another olive.", "avoid:olive"),
        (
            "I dunno what it is, but that cinema popcorn, the squeak of it, the fake butter stink, "
            "I'd honestly rather chew on a thong.",
            "avoid:cinema popcorn",
        ),
        (
            "Anything with more than four legs, spiders, roaches, beetles, those crickets that jump right at "
            "you, I just cannot abide 'em.",
            "avoid:roaches",
        ),
        (
            "Anything that tastes like black licorice, I'm out: my Nonna's pizzelles and all.",
            "avoid:black licorice",
        ),
        ("那个榴莲哦，我硬是遭不住，隔三间屋都闻得到那股味道。", "avoid:榴莲"),
    ],
)
def test_a_dislike_said_first_and_judged_after(text: str, key: str) -> None:
    assert key in _keys(text)


@pytest.mark.parametrize(
    "text",
    [
        "Honestly, I'd rather die.",  # no thing
        "Sundays, I'd rather sleep in.",  # a preference for something else, no disgust
        "We went there last week, I'd rather eat at home.",
    ],
)
def test_a_plain_preference_keeps_nothing_off(text: str) -> None:
    assert not [c for c in parse_constraints(text) if c.kind == "avoid"]


def test_what_is_had_instead_is_no_trigger() -> None:
    text = (
        "one glass of full-cream milk or a plate of paneer and my stomach starts its own drum concert, "
        "bloated like a balloon, so now I take my filter coffee black."
    )
    keys = _keys(text)
    assert "dairy" in keys and "coffee" not in keys


def test_anything_from_the_pig_refused_after_it() -> None:
    assert "pork" in _keys(
        "Since small my mak drilled it into me: anything from the pig or cooked in its fat cannot."
    )
    assert "pork" not in _keys("We got a kitten from the pig farm down the road.")


@pytest.mark.parametrize(
    "text",
    [
        "If you cut me I'd bleed cardamom, I swear: it goes in my coffee, my pancakes, the waffles.",
        "The blockbusters put me to sleep, but give me one of those Korean thrillers with subtitles, Oldboy, "
        "anything with a twist, and I'm a happy oke.",
        "我这个人碰到桂花就没骨头的，糖桂花我一年要熬好几罐。",
        "我闻到那股香就走不动路。",
    ],
)
def test_a_liking_said_as_an_idiom(text: str) -> None:
    assert says_liking(text)


@pytest.mark.parametrize(
    ("turn", "ordered"),
    [
        ("Four of us are off camping for the weekend. Plan our meals from Friday to Sunday.", True),
        ("Today is Monday May 19, so build me a week-by-week practice schedule.", True),
        ("Honestly, give me a trail and a pair of boots and I'm happy.", False),
        ("My mum gave me a scarf for Christmas.", False),
    ],
)
def test_a_request_in_the_imperative_orders(turn: str, ordered: bool) -> None:
    assert orders(turn) is ordered


async def test_a_request_in_the_imperative_is_never_answered_got_it() -> None:
    """The model only said the request back: a statement would be noted ("Got it."), a request is asked
    again and, failing that, answered with the fallback."""
    turn = "Four of us are off camping for the weekend. Plan our meals from Friday to Sunday."
    llm = ScriptedLlm(turn, turn)
    check = ReplyCheck(constraints_from_texts([]), "en", TurnTrace("g"), user_words=turn)
    said = "".join([text async for text in check.run([{"role": "user", "content": turn}], llm)])
    assert said.strip() != NOTED["en"].strip() and len(llm.calls) == 2


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("我当场对天发誓，这辈子再睡帐篷我就是小狗。", "camping"),
        ("再骑电瓶车我就不姓沈。", "avoid:电瓶车"),
        # (the kinds between the thing and the vow; "吓人的片子" keeps off the scary ones, not films)
        ("我当场发毒誓：吓人的片子，鬼也好僵尸也好，这辈子再也不看了。", "avoid:吓人的片子"),
        ("我当场发毒誓：吓人的片子，鬼也好僵尸也好，这辈子再也不看了。", "avoid:僵尸"),
        # (stretchy cheese retched at is dairy, not the fish of the father's new hobby after it)
        ("就是那种拉丝拉得老长的芝士，披萨上糊一层我看到就想呕。我屋头老汉儿最近迷上钓鱼。", "dairy"),
    ],
)
def test_a_chinese_vow_or_retch_names_its_thing(text: str, key: str) -> None:
    keys = _keys(text)
    assert key in keys and "avoid:片子" not in keys and "fish" not in keys


def test_a_vow_by_a_surname_needs_an_act_of_the_person() -> None:
    assert not _keys("他再上班迟到就不是人。")


def test_never_missing_a_showing_is_a_liking() -> None:
    assert says_liking("但只要是一笔一笔画出来的，龙猫啊、千与千寻啊，这类片子重映我是一场都不落的。")


@pytest.mark.parametrize(
    ("turn", "food"),
    [
        ("Plan the night for me and eight pals, including where we grab a bite beforehand.", True),
        ("And what should I get at the sweetie counter?", True),
        ("Which film should we see after bowling?", False),
    ],
)
def test_a_night_out_names_its_food(turn: str, food: bool) -> None:
    """(a nut allergy opens the plan of a night out with a bite and the sweetie counter in it)"""
    assert names_food(turn) is food


@pytest.mark.parametrize(
    ("text", "key"),
    [
        # (a falling-out told as a marriage is no thing eaten; a likeness and the labels read are no cause)
        (
            "My guts and wheat had a messy divorce a few years back: one slice of a mate's birthday sponge "
            "and I'm blown up like a puffer fish, so now I squint at the back of every soy sauce bottle.",
            "gluten",
        ),
        (
            "I swore to A&E that I'd never again throw a leg over anything with two wheels and an engine.",
            "avoid:motorbike",
        ),
        ("Durian, though? Nah, son. My boy brought one back from Chinatown.", "avoid:durian"),
        ("臭豆腐喔，拜托，那个味道我闻到就想吐，根本是水沟加臭袜子的综合体。", "avoid:臭豆腐"),
        ("我这个人天生跟咖啡因八字不合，一杯美式咖啡下去，心脏就跳得跟打鼓一样。", "caffeine"),
        ("我们家是老回回，从我太爷那辈起屋里的锅就干干净净。", "diet:halal"),
        ("一小口啤的下肚脸就红得跟猴腚似的，浑身起红疙瘩，大夫说我缺那个解酒的酶。", "alcohol"),
    ],
)
def test_blind_misses_of_wave_58_are_read(text: str, key: str) -> None:
    keys = _keys(text)
    assert key in keys
    assert not {"intolerance:messy divorce", "fish", "soy", "avoid:leg over", "driving"} & keys


@pytest.mark.parametrize(
    "text", ["Coffee? No thanks, I'm fine.", "Is it raining? Nope.", "Sundays? Not for me."]
)
def test_a_polite_no_keeps_nothing_off(text: str) -> None:
    assert not _keys(text)
