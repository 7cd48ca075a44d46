"""Rules said in transcripts and dialects: a list with what it shares said after it, Cantonese refusals,
and everyday words that only look like a symptom."""

from __future__ import annotations

from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints
from voice_agent.conversation.likings import says_liking


def test_a_list_with_its_reason_after_it_is_each_kept_off() -> None:
    rules = constraints_from_texts(["医生说菠菜、苋菜、竹笋、空心菜这些草酸高的一律别吃，浓茶也别喝了。"])
    assert {"avoid:菠菜", "avoid:苋菜", "avoid:竹笋", "avoid:空心菜", "avoid:浓茶"} <= set(rules.keys())
    assert rules.check("炒个蒜蓉菠菜吧。") is not None
    assert rules.check("清炒莴笋和番茄炒蛋都不错。") is None  # 莴笋 is no 竹笋


def test_a_cantonese_refusal_is_a_rule_and_eggs_are_no_chicken() -> None:
    rules = constraints_from_texts(["我呢个人乜都食，就系唔食鸡。"])
    assert rules.keys() == ["chicken"]
    assert rules.check("整个白切鸡啦。") is not None
    assert rules.check("蒸个水蛋，加个鸡蛋羹。") is None
    assert rules.check("田鸡粥都几好。") is None


def test_the_gas_station_is_no_symptom() -> None:
    assert parse_constraints("we're driving six hours, what should i grab to drink at the gas station") == []
    assert [c.key for c in parse_constraints("Beans give me terrible gas.")] == ["intolerance:beans"]


def test_a_liking_said_in_a_transcript() -> None:
    assert says_liking("yeah so um lately i've been like super into astronomy you know")
    assert says_liking("我最近嗯特别迷露营就是基本上每个周末都会开车去山里")
    assert not says_liking("我上次在山里迷路了")
    assert says_liking("The wife's gone completely mad for the sea swimming.")
    assert says_liking("我这人平时没别的爱好，就爱拼乐高")
    assert not says_liking("我不爱拼乐高") and not says_liking("I'm mad at him")


def test_a_liking_in_a_long_run_on_is_said_back_cut_around_it() -> None:
    from voice_agent.conversation.constraints import ConstraintSet
    from voice_agent.conversation.likings import liked_fallback

    run_on = (
        "yeah so um lately i've been like super into astronomy you know like i got this eight inch dobsonian "
        "telescope for my birthday and um now i'm out in the backyard like every clear night looking at "
        "saturn and stuff and i've got like an app that tells me when the space station goes over so yeah"
    )
    said = liked_fallback(run_on, "trip", "en", ConstraintSet())
    assert "you've been like super into astronomy" in said and said.endswith("along those lines.")
    assert len(said) < 240
    assert liked_fallback("um so yeah " * 30, "trip", "en", ConstraintSet()) == ""  # no liking in it


def test_a_transcript_without_apostrophes_states_its_rule() -> None:
    said = "and please dont ever suggest going to the cinema to me like ever i have adhd"
    rules = constraints_from_texts([said])
    assert rules.keys() == ["cinema"]  # the topic: a film or a movie is the cinema too
    assert rules.check("So we should go to the cinema for date night.") is not None
    assert rules.check("Dinner out, then a film.") is not None
    assert [c.key for c in parse_constraints("i cant eat shellfish")] == ["shellfish"]
    assert [c.key for c in parse_constraints("Don't suggest going out on Fridays.")] == ["avoid:going out"]


def test_a_thing_finished_for_me_and_a_learners_not_like() -> None:
    assert [c.key for c in parse_constraints("So wine is basically finished for me, red, white, bubbly")] == [
        "alcohol"
    ]
    assert parse_constraints("Work is finished for me today.") == []  # no known topic: no rule
    assert [c.key for c in parse_constraints("I am not like cucumber, never.")] == ["avoid:cucumber"]
    assert parse_constraints("I am not like my sister.") == []  # no refusal, no food


