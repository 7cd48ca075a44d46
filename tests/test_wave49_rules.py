"""Wave 49 rules, each from held-out speech an earlier wave missed (heldout186-188)."""

from __future__ import annotations

import pytest

from voice_agent.conversation.acknowledge import acknowledgement, concerns
from voice_agent.conversation.changed_plan import changed_plan
from voice_agent.conversation.constraints import ConstraintSet, parse_constraints
from voice_agent.conversation.date_note import date_note
from voice_agent.conversation.likings import says_liking
from voice_agent.conversation.place_note import ranked_places
from voice_agent.conversation.refusals_zh import not_doing_zh
from voice_agent.conversation.reminders import asks_plan
from voice_agent.conversation.revised_plans import without_revised
from voice_agent.memory.records import MemoryRecord
from voice_agent.text.dates import asks_for_day


def _said(*texts: str) -> list[MemoryRecord]:
    return [
        MemoryRecord(conversation_id="c", text=t, role="user", source=f"t{i}", created_at=float(i))
        for i, t in enumerate(texts)
    ]


def _keys(text: str) -> list[str]:
    return [c.key for c in parse_constraints(text)]


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        # "that song" of a title something plays; "them" of what someone keeps bringing in
        ("The shop next door blasts Gangnam Style all day and I cannot stand that song.",
         ["avoid:gangnam style"]),
        ("My sister keeps bringing me bunches of carnations. I can't stand them, they remind me of hospital.",
         ["avoid:carnations"]),
        # two things sworn off at once; a thing never let near again
        ("I'm never going in a sauna or a steam room again.", ["avoid:sauna", "avoid:steam room"]),
        ("I swore I'd never let hair dye anywhere near my scalp again.", ["avoid:hair dye"]),
        # a smell that cannot be borne (Singlish "tahan")
        ("Since young I cannot tahan the smell of durian.", ["avoid:durian"]),
        # told not to any more, by a doctor
        ("医生喊我莫再刮痧了。", ["avoid:刮痧"]),
        ("大夫不让我再喝酒了。", ["alcohol"]),
    ],
)  # fmt: skip
def test_more_shapes_of_keeping_off(text: str, keys: list[str]) -> None:
    assert _keys(text) == keys


def test_a_doctors_order_on_seafood_keeps_seafood_off() -> None:
    assert "shellfish" in _keys("医生叫我以后别再吃海鲜了。")
    assert _keys("老师让我不要再迟到了。") == []  # (no thing to keep off)


def test_an_activity_is_refused_with_a_bare_bu_and_the_check_reads_it_as_negated() -> None:
    rules = ConstraintSet(parse_constraints("医生喊我莫再刮痧了。"))
    assert not_doing_zh("刮痧", "医生喊我莫再刮痧了。") == "不刮痧"
    assert rules.check("按你说的，不刮痧，") is None
    assert rules.check("推荐你去刮痧。") is not None


def test_a_place_disliked_is_not_gone_to() -> None:
    said = "我这人最烦的就是KTV，吵得脑壳疼。"
    rules = parse_constraints(said)
    ack = acknowledgement(
        rules, ConstraintSet(rules), "zh", "年底搞个团建，吃完饭玩点啥，帮我排一排晚上的安排。"
    )
    assert ack is not None and "不去KTV" in ack.text


def test_an_intolerance_named_by_what_the_body_cannot_clear_is_the_reason_said() -> None:
    said = "The GP reckons it's histamine intolerance: red wine, aged cheese, salami, all of it sets it off."
    rules = parse_constraints(said)
    ack = acknowledgement(
        rules, ConstraintSet(rules), "en", "Can you plan me a day out in Tuscany with a long lunch?"
    )
    assert ack is not None and ack.text.startswith("Since you told me about the histamine intolerance")


def test_a_smell_kept_off_matters_for_scented_things() -> None:
    rule = parse_constraints(
        "Since young I cannot tahan the smell of coconut, one whiff and I want to vomit."
    )[0]
    assert concerns(rule, "Can you recommend a shampoo and a hair mask I can buy at Watsons?")
    # (a food kept off for its taste is not about shampoo)
    taste = parse_constraints("I can't stand the taste of coconut.")[0]
    assert not concerns(taste, "Can you recommend a shampoo and a hair mask I can buy at Watsons?")


