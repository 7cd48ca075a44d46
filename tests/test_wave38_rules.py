"""Wave 38: a thing kept off that is no food matters for a plan, a routine or a list asked for; a kind of
thing named and then sworn off is a vow; a long-standing hate is a dislike; 鸭血粉丝汤 is no fan's liking;
a day's name alone ties no remembered line to a turn."""

from __future__ import annotations

from voice_agent.conversation.acknowledge import acknowledgement
from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints
from voice_agent.conversation.likings import says_liking
from voice_agent.conversation.message_draft import salutation
from voice_agent.conversation.reminders import ASKS_ADVICE, asks_plan, guided_constraints
from voice_agent.conversation.reply_copies import about_turn
from voice_agent.conversation.suggestions import request_kind

ICE_BATH = "Never again, I swear to God. I'm never getting into an ice bath again."
RECOVERY = "My legs are in bits after leg day. What should my recovery routine look like on the days after?"


def _opening(facts: list[str], turn: str, language: str) -> str | None:
    constraints = constraints_from_texts(facts)
    guided = guided_constraints(constraints, facts, turn)
    said = acknowledgement(guided, constraints, language, turn)
    return said.text if said else None


def _keys(text: str) -> set[str]:
    return {c.key for c in parse_constraints(text)}


def test_a_thing_kept_off_that_is_no_food_opens_a_plan_or_a_routine() -> None:
    opening = _opening([ICE_BATH], RECOVERY, "en")
    assert opening is not None and "ice bath" in opening
    ferry = "我这辈子再也不坐轮渡了。"
    opening = _opening([ferry], "下个月起我要去市区上班，每天通勤你说咋解决最省事？", "zh")
    # (轮渡 is read as the kind of trip, 坐船; the vow is said back in the person's words)
    assert opening is not None and ("船" in opening or "不坐轮渡" in opening)
    # (not any request for a suggestion: a board game is no plan the vow is about, and a message is none)
    assert _opening([ICE_BATH], "Suggest a board game for a rainy day.", "en") is None
    assert _opening([ICE_BATH], "Can you write a text to my trainer saying I'll be late?", "en") is None
    # (a food kept off still opens only a turn about food)
    assert _opening(["I can't stand coriander."], "Make me a packing list for the weekend.", "en") is None


def test_asking_for_a_plan_routine_list_or_way() -> None:
    for turn in (
        "What's the best way to do that commute every day?",
        "Can you make me a shopping list with specific brands?",
        "Give me five design ideas I could show the nail tech.",
        "Can you write me a 30-minute HIIT circuit?",
        "你帮我列个婚前一个月的变美计划呗",
        "坐船有啥好办法能让我不晕？",
    ):
        assert asks_plan(turn), turn
    others = ("Suggest a board game for a rainy day.", "Can you write a message to my coach?", "巴西说啥")
    for turn in others:
        assert not asks_plan(turn), turn


def test_a_kind_of_thing_named_then_sworn_off_is_a_vow() -> None:
    lenses = "从那以后我就跟自己讲，隐形眼镜这种东西，不管日抛月抛，这辈子再也不往眼睛里放了。"
    assert "avoid:隐形眼镜" in _keys(lenses)
    assert _keys("我买的东西再也不退了") == set()


def test_a_long_standing_hate_is_a_dislike() -> None:
    assert "avoid:burpees" in _keys("Honestly I've hated burpees since my NS days, jump down, jump up.")
    assert "avoid:caravans" in _keys("We have always hated caravans.")
    assert _keys("I hated the drive home.") == set()


def test_what_the_thing_is_comes_after_shi() -> None:
    assert "allergy:镍" in _keys("大夫说我这是镍过敏，带镍的金属一贴肉就这样")
    assert "allergy:荞麦" in _keys("我这是荞麦过敏")


def test_duck_blood_vermicelli_is_no_fans_liking() -> None:
    assert not says_liking("对了，我们公司楼下的鸭血粉丝汤又涨价了，十八块一碗。")
    assert says_liking("我是周杰伦的铁粉丝。")


