"""Wave 41: a Chinese vow said back as the reply's opening in the person's words, and a vow or a refusal by
its verb read as keeping the thing off (not recommending it)."""

from __future__ import annotations

import pytest

from voice_agent.conversation.acknowledge import acknowledgement
from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints
from voice_agent.conversation.reminders import guided_constraints
from voice_agent.conversation.vow_said import vow_said

BIKE = (
    "嗐,甭提了,上礼拜下班儿我扫了辆共享单车往家骑,让一出租车给别了一下,左胳膊肘缝了六针。打那儿起我就跟我媳妇儿"
    "发了誓,这辈子再也不骑车了,甭管共享的还是自个儿的。对了,楼下那早点铺子换老板了。"
)
RED_EYE = (
    "上礼拜出差订了个夜里一点多起飞的航班。我跟我们家那口子撂下话了，"
    "这辈子打死我也不坐红眼航班了，多花几百块钱认了。"
)
GREAT_WALL = (
    "前年国庆我开车带我妈去八达岭，堵了三个钟头。打那以后我就发了誓，这辈子八达岭我是再也不去了，谁叫也不去。"
)


def _opening(facts: list[str], turn: str) -> str | None:
    constraints = constraints_from_texts(facts)
    said = acknowledgement(guided_constraints(constraints, facts, turn), constraints, "zh", turn)
    return said.text if said else None


@pytest.mark.parametrize(
    ("fact", "turn", "said"),
    [
        (
            BIKE,
            "这礼拜六我想带闺女去国家图书馆，再去五道口逛书店，帮我规划一下怎么走？",
            "你说过这辈子再也不骑车了，",
        ),
        (RED_EYE, "下个月我想去昆明打四天球，帮我排排行程，航班怎么订？", "不坐红眼航班"),
        (GREAT_WALL, "表哥一家要来北京爬长城，你给我出出主意去哪段、怎么走？", "再也不去了"),
    ],
)
def test_a_vow_is_said_back_in_the_persons_words(fact: str, turn: str, said: str) -> None:
    opening = _opening([fact], turn)
    assert opening is not None and said in opening
    assert opening.startswith("你说过") and "我" not in opening  # (said to them: 你, not 我)


def test_the_said_back_vow_passes_the_check_of_what_it_keeps_off() -> None:
    for fact in (BIKE, RED_EYE, GREAT_WALL):
        constraint = parse_constraints(fact)[0]
        said = vow_said(constraint)
        assert said and constraints_from_texts([fact]).check(said) is None


def test_no_vow_is_said_for_a_clause_that_refuses_nothing_or_a_kind_of_rule_that_is_no_avoid() -> None:
    (allergy,) = [c for c in parse_constraints("我对花生过敏，吃一点就起疹子。") if c.kind == "allergy"]
    assert vow_said(allergy) == ""  # (an allergy is said from its kind: "因为你说过对花生过敏，")
    long_vow = "打那以后我就跟全家人郑重其事地发了誓这辈子无论谁来请无论多远都再也不去八达岭了。"
    assert all(vow_said(c) == "" for c in parse_constraints(long_vow))  # (too long to open a reply)


@pytest.mark.parametrize(
    "reply",
    [
        "这次咱们再也不骑车了，坐地铁四号线过去。",
        "航班就订白天的，不坐红眼航班。",
        "别再去八达岭了，慕田峪人少。",
        "打死也不坐红眼航班，选上午十点那班。",
    ],
)
def test_a_vow_or_a_refusal_by_its_verb_is_no_recommendation(reply: str) -> None:
    facts = [BIKE, RED_EYE, GREAT_WALL]
    assert constraints_from_texts(facts).check(reply) is None


@pytest.mark.parametrize(
    "reply",
    ["周六骑车过去最方便，二十分钟就到。", "订那班夜里一点的红眼航班最便宜。", "建议去八达岭，交通方便。"],
)
def test_the_thing_recommended_is_still_caught(reply: str) -> None:
    assert constraints_from_texts([BIKE, RED_EYE, GREAT_WALL]).check(reply) is not None


def _keys(text: str) -> set[str]:
    return {c.key for c in parse_constraints(text)}


def test_anything_from_a_place_swears_off_the_place() -> None:
    said = "Never again, I told Lorraine, we will never book anything on Airbnb as long as we live."
    assert _keys(said) == {"avoid:airbnb"}


def test_someone_put_on_a_thing_swears_off_the_thing_not_them() -> None:
    said = "I'm never booking Dad on the hospital patient transport again."
    assert _keys(said) == {"avoid:hospital patient transport"}
    assert _keys("I am never putting her in that nursery again.") == {"avoid:nursery"}


