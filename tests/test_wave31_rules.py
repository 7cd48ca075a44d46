"""Wave 31: places named in passing in a story of being unwell are no rules; a list of things kept off is
read to its end and said back whole."""

from __future__ import annotations

import pytest

from voice_agent.conversation.acknowledge import acknowledgement, from_kind
from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints
from voice_agent.conversation.likings import says_liking
from voice_agent.conversation.recall_answer import said_back
from voice_agent.conversation.related_tie import related_statement
from voice_agent.conversation.reminders import guided_constraints
from voice_agent.memory.records import MemoryRecord


def _keys(text: str) -> set[str]:
    return {c.key for c in parse_constraints(text)}


def _opening(fact: str, turn: str, language: str = "en") -> str:
    constraints = constraints_from_texts([fact])
    said = acknowledgement(guided_constraints(constraints, [fact], turn), constraints, language, turn)
    return said.text if said else ""


@pytest.mark.parametrize(
    ("text", "not_read"),
    [
        # a town's name
        (
            "One wee dram at my cousin's ceilidh and I came out in red blotches up my neck, then spent half "
            "the night being sick in my auntie's downstairs loo in Broughty Ferry.",
            "boats",
        ),
        # a likeness, and the reaction told in the next sentence
        (
            "Only seat left was facing backwards, ended up standing in the vestibule with my forehead on the "
            "window like a sad dog. Always been like that: if I'm going backwards, I'm sick, full stop.",
            "dogs",
        ),
        # a job, a whole clause away from the swelling
        (
            "But since I retired off the buses the GP's had me on blood pressure tablets, and every time I "
            "had a bag of the stuff my ankles swelled up like balloons and the numbers went sky high.",
            "coaches",
        ),
    ],
)
def test_a_place_or_animal_named_in_passing_beside_a_symptom_is_no_rule(text: str, not_read: str) -> None:
    assert not_read not in _keys(text)


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("I get sick on every ferry, even the short ones.", "boats"),
        ("Dogs make me sneeze like mad.", "dogs"),
        # a refusal that points back at the sentence before
        ("Stairs are a different matter altogether. I can't do them. Not a single flight.", "stairs"),
    ],
)
def test_a_place_or_animal_said_with_its_reaction_or_refused_is_still_a_rule(text: str, read: str) -> None:
    assert read in _keys(text)


def test_a_drink_at_odds_after_a_dash_is_read_with_its_reaction() -> None:
    fact = (
        "Honestly, I'm the worst Scot going — whisky and me just do not get on. One wee dram and I came "
        "out in red blotches, then spent half the night being sick."
    )
    assert ("intolerance", "intolerance:whisky") in {(c.kind, c.key) for c in parse_constraints(fact)}


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("No onion, no garlic, nothing non-veg, not even eggs, and chai is gone too.",
         {"onion", "garlic", "meat", "eggs"}),
        ("Mum's rule: no meat, no fish, no eggs, and no onion or garlic either.",
         {"meat", "fish", "eggs", "onion", "garlic"}),
        ("So it's no meat, no fish, no eggs, and not even onion, garlic or mushrooms now.",
         {"meat", "fish", "eggs", "onion", "garlic", "mushrooms"}),
        ("My mum's strict: no beef in the house, ever, not even a stock cube.", {"beef", "avoid:stock cube"}),
    ],
)  # fmt: skip
def test_a_list_of_things_kept_off_is_read_to_its_end(text: str, read: set[str]) -> None:
    assert read <= _keys(text)


@pytest.mark.parametrize(
    ("text", "not_read"),
    [
        # what is allowed after the list
        ("So that's no meat, no dairy, no sugar, nothing with yeast, no coffee, just fruit, vegetables, "
         "whole grains, beans and water.", {"avoid:vegetables", "avoid:beans", "avoid:water"}),
        # circumstances, not things
        ("They're devout, so no coffee, no tea, and absolutely no alcohol, not even a splash in a sauce.",
         {"avoid:splash in a sauce", "avoid:splash"}),
        ("So no roti, no naan, no chapati, nothing made with atta.", {"avoid:made with atta", "avoid:made"}),
    ],
)  # fmt: skip
def test_a_list_ends_where_the_things_kept_off_end(text: str, not_read: set[str]) -> None:
    keys = _keys(text)
    assert len(keys) >= 3 and not keys & not_read


