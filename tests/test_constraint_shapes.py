"""Constraints stated in more ways than "allergic to X": symptoms, avoiding, the thing first, giving a
known thing up; narrower topics inside broader ones; each such statement is pinned as a constraint."""

from __future__ import annotations

import pytest

from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints
from voice_agent.conversation.extract import extract
from voice_agent.conversation.reminders import requested_thing


def _keys(text: str) -> set[str]:
    return {c.key for c in parse_constraints(text)}


@pytest.mark.parametrize(
    ("statement", "key"),
    [
        ("Dairy makes me sick.", "dairy"),
        ("Coffee keeps me up at night.", "coffee"),
        ("Beans give me terrible gas, so I avoid them.", "intolerance:beans"),
        ("I get hives whenever I eat strawberries.", "intolerance:strawberries"),
        ("My son gets sick if he eats anything with gluten.", "gluten"),
        ("I stay away from dairy.", "dairy"),
        ("I cut out sugar completely.", "sugar"),
        ("I won't eat anything with garlic.", "garlic"),  # a known topic (aioli, 蒜蓉 …)
        ("Please don't suggest anything with onions.", "onion"),
        ("Raw onions are the one thing I won't eat.", "avoid:raw onions"),
        ("Liver is off limits for me.", "avoid:liver"),
        ("I gave up red meat.", "red meat"),
        ("No more red meat for me.", "red meat"),
        ("I don't drink coffee.", "coffee"),
        ("我一吃菠萝就起疹子。", "intolerance:菠萝"),
        ("咖啡让我心慌。", "coffee"),
        ("我戒糖了。", "sugar"),
        ("我不沾酒。", "alcohol"),
        ("我不吃牛肉。", "beef"),
        # at odds with a known topic, said any other way
        ("Dairy and me really don't get along, milk, cheese, cream, the lot.", "dairy"),
        # what sets a condition off, named first; a thing the person "doesn't do"; a list refused whole
        ("The neurologist says chocolate's me trigger, so that's it now.", "intolerance:chocolate"),
        ("I don't do fireworks. Never have, never will.", "avoid:fireworks"),
        ("Raw apples, pears, cherries, that whole family, nee chance.", "avoid:pear"),
        ("Tea, coffee, cola, all off limits since the operation.", "avoid:cola"),
        ("𠊎最怕食肥猪肉。", "pork"),
        ("他讲我螃蟹、西瓜、苦瓜这些寒性的东西一口都不要碰。", "avoid:苦瓜"),
        ("辅食也不能加盐、不能加糖，酱油、蚝油都不行。", "avoid:蚝油"),
        ("庙里我们是不进去的，烧香拜佛、求签算命这些，我们一概不碰。", "temples"),  # a faith's rule
        ("Gluten doesn't sit well with me.", "gluten"),
        ("Eggs and I are not friends.", "eggs"),
        ("Shellfish is a hard no for me.", "shellfish"),
        ("我跟乳制品合不来。", "dairy"),
        ("海鲜我碰不得。", "shellfish"),
        # never to be talked into an activity
        ("Don't ever talk me into camping again, one night in a tent was more than enough.", "camping"),
        ("Never sign me up for a marathon.", "avoid:marathon"),
        # disgust said by comparison
        ("Beetroot tastes like a mouthful of garden soil to me. Always has.", "avoid:beetroot"),
        ("苦瓜是我真的一口都咽不下去，我宁可上火。", "avoid:苦瓜"),
        # a list before the symptom; a reaction named beside a known topic; a list refused
        (
            "Apparently it's fructose, so apples, pears, honey, that sort of thing, leave me bloated.",
            "intolerance:pears",
        ),
        ("Fish of any sort and his throat starts closing up, we learned that the hard way.", "fish"),
        ("Olives. Can't do them. Green, black, stuffed, they're vile.", "avoid:olives"),
        (
            "Anywhere high up and I freeze, so please, no rooftop bars, no cable cars, ever.",
            "avoid:cable cars",
        ),
        ("我胃不太好，糯米做的东西一吃就胀，汤圆、粽子、年糕我都不敢碰。", "avoid:粽子"),
        ("我胃不太好，糯米做的东西一吃就胀。", "glutinous rice"),
        ("我怀孕四个月了，医生交代生的、没熟透的东西都别吃，酒更是一滴都不能沾。", "diet:pregnancy"),
        ("I'm pregnant, so nothing raw for me.", "diet:pregnancy"),
        # a rule kept, things named first; iced food and drink; a thing never to be suggested again
        ("我妈肾不好，香蕉、橙子、土豆这些都得忌口。", "avoid:橙子"),
        ("辣的要忌口。", "spicy"),
        ("我肠胃娇气，一沾冰的就闹肚子。", "cold"),
        ("大夏天我也不敢喝冷饮。", "cold"),
        ("Cold drinks set my teeth off, I can't do anything iced.", "cold"),
        ("别再给我推荐剧本杀了。", "avoid:剧本杀"),
        # what tastes of a thing is the thing; "a hard no for me"
        ("Anything tomatoey gives him reflux and heartburn for days.", "intolerance:tomato"),
        ("Anything nutty gives her hives.", "nuts"),
        ("Before I forget: horseradish is a hard no for me.", "avoid:horseradish"),
    ],
)
def test_more_ways_of_stating_a_constraint(statement: str, key: str) -> None:
    assert key in _keys(statement)
    item = extract(statement).items
    assert item and item[0].kind in ("constraint", "decision")  # pinned: the guard reads pinned items


