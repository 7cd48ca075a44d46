"""Wave 42: turns asking for a walk-through ("give me a run-down of how to do the visit") are read as asking
for a plan, so a thing the person keeps off shapes the answer."""

from __future__ import annotations

import pytest

from voice_agent.conversation.acknowledge import acknowledgement
from voice_agent.conversation.constraints import ConstraintSet, constraints_from_texts, parse_constraints
from voice_agent.conversation.likings import _commas_of_liking, liking_tie, says_liking
from voice_agent.conversation.recall_answer import said_back
from voice_agent.conversation.related_tie import related_statement
from voice_agent.conversation.reminders import asks_plan, guided_constraints, liked_fact, turn_guidance
from voice_agent.conversation.turn_compose import remembered_fallback, turn_place
from voice_agent.memory.records import MemoryRecord
from voice_agent.prompt import BuiltPrompt

LIFT = (
    "Ever since I got stuck in that lift at work for two and a half hours last winter, I won't get in one "
    "ever again, I take the stairs every single time even if it's fifteen floors."
)


def _opening(facts: list[str], turn: str, language: str = "en") -> str | None:
    constraints = constraints_from_texts(facts)
    said = acknowledgement(guided_constraints(constraints, facts, turn), constraints, language, turn)
    return said.text if said else None


@pytest.mark.parametrize(
    "turn",
    [
        "Can you give me a run-down of how to do the visit: parking, getting up to her ward, what to bring?",
        "Talk me through the day, would you?",
        "Walk us through the move step by step.",
        "What's the game plan for Saturday?",
    ],
)
def test_a_walk_through_is_a_plan(turn: str) -> None:
    assert asks_plan(turn)


@pytest.mark.parametrize("turn", ["The run of bad luck continues.", "I walked through the park today."])
def test_no_walk_through_is_no_plan(turn: str) -> None:
    assert not asks_plan(turn)


def test_a_vow_shapes_a_run_down() -> None:
    said = _opening(
        [LIFT],
        "My nan is up on level 10 at the hospital. Can you give me a run-down of how to do the visit: "
        "parking, getting up to her ward, what to bring and how long to stay?",
    )
    assert said is not None and "lift" in said.lower()


PEPPER = (
    "My brother, NEPA took light for three days straight last week, the generator was groaning like an "
    "old man "
    "and I no fit sleep. You know me now, if food no get pepper, e no be food; I dey carry my own bottle of "
    "pepper sauce and dried scotch bonnet everywhere, even to my colleague's wedding in Abuja, and I go pour "
    "am on jollof, on eggs, on anything."
)
GALLEY = (
    "Me and three of my guys have chartered a sailboat for a week in June. Can you give me a week of easy "
    "galley dinners and a shopping list for the first market run?"
)


@pytest.mark.parametrize(
    "text",
    [
        PEPPER,
        "I put hot sauce on everything.",
        "She brings her own teabags everywhere she goes.",
        "我吃饭啥菜都要加辣。",
    ],
)
def test_never_without_it_is_a_liking(text: str) -> None:
    assert says_liking(text)


@pytest.mark.parametrize(
    "text",
    ["I carry my own inhaler everywhere.", "I take my own bags everywhere.", "Put a lid on everything."],
)
def test_what_is_carried_for_health_or_tidiness_is_no_liking(text: str) -> None:
    assert not says_liking(text)


def test_a_liking_is_said_back_after_a_meal_plan_that_ignored_it() -> None:
    liked = liked_fact([PEPPER], GALLEY)
    assert "pepper sauce" in liked
    reply = "Here's a week of dinners: pasta, stew and rice. I hope this helps! Let me know."
    tie = liking_tie(liked, reply, GALLEY, "en", ConstraintSet())
    assert "pepper sauce" in tie and "NEPA" not in tie and len(tie) < 260
    # a reply that used it gets nothing added
    assert liking_tie(liked, "Bring your scotch bonnet for the stew.", GALLEY, "en", ConstraintSet()) == ""


def test_a_plan_gets_no_one_thing_guidance_from_a_liking() -> None:
    notes = turn_guidance(ConstraintSet(), [PEPPER], GALLEY, "en", specific=True)
    assert not any("Suggest one specific" in note for note in notes)


def test_counts_and_days_tie_no_story_to_a_request() -> None:
    story = MemoryRecord("c1", PEPPER.split(". ")[0] + ".", source="t1", created_at=100.0)
    assert related_statement(GALLEY, [story], "en") == ""
    said = related_statement(GALLEY.replace("three", "the"), [story], "en")
    assert said == ""