def test_the_opening_names_the_things_a_statement_keeps_off_together() -> None:
    fact = (
        "Since Ba passed I took the kanthi at the mandir, so I'm strict now. No meat, no eggs, and no "
        "onion or garlic at all, not even a little bit in the tarka."
    )
    turn = "My two granddaughters want me to teach them to cook on Sunday. Suggest three dishes we can make."
    opening = _opening(fact, turn)
    assert opening.startswith("With no ") and opening.endswith(", as you told me, ")
    assert {"meat", "eggs", "onion"} <= set(opening.replace(",", " ").split())
    # (what it says passes the check that keeps those things out of the reply)
    assert constraints_from_texts([fact]).check(opening) is None


def test_a_single_thing_kept_off_is_named_alone() -> None:
    fact = "Oh, and heads up, she absolutely hates olives. Green, black, kalamata, doesn't matter."
    turn = "I'm putting together a grazing board for her book club night. What should go on it?"
    assert _opening(fact, turn) == "With no olives, as you told me, "


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("这辈子打死再也不睡上铺了。", "avoid:上铺"),
        ("这辈子我再也不玩那种整人的堵门游戏了。", "avoid:堵门游戏"),
        ("我跟室友们发誓，网上平台约的保洁再也不约了。", "avoid:保洁"),
        # (a lecture is no "seat": 讲座 is not 讲 + 座)
        ("这辈子再也不进那种讲座、体验馆了。", "avoid:讲座"),
        ("这辈子再也不进那种讲座、体验馆了。", "avoid:体验馆"),
        ("唯独活珠子，打死我都下不去嘴。", "avoid:活珠子"),
        ("讲真，英语角那种地方我这辈子都不会再去了。", "avoid:英语角"),
        ("黑坑我这辈子再也不去了！", "avoid:黑坑"),
        ("这辈子我再也不在直播间买东西了，尤其是宝宝用的。", "avoid:直播间"),
        ("我再也不在闲鱼上买手机了。", "avoid:闲鱼"),  # (an app, no fish)
        ("发誓这辈子再也不碰任何抽卡游戏。", "avoid:抽卡游戏"),  # (any of them: the kind is the thing)
        ("我最烦那种民谣，啥《成都》《南山南》，矫情得很。", "avoid:南山南"),  # (the songs it names)
        ("我这人打小就怕芋头，那口感粉粉糊糊的。", "avoid:芋头"),
    ],
)
def test_a_chinese_vow_or_aversion_names_its_thing(text: str, read: str) -> None:
    assert read in _keys(text)


@pytest.mark.parametrize(
    "text",
    [
        "别跟我提三里屯，这辈子再也不去了。",  # (the place is named before: "这辈子" is no thing)
        "我从小就怕麻烦，吃饭都随便。",
        "这辈子再也不租二房东和什么长租公寓的房子了。",
    ],
)
def test_what_is_no_thing_in_a_chinese_vow_is_not_read(text: str) -> None:
    assert not _keys(text) & {"avoid:这辈子", "avoid:麻烦", "avoid:房子"}


def test_mushrooms_that_leave_him_doubled_over_are_an_intolerance() -> None:
    fact = (
        "So Dennis is finally admitting it: it's the mushrooms. Every single time, the portobello burgers at "
        "the church picnic, that stroganoff his sister makes, he's doubled over by bedtime."
    )
    assert "mushrooms" in _keys(fact)


def test_what_everyone_around_likes_is_not_the_persons_liking() -> None:
    assert not says_liking("Everybody here is nuts about pickleball.")
    assert not says_liking("大家都特别喜欢打麻将。")
    assert says_liking("I'm nuts about pickleball.")
    assert says_liking("They're obsessed with dinosaurs, both of them.")  # (their kids: theirs to say)


