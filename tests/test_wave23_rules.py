"""Rules drawn from wave 23's blind splits (`heldout30` to `heldout33`), each as a general case."""

from __future__ import annotations

import time

import pytest

from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints
from voice_agent.conversation.likings import says_liking
from voice_agent.conversation.name_note import tied_addressee
from voice_agent.conversation.place_note import place_note, place_said, ranked_place
from voice_agent.conversation.reminders import ASKS_ADVICE, CONSTRAINT_TOPICS, requested_thing
from voice_agent.memory.records import MemoryRecord
from voice_agent.memory.scrub import Scrubber


def _keys(text: str) -> set[tuple[str, str]]:
    return {(c.kind, c.key) for c in parse_constraints(text)}


def _record(text: str, age_s: float = 0.0, source: str = "") -> MemoryRecord:
    return MemoryRecord("c", text, source=source, created_at=time.time() - age_s)


# --- what a rule is about ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Not an allergy apparently, just my body saying no.",
        "It's not an allergy, just an intolerance.",
        "Technically an allergy, though.",
    ],
)
def test_a_hedge_about_the_kind_of_rule_names_no_thing(text: str) -> None:
    assert not [c for c in parse_constraints(text) if c.key.startswith(("allergy:", "intolerance:"))]


def test_a_rule_about_them_is_about_the_thing_named_just_before() -> None:
    told = (
        "Right, so the GP finally thinks it's tomatoes. I've got some sort of intolerance to them, I get "
        "awful reflux. Not an allergy apparently."
    )
    assert _keys(told) == {("intolerance", "intolerance:tomatoes")}
    guard = constraints_from_texts([told])
    assert guard.check("A pasta bake with cherry tomatoes and basil.") is not None
    assert guard.check("A creamy leek and mushroom pasta bake.") is None
    # a thing named long before, or "it was fine", is no antecedent
    assert _keys("It was fine. I'm allergic to it.") == set()
    assert _keys("It's tomatoes. We ate out. The kids loved it. I'm allergic to them.") == set()


def test_a_thing_called_the_most_disgusting_is_kept_off() -> None:
    told = "Can I just say, mayonnaise is the most disgusting substance on earth. The smell, the wobble."
    assert ("avoid", "mayonnaise") in _keys(told)
    assert _keys("Honestly, Mondays are the most disgusting.") == set()


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("We are never, ever going camping again. The tent flooded.", "camping"),
        ("Note to self: I am never, ever connecting through Heathrow again.", "avoid:heathrow"),
        ("I'm never going back to Magaluf again.", "avoid:magaluf"),
        ("以后过年我是再也不开车回老家了。", "driving"),
        ("打死也不自驾了。", "driving"),
        ("我再也不坐大巴了，晕得要死。", "coaches"),
    ],
)
def test_swearing_something_off_for_good_is_a_rule(text: str, key: str) -> None:
    assert ("avoid", key) in _keys(text)


@pytest.mark.parametrize(
    "text",
    [
        "I'm never flying with them again.",  # that airline, not flying: unknown here
        "I will never be late again.",
        "再也不去那种地方了",
        "I drive to work every day.",
        "我每天开车上班。",
    ],
)
def test_no_thing_sworn_off(text: str) -> None:
    assert _keys(text) == set()


def test_a_drive_sworn_off_rules_out_driving_there_not_a_lift() -> None:
    guard = constraints_from_texts(["打死也不自驾了。"])
    assert guard.check("建议你们自驾回去，路上轮流开。") is not None
    assert guard.check("建议坐高铁到阜阳西站，不用自己开车。") is None


def test_what_the_stomach_cannot_take_is_a_rule() -> None:
    told = "我公公这两年肠胃不太行，糯米做的东西一点儿都消化不了，吃一个汤圆都能胃胀反酸一宿。"
    keys = _keys(told)
    assert ("intolerance", "glutinous rice") in keys
    guard = constraints_from_texts([told])
    assert guard.check("端午送一盒豆沙粽子吧。") is not None
    assert guard.check("送点绿豆糕和咸鸭蛋吧。") is None
    assert _keys("这么多菜我一个人吃不消") == set()  # too much, not a food
    assert not [k for _, k in _keys("油腻的他根本克化不动") if "根本" in k]


def test_the_month_of_confinement_rules_out_cold_raw_and_spicy_food() -> None:
    guard = constraints_from_texts(["我老婆上礼拜生了，现在在家坐月子。"])
    assert guard.check("来一份冰镇西瓜吧。") is not None
    assert guard.check("吃点麻辣火锅。") is not None
    assert guard.check("炖个鲫鱼汤，再熬点小米粥。") is None
    assert guard.check("不要吃辣的，喝点温水。") is None


