"""Wave 32 rules, each from held-out speech the wave before missed (heldout84-89)."""

from __future__ import annotations

import pytest
from _scripted_llm import ScriptedLlm

from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints
from voice_agent.conversation.likings import says_liking
from voice_agent.conversation.message_draft import salutation
from voice_agent.conversation.name_note import tied_addressee
from voice_agent.conversation.no_answer import says_nothing
from voice_agent.conversation.place_note import recalled_place
from voice_agent.conversation.reminders import requested_thing
from voice_agent.conversation.reply_check import ReplyCheck
from voice_agent.conversation.reply_copies import without_prompt_date
from voice_agent.conversation.writing import WRITES_TO, told_of_names
from voice_agent.memory.records import MemoryRecord
from voice_agent.metrics.trace import TurnTrace

TEACHER = "[NAME:aaaaaaaaaaaa]"
PUPIL = "[NAME:bbbbbbbbbbbb]"
FESTIVAL = "[NAME:cccccccccccc]"


def _said(*texts: str) -> list[MemoryRecord]:
    return [MemoryRecord(conversation_id="c", text=t, role="user", kind="utterance") for t in texts]


def test_a_name_the_turn_tells_of_is_not_whom_a_card_to_a_role_is_for() -> None:
    turn = (
        f"Results are out and {PUPIL} got a H2 in Higher Maths! Can you help me write a proper thank-you "
        "card to the teacher who did his grinds?"
    )
    records = _said(f"the man who saved {PUPIL}'s maths is {TEACHER}.", "He does the grinds at home.")
    assert told_of_names(turn) == {PUPIL}
    assert tied_addressee(turn, records) == TEACHER
    assert salutation(turn, "en", TEACHER) == f"Dear {TEACHER},"


def test_a_festival_tagged_as_a_name_does_not_take_the_teachers_greeting() -> None:
    turn = (
        f"{FESTIVAL} is coming up and I want to send my violin teacher a proper message of gratitude. Can "
        "you write the message for me?"
    )
    records = _said(f"My teacher is {TEACHER}, a proper old-school guru.")
    assert tied_addressee(turn, records) == TEACHER
    assert salutation(turn, "en", TEACHER) == f"Hi {TEACHER},"
    # with nothing remembered for the role, a name the turn only tells of is greeted no more (wave 43:
    # "[NAME] just passed his Grade 5… a thank-you card to his teacher" is not "Dear Jayden,")
    assert salutation(turn, "en", "") == ""


def test_a_name_said_after_the_role_is_still_whom_it_is_for() -> None:
    turn = f"Can you write a card to my teacher {TEACHER}? {PUPIL} passed everything."
    assert told_of_names(turn) == {PUPIL}
    assert salutation(turn, "en", "") == f"Dear {TEACHER},"
    # no role in the turn: a name told of is not set aside
    assert told_of_names(f"{PUPIL} got the job! Write a card for {PUPIL}.") == set()


def test_a_nomination_is_written_about_the_one_tied_to_it_not_his_nickname() -> None:
    turn = "年底钓协要评年度最热心钓友，我想提名帮大家最多的那位，你帮我写段推荐理由，三百字左右。"
    assert WRITES_TO.search(turn)
    records = _said(f"我们钓协最热心的要数{TEACHER}，黎明的黎，大家都喊他{PUPIL}，年轻的喊春哥。")
    assert tied_addressee(turn, records) == TEACHER
    assert salutation(turn, "zh", TEACHER) == f"{TEACHER}："
    assert WRITES_TO.search("Could you write a nomination for our lollipop lady?")


def test_a_liking_said_as_who_someone_is_or_what_they_grew_up_with() -> None:
    assert says_liking("Nana's eighty next year. She's a proper birder.")
    assert says_liking("He's a keen cyclist.")
    assert says_liking("我家那小子没别的爱好，就迷无人机，自己攒钱买零件拼了个穿越机")
    assert says_liking("我打小跟外婆长大，听越剧听到大的，张嘴就能来两句")
    assert says_liking("他最迷周杰伦")
    # who someone is, not what they like; a way that is lost
    assert not says_liking("She is a proper Londoner.")
    assert not says_liking("He is a real worrier.")
    assert not says_liking("他就迷路了")