def test_fitting_asks_advice_only_as_a_question() -> None:
    assert ASKS_ADVICE.search("帮我看下啥时候拔最合适")
    assert ASKS_ADVICE.search("送什么礼物合适？")
    assert not ASKS_ADVICE.search("顺便提醒她穿合适的衣服。")


def test_a_days_name_alone_ties_no_remembered_line_to_the_turn() -> None:
    turn = "我跟健身搭子约了礼拜六上午十点，在静安寺附近一家普拉提馆上体验课，你帮我算算几点出门？"
    assert not about_turn("师傅说下礼拜才能上门修。", turn, [])
    assert about_turn("普拉提馆搬到静安寺了。", turn, [])


def test_the_stuff_is_what_its_sentence_and_the_one_before_keep_naming() -> None:
    story = (
        "We did the craft afternoon with my Year 3s on Friday and I'm still finding glitter in my bra, in "
        "the car, and somehow in the cat. Honestly, I cannot stand the stuff, anything sparkly or glittery "
        "makes my skin crawl, I banned it from my classroom years ago."
    )
    assert "avoid:glitter" in _keys(story)
    # (no thing named twice, no dislike read)
    fair = "We went to the fair last year. Honestly, I cannot stand the stuff they sell there."
    assert _keys(fair) == set()


def test_a_role_tied_to_a_remembered_name_is_greeted_by_it_not_by_a_place_in_the_turn() -> None:
    tav, park = "[NAME:0a1b2c3d4e5f]", "[NAME:0a1b2c3d4e60]"
    turn = (
        f"I'm planning to walk part of the {park} Coast Track with my daughters. Could you write a short, "
        "friendly message I can send to my niece's fiancé asking for a few tips?"
    )
    assert salutation(turn, "en", tav) == f"Hi {tav},"
    assert salutation(turn, "en") == f"Hi {park},"  # (without a tie, the one name there is)
    # (a name the message is written to still wins)
    assert salutation(f"Write a message to {park} about my niece's fiancé.", "en", tav) == f"Hi {park},"


def test_a_trip_is_suggested_only_where_to_go_is_open() -> None:
    kind = request_kind("", "Any ideas for a getaway over the long weekend? Where should we go?")
    assert kind is not None and kind.name == "trip"
    for turn in (
        "We've booked four nights at a campground on K'gari over the school holidays. Can you write me a "
        "packing list?",
        "I've booked a half-day fishing trip out of Weymouth on Saturday. What should I take beforehand?",
    ):
        assert request_kind("", turn) is None, turn


def test_the_thing_most_dreaded_after_two_words_for_it() -> None:
    assert "avoid:跳舞" in _keys("讲老实话，我这辈子最怕、最烦的就是跳舞，啥舞都不要叫我跳。")
    assert "avoid:唱歌" in _keys("我这辈子最膈应的事儿就是唱歌。")
    assert not any(key.endswith(":跳") for key in _keys("啥舞都不要叫我跳。"))
    assert "avoid:农家乐" in _keys("我当时就跟同事说，这辈子再也不得去啥子农家乐了，打死都不去。")


def test_a_pronoun_or_a_number_repeated_is_not_the_stuff() -> None:
    card = (
        "My ex-housemate thought it'd be hilarious to send me a glitter-bomb birthday card. I cannot stand "
        "the stuff, it gets into your carpet, your hair, your dog, your food, forever."
    )
    assert "avoid:your" not in _keys(card)
    bar = (
        "I lasted forty minutes before we were sitting in the car. I honestly cannot stand that stuff, the "
        "bass in your chest, people paying forty bucks a drink."
    )
    assert "avoid:forty" not in _keys(bar)


def test_a_medicine_kept_off_opens_no_days_plan() -> None:
    penicillin = "I'm allergic to penicillin, I came out in hives all over the last time."
    assert _opening([penicillin], "Can you plan my day in Sydney? Something a bit different.", "en") is None
    deet = "I come out in a rash from DEET, any bug spray with it and my arms blister."
    opening = _opening([deet], "Can you write me a packing list for four nights of camping?", "en")
    assert opening is not None and "DEET" in opening.upper()