def test_one_of_those_things_names_no_thing() -> None:
    said = "I am never picking one of those things up again, it's a good pair of scissors or nothing for me."
    assert not any(key.endswith(("things", "stuff")) for key in _keys(said))


def test_an_english_opening_names_the_thing_without_its_article() -> None:
    facts = ["please dont ever suggest going to the cinema to me like ever, sitting in the dark is torture"]
    constraints = constraints_from_texts(facts)
    turn = "What should we do on Saturday night for my birthday?"
    said = acknowledgement(guided_constraints(constraints, facts, turn), constraints, "en", turn)
    assert said is not None and "no the " not in said.text


FEATHERS = (
    "I had to leave my sister's early on Sunday because she'd put new pillows on the spare bed, and I've "
    "been allergic to feathers and down since I was small, so within the hour my chest was wheezy."
)


def test_an_allergy_to_no_food_shapes_advice_on_what_to_buy() -> None:
    turn = "I've got a little bedsit. What should I look for in a duvet, pillows and a throw?"
    constraints = constraints_from_texts([FEATHERS])
    guided = guided_constraints(constraints, [FEATHERS], turn)
    assert [c.key for c in guided] == ["allergy:feathers"]
    said = acknowledgement(guided, constraints, "en", turn)
    assert said is not None and "feathers" in said.text
    assert "you were small" in said.text  # ("since I was small", said to them)


def test_an_allergy_to_a_food_still_waits_for_a_turn_about_food() -> None:
    fact = "I'm allergic to peanuts, even a trace and my throat closes up."
    turn = "What should I look for in a second-hand bike?"
    assert guided_constraints(constraints_from_texts([fact]), [fact], turn) == []


@pytest.mark.parametrize(
    "text",
    [
        "The kids have started at their new school and reckon it's heaps better.",
        "我老公一靠近猫就打喷嚏、眼睛通红，估计是过敏，最后决定改养狗了。",
    ],
)
def test_no_rule_is_read_from_a_verdict_a_guess_or_what_replaced_the_cause(text: str) -> None:
    assert not any(k.endswith(("heaps better", "估计是")) or k == "dogs" for k in _keys(text))


@pytest.mark.parametrize(
    ("text", "key"),
    [
        (
            "I've told everyone since, I will never again host a pool party for little kids.",
            "avoid:pool party",
        ),
        (
            "She can't stand people singing Happy Birthday at her; she goes scarlet.",
            "avoid:singing happy birthday",
        ),
        (
            "Ever since I got stuck in that lift for two hours, I won't get in one ever again, I take "
            "the stairs every single time.",
            "avoid:lift",
        ),
        ("我就发誓这辈子再也不把东西卖给熟人了。", "avoid:卖给熟人"),
        (
            "打那儿我就发誓了，冷焰火、烟花棒、仙女棒介类喷火星子的玩意儿，这辈子再也不许进我们家门。",
            "avoid:冷焰火",
        ),
        ("我开车是再也不上高架了，前年在延安高架上被追尾。", "avoid:高架"),
    ],
)
def test_more_ways_of_swearing_off_a_thing(text: str, key: str) -> None:
    assert key in _keys(text)


@pytest.mark.parametrize(
    "text",
    [
        "I cannot stand people talking in my ears.",  # (talking alone names too much)
        "The girls at work reckon I'm mad but I'd rather be puffed than trapped.",
        "阿拉老婆讲我神经过敏，我不管的。",
        "这辈子再也不上他家吃饭了。",
        "Me da's been lactose intolerant his whole life.",
    ],
)
def test_no_thing_is_read_from_a_state_a_manner_or_a_person(text: str) -> None:
    assert not any(
        k in _keys(text) for k in ("avoid:talking", "avoid:trapped", "allergy:神经", "avoid:家吃饭")
    )
    assert not any("life" in k for k in _keys(text))


def test_a_devil_for_something_is_a_liking() -> None:
    from voice_agent.conversation.likings import says_liking

    assert says_liking("Our mam's a devil for audiobooks, she's always got one earphone in.")
    assert not says_liking("The traffic on the M62 was a devil this morning.")


def test_that_song_is_the_title_named_before_it() -> None:
    said = (
        "Our choir director has only gone and put 'Hallelujah' on the programme again — I can't stand that "
        "song, the Leonard Cohen one or the Handel one."
    )
    keys = _keys(said)
    assert "avoid:hallelujah" in keys and "avoid:song" not in keys
    assert "avoid:handel" in keys  # (the Handel one: Handel's)
    assert "avoid:sweet caroline" in _keys('Dad plays "Sweet Caroline" at every party. I hate that song.')