@pytest.mark.parametrize(
    "text",
    [
        "I gave up my job last year.",
        "I quit smoking.",
        "I don't have time for this.",
        "I'm going home.",
        "Coffee is ready.",
        "我今天很开心。",
        "My boss and I don't get along.",  # at odds, but with no known topic
        "I don't do much on Sundays.",
        "We went to Paris, Rome, Berlin, no way I'm doing that again.",
        "Doctor says it's oral allergy syndrome, off the back of me hay fever.",  # names no allergen
        "这周太忙了，连周末也不行。",
        "我不怕吃辣。",
        "I don't mind dairy at all.",
        "Can you handle dairy in a dessert?",  # a question states nothing
        "我跟同事合不来。",
        "This soup tastes like home.",
        "这道题我真的做不出来。",
        "他的话我真的受不了。",
        "No problem, no worries.",
        "I had no idea, no clue at all.",
        "I feel sick today.",
        "My sister is not pregnant.",
        "他最近在忌口。",
        "我们家不忌口。",
        "The answer is a hard no.",
        "Anything happy makes me cry.",
        "冰箱里有牛奶。",
        "I like ice skating.",
    ],
)
def test_ordinary_sentences_state_no_constraint(text: str) -> None:
    assert _keys(text) == set()


def test_the_narrowest_topic_is_the_one_named() -> None:
    lamb = constraints_from_texts(["我不吃羊肉，受不了那个膻味。"])
    assert lamb.keys() == ["lamb"]  # not all meat, and not "那个膻味"
    assert lamb.check("推荐番茄牛肉锅。") is None and lamb.check("涮羊肉最好。") is not None
    red = constraints_from_texts(["I gave up red meat last year, but I still eat fish."])
    assert red.check("Grill some chicken and salmon.") is None
    assert red.check("Grill a steak.") is not None


def test_dont_drink_something_is_not_sobriety() -> None:
    assert _keys("I don't drink coffee.") == {"coffee"}
    assert "diet:sober" in _keys("I don't drink, never have.")
    coffee = constraints_from_texts(["Caffeine gives me palpitations."])
    assert coffee.check("Try a cup of green tea.") is not None
    assert coffee.check("Try a chamomile tea or a decaf latte.") is None


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("以后别再叫我去爬山了，我膝盖不好。", "avoid:爬山"),
        ("别再约我去唱K了。", "avoid:唱k"),
        ("Please don't take me to karaoke.", "avoid:karaoke"),
        ("别让我等太久。", None),  # 让我 + a verb is no thing to avoid
    ],
)
def test_asked_never_to_be_taken_somewhere(text: str, key: str | None) -> None:
    assert [c.key for c in parse_constraints(text)] == ([key] if key else [])


def test_a_hot_pot_asked_for_with_a_degree_is_named() -> None:
    assert requested_thing("冬天吃什么火锅比较好？") == "火锅"
    assert requested_thing("喝点什么提神好") == "饮品"


def test_a_severe_reaction_is_an_allergy_and_pregnancy_rules_out_raw_food_and_alcohol() -> None:
    (fish,) = parse_constraints("Fish of any sort and his throat starts closing up.")
    assert fish.kind == "allergy"
    pregnant = constraints_from_texts(["我怀孕四个月了，医生交代生的、没熟透的东西都别吃。"])
    assert pregnant.check("可以点三文鱼刺身。") is not None and pregnant.check("来一杯清酒吧。") is not None
    assert pregnant.check("推荐天妇罗和乌冬面。") is None
    assert constraints_from_texts(["I'm pregnant."]).check("How about some sushi?") is not None


def test_a_phrase_for_an_occasion_is_broken_by_the_thing_itself() -> None:
    """ "Never suggest a board game night" is broken by "playing board games" too (the guard matched the
    whole phrase only, and a greedy reply suggested board games)."""
    never = constraints_from_texts(["Never suggest a board game night to me."])
    assert never.check("We could go to the park and play board games.") is not None
    assert never.check("How about a board game night?") is not None
    assert never.check("Let's bake cookies and watch a film.") is None