def test_northern_and_southern_refusals() -> None:
    trips = parse_constraints("以后出去耍，甭给额安排自驾、包车、坐大巴这些，额真受不了。")
    assert [c.key for c in trips] == ["driving", "avoid:包车", "coaches"]
    assert [c.key for c in parse_constraints("千万别给我安排爬山。")] == ["avoid:爬山"]
    assert [c.key for c in parse_constraints("我跟茄子有仇。")] == ["avoid:茄子"]
    assert parse_constraints("我跟我老公有仇") == []  # a person, not a thing
    smoked = constraints_from_texts(["医生讲是慢性胃炎，烟熏的东西莫恰了。"])
    assert smoked.keys() == ["smoked"]
    assert smoked.check("过年可以点个腊肉炒蒜苗。") is not None
    assert smoked.check("来个清炒时蔬。") is None
    sesame = [c.key for c in parse_constraints("往后香油、芝麻酱的都不能沾。")]
    assert "sesame" in sesame and not any("往后" in k for k in sesame)


def test_rules_in_more_dialects_and_shapes() -> None:
    def keys(text: str) -> set[str]:
        return {c.key for c in parse_constraints(text)}

    assert keys("打那以后西柚、柚子啥的俺是一口都不敢碰了。") == {"avoid:西柚", "avoid:柚子"}
    assert keys("辣椒我随便整，就是那个麻，偏偏吃不来花椒。") == {"avoid:花椒"}
    # (夏桑菊 is a cooling remedy: the topic keeps off 菊花茶 too)
    assert keys("以后菊花茶、夏桑菊嗰啲都唔好再掂。") == {"avoid:菊花茶", "cooling remedies"}
    assert keys("So that's it now, no mint for me, tidy.") == {"avoid:mint"}
    assert keys("There's no time for me to cook.") == set()  # no thing refused
    assert keys("but belacan he really cannot tahan one.") == {"avoid:belacan"}


def test_heights_and_stairs_are_kept_off_and_a_condition_said_not_to_hold_is_none() -> None:
    rules = constraints_from_texts(["俺跟你说，俺这人恐高，恐得厉害。"])
    assert rules.keys() == ["heights"]
    assert rules.check("第二天坐索道上天门山，再走玻璃栈道。") is not None
    assert rules.check("第一天逛十里画廊，坐小火车看风景。") is None
    assert parse_constraints("他不恐高，我也没有高血压。") == []
    # "Not a single flight" after stairs refused is about the stairs, not flying
    stairs = constraints_from_texts(
        ["I can walk to the post office, but stairs, I can't do them. Not a single flight."]
    )
    assert stairs.keys() == ["stairs"]
    assert stairs.check("Book the rooftop bar upstairs.") is not None
    assert stairs.check("A ground-floor function room at the local hotel.") is None


def test_what_keeps_a_person_going_is_a_liking_and_serve_with_asks_for_a_side() -> None:
    from voice_agent.conversation.suggestions import request_kind

    assert says_liking("only thing keeping me sane is crocheting lil frogs at like 2am lol")
    assert says_liking("The allotment is my happy place.")
    assert not says_liking("the traffic is keeping me going crazy")
    kind = request_kind("", "I'm doing a nice leg of Welsh lamb, what shall I serve with it?")
    assert kind is not None and kind.name == "side"
    assert says_liking("在台下蹦了俩小时，嗓子都喊劈了，这个月第五场了属于是")  # the fifth show this month
    assert not says_liking("这个月第三次了，又被罚款")


def test_conditions_that_rule_out_red_meat_and_caves_and_dialect_refusals() -> None:
    said = (
        "Doc ran the bloodwork and says I got that alpha-gal deal now. Means no beef, no pork, no venison, "
        "nothin' off a critter with hair on it. Forty years smokin' brisket and now I can't eat a bite of it."
    )
    alpha_gal = constraints_from_texts([said])
    keys = alpha_gal.keys()
    assert {"red meat", "beef", "pork"} <= set(keys)
    assert not any("bite" in key for key in keys)  # "a bite of it" is no thing
    assert alpha_gal.check("Smoke a brisket and some hot links.") is not None
    assert alpha_gal.check("Smoke a few chickens and some catfish.") is None
    caves = constraints_from_texts(["Yeah nah, I'm properly claustrophobic."])
    assert caves.check("Day two: the Waitomo glowworm caves.") is not None
    assert caves.check("Day two: Rotorua and the redwoods.") is None
    lamb = constraints_from_texts(["Folk find it funny, a crofter that cannae stand lamb."])
    assert lamb.check("Make him a haggis.") is not None and lamb.check("A steak pie, then.") is None
    fish = constraints_from_texts(["我一个土生土长的武汉伢，硬是不恰鱼。"])  # 恰: eat (武汉话)
    assert fish.check("来个清蒸武昌鱼。") is not None
    assert fish.check("鱼香肉丝和炒鱿鱼都可以。") is None  # 鱼香 is a sauce, 鱿鱼 no fish
    assert constraints_from_texts(["我恰好有空。"]).keys() == []