def test_a_medicine_never_taken_is_kept_off_but_not_every_thing_taken() -> None:
    assert ("avoid", "ibuprofen") in _keys("One thing about me: I never take ibuprofen, none of it.")
    assert _keys("I never take the train to work.") == set()
    assert _keys("I can't take it anymore.") == set()


# --- what the turn asks ------------------------------------------------------------------------------------


def test_fuel_for_a_race_is_food() -> None:
    assert CONSTRAINT_TOPICS.search("What should I pack as fuel for the drop bag and my vest?")
    assert CONSTRAINT_TOPICS.search("比赛路上的补给带点什么？")


def test_what_else_to_do_asks_for_no_thing() -> None:
    assert requested_thing("What can I take for the pain, and what else should I be doing?") == ""


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("姥爷八十大寿快到了，我想送他件像样的礼物，你给参谋参谋？", True),
        ("下个月是我们结婚十周年，想给他挑个礼物", True),
        ("帮我拿个主意", True),
        ("我收到了礼物", False),
        ("谢谢你的礼物", False),
    ],
)
def test_a_gift_to_choose_asks_for_advice(text: str, asks: bool) -> None:
    assert bool(ASKS_ADVICE.search(text)) is asks


def test_a_habit_kept_whatever_the_weather_is_a_liking() -> None:
    assert says_liking(
        "She swims in the Serpentine every single morning before work, all year round, even in January."
    )
    assert says_liking("He's out on the bike come rain or shine.")
    assert not says_liking("She swims in the Serpentine.")


# --- the place a journey ends -------------------------------------------------------------------------------


def test_a_journey_to_someone_of_theirs_ends_where_they_told_us_they_live() -> None:
    moved = _record("Mum and Dad have finally done it, they've sold up and moved to Kirkcudbright.")
    asked = (
        "We're driving up to see my mum and dad over Easter, setting off from Stockport with the kids. "
        "How long's the drive and where's a good place to stop on the way?"
    )
    assert place_note(asked, [moved], "en") == "The journey ends in Kirkcudbright."
    assert "Kirkcudbright" in place_said(asked, "Kirkcudbright", "en")
    zh = _record("我爸妈退休以后嫌北方冬天太冷，干脆在海南琼海买了套小房子，离博鳌不远。")
    visit = "寒假想带俩孩子去看看姥姥姥爷，我们从郑州出发，怎么去比较方便？"
    assert place_note(visit, [zh], "zh") == "目的地是海南琼海。"
    # a journey to a place the turn names, or to no one of theirs, is not to the remembered place
    assert place_note("How do I get to Leeds to see my mum?", [moved], "en") == ""
    assert place_note("How long is the drive to the airport?", [moved], "en") == ""
    assert place_note("怎么去机场最快？", [zh], "zh") == ""


def test_a_town_is_named_by_the_institution_in_it() -> None:
    told = "Imogen's just started as a midwife at the Royal Infirmary of Edinburgh, out at Little France."
    assert ranked_place(told) == (1, "Edinburgh")
    assert ranked_place("I work at Google.") == (2, "")


# --- whom a message is for ----------------------------------------------------------------------------------


def test_the_name_told_as_a_name_is_the_addressee_among_several() -> None:
    told = _record(
        "[NAME:aaaaaaaaaaaa]'s got a new childminder from Monday. Her name's [NAME:bbbbbbbbbbbb], but "
        "everyone calls her [NAME:cccccccccccc]. She's just round the corner on [NAME:dddddddddddd]."
    )
    asked = "Can you write a quick message to [NAME:aaaaaaaaaaaa]'s childminder saying he's got the dentist?"
    assert tied_addressee(asked, [told]) == "[NAME:bbbbbbbbbbbb]"


def test_a_dentist_told_by_surname_is_written_to_with_her_title() -> None:
    told = _record("我换了个牙医，在市口腔医院，是个女大夫，姓黄，手可轻了。")
    asked = "帮我给我的牙医发条微信，说周六上午的复诊我去不了了。"
    assert tied_addressee(asked, [told]) == "黄大夫"


def test_onion_and_garlic_that_wreck_a_gut_are_both_kept_off() -> None:
    told = "The dietitian worked it out: it's fructans. Basically onion and garlic absolutely wreck me."
    assert {("intolerance", "onion"), ("intolerance", "garlic")} <= _keys(told)
    guard = constraints_from_texts([told])
    assert guard.check("Start with caramelised onion gravy.") is not None
    assert guard.check("Roast potatoes with rosemary and maple carrots.") is None


