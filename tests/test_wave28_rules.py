"""Wave 28: a place or a liking the person told us shapes an open request that does not name it.

A request for somewhere to go near home or work names the place they told us; a home told by where it
was rented or bought is a place; likings said in passing ("he's darts daft", "就好谍战这一口") are read,
pinned and said back in a short clause; open requests without "recommend" ask for advice.
"""

from __future__ import annotations

import pytest

from voice_agent.conversation.constraints import ConstraintSet, parse_constraints
from voice_agent.conversation.extract import extract
from voice_agent.conversation.likings import liked_fallback, says_liking
from voice_agent.conversation.place_note import named_place, place_note, ranked_place, shaped_by_place
from voice_agent.conversation.recall_answer import said_back
from voice_agent.conversation.reminders import asks_for_suggestion
from voice_agent.conversation.reply_fallbacks import ReplyFallbacks
from voice_agent.memory.records import MemoryRecord
from voice_agent.metrics.trace import TurnTrace
from voice_agent.text.corrections import after_correction

ROWHOUSE = "The rowhouse in Lawrenceville is tiny but I love it, I'm like two blocks off Butler."
OPTICS_VALLEY = "我们公司总算搬完了，从汉口新华路搬到了光谷软件园，我现在天天坐二号线从头坐到尾。"


def _keys(text: str) -> list[str]:
    return [c.key for c in parse_constraints(text)]


def _said(text: str) -> MemoryRecord:
    return MemoryRecord("c1", text, role="user")


def test_a_request_for_somewhere_near_home_or_work_names_the_place() -> None:
    drinks = "She said 'you pick, somewhere near yours'. Give me a couple of spots for drinks and maybe food."
    assert place_note(drinks, [_said(ROWHOUSE)], "en") == "Suggest specific places in or near Lawrenceville."
    team = "周五下班部门小聚，八个人，你帮我推荐几个地方，别离公司太远，不然大家懒得去。"
    assert place_note(team, [_said(OPTICS_VALLEY)], "zh") == "推荐光谷软件园或附近具体的地方。"
    airport = "暑假想带一家三口去泰国玩一个礼拜，你帮我看看从哪个机场飞合适？"
    assert place_note(airport, [_said("去年咬咬牙在固安买了房，北京的房价实在够不着。")], "zh") == (
        "推荐固安或附近具体的地方。"
    )


@pytest.mark.parametrize(
    "turn",
    [
        "I've got a week off in October, where should I go?",  # a trip away, not an evening near home
        "Where should we eat in Lisbon on Friday?",  # the turn names its own town
        "I walk to work through downtown Toronto. Where should I go to buy boots?",
        "Write the plan for Friday and suggest somewhere near the cinema for a bite.",  # near something else
        "I'm heading up tonight after work. What should I bring him?",
        "从成都自驾出去耍两三天，你帮我推荐几个地方。",
        "What should I cook for dinner?",
    ],
)
def test_no_place_for_a_trip_a_named_town_or_another_kind_of_request(turn: str) -> None:
    assert not shaped_by_place(turn) or place_note(turn, [_said(ROWHOUSE)], "en") == ""


@pytest.mark.parametrize(
    ("text", "ranked"),
    [
        ("总算从公司宿舍搬出来了，在天通苑租了个一居，房租便宜一半。", (0, "天通苑")),
        (OPTICS_VALLEY, (0, "光谷软件园")),
        ("我们年初在青岛买了房，在黄岛那边，离我老婆单位近。", (0, "青岛")),
        ("The whole team's been shunted to the new tower at Parramatta Square.", (1, "Parramatta Square")),
        ("I work at Google.", (2, "")),
        ("我在家里做饭。", (2, "")),
    ],
)
def test_a_home_rented_or_bought_and_a_spot_named_by_what_it_is(text: str, ranked: tuple[int, str]) -> None:
    assert ranked_place(text) == ranked