def test_busy_with_feet_off_the_ground_keeps_nothing_off() -> None:
    assert parse_constraints("最近公司年中考核，忙得脚不沾地。") == []
    assert [c.key for c in parse_constraints("我不沾酒")] == ["alcohol"]


@pytest.mark.parametrize(
    ("turn", "records", "place"),
    [
        ("Can you give me some ideas for a good day out with them, ideally within half an hour's drive?",
         ["We moved from Phoenix to Pittsburgh in August, renting a little place in Squirrel Hill."],
         "Pittsburgh"),
        ("Can you help me write up a plan for when labour starts: who to call, how we get to the hospital?",
         ["We moved out to Waiheke last winter"], "Waiheke"),
        ("周末想带六岁的儿子出去玩一天，博物馆、动物园啥的都行，开车一个钟头以内，你给推荐推荐。",
         ["我们一家跟着搬过来，住平城区。", "去年我老公从太原调到大同的煤矿设计院"], "大同"),
    ],
)  # fmt: skip
def test_a_day_out_within_a_drive_or_the_hospital_to_get_to_is_about_where_they_live(
    turn: str, records: list[str], place: str
) -> None:
    assert recalled_place(turn, _said(*records)) == place
    # a trip the turn sends somewhere else is not
    assert recalled_place("A day out in Edinburgh next week, what should we do?", _said(*records)) != place


async def test_a_playlist_asked_with_a_pregnancy_is_answered_by_the_liking_not_the_food_rule() -> None:
    """ "都说怀孕要做胎教…帮我弄个胎教歌单" keeps no alcohol or raw food (the turn says she is pregnant),
    yet when the model says the question back twice, the person hears the music they love, not "我建议选
    不含酒和生食的选择"."""
    turn = "都说怀孕要做胎教，我现在五个月了，你帮我弄个胎教歌单，再排个每天啥时候听。"
    pregnant = constraints_from_texts([turn])
    assert pregnant.constraints  # (the food rule is there)
    liked = "我打小跟外婆长大，听越剧听到大的。"
    trace = TurnTrace("playlist")
    check = ReplyCheck(pregnant, "zh", trace, user_words=turn, requested=requested_thing(turn), liked=liked,
                       expects_suggestion=True)  # fmt: skip
    said = "".join([t async for t in check.run([{"role": "user", "content": turn}], ScriptedLlm(turn, turn))])
    assert "越剧" in said and "生食" not in said
    assert trace.first("reply.liked_fallback") is not None
    # asked for food, the same rule is what is said
    meal = "都说怀孕要补营养，我现在五个月了，晚饭吃点啥好？"
    food = ReplyCheck(constraints_from_texts([meal]), "zh", TurnTrace("m"), user_words=meal,
                      requested=requested_thing(meal), liked=liked, expects_suggestion=True)  # fmt: skip
    said = "".join([t async for t in food.run([{"role": "user", "content": meal}], ScriptedLlm(meal, meal))])
    assert "越剧" not in said


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("酸菜泡菜那些腌的东西一沾就烧心反酸", ["intolerance:酸菜", "intolerance:泡菜"]),
        ("医生喊我腌菜泡菜少碰。", ["avoid:腌菜", "avoid:泡菜"]),
        ("医生叫我泡菜少碰", ["avoid:泡菜"]),  # (not 泡 and a dish)
        ("青菜不能吃", ["avoid:青菜"]),
        ("牛肉羊肉都不能吃", ["beef", "lamb"]),
        ("My OB put me on ferrous sulfate when I was pregnant. My tummy just cannot handle that stuff.",
         ["diet:pregnancy", "intolerance:ferrous sulfate"]),
    ],
)  # fmt: skip
def test_things_run_together_touched_once_or_given_by_a_doctor(text: str, keys: list[str]) -> None:
    assert [c.key for c in parse_constraints(text)] == keys