def test_a_jain_household_rules_out_meat_eggs_and_what_grows_underground() -> None:
    said = (
        "We're Jain in our house, so no meat, fish or eggs, nothing that grows underground either: "
        "no onions, no garlic, no potatoes."
    )
    jain = constraints_from_texts([said])
    assert "diet:jain" in jain.keys()  # noqa: SIM118
    for bad in ("A roast beef or chicken breast for the potluck.", "A potato curry.", "加点大蒜炒青菜。"):
        assert jain.check(bad) is not None, bad
    assert jain.check("A chickpea salad with tomatoes and cucumber.") is None
    assert jain.check("An onion-free dal.") is None


def test_iced_drinks_are_refused_but_no_ice_and_the_fridge_are_fine() -> None:
    cold = constraints_from_texts(["我肠胃特别娇气，一沾冰的就闹肚子，大夏天也不敢喝冷饮。"])
    for reply in ("可以点一杯冰美式提提神。", "来杯冰沙吧。", "Try an iced latte."):
        assert cold.check(reply) is not None, reply
    fine = ("点杯热拿铁吧，去冰。", "热可可不错，别加冰。", "A hot chocolate, no ice.", "冰箱里拿个苹果。")
    for reply in fine:
        assert cold.check(reply) is None, reply


def test_a_rule_kept_by_the_family_guards_each_thing_named() -> None:
    rule = constraints_from_texts(["我爸透析，含钾高的要忌口，香蕉、橙子、土豆这些都得忌口。"])
    assert rule.check("顺路买点草莓、蓝莓和香蕉。") is not None
    assert rule.check("买点苹果和草莓吧。") is None


@pytest.mark.parametrize(
    ("turn", "thing"),
    [
        ("下午开会犯困，楼下奶茶店点杯什么好？", "饮品"),
        ("今晚一个人在家，点个外卖吃点啥？", "菜"),
        ("推荐一部电影", "电影"),
        ("推荐几本书吧", "书"),
        ("这个周末想去看场演出，有什么推荐的？", ""),  # "推荐的" names nothing
        ("最近剧荒了，有什么好看的推荐一下？", ""),
    ],
)
def test_what_a_chinese_request_asks_for(turn: str, thing: str) -> None:
    assert requested_thing(turn) == thing


def test_a_named_trigger_and_a_ban_on_flying_guard_their_whole_topic() -> None:
    fizzy = constraints_from_texts(
        ["The gastro fella reckons it's IBS, and the worst trigger by a mile is anything fizzy."]
    )
    for reply in ("Order a glass of sparkling water.", "A cold Coke goes well with it.", "来一瓶可乐吧。"):
        assert fizzy.check(reply) is not None, reply
    assert fizzy.check("A pot of tea or some still water.") is None
    flying = constraints_from_texts(["And please don't ever suggest I fly anywhere, I panic on planes."])
    assert flying.check("You should head to the airport and fly to Porto.") is not None
    assert flying.check("Take the train to Paris, then the sleeper down to Lisbon.") is None
    assert constraints_from_texts(["I love flying kites with my son."]).constraints == []


def test_sweet_potatoes_and_boats_are_whole_topics_in_chinese() -> None:
    potato = constraints_from_texts(["就红薯一口都碰不得，吃完就烧心、反酸。地瓜干、紫薯也一个样。"])
    assert potato.check("来个烤红薯吧。") is not None and potato.check("买点烤玉米吧。") is None
    boats = constraints_from_texts(["我晕船特别厉害，别给我安排坐船的项目，游船、竹筏、快艇都不行。"])
    for reply in ("漓江竹筏很有名。", "第二天坐游船看两江四湖。", "Take the ferry over."):
        assert boats.check(reply) is not None, reply
    assert boats.check("第二天去象鼻山，再逛逛西街。") is None
    assert constraints_from_texts(["船长说今天风大。"]).constraints == []


def test_cannot_be_doing_with_a_thing_guards_it_and_its_kin() -> None:
    mayo = constraints_from_texts(["I cannot be doing with mayonnaise. Aioli, salad cream, same thing."])
    assert mayo.check("I'll make a salad cream filling.") is not None
    assert mayo.check("A cheese and pickle sandwich.") is None
    assert constraints_from_texts(["I can't be doing with all this rain."]).constraints == []