def test_a_spot_told_by_what_it_is_next_to_is_no_place() -> None:
    assert named_place("我去年把北京那班儿给辞了，跑大理来了，在古城边上租了个小院儿。") == "大理"
    assert ranked_place("在公司附近租了个房子") == (2, "")


@pytest.mark.parametrize(
    "text",
    [
        "All I know is he's darts daft: plays for the Red Lion team on a Tuesday.",
        "I'm absolutely football mad.",
        "Honestly he lives in retro football shirts, won't wear owt else.",
        "Put her on any beach and she's bent double for three hours, happiest she ever is.",
        "我家闺女今年十二，哈利波特迷得都魔怔了。",
        "我家老爷子就好谍战这一口。",
        "开会手里都攥着一串儿在那儿盘，说一天不盘心里发慌。",
        "他就稀罕能用的、能吃的。",
    ],
)
def test_likings_said_in_passing(text: str) -> None:
    assert says_liking(text)


@pytest.mark.parametrize(
    "text",
    [
        "He lives in Leeds.",
        "She lives in a flat by the station.",
        "She is going mad with the noise.",
        "I am so crazy busy this week.",
        "We are stark raving mad to try this.",
        "我就爱干净。",
    ],
)
def test_no_liking(text: str) -> None:
    assert not says_liking(text)


def test_a_liking_or_a_home_no_other_rule_knows_is_pinned() -> None:
    darts = extract("Did the Secret Santa draw. All I know is he's darts daft, has a Phil Taylor mug.")
    assert [item.kind for item in darts.items] == ["fact"]
    home = extract("总算从公司宿舍搬出来了，在天通苑租了个一居，房租便宜一半。")
    assert [item.kind for item in home.items] == ["fact"]
    assert extract("我就爱干净").items == []


@pytest.mark.parametrize(
    "turn",
    [
        "Can you sketch out an itinerary that isn't just the Eiffel Tower and queues?",
        "Help me sort a gift and something nice to do in Bristol.",
        "Pick me three plates and a dessert.",
        "What are my options and how do I get started?",
        "Can you put together a week of outfits that'll keep me warm?",
        "戒指我都买好了，你帮我策划一下，要有仪式感。",
        "下个月同学聚会，帮我配两套衣服。",
        "你帮我看看从哪个机场飞合适？",
    ],
)
def test_open_requests_ask_for_a_suggestion(turn: str) -> None:
    assert asks_for_suggestion(turn)


def test_i_mean_that_stresses_is_no_correction() -> None:
    assert after_correction("Jamie's Eurovision-mad, I mean properly.") is None
    said = said_back("Jamie's Eurovision-mad, I mean properly.", "en")
    assert said == "You told me Jamie's Eurovision-mad."
    assert said_back("the twelfth, I mean the twenty-first", "en") == "You told me the twenty-first."


def test_a_long_liking_is_said_back_as_its_clause() -> None:
    boy = (
        "俺家那小子今年七岁，可魔怔了，一天到晚嘴里就是055驱逐舰、辽宁舰、山东舰，"
        "家里乐高全是军舰，画画也只画军舰。"
    )
    said = liked_fallback(boy, "", "zh", ConstraintSet())
    assert said.startswith("你告诉过我，你家那小子今年七岁，可魔怔了，一天到晚嘴里就是055驱逐舰")
    assert "俺" not in said and "画画" not in said
    darts = "All I know is he's darts daft: plays for the Red Lion team on a Tuesday, " + "and more " * 20
    assert liked_fallback(darts, "", "en", ConstraintSet()).startswith(
        "You told me all you know is he's darts daft."
    )


def test_the_place_asked_about_comes_before_a_liking_when_the_model_gives_no_answer() -> None:
    turn = "Give me a couple of spots for drinks near mine."
    around = "Since you're in Lawrenceville, I'd pick somewhere close to Lawrenceville."
    said = ReplyFallbacks(
        ConstraintSet(), "en", TurnTrace("c1"), user_words=turn, asks_suggestion=True,
        remembered=around, remembered_first=True, liked=ROWHOUSE,
    ).no_answer()  # fmt: skip
    assert said == around