def test_a_pronoun_after_something_given_that_is_no_medicine_stays_a_pronoun() -> None:
    assert parse_constraints("They put him on a waiting list. His stomach can't handle it.") == []


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        # a kind of meat refused is no diet kept ("Since they're keeping halal" was said of a Sikh dad)
        ("Dad took amrit at Vaisakhi, so he's gone proper strict now, no halal meat at all, it's jhatka or "
         "nothing.", []),
        ("No pork, we're halal.", ["diet:halal"]),
        ("We only eat halal meat.", ["diet:halal"]),
        # not dared after what happened
        ("网上都吹椰子水，结果喝一瓶拉一回。后来连生椰拿铁都不敢碰了。", ["avoid:生椰拿铁"]),
        ("吃了就吐，后来连馒头都不敢吃了", ["avoid:馒头"]),
        ("他连早饭都不吃", []),
        # 炸 of noise is no fried food; a time is no thing
        ("这种又吼又炸的课我是真受不了。", []),
        ("油炸的东西我吃了就拉肚子", ["intolerance:fried"]),
        ("喂奶的时候不能喝酒", ["alcohol"]),
        ("怀孕期间不能吃生的", ["diet:pregnancy", "raw"]),
    ],
)  # fmt: skip
def test_kinds_refused_things_not_dared_and_words_of_noise_or_time(text: str, keys: list[str]) -> None:
    assert [c.key if c.kind != "intolerance" or ":" in c.key else f"intolerance:{c.key}"
            for c in parse_constraints(text)] == keys  # fmt: skip


@pytest.mark.parametrize("reply", ["That.", "Okay.", "Sure!", "好的，知道了。", "嗯。"])
async def test_a_reply_that_says_nothing_to_a_request_is_asked_again(reply: str) -> None:
    turn = "Can you put together a supplement stack and when to take what around my sessions?"
    llm = ScriptedLlm(
        reply, "Whey after training and creatine-free pre-workout: plain coffee an hour before."
    )
    check = ReplyCheck(constraints_from_texts([]), "en", TurnTrace("t"), user_words=turn)
    said = "".join([t async for t in check.run([{"role": "user", "content": turn}], llm)])
    assert len(llm.calls) == 2 and said.strip().startswith("Whey")
    assert says_nothing(reply) and not says_nothing("Whey.") and not says_nothing("好的，推荐燕麦。")


async def test_a_short_answer_to_a_yes_no_question_is_kept() -> None:
    turn = "Is it worth taking creatine?"
    llm = ScriptedLlm("Yes.")
    check = ReplyCheck(constraints_from_texts([]), "en", TurnTrace("t"), user_words=turn)
    said = "".join([t async for t in check.run([{"role": "user", "content": turn}], llm)])
    assert said.strip() == "Yes." and len(llm.calls) == 1


@pytest.mark.parametrize(
    ("turn", "records", "place"),
    [
        # a district said with its city; a city come from, its province between, is not where they are
        ("闺女满六岁，想带她出去玩一天，开车一个多钟头以内，你帮我推荐推荐去哪。",
         ["去年跟老公从武汉回了他老家宜昌，在伍家岗那边买了套房，离他上班的地方近。"], "宜昌伍家岗"),
        ("我想推老伴出去转转，你推荐几个轮椅好推、不用爬坡上坎的地方。",
         ["我跟老伴是前年从黑龙江鹤岗过来的，儿子在柳州五菱上班，我们来帮着带孙子。"], "柳州"),
        ("周末附近有什么好玩的", ["我们搬到湖北恩施去了"], "湖北恩施"),
        # a numbered part of a town is no town
        ("Where can we take them for a half-day outing nearby?",
         ["we've got a flat in Sector 35 now, near the market.", "We shifted to Chandigarh in April"],
         "Chandigarh"),
    ],
)  # fmt: skip
def test_the_place_is_said_as_people_know_it(turn: str, records: list[str], place: str) -> None:
    assert recalled_place(turn, _said(*records)) == place


def test_something_written_about_the_carer_is_addressed_to_her() -> None:
    turn = "Can you write something for me about the carer who does Mum's nights? Heartfelt but not soppy."
    assert WRITES_TO.search(turn)
    records = _said(
        f"The hospice-at-home lady who does Mum's nights is an absolute angel. {TEACHER}, she hums."
    )
    assert tied_addressee(turn, records) == TEACHER