def test_a_hobby_said_after_a_comma_is_a_liking() -> None:
    assert says_liking("我这个人呐，一辈子也没啥别的爱好，就是喜欢侍弄兰花，阳台上二十几盆。")
    assert not says_liking("我这个人呐，一辈子也没啥别的爱好。")


def test_a_list_to_keep_off_is_each_kept_off() -> None:
    said = (
        "She said I should keep off sukuma wiki, spinach, managu, kale, all those dark green vegetables, "
        "because they spoil the blood thinner."
    )
    rules = constraints_from_texts([said])
    assert {"avoid:sukuma wiki", "avoid:spinach", "avoid:kale"} <= set(rules.keys())
    assert rules.check("Saute some spinach with garlic.") is not None
    assert rules.check("Roast chicken with rice and carrots.") is None
    motorway = constraints_from_texts(["We avoid the motorway, it is always jammed."])
    assert motorway.keys() == ["avoid:motorway"]
    places = constraints_from_texts(["I stay away from bars, clubs and casinos these days."]).keys()
    assert "gambling" in places and "avoid:bars" in places


def test_a_fear_of_dogs_keeps_dogs_out_of_suggestions() -> None:
    dogs = constraints_from_texts(["俺给你说个事儿，俺这人怕狗，怕哩要命。"])
    assert dogs.keys() == ["dogs"]
    assert dogs.check("养只小泰迪吧，乖得很。") is not None
    assert dogs.check("养只猫或者几条金鱼吧。") is None
    assert dogs.check("晚上吃个热狗。") is None  # a hot dog is food
    english = constraints_from_texts(["My son is terrified of dogs since one bit him."])
    assert english.check("Get him a little beagle puppy.") is not None
    assert constraints_from_texts(["I'm not scared of dogs at all."]).keys() == []


def test_jamaican_negatives_and_fan_talk_are_read() -> None:
    ackee = constraints_from_texts(["Mi cyaan lie to yuh, mi a di one Jamaican weh cyaan stand ackee."])
    assert ackee.check("Cook ackee and saltfish with fried dumplings.") is not None
    assert ackee.check("Cook callaloo and fried dumplings.") is None
    assert "pork" in set(constraints_from_texts(["Mi nuh eat pork at all."]).keys())
    assert says_liking("ok so dont judge me but im literally the biggest stray kids stan ever")
    assert says_liking("我这人呐，打年轻时候就好集邮，六几年的票我都有。")
    assert not says_liking("He is a total nightmare.")


def test_what_is_kept_off_is_offered_an_alternative_other_than_it() -> None:
    (dogs,) = constraints_from_texts(["俺这人怕狗，怕哩要命。"]).constraints
    assert dogs.alternative("", "zh") == "我建议避开狗，换个别的选择。"
    assert constraints_from_texts(["俺这人怕狗，怕哩要命。"]).check(dogs.alternative("", "zh")) is None
    assert dogs.alternative("", "en") == "I'd suggest something else, with no dogs."
    assert constraints_from_texts(["I'm scared of dogs."]).check(dogs.alternative("", "en")) is None
    (nuts,) = constraints_from_texts(["我对花生过敏。"]).constraints
    assert "不含" in nuts.alternative("蛋糕", "zh")


def test_a_rule_keeps_the_persons_own_words_as_its_source() -> None:
    said = "荔枝、龙眼、芒果呢啲热气生果，我食几粒就喉咙痛。"
    rules = constraints_from_texts([said])
    assert rules.constraints and {c.source for c in rules.constraints} == {said}  # not "我吃几粒"
    assert rules.check("叫碗芒果西米露啦。") is not None
    assert rules.check("你唔食得芒果，叫碗红豆沙啦。") is None  # 唔食得: said as a rule, no suggestion
    plain = "i dont eat pork"
    assert {c.source for c in constraints_from_texts([plain]).constraints} == {plain}