def _keys(text: str) -> list[str]:
    return sorted(c.key for c in parse_constraints(text))


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("My ma is convinced it's because I don't drink enough rooibos, shame.", []),
        ("I don't eat much these days.", []),
        ("哎，我家那只猫这两天又不吃饭，急死我了。", []),
        ("I don't drink coffee.", ["coffee"]),
        ("衣服晒了三天都不干，好烦喔。", []),
        (
            "Mum had two hundred cactuses out the back, so I can't stand the bloody things, cactuses, "
            "succulents, anything prickly gives me the creeps.",
            ["avoid:cactuses", "avoid:succulent"],
        ),
        (
            "The 110 on a Saturday would've killed me anyway. The dishwasher guy says it's the pump.",
            [],
        ),
        (
            "I only eat halal, even overseas I will find the halal-certified place or just eat vegetarian.",
            ["diet:halal"],
        ),
        ("医生讲我是心衰，回来以后盐要严格控牢，一天顶多三克。", ["diet:low-salt"]),
        (
            "大夫说我这胃对酸菜这种发酵腌渍的东西不耐受，一吃就反酸、胀气，让我往后酸菜能不碰就别碰。",
            ["intolerance:酸菜"],
        ),
        ("我这个人真的吃不惯羊肉，那股膻味一闻到就想吐。衣服晒了三天都不干，好烦喔。", ["lamb"]),
        (
            "I finally got answers from the gastro after that breath test: it's fructose malabsorption. "
            "Apples and honey send my stomach into a war zone, cramps within the hour.",
            ["intolerance:fructose"],
        ),
        (
            "I got the results back from the allergist: it's official, I'm allergic to tree nuts, so there's "
            "an EpiPen in my bag now.",
            ["nuts"],
        ),
        (
            "I've told our Becky, never again, I am never renting a storage unit or a lock-up for anything "
            "ever, I'd sooner have a bonfire in the garden.",
            ["avoid:storage unit"],
        ),
    ],
)
def test_what_is_kept_off(text: str, keys: list[str]) -> None:
    assert _keys(text) == keys


@pytest.mark.parametrize(
    ("text", "liked"),
    [
        ("And our Zain's got into an under-11s team, so that's my Saturdays gone.", False),
        ("The raccoons got into the green bin again last night.", False),
        ("I got into birdwatching last year and now I'm out every weekend.", True),
    ],
)
def test_got_into(text: str, liked: bool) -> None:
    assert says_liking(text) is liked


def test_a_dislike_told_over_dinner_still_shapes_a_room() -> None:
    said = _opening(
        [
            "I can't abide stuffed animals, never could, they give me the absolute creeps and I couldn't "
            "eat my dinner with that owl gawping at me."
        ],
        "I want the front room to feel like a proper Victorian cabinet of curiosities. What sort of pieces "
        "should I be hunting for this month?",
    )
    assert said is not None and "stuffed animals" in said


HOME = (
    "Right, we've finally done it: moved from Bradford to Levenshulme last month, a terrace just off "
    "Stockport Road. And our Zain's got into an under-11s team, so that's my Saturdays gone."
)
ROUND = (
    "I want to do a proper round of car boots and antique shops one Sunday, somewhere I can get to and be "
    "back from by teatime. Where should I go and what time should I set off?"
)


def test_a_turn_with_its_own_day_gets_the_home_not_another_day() -> None:
    clauses = [MemoryRecord("c1", HOME.split(". ")[1], role="user", source="t1", created_at=2.0)]
    pinned = [MemoryRecord("p1", HOME, role="user", source="t1", created_at=1.0)]
    said = remembered_fallback(ROUND, BuiltPrompt([], {}, 0, 4096, retrieved=clauses, pinned=pinned), "en")
    assert "Levenshulme" in said and "Saturdays" not in said


def test_the_home_left_out_of_the_prompt_is_still_found() -> None:
    prompt = BuiltPrompt([], {}, 0, 4096)
    prompt.left_out = [MemoryRecord("p1", HOME, role="user", source="t1", created_at=1.0)]
    assert turn_place(ROUND, prompt) == "Levenshulme"


def test_a_reaction_told_as_an_allergy_is_one() -> None:
    (mango,) = parse_constraints("我这人打小就碰不得芒果，一碰就过敏，嘴唇肿得跟香肠似的。")
    assert (mango.key, mango.kind) == ("mango", "allergy")


@pytest.mark.parametrize(
    ("said", "told"),
    [
        (
            "I'd much rather be at the airport at 5am than land at midnight.",
            "You told me you'd much rather be at the airport at 5am than land at midnight.",
        ),
        ("I am at the gate at 5 am.", "You told me you are at the gate at 5 am."),
    ],
)
def test_a_time_of_day_keeps_its_am(said: str, told: str) -> None:
    assert said_back(said, "en") == told


@pytest.mark.parametrize(
    ("text", "liked"),
    [
        ("I'm a total morning person, up at 4:45 every day.", True),
        ("I have never been a morning person, I sleep through everything.", False),
    ],
)
def test_the_hours_a_person_keeps(text: str, liked: bool) -> None:
    assert says_liking(text) is liked


def test_a_long_liking_is_said_back_from_its_own_comma_part() -> None:
    long = (
        "Odd hours means after 9pm for the uncles of the committee, because I'm a total morning person, "
        "yaar, up at 4:45, yoga at 5:30, and whenever I fly I always take the earliest morning flight "
        "so that nobody lands at midnight like a zombie."
    )
    told = _commas_of_liking(long)
    assert told.startswith("I'm a total morning person, yaar") and told.endswith(".") and len(told) <= 160
