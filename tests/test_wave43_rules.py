"""Wave 43: whom a message is for when the story named them twice or by a business; a thing done or used
kept off said as "不用…"; spicy food kept off as "mild"; red-eyes as overnight flights; no "Sure!" after
the greeting."""

from __future__ import annotations

from test_echo import _said as said_by
from test_reply_check import ScriptedLlm

from voice_agent.conversation.acknowledge import from_kind
from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints
from voice_agent.conversation.message_draft import salutation
from voice_agent.conversation.name_note import addressee, name_note
from voice_agent.conversation.reply_check import ReplyCheck
from voice_agent.conversation.writing import TO_A_ROLE_ANYWHERE
from voice_agent.memory.records import MemoryRecord
from voice_agent.metrics.trace import TurnTrace

A, B, C, D = ("[NAME:3b2a04c7897e]", "[NAME:a2539ead2126]", "[NAME:0784ba47f3a7]", "[NAME:9eb0b84b745f]")


def _records(*texts: str) -> list[MemoryRecord]:
    return [MemoryRecord("c", text) for text in texts]


def test_a_name_said_to_everyone_is_the_same_person() -> None:
    told = _records(
        f"the coach there was a gas woman, {A}, {B} to everyone, an ex-county camogie player who had us all "
        "in stitches."
    )
    turn = "Can you write me a message I can send to the coach at the club, asking about lessons for two?"
    assert name_note(turn, told, "en") == f"Address it to {A}."


def test_the_name_the_turn_only_mentions_is_not_whom_it_is_to() -> None:
    told = _records(
        f"At my cousin {C}'s wedding in Surulere on Saturday, the best thing there was the small chops.",
        f"everybody calls her {D}",
        f"she runs {A}'s Kitchen in Yaba",  # (a business: not another person)
    )
    turn = (
        "My mum turns seventy in March and we're doing a small party at home. I want to book the woman who "
        f"did the small chops at {C}'s wedding. Please draft a WhatsApp message to her asking if she's free."
    )
    assert addressee(turn, told) == D
    assert salutation(turn, "en") == ""  # never "Hi Chidi,"


def test_a_role_the_turn_only_tells_of_is_not_whom_it_writes_to() -> None:
    assert TO_A_ROLE_ANYWHERE.search("My mum turns seventy in March, draft a message to the caterer.") is None
    assert TO_A_ROLE_ANYWHERE.search("My mum's party is in March, draft a message to the caterer.") is None
    assert TO_A_ROLE_ANYWHERE.search("Help me reply to my landlord about the boiler.") is not None


def test_a_nickname_after_a_title_is_the_same_person() -> None:
    told = _records(
        f"At the church potluck I got to visiting with the sweetest lady, {A}, she's been calling square "
        f"dances for thirty-odd years and said everybody just calls her Miss {B}."
    )
    turn = "Who could I ask to call the square dances, and could you draft the note I'd send to invite them?"
    assert addressee(turn, told) == A


def test_a_thing_kept_off_that_is_no_food_is_not_used() -> None:
    (vow,) = [c for c in parse_constraints("这辈子再也不用网盘存照片了，丢了好几年的。") if c.kind == "avoid"]
    assert from_kind(vow, "zh").startswith(f"按你说的，不用{vow.noun_zh}")
    (food,) = [c for c in parse_constraints("我这个人真的不吃香菜。") if c.kind == "avoid"]
    assert from_kind(food, "zh") == f"按你说的，避开{food.noun_zh}，"


def test_spicy_food_kept_off_is_offered_mild() -> None:
    told = constraints_from_texts(["I can't handle spicy food at all, chilli wrecks my stomach."])
    (spicy,) = told.constraints
    assert "mild" in spicy.alternative("", "en") and "mild" in spicy.alternative("dinner", "en")
    (la,) = constraints_from_texts(["我一点辣都吃不了。"]).constraints
    assert "不辣的" in la.alternative("菜", "zh")


def test_a_red_eye_is_an_overnight_flight() -> None:
    told = constraints_from_texts(
        [
            "I flew back from Sydney on the red-eye last month, landed at six, so I've told the missus "
            "that's it: I am never doing an overnight flight again."
        ]
    )
    assert told.check("Take the red-eye from Perth on the Monday night.") is not None
    assert told.check("Fly over on a daytime flight, no red-eye.") is None
    vowed = constraints_from_texts(["这辈子再也不坐红眼航班了。"])
    assert vowed.check("可以坐夜航过去，省一晚酒店。") is not None


async def test_no_lead_in_is_said_after_the_greeting() -> None:
    asked = "Can you write me a message I can send to the coach at the club, asking about lessons?"
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": asked}]
    none = constraints_from_texts([])
    check = ReplyCheck(none, "en", TurnTrace("s"), user_words=asked, salutation="Hi Siofra,")
    reply = "Sure! Here's a message for the coach: Dear Siofra, we'd love padel lessons. We're beginners."
    said = await said_by(check, ScriptedLlm(reply), messages)
    assert said.startswith("Hi Siofra, We'd love padel lessons.") and "Sure" not in said