@pytest.mark.parametrize(
    ("fact", "turn", "language", "opening"),
    [
        (
            "We never do fireworks at ours. Not even sparklers.",
            "I'm hosting New Year's Eve at ours this year. Can you help me plan the evening?",
            "en",
            "You told me you never do fireworks at yours, so no fireworks. ",
        ),
        (
            "We are never, ever going camping again.",
            "Half term's coming up and we'd love a few days away with the kids. Any ideas?",
            "en",
            "You told me you are never, ever going camping again, so no camping. ",
        ),
    ],
)
def test_a_plan_asked_for_opens_with_what_it_must_leave_out(
    fact: str, turn: str, language: str, opening: str
) -> None:
    from voice_agent.conversation.acknowledge import acknowledgement

    guard = constraints_from_texts([fact])
    said = acknowledgement(list(guard.constraints), guard, language, turn)
    assert said is not None and said.text == opening


def test_a_dish_to_make_for_a_book_club_is_food_not_a_book() -> None:
    from voice_agent.conversation.suggestions import concrete_option, request_kind

    asked = "What should I make for the book club potluck? Something Portuguese would be fun."
    kind = request_kind("", asked)
    assert kind is not None and kind.name == "dinner"
    guard = constraints_from_texts(["I'm pescatarian: no meat and no poultry."])
    option = concrete_option(guard, "", asked, "en")
    assert option and guard.check(option) is None
    book = request_kind("", "Can you recommend a book for my book club?")
    assert book is not None and book.name == "book"


def test_an_invitation_or_an_out_of_office_needs_the_date() -> None:
    from voice_agent.text.dates import NEEDS_DATE

    assert NEEDS_DATE.search("帮我写段朋友圈文案，邀请朋友们来看我们的摄影展")
    assert NEEDS_DATE.search("Can you write me an out-of-office reply for while I'm away?")
    assert not NEEDS_DATE.search("Can you write me a short poem about autumn?")


def test_a_packing_list_and_days_with_someone_are_shaped_by_where_they_are() -> None:
    kunming = [_record("我爸妈说干脆全家都去昆明她那儿过年，热闹。")]
    assert (
        place_note("帮我列个过年出门的行李清单吧，要考虑那边的天气。", kunming, "zh")
        == "按昆明那边的天气来准备。"
    )
    friend = [_record("我大学同学[NAME:45e2b7a39346]辞职了，跑去厦门开了个小民宿。")]
    visit = "下个月我想请几天假去找[NAME:45e2b7a39346]玩，你帮我排个三天的行程？"
    assert place_note(visit, friend, "zh") == "推荐一个厦门或附近具体可以去的地方。"
    assert place_note("去黄山玩两天，帮我和我妈排个行程", friend, "zh") == ""


def test_with_no_answer_a_changed_plan_is_said_as_changed() -> None:
    from types import SimpleNamespace

    from voice_agent.conversation.turn_compose import remembered_fallback

    summary = MemoryRecord(
        "c",
        "Earlier conversation (2026-12-04): User: 我们跑团这周日早上七点搞长距离拉练，"
        "地点定在奥森南门集合。 | Assistant: 好的，我记住了。 | User: 哎，拉练地点改了啊。"
        "奥森那天有活动要封园，改到朝阳公园了，时间还是七点不变。 | Assistant: 好的，我记住了。",
        kind="summary",
        source="s",
    )
    clause = _record("哎，拉练地点改了啊。", age_s=50, source="t2")
    prompt = SimpleNamespace(retrieved=[summary, clause], pinned=[], left_out=[])
    said = remembered_fallback("周日早上拉练，我从望京过去，坐地铁怎么走最快？", prompt, "zh")  # type: ignore[arg-type]
    assert "朝阳公园" in said and "奥森南门" not in said


def test_a_list_closed_by_none_of_it_is_read_to_its_end() -> None:
    told = "I never take ibuprofen, or anything in that family, naproxen, aspirin, none of it."
    assert {("avoid", "ibuprofen"), ("avoid", "aspirin")} <= _keys(told)


def test_examples_a_rule_already_covers_are_no_rules_of_their_own() -> None:
    keys = _keys("I'm allergic to sesame. Seeds, tahini, sesame oil, the lot.")
    assert ("allergy", "sesame") in keys
    assert not {k for _, k in keys if k in ("allergy:tahini", "allergy:sesame oil")}


@pytest.mark.parametrize(
    "text",
    [
        "We're taking the minibus to RHS Wisley on Saturday the 21st of June.",
        "I'm driving the garden club minibus up from Guildford on the 21st.",
    ],
)
def test_where_a_bus_or_a_drive_goes_is_no_person(text: str, name_scrubber: Scrubber) -> None:
    assert not name_scrubber.scrub(text).found


def test_the_one_food_not_eaten_by_someone_who_eats_anything_is_a_rule() -> None:
    assert ("avoid", "avoid:苦瓜") in _keys("我这个人什么都吃，就是苦瓜真的顶唔顺，从小到大都不喜欢。")
    assert ("avoid", "cilantro") in _keys("我啥都吃，唯独香菜不行。")
    assert _keys("除了周末我都不行") == set()