def test_the_way_home_a_commute_and_the_market_to_shop_at_name_where_they_live() -> None:
    huaqiao = [_said("为了少背点房贷，我们把房子买在了昆山花桥，我每天坐11号线进上海上班。")]
    station = "我丈母娘要从合肥过来看外孙，坐高铁的话买到哪个站最方便？下了车怎么到我家？"
    assert place_note(station, huaqiao, "zh") == "推荐昆山花桥或附近具体的地方。"
    yanjiao = [_said("当初图便宜在燕郊买的房，那几年天天五点半爬起来赶公交进京。")]
    assert "燕郊" in place_note("公司新规一周得回国贸办公室两天，你帮我琢磨琢磨咋通勤最省事。", yanjiao, "zh")
    tanggu = [_said("我们家去年从南开搬到塘沽了，就在于家堡那块儿，我老公在港口上班。")]
    assert "塘沽" in place_note("想买点新鲜海货回家做一桌，你说我去哪个市场买比较好？", tanggu, "zh")
    nanaimo = [
        _said("So we did it, we moved out to Nanaimo in April. The rent's half what we paid in Burnaby.")
    ]
    visit = (
        "Mike's parents want to fly out from Toronto in June. What's the easiest way for them to get to us?"
    )
    assert "Nanaimo" in place_note(visit, nanaimo, "en")
    assert "Nanaimo" in place_note("Which places should I order lunch from for the team?", nanaimo, "en")


@pytest.mark.parametrize(
    "text",
    ["戒指我都买好了，打算下个月跟她求婚。", "喝二两酒就要来段《猪八戒背媳妇》。", "小区警戒线拉起来了。"],
)
def test_jie_of_another_word_is_no_giving_up(text: str) -> None:
    assert parse_constraints(text) == []
    assert [c.key for c in parse_constraints("我戒了酒")] == ["alcohol"]


def test_eyes_lighting_up_is_a_liking_and_chosen_over_chatter_after_it() -> None:
    father = (
        "我老丈人是哈尔滨人，典型的东北老爷们儿。一说起锅包肉、酸菜白肉血肠、小鸡炖蘑菇，眼睛都放光。"
        "哎，我媳妇最近迷上飞盘了，周末都见不着人。"
    )
    said = liked_fallback(father, "外卖", "zh", ConstraintSet())
    assert "锅包肉" in said and "飞盘" not in said
    assert says_liking("Her eyes light up at anything with sequins.")


def test_a_district_named_with_the_and_a_liking_said_as_fond_of_one_thing() -> None:
    campus = "Our whole team has been shifted from Begumpet to the new campus in the Financial District."
    assert named_place(campus) == "Financial District"
    father = (
        "我老丈人是铁岭人，这辈子就好一口二人转，喝二两酒就要来段《猪八戒背媳妇》。"
        "说起来，我这车尾号限行又赶上周一了，烦死。"
    )
    said = liked_fallback(father, "", "zh", ConstraintSet())
    assert "二人转" in said and "烦死" not in said


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("猪肉一口不沾", ["pork"]),
        ("牛肉他从来不吃", ["beef"]),
        ("香菜坚决不吃", ["cilantro"]),
        ("鱿鱼、虾蟹这些统统不行", ["shellfish"]),
        ("今天不吃", []),  # no food named: a day, not a rule
        ("晚饭不吃了", []),
        ("周末不行", []),
    ],
)
def test_a_known_food_named_first_and_kept_off_with_no_one_named(text: str, keys: list[str]) -> None:
    assert _keys(text) == keys


def test_a_faiths_rule_said_topic_first_rules_out_pork_dishes() -> None:
    rule = "俺老丈人老丈母娘信安息日会，讲究可多：猪肉一口不沾，黄鳝、泥鳅、鱿鱼、虾蟹这些统统不行。"
    constraints = ConstraintSet(parse_constraints(rule))
    assert constraints.check("我建议试试玉米胡萝卜排骨汤。") is not None
    assert constraints.check("来个清炒西兰花。") is None


