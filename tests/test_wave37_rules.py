"""Wave 37: a standing arrangement changed "from this week onwards" is a change of plan; a turn that mixes
English and Chinese is read in both; a food named as a colour or a look is no food; a dislike or a vow is
said back in the words people use for it."""

from __future__ import annotations

from voice_agent.conversation.changed_plan import changed_plan
from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints
from voice_agent.conversation.echo import content_keys
from voice_agent.conversation.revised_plans import without_revised
from voice_agent.memory.records import MemoryRecord

TUITION = (
    "This year my girl's Chinese tuition is with [NAME:c239eb37d6b6] at Serangoon community club, every "
    "Saturday ten in the morning, two hours, small group."
)
MOVED = "the CC from this week onwards tuition is Sunday two p.m., on Zoom"
LINK = "she'll send the link on Sunday morning."
TURN = (
    "Can you write a short reminder I can send my daughter about her Chinese tuition this week, and to "
    "finish her 作文 before then?"
)


def _said(text: str, source: str, when: float) -> MemoryRecord:
    return MemoryRecord("c", text, source=source, created_at=when)


def test_from_this_week_onwards_changes_a_standing_arrangement() -> None:
    plan, moved, link = _said(TUITION, "t1", 1.0), _said(MOVED, "t2", 2.0), _said(LINK, "t2", 2.0)
    assert without_revised([plan, moved, link]) == [moved, link]
    # (said of a plan only: a rule from now on is no change of one)
    rule = _said("From now on I'm not eating pork.", "t3", 3.0)
    assert without_revised([plan, rule]) == [plan, rule]


def test_a_turn_mixing_english_and_chinese_is_read_in_both() -> None:
    assert {"chinese", "tuition", "作文"} <= content_keys(TURN)
    assert not any(key.isascii() for key in content_keys("我对花生过敏"))  # (Chinese alone: pairs only)
    records = [_said(TUITION, "t1", 1.0), _said(MOVED, "t2", 2.0), _said(LINK, "t2", 2.0)]
    said = changed_plan(TURN, records, "en")
    assert "Sunday two p.m., on Zoom" in said and "Saturday" not in said


def _keys(text: str) -> set[str]:
    return {c.key for c in parse_constraints(text)}


def test_a_food_named_as_a_colour_or_a_look_is_no_food() -> None:
    assert "dairy" not in _keys("奶油色的沙发我受不了")
    assert "dairy" not in _keys("清一色奶油色，我是真的受不了这种奶乎乎的风格，看久了眼睛都发糊。")
    assert "dairy" not in _keys("I can't stand cream-coloured walls")
    # (a food is still a food, 色拉 is a salad)
    assert _keys("我对牛奶过敏") == {"dairy"}
    assert "eggs" in _keys("我对鸡蛋过敏，鸡蛋色拉也不行")
    assert "avoid:chocolate" in _keys("I can't stand chocolate")


def test_pointing_back_is_no_thing_disliked() -> None:
    text = "俺闺女天天在屋里放那个韩国男团的歌。俺是真受不了那一套，听见那个动静俺脑袋就疼。"
    assert not any("那一套" in c.key for c in parse_constraints(text))


def test_a_dislike_and_a_vow_are_said_back_in_their_own_words() -> None:
    (coriander,) = constraints_from_texts(["我这辈子最受不了的就是香菜，那股味儿跟臭虫似的。"]).constraints
    assert coriander.explanation("zh") == "你说过受不了香菜，所以香菜就算了。"
    (grey,) = constraints_from_texts(["Honestly, I can't stand grey, it makes a room feel cold."]).constraints
    assert grey.explanation("en") == "You told me you can't stand grey, so no grey."
    vows = constraints_from_texts(["再也不自驾跑山路了，吓死我了。"]).constraints
    assert vows and all(v.explanation("zh").startswith("你说过再也不碰") for v in vows)
    # (an allergy is said as one, whatever words it was told in)
    (nuts,) = constraints_from_texts(["I hate that my kid is allergic to peanuts."]).constraints
    assert nuts.explanation("en").startswith("You told me about the allergy to")


def test_booking_and_a_treatment_ask_for_no_book_and_no_dish() -> None:
    from voice_agent.conversation.reminders import requested_thing
    from voice_agent.conversation.suggestions import request_kind

    def kind(text: str) -> str | None:
        found = request_kind(requested_thing(text), text)
        return found.name if found else None

    assert kind("Can you plan the spa day, which treatments to book, and what to look for?") is None
    assert kind("Should I book a table at the Thai place?") is None
    assert kind("想去发廊做个头皮护理，顺便买瓶洗发水。你给推荐下做什么项目？") is None
    # (a book and a dish are still asked for)
    assert kind("What book should I read on the plane?") == "book"
    assert kind("Any good books for a long flight?") == "book"
    assert kind("周末在家做点什么菜好？") == "dinner"


def test_finished_with_a_kind_of_thing_is_a_vow() -> None:
    from voice_agent.conversation.constraint_never_again import never_again

    assert list(never_again("Let me tell you, I have finished with boats. The engine died mid-lagoon.")) == [
        "boats"
    ]
    assert list(never_again("I'm done with the dishes.")) == []
    assert list(never_again("We're done with exams for this term.")) == []


def test_a_body_part_or_a_quantifier_is_no_allergen() -> None:
    throat = (
        "Back in college I had a bad throat, our family doctor wrote Mox 500, and within an hour of the "
        "second capsule my face blew up and there were big red welts all over my back."
    )
    assert not any("throat" in c.key or "face" in c.key for c in parse_constraints(throat))
    lactose = (
        "I had two bowls of payasam just to be polite and by nine that night I was doubled over, bloated "
        "like a balloon. I've known since college that milk does this to me; the doctor said lactose, so "
        "a splash in my chai is fine but a glass of milk and I'm finished. Amma still thinks it's all in "
        "my head."
    )
    assert {c.key for c in parse_constraints(lactose)} == {"dairy"}


def test_cantonese_xi_before_the_thing_is_no_part_of_it() -> None:
    assert {c.key for c in parse_constraints("我一个土生土长嘅西关仔，最怕就系粥。")} == {"avoid:粥"}
    assert {c.key for c in parse_constraints("系统我受不了")} == {"avoid:系统"}


def test_when_to_leave_home_sets_off_from_the_home_told() -> None:
    from voice_agent.conversation.place_note import place_note

    moved = MemoryRecord(
        "c", "我们家年初从徐汇搬到昆山花桥了，房价一半不到，房子还大了一圈。", created_at=1.0
    )
    turn = "我跟健身搭子约了礼拜六上午十点，在静安寺附近一家普拉提馆上体验课。她住得近，你帮我算算几点出门？"
    assert place_note(turn, [moved], "zh") == "出发地是昆山花桥。"


def test_a_day_name_alone_ties_no_statement_to_a_turn() -> None:
    from voice_agent.conversation.said_before import relevant_statement

    aside = MemoryRecord("c", "师傅说下礼拜才能上门修。", created_at=1.0)
    assert relevant_statement("我约了礼拜六上午十点上课，几点出门好？", [aside], "zh") == ""