def test_a_request_to_put_dishes_together_is_no_question_about_what_was_said() -> None:
    from voice_agent.conversation.recall_answer import is_recall_question

    assert not is_recall_question("最近热到发疯，晚饭想煮几个清热下火的家常菜，你帮我配一下？")
    assert is_recall_question("我上次说几点开会？")


def test_a_class_that_could_not_run_and_moved_is_a_changed_plan() -> None:
    from voice_agent.conversation.changed_plan import changed_plan, names_old_plan, replaced_keys

    old = _record(
        "我在老年大学报了个川菜烹饪班，下个月开课，每周四上午。我打算学会了回来给老伴做回锅肉、麻婆豆腐。",
        100,
        "t1",
    )
    new = _record("跟你说下哈，川菜班人没报满开不成了，老师让我转到淮扬菜班去了，还是每周四上午。", 0, "t2")
    asked = "下个月就开课了，我想先在家练练手，你给我推荐几道适合入门的菜？"
    change = changed_plan(asked, [old, new], "zh")
    assert "淮扬菜" in change
    assert names_old_plan("可以尝试做麻婆豆腐和回锅肉。", replaced_keys(asked, [old, new]), change, asked)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("I stopped drinking coffee.", "coffee"),
        ("I've stopped eating meat.", "meat"),
        ("这辈子再也不在网上买家具了。", "online shopping"),
        ("我这人吧，啥都吃，就是闻不了孜然那个味儿，一闻就反胃。", "avoid:孜然"),
    ],
)
def test_more_things_given_up_or_kept_off(text: str, key: str) -> None:
    assert key in {k for _, k in _keys(text)}


def test_a_stop_on_the_way_or_a_drink_given_up_is_not_misread() -> None:
    asked = "I'm driving up from Cardiff to see Nain. Is there anywhere nice to stop for a coffee on the way?"
    assert _keys(asked) == set()
    assert "alcohol" not in {k for _, k in _keys("I stopped drinking coffee.")}
    assert "raw" not in {k for _, k in _keys("我对花生的味道过敏")}  # 生的 of 花生的 is no raw food


def test_a_journey_to_a_grandparent_or_a_city_in_its_province() -> None:
    nain = [_record("She's got a little bungalow in Llandeilo now, right by the Co-op and the church.")]
    asked = "I'm driving up from Cardiff to see Nain on Saturday. How long will it take?"
    assert place_note(asked, nain, "en") == "The journey ends in Llandeilo."
    enshi = [_record("我姥爷去年冬天搬到湖北恩施去了，跟我小舅一家住。")]
    drive = "国庆我想带孩子去看看姥爷，从武汉自己开车过去，大概得开多久？"
    assert place_note(drive, enshi, "zh") == "目的地是湖北恩施。"
    # (a home bought there is where they live: ranked as a place moved to)
    assert ranked_place("我爸妈干脆在海南琼海买了套小房子") == (0, "海南琼海")


def test_an_everyday_word_a_surname_starts_is_no_addressee(name_scrubber: Scrubber) -> None:
    told = name_scrubber.scrub("我家小子去的那个托管班换老师了，新来的老师叫宓红英，说话温声细语的。")
    assert [f.value for f in told.found] == ["宓红英"]


def test_a_habit_of_calling_is_no_liking() -> None:
    assert not says_liking("She rings us every Sunday without fail.")
    assert ranked_place("She's at KU Leuven doing engineering, above a waffle shop.") == (1, "Leuven")


def test_a_condition_said_back_keeps_whom_it_is_about() -> None:
    from voice_agent.conversation.acknowledge import acknowledgement

    told = "我爸今年刚退休，单位体检查出来二型糖尿病，空腹血糖八点几。医生说先不吃药，甜的一口都别碰。"
    guard = constraints_from_texts([told])
    assert "avoid:药" not in [c.key for c in guard.constraints]  # no medicine yet: no food kept off
    assert guard.check("因为你爸查出来二型糖尿病，") is None  # 糖尿病 names the condition, not sugar
    assert guard.check("早饭来块蛋糕吧。") is not None
    said = acknowledgement(
        list(guard.constraints), guard, "zh", "这个周末我爸来我这儿住两天，早饭我给他弄点啥好？"
    )
    assert said is not None and said.text.startswith("因为你爸")


def test_a_trip_being_done_is_a_plan_a_later_switch_changes() -> None:
    from voice_agent.conversation.changed_plan import changed_plan

    trip = _record("Our food group is finally doing a proper trip! Five days in Bologna in May.", 100, "t1")
    moved = _record(
        "Twist: the Bologna hotel cancelled on us, so we've switched the whole thing to Lyon instead."
    )
    asked = "I want to do a bit of homework before the food trip. What are the must-try local dishes there?"
    assert "Lyon" in changed_plan(asked, [trip, moved], "en")