def test_a_schoolbag_is_no_request_for_a_book() -> None:
    from voice_agent.conversation.suggestions import concrete_option

    kit = "教练让家长给孩子配个小急救包放书包里，你帮我列个清单呗。"
    assert concrete_option(ConstraintSet(), "", kit, "zh") == ""
    assert concrete_option(ConstraintSet(), "书", "推荐一本书吧", "zh") == "刘慈欣的《三体》"


@pytest.mark.parametrize(
    ("story", "key"),
    [
        (
            "Orla's cheer club did a session at that trampoline park in June. She snapped both bones in her "
            "forearm. I'm telling you, never again, I wouldn't let her near one of those places.",
            "avoid:trampoline park",
        ),
        ("Becca dragged me to a hot yoga class on Thursday. I went grey. Never again.", "avoid:hot yoga"),
        ("She broke her arm at a trampoline park. Never going back.", "avoid:trampoline park"),
    ],
)
def test_a_bare_never_again_swears_off_the_place_of_the_story(story: str, key: str) -> None:
    constraints = parse_constraints(story)
    assert [c.key for c in constraints] == [key]
    assert ConstraintSet(constraints).check("How about a " + key.split(":")[1] + " night?") is not None
    assert parse_constraints("We had a lovely time at the beach. Never again will I forget sunscreen.") == []


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("Dinnae get me started on that lo-fi hip hop stuff.", ["avoid:lo-fi hip hop"]),
        ("Don't get me started on musicals.", ["avoid:musicals"]),
        ("Don't get me started on the traffic this morning, it was mental.", []),  # a bad morning
        ("宫斗宅斗的一概不看", ["avoid:宫斗宅斗"]),
        ("格子衬衫他从来不穿", ["avoid:格子衬衫"]),
        ("今天他一概不去", []),
    ],
)
def test_a_gripe_and_a_kind_of_thing_refused_as_a_habit(text: str, keys: list[str]) -> None:
    assert _keys(text) == keys


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("Cut back on the tea, which for an Irishman is a hate crime.", []),  # a noun, no dislike
        ("I hate crime novels.", ["avoid:crime novels"]),
        ("我算是跟栗子结仇了。", ["avoid:栗子"]),
        ("戴上不到十分钟，耳朵就像坐飞机降落那样闷，脑壳晕得想吐。", []),  # a likeness names no thing
        (
            "By bedtime his knees were red raw and cracked. He's fine in the sea, salt water doesn't touch "
            "him.",
            [],  # what is fine is no constraint
        ),
    ],
)
def test_what_a_story_only_mentions_is_no_constraint(text: str, keys: list[str]) -> None:
    assert _keys(text) == keys


@pytest.mark.parametrize(
    "turn",
    [
        "Write a short thank-you text from me to [NAME:6fbe1e389154]'s stepdad for pulling the ute out.",
        "Write a note to [NAME:6fbe1e389154]'s mother-in-law to say thanks for Sunday.",
        "Can you write a five-star Google review for the place that catered [NAME:6fbe1e389154]'s party?",
    ],
)
def test_a_name_that_only_owns_the_addressee_is_not_greeted(turn: str) -> None:
    from voice_agent.conversation.message_draft import salutation

    assert salutation(turn, "en") == ""
    assert (
        salutation("Write a text to [NAME:6fbe1e389154] saying I'm late.", "en") == "Hi [NAME:6fbe1e389154],"
    )


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("Okay, I am officially done with SkipTheDishes.", ["avoid:skipthedishes"]),
        ("We're so done with Ryanair.", ["avoid:ryanair"]),
        ("Never again am I using Evri, swear down.", ["avoid:evri"]),
        ("I'm so done with the gym for today.", []),  # tired, not sworn off
        ("We are done with the kitchen, finally!", []),  # finished, not sworn off
    ],
)
def test_done_with_and_never_again_said_first(text: str, keys: list[str]) -> None:
    assert _keys(text) == keys