@pytest.mark.parametrize(
    ("turn", "records", "place"),
    [
        ("I've got a conference in Canberra at 9am on Monday. What's the easiest way to get there and back, "
         "and when should I leave?",
         ["We finally did it: sold the Carlton flat and moved down to Geelong."], "Geelong"),
        ("下礼拜三要去西安参加个物流行业峰会，上午十点开幕，你帮我看看怎么走合适。",
         ["我们家前年从河西区搬到武清了，图房子大"], "武清"),
        # their parents' home is no start; nor a town the story passed; nor when the turn says where from
        ("How do I get to Leeds for the match?", ["Mum and Dad have sold up, moved to Kirkcudbright."], ""),
        ("What's the best way to get to Glasgow?", ["We sat in a lay-by outside Carlisle for an hour."], ""),
        ("I'm going up from London again. What's the best way to get to Glasgow?",
         ["We finally moved down to Geelong."], ""),
        # things to do in the town the turn names, not in the grandmother's
        ("我奶奶下个月来上海我这儿住两个礼拜，周末我想带她出去逛逛，你帮我安排一下。",
         ["我奶奶八十六了，在沈阳铁西住了一辈子"], ""),
        ("我闺女劝我跟她一块儿开个小点心铺子，你帮我想想铺子开在哪合适。",
         ["我在淄博周村这边住了快三十年了，以前在丝绸厂上班"], "淄博周村"),
    ],
)  # fmt: skip
def test_a_journey_sets_off_from_home_and_a_town_named_is_the_turns_own(
    turn: str, records: list[str], place: str
) -> None:
    assert recalled_place(turn, _said(*records)) == place


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("我跟自己发过毒誓，这辈子出差站展再穿高跟鞋我就是猪。", "avoid:高跟鞋"),
        ("The girls booked me on that afternoon tea bus, the old Routemaster one. Never again, honestly.",
         "avoid:afternoon tea bus"),
    ],
)  # fmt: skip
def test_vows_on_being_a_pig_and_never_again_after_a_bus_ride(text: str, key: str) -> None:
    assert [c.key for c in parse_constraints(text)] == [key]


async def test_what_they_told_us_is_not_said_back_when_it_names_what_they_swore_off() -> None:
    told = "The girls booked me on that afternoon tea bus, the old Routemaster one. Never again, honestly."
    turn = "My sister's coming down for her 60th and I want to take her for a proper afternoon tea. Where?"
    trace = TurnTrace("t")
    check = ReplyCheck(constraints_from_texts([told]), "en", trace, user_words=turn,
                       remembered="You told me the girls booked you on that afternoon tea bus.")  # fmt: skip
    llm = ScriptedLlm(turn, turn)
    said = "".join([t async for t in check.run([{"role": "user", "content": turn}], llm)])
    assert "booked you on that afternoon tea bus" not in said
    assert trace.first("reply.remembered_fallback") is None


