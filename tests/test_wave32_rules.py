"""Wave 32 rules, each from held-out speech the wave before missed (heldout84-89)."""

from __future__ import annotations

import pytest
from _scripted_llm import ScriptedLlm

from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints
from voice_agent.conversation.likings import says_liking
from voice_agent.conversation.message_draft import salutation
from voice_agent.conversation.name_note import tied_addressee
from voice_agent.conversation.place_note import recalled_place
from voice_agent.conversation.reminders import requested_thing
from voice_agent.conversation.reply_check import ReplyCheck
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
    # with nothing remembered for the role, the name in the turn still greets as before
    assert salutation(turn, "en", "") == f"Hi {FESTIVAL},"


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