def test_a_change_said_with_gai_yue_revises_the_plan_and_is_said_back() -> None:
    plan, change = _said(
        "我约了周六下午三点在星光造型烫头发，找店长Leo。",
        "烫头发的事改咯哒，Leo临时请假，我就改约到周日上午十点，还是烫羊毛卷。",
    )
    assert without_revised([plan, change]) == [change]
    said = changed_plan("帮我把周末排一下，我还有个烫头发的安排。", [plan, change], "zh")
    assert "周日上午十点" in said and "周六" not in said


def test_a_plan_all_sorted_is_a_plan() -> None:
    plan, change = _said(
        "Swim lessons are all sorted for the summer: Tuesdays at 4:30 at the YMCA.",
        "Change of plans on the swim stuff, we moved her to the city program instead: Saturdays at 9:15.",
    )
    assert without_revised([plan, change]) == [change]


def test_more_ways_to_ask_when() -> None:
    assert asks_for_day("侬帮我讲讲啥辰光去烫、啥辰光去染比较好？")
    assert asks_for_day("你话我几时去剪头发好？")


@pytest.mark.parametrize(
    "text",
    [
        "I've been a Northern Soul girl since I were sixteen.",
        "Motown is still the only music that gets me properly moving.",
    ],
)
def test_more_likings(text: str) -> None:
    assert says_liking(text)


def test_a_design_asked_for_is_a_plan() -> None:
    assert asks_plan("帮我设计一套发型加穿搭，顺便告诉我跟理发师要怎么讲。")
    assert asks_plan("Can you design me a bouquet for June?")


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        # a singer's work, the singer had on repeat the sentence before; "the man" alone is no thing
        ("My son has Taylor Swift on repeat in the car, every single school run. I can't stand the woman's "
         "music, it goes straight through me.", ["avoid:taylor swift"]),
        ("I can't stand the man's music, sorry.", []),
        # someone let near with a thing
        ("I'll never let anyone near me or mine with a tattoo gun again.", ["avoid:tattoo gun"]),
        # the thing pointed at with 这玩意儿, then sworn off
        ("蹦床这玩意儿我这辈子再也不上去了，谁劝都没用。", ["avoid:蹦床"]),
        # how little it takes, and a Sichuan word for the runs; cooling remedies as one kind
        ("凉茶我喝一包就要窜稀。", ["cooling remedies"]),
        ("大夫说我这胃对酸菜这种发酵腌渍的东西不耐受，一吃就反酸。", ["intolerance:酸菜"]),
    ],
)  # fmt: skip
def test_round_two_shapes_of_keeping_off(text: str, keys: list[str]) -> None:
    assert _keys(text) == keys


def test_a_condition_ruled_out_is_not_the_reason_and_the_persons_word_is_said() -> None:
    said = "It's not coeliac, thank God, but the consultant says I've a wheat intolerance, bread bloats me."
    rules = parse_constraints(said)
    ack = acknowledgement(rules, ConstraintSet(rules), "en", "What should I pack for lunches on the trail?")
    assert ack is not None and "coeliac" not in ack.text and "wheat" in ack.text


def test_a_town_whose_folk_they_now_are_is_home() -> None:
    assert ranked_places(
        "Got the keys on Friday, so we're officially Leith folk now, right by the shore."
    ) == [(0, "Leith")]


def test_a_change_from_now_on_is_said_back() -> None:
    plan, change = _said(
        "We've sorted the piano: lessons with Mrs Pillay every Tuesday at four, at her house in Durban.",
        "Quick update on the piano, she's moved her studio, so from now on his lesson is Thursdays at five.",
    )
    said = changed_plan("Can you draft a message to my mom about his piano this week?", [plan, change], "en")
    assert "Thursdays at five" in said


def test_may_said_as_a_month_is_a_month() -> None:
    said = _said("Her recital is Saturday, May 17th at two o'clock at the Baptist church.")
    note = date_note("Which weekend sometime in May would suit a trip? Sketch out a plan.", said, "en")
    assert "May 17th" in note
    assert date_note("You may want to sketch out a plan for which weekend suits.", said, "en") == ""


@pytest.mark.parametrize(
    "text",
    [
        "一天不喝几泡功夫茶就浑身不对劲，去哪都要带着我那套小盖碗。",
        "吃饭离不了辣子，顿顿得有一勺油泼辣子，没辣子吃啥都没味儿。",
    ],
)
def test_more_likings_in_chinese(text: str) -> None:
    assert says_liking(text)
    assert not says_liking("我顿顿都要吃药。")