async def test_the_prompts_date_said_inside_a_reply_is_left_out_unless_asked() -> None:
    turn = "你帮我给阿琪发个消息，把这次攀岩的安排跟她说清楚：哪天、几点、去哪。"  # (asks the plan's day)
    reply = "阿琪，今天是2026-12-05（周六），攀岩改成周日上午十点了，我九点一刻去接你。"
    check = ReplyCheck(constraints_from_texts([]), "zh", TurnTrace("t"), user_words=turn)
    said = "".join([t async for t in check.run([{"role": "user", "content": turn}], ScriptedLlm(reply))])
    assert "2026-12-05" not in said and "改成周日上午十点" in said
    asked = "今天几号？"
    kept = ReplyCheck(constraints_from_texts([]), "zh", TurnTrace("d"), user_words=asked)
    said = "".join([t async for t in kept.run([{"role": "user", "content": asked}], ScriptedLlm(reply))])
    assert "2026-12-05" in said
    assert without_prompt_date("Today is 2026-12-05 (Saturday).", "Plan Sunday.") == ""
    kept = "Your appointment is on 2026-12-05."
    assert without_prompt_date(kept, "When is it?") == kept


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("I go bright red, start sweating. I just can't stand haggling, full stop. Oh, and the MOT is due.",
         ["avoid:haggling"]),
        ("I hate cooking.", ["avoid:cooking"]),
        ("I hate waiting.", []),
        ("I genuinely cannot stand the whole Disney princess thing.", ["avoid:disney princess"]),
        ("I'd honestly rather run through a hailstorm than get on a treadmill, the dreadmill I call it.",
         ["avoid:treadmill"]),
        ("I'd rather die than eat liver.", ["avoid:liver"]),
        ("I'd rather stay in than go out tonight.", []),
        ("大夫说我对酸枝、紫檀那一类红木过敏", ["allergy:酸枝", "allergy:紫檀"]),
        ("海鲜那一类的都不能吃", ["shellfish", "fish"]),
        ("我这人打小就膈应小丑，看一眼浑身起鸡皮疙瘩。", ["avoid:小丑"]),
    ],
)  # fmt: skip
def test_pastimes_hated_things_rather_not_and_kinds_named_with_their_family(
    text: str, keys: list[str]
) -> None:
    assert [c.key for c in parse_constraints(text)] == keys


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("One whiff of mothballs and I get a thumping headache.", ["intolerance:mothballs"]),
        ("One whiff of those things now and I get a headache.", []),
        ("Had a bite of the cake and it was lovely.", []),
        ("医生千叮咛万嘱咐，带激素的补品一律不许碰——蜂王浆、雪蛤、蜂胶、胎盘这些。",
         ["avoid:补品", "avoid:蜂王浆", "avoid:雪蛤", "avoid:蜂胶", "avoid:胎盘"]),
        ("酸的、咸的、辣的都莫给他吃，不然更痛。", ["sour", "salt", "spicy"]),
    ],
)  # fmt: skip
def test_the_least_of_it_a_list_after_a_dash_and_what_not_to_give_him(text: str, keys: list[str]) -> None:
    assert [c.key for c in parse_constraints(text)] == keys


def test_a_post_to_thank_someone_by_what_they_did_names_them() -> None:
    turn = (
        "I want to post something in the market's Facebook group to thank the stallholder who helped me out "
        "with that trunk on Saturday. Can you write it for me?"
    )
    records = _said(
        f"and the stallholder, big fella called {TEACHER}, everyone calls him {PUPIL}, kept it aside"
    )
    assert tied_addressee(turn, records) == TEACHER
    assert salutation(turn, "en", TEACHER) == f"Dear {TEACHER},"


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        # a word of pointing or of going on is no thing ("闻着", "那味儿", "一整天")
        ("我这人打小就烦韭菜，闻着就反胃，吃一口能膈应一整天。", ["avoid:韭菜"]),
        ("就是不吃胡萝卜，闻着那味儿就想吐", ["avoid:胡萝卜"]),
        ("这会儿闻着羊膻味儿就吐，羊蝎子我给退了。改成猪肚鸡火锅。", ["intolerance:羊膻"]),
        # two names of one thing, read by two shapes: the whole one ("葱" beside "洋葱" stays)
        ("不光肉蛋不吃，葱、蒜、韭菜、洋葱这些五荤也都不碰。",
         ["avoid:葱", "garlic", "avoid:韭菜", "onion", "meat"]),
        ("The GP said it's an enzyme thing and I should just avoid alcohol altogether.", ["alcohol"]),
    ],
)  # fmt: skip
def test_no_thing_is_read_from_a_word_of_smelling_or_pointing(text: str, keys: list[str]) -> None:
    assert [c.key for c in parse_constraints(text)] == keys


def test_a_eucalyptus_allergy_rules_out_the_chest_rubs_made_of_it() -> None:
    """ "…gum trees everywhere, and he's allergic to eucalyptus" and a reply offered Vicks for his cold."""
    told = "He was born and bred in Katoomba, gum trees everywhere, and he's allergic to eucalyptus."
    assert [c.key for c in parse_constraints(told)] == ["eucalyptus"]
    rules = constraints_from_texts([told])
    assert rules.check("Rub a bit of Vicks on his chest.") is not None
    assert rules.check("Try Olbas oil on his pillow.") is not None
    assert rules.check("Give him honey and lemon, and no Vicks.") is None
    assert [c.key for c in parse_constraints("我对桉树过敏")] == ["eucalyptus"]