@pytest.mark.parametrize(
    ("statement", "keys"),
    [
        ("香椿那个味儿我是真受不了，一股子臭虫味儿。", {"avoid:香椿"}),
        (
            "海鲜、羊肉、鹅肉、辣的都得忌，说吃了刀口不爱长。",
            {"shellfish", "fish", "lamb", "avoid:鹅肉", "spicy"},
        ),
        ("就是一沾酸的准坏事儿，醋、山楂、酸菜，吃完心口烧得慌。", {"sour"}),
        ("Goat's cheese I cannot do, it tastes like a farmyard.", {"avoid:goat's cheese"}),
        ("The doctor says it's a proper banana allergy.", {"allergy:banana"}),
        ("后来查了过敏原，说是菌菇过敏。", {"mushrooms"}),
    ],
)
def test_more_ways_people_state_a_rule(statement: str, keys: set[str]) -> None:
    assert _keys(statement) == keys


@pytest.mark.parametrize(
    "text",
    [
        "现在我一礼拜不吃两回冷面都难受。",  # a craving, not a reaction
        "刚来那会儿顿顿都是辣白菜，现在一礼拜不吃两回冷面都难受。",
        "刀口还没长好，说吃了刀口不爱长。",  # 不爱 before a lone verb
        "吃完饭就犯困。",
    ],
)
def test_cravings_and_other_subjects_state_no_rule(text: str) -> None:
    assert _keys(text) == set()


def test_one_animals_meat_is_not_all_meat_and_said_back_lists_are_not_offers() -> None:
    goose = constraints_from_texts(["鹅肉我是一口都不吃。"])
    assert goose.check("来个烧鹅肉。") is not None and goose.check("来个白切鸡。") is None
    assert constraints_from_texts(["我吃素。"]).check("来个鹅肉煲。") is not None
    cheese = constraints_from_texts(["Goat's cheese I cannot do."])
    assert cheese.check("A goat cheese tart to start.") is not None
    assert cheese.check("A cheddar souffle to start.") is None
    mushrooms = constraints_from_texts(["我对菌菇过敏。"])
    assert mushrooms.check("你说过香菇、蘑菇、木耳这些菌类以后一概都别碰。") is None
    assert mushrooms.check("汤里放点香菇，这些都很鲜。") is not None


def test_someone_elses_rule_puts_the_person_off_a_whole_family() -> None:
    rules = constraints_from_texts(
        ["The dietitian has me off the whole cabbage family now, would you believe."]
    )
    assert [c.key for c in rules.constraints] == ["brassicas"]
    assert rules.check("Roast some broccoli and Brussels sprouts with the turkey.") is not None
    assert rules.check("Honey-roast carrots and parsnips with the turkey.") is None
    assert constraints_from_texts(["The rain put us off the picnic."]).constraints == []


def test_an_allergy_to_fungi_covers_what_a_cook_puts_beside_mushrooms() -> None:
    fungi = constraints_from_texts(["后来查了过敏原，说是菌菇过敏。"])
    for reply in ("汤里配点豆腐、木耳。", "加几朵松茸。", "来碗菌汤。"):
        assert fungi.check(reply) is not None, reply
    assert fungi.check("汤里配点山药、玉米。") is None


def test_a_list_refused_at_the_end_of_its_sentence_and_no_rule_from_filler() -> None:
    said = "滑雪、滑冰、雪圈这些冰上雪上的玩意儿，以后甭管谁撺掇，千万别给我安排。"
    assert _keys(said) == {"avoid:滑雪", "avoid:滑冰", "avoid:雪圈"}  # not "安排", and 滑冰 is no iced drink
    assert _keys("这两年不知咋整的，一吃就胀肚。") == set()
    melon = _keys(
        "Aiyo, my boy kena allergy already. He ate a few pieces of watermelon, then his lips swell up."
    )
    assert "allergy:already" not in melon and "allergy:pieces of" not in melon


@pytest.mark.parametrize(
    "turn",
    [
        "我大孙子说要用头一个月工资给我买个东西，问我要啥，我也说不上来，你给出出主意？",
        "今日热到痴线，想去楼下糖水铺食碗糖水，你话我叫乜嘢好？",  # Cantonese: "what should I order?"
        "听日放假，去边度好？",
    ],
)
def test_asking_for_an_idea_in_other_words_asks_for_advice(turn: str) -> None:
    from voice_agent.conversation.reminders import ASKS_ADVICE

    assert ASKS_ADVICE.search(turn), turn


def test_a_couple_who_never_enter_temples_hear_no_temple() -> None:
    rules = constraints_from_texts(["庙里我们是不进去的，烧香拜佛、求签算命这些，我们一概不碰。"])
    assert rules.check("第二天去灵隐寺烧香。") is not None
    assert rules.check("第二天逛河坊街，晚上去清真寺附近吃面。") is None  # (清真: a mosque's halal food)
    assert rules.check("生日那天记得许个愿。") is None