def test_a_vow_never_to_wear_something_again() -> None:
    assert "avoid:隐形眼镜" in _keys("后来发了角膜炎，我发过誓，这辈子再也不戴隐形眼镜了。")


def test_a_plan_moved_with_its_name_between_is_a_change_said_back_with_no_answer() -> None:
    from voice_agent.conversation.turn_compose import remembered_fallback
    from voice_agent.memory.records import MemoryRecord
    from voice_agent.prompt import BuiltPrompt

    plan = MemoryRecord(
        "c",
        "Right, so the knit and natter lot are meeting Wednesday at 7pm at Small Street Espresso as usual.",
        role="user", source="t1", created_at=1.0,
    )  # fmt: skip
    change = MemoryRecord(
        "c",
        "Bit of a change: Small Street have got a private booking that night, so we've moved knit and natter "
        "to Sunday at 2pm at the café in the Tobacco Factory. There's more room for Pat's wheelchair there.",
        role="user", source="t2", created_at=2.0,
    )  # fmt: skip
    prompt = BuiltPrompt([], {}, 0, 4096, retrieved=[change, plan])
    turn = "Can you write a quick message for our group reminding everyone about this week's knit and natter?"
    said = remembered_fallback(turn, prompt, "en")
    assert "Tobacco Factory" in said and "Dear Pat" not in said


def test_a_moved_house_is_no_changed_plan() -> None:
    from voice_agent.conversation.revised_plans import REPLACED_BY

    assert REPLACED_BY.search("we've moved knit and natter to Sunday")
    assert not REPLACED_BY.search("we moved house to Leeds last year")


def test_more_ways_of_liking_and_of_asking_for_somewhere_near_home() -> None:
    from voice_agent.conversation.likings import says_liking
    from voice_agent.conversation.place_note import place_note
    from voice_agent.memory.records import MemoryRecord

    assert says_liking("我这个人喝茶就认熟普，要那种泡出来红浓透亮的。")
    assert not says_liking("我就认为他说得对。")
    home = MemoryRecord(
        "c", "We finally got the keys to the new house, a terrace in Headingley just off Otley Road.",
        role="user", source="t1", created_at=1.0,
    )  # fmt: skip
    turn = "She can't manage buses, so it needs to be somewhere I can walk her to from ours. A few tea rooms?"
    assert "Headingley" in place_note(turn, [home], "en")


def test_a_kind_of_a_drink_sworn_off_is_not_the_whole_drink() -> None:
    said = "纪录片讲那个猫屎咖啡，看得我心里老难受了，我当场就跟我媳妇说，这玩意儿我这辈子一口都不喝。"
    keys = _keys(said)
    assert "avoid:猫屎咖啡" in keys and "coffee" not in keys


def test_a_long_statement_says_back_its_calendar_day_not_a_weekday_said_in_passing() -> None:
    from voice_agent.conversation.dated_fallback import dated_text
    from voice_agent.memory.records import MemoryRecord

    said = (
        "Ah sure look, the washing machine's after flooding the kitchen again, so I'd the tiles up half of "
        "Sunday with a mop and a face on me. The good news is the flotilla's booked at last: we fly out to "
        "Preveza on Saturday the 13th of September and we've the boat out of Lefkas for the fortnight, me "
        "and Dermot and the Kellys. Dermot's already bought himself a captain's hat, God help us all."
    )
    record = MemoryRecord("c", said, role="user", source="t1", created_at=1.0)
    day = dated_text("Can you write me an out-of-office email for the sailing holiday?", [record])
    assert "13th of September" in day and "Sunday" not in day and "Kellys" not in day


def test_one_of_those_sworn_off_is_the_thing_named_the_same_way_before() -> None:
    said = (
        "I slapped on one of those seasickness patches behind the ear, and by lunch I was seeing spiders. "
        "The GP reckoned it was the hyoscine, and I told him I'm never, ever putting one of those on again."
    )
    assert "avoid:seasickness patches" in _keys(said)


def test_a_singlish_particle_and_a_word_for_all_of_it_are_no_thing() -> None:
    keys = _keys("because I really cannot stand yellow lah, any shade, mustard, lemon, all")
    assert "avoid:yellow" in keys
    assert not keys & {"avoid:yellow lah", "avoid:all", "avoid:shade"}