@pytest.mark.parametrize(
    ("fact", "key", "offered"),
    [
        # a family the GP named: chamomile is one of it
        ("Turns out I'm the same with camomile, one cup and my lips blew up, throat went all tight. GP "
         "said it's the daisy family, same lot as ragweed.", "daisy family", "Try a cup of chamomile tea."),
        # the fruit told by the drink it was in, the family by its allergen
        ("Last year after one mango lassi my whole face swelled and I got hives. The allergist said it's "
         "the same urushiol family as poison ivy.", "mango", "Serve a mango sorbet."),
        # the person's own sure conclusion, with a reaction told before it
        ("I was glued to the loo half the night. Same thing happened with sugar-free mints last year, so "
         "it's defo the sweeteners.", "sugar alcohols", "Grab some sugar-free gummies."),
    ],
)  # fmt: skip
def test_a_reaction_rules_out_the_family_it_was_told_of(fact: str, key: str, offered: str) -> None:
    constraints = constraints_from_texts([fact])
    assert key in {c.key for c in constraints.constraints}
    assert constraints.check(offered) is not None


@pytest.mark.parametrize(
    "text",
    [
        "My lips blew up like I'd had filler.",  # (a likeness: nothing was had)
        "Ugh, my cousin Priya keeps sending me links at 2am. My lips puff up and itch like crazy.",
        "The boiler's packed in, so it's showers at the gym all week. My stomach's in bits.",
    ],
)
def test_what_is_no_cause_beside_a_reaction_is_not_read(text: str) -> None:
    assert not {k for k in _keys(text) if k.split(":")[-1] in ("filler", "cousin priya", "showers")}


def test_small_talk_of_the_moment_is_not_said_back_for_a_request() -> None:
    told = [
        MemoryRecord("c1", "这两天兰州风大，阳台上晾的被单都刮跑了一条。", source="t0", created_at=100.0),
        MemoryRecord("c1", "我孙子在上海，明年上小学。", source="t1", created_at=101.0),
    ]
    asked = "下个月我得从兰州坐火车去上海给孙子过周岁，你帮我琢磨琢磨票咋买？"
    said = related_statement(asked, told, "zh")
    assert "风大" not in said and "孙子" in said


def test_a_statement_without_its_subject_is_said_back_as_the_persons() -> None:
    said = said_back("Retired from the post office in June and I'm finally learning the fiddle.", "en")
    assert (
        said == "You told me you retired from the post office in June and you're finally learning the fiddle."
    )


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("Never again, man. I'm done with crowdfunding, full stop.", "avoid:crowdfunding"),
        (
            "I've told Jack straight: he is never, ever doing Schoolies at Surfers Paradise.",
            "avoid:schoolies",
        ),
        ("Lovely boat, but I told him, never again for me in a tunnel.", "caves"),
    ],
)
def test_an_english_vow_names_its_thing(text: str, read: str) -> None:
    assert read in _keys(text)


@pytest.mark.parametrize(
    ("fact", "language", "said"),
    [
        ("Dez has gone full Rasta, he keeps Ital now: no meat, no salt, no rum.", "en",
         "Since they're keeping Ital, "),
        ("I keep Ital these days, natural food only, no salt, and my dreads are down to my waist.", "en",
         "Since you're keeping Ital, "),
        ("我婆婆吃素好多年了，荤腥一点不沾。", "zh", "因为你婆婆吃素，"),
        ("我吃素好多年了，荤腥一点不沾。", "zh", "因为你吃素，"),
    ],
)  # fmt: skip
def test_a_diet_is_named_as_the_persons_only_when_it_is_theirs(fact: str, language: str, said: str) -> None:
    diet = next(c for c in parse_constraints(fact) if c.kind == "diet")
    assert from_kind(diet, language) == said


@pytest.mark.parametrize(
    ("told", "said"),
    [
        ("Sold the flat in Dennistoun and moved up to Stornoway.",
         "You told me you sold the flat in Dennistoun and moved up to Stornoway."),
        ("Booked my hair for Diwali.", "You told me you booked your hair for Diwali."),
    ],
)  # fmt: skip
def test_every_subjectless_start_is_said_back_lowered(told: str, said: str) -> None:
    assert said_back(told, "en") == said
