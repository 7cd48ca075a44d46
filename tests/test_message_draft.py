"""When the model writes nothing usable for a card or a message, the person gets a few lines for the
occasion, addressed to the person they told us about, not "sorry"."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from test_echo import _said as said_by
from test_reply_check import ScriptedLlm

from voice_agent.conversation.constraints import constraints_from_texts
from voice_agent.conversation.message_draft import message_draft, occasion_of
from voice_agent.conversation.reply_check import ReplyCheck
from voice_agent.conversation.reply_fallbacks import NOTHING_TO_SAY
from voice_agent.conversation.turn_compose import remembered_fallback
from voice_agent.memory.records import MemoryRecord
from voice_agent.metrics.trace import TurnTrace


def _user(text: str) -> MemoryRecord:
    return MemoryRecord("c1", text)


NUR = "[NAME:c30cd7ea146e]"
NURSE = f"我们科新来的小护士，人勤快得很，嘴也甜，我们都喊她{NUR}。"
CARD = "她下个礼拜天办婚礼，我随了份子，想在贺卡上写几句祝福的话，你帮我写一写？"


@pytest.mark.parametrize(
    ("turn", "occasion"),
    [
        (CARD, "wedding"),
        ("Could you write a little note to go with a tin of Welsh cakes, to say thank you?", "thanks"),
        ("our 1 month together is on friday can u help me write a cute msg 2 send her", "anniversary"),
        ("Can you draft a card for my nephew, he's turning 30 next week?", "birthday"),
        ("帮我给王阿姨写条微信，她刚做完手术。", "recovery"),
        ("Help me write a card for my neighbour, her husband passed away last week.", "sympathy"),
        ("帮我写几句话发给老同学。", "general"),
    ],
)
def test_the_occasion_comes_from_the_turns_words(turn: str, occasion: str) -> None:
    assert occasion_of(turn).name == occasion


def test_a_draft_is_addressed_by_name_in_the_persons_language() -> None:
    assert message_draft(CARD, NUR, "zh").startswith(f"{NUR}，新婚快乐")
    thanks = message_draft("Write a thank-you note for the carer, please.", "Luz", "en")
    assert thanks.startswith("Dear Luz, thank you")
    assert message_draft("Write a thank-you note, please.", "", "en").startswith("Thank you")


def test_the_fallback_addresses_the_person_the_message_is_for() -> None:
    prompt = SimpleNamespace(retrieved=[_user("病人扎针都爱找她"), _user(NURSE)], pinned=[], left_out=[])
    said = remembered_fallback(CARD, prompt, "zh")  # type: ignore[arg-type]
    assert said.startswith(NUR) and "婚" in said
    # no name the message could be for: the person's own closest words, as before
    other = SimpleNamespace(retrieved=[_user("我最近在学做饭。")], pinned=[], left_out=[])
    assert NUR not in remembered_fallback(CARD, other, "zh")  # type: ignore[arg-type]


async def test_the_reply_check_says_the_draft_instead_of_sorry() -> None:
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": CARD}]
    trace = TurnTrace("m")
    prompt = SimpleNamespace(retrieved=[MemoryRecord("c1", NURSE)], pinned=[], left_out=[])
    draft = remembered_fallback(CARD, prompt, "zh")  # type: ignore[arg-type]
    llm = ScriptedLlm(CARD, CARD)  # the request said back, twice
    check = ReplyCheck(constraints_from_texts([]), "zh", trace, user_words=CARD, remembered=draft)
    said = await said_by(check, llm, messages)
    assert NUR in said and said.strip() != NOTHING_TO_SAY["zh"]
    assert trace.first("reply.remembered_fallback") is not None


def test_a_written_request_to_someone_we_can_name_opens_with_their_name() -> None:
    from voice_agent.conversation.message_draft import salutation, without_salutation

    teacher = "下礼拜六我女儿钢琴发表会，我想写张卡片给[NAME:c95513db924f]老师，你帮我写一下好不好？"
    assert salutation(teacher, "zh") == "[NAME:c95513db924f]老师："
    # a turn that names no one gets no greeting: a name only the memory ties to the card is not said
    # first (it may have been corrected since: "Aoife, no wait, Aoife's her sister")
    assert salutation(CARD, "zh") == ""
    assert salutation("Would you write a thank-you card for my flatmate?", "en") == ""
    assert salutation("Write a thank-you card for [NAME:0a1b2c3d4e5f].", "en") == "Dear [NAME:0a1b2c3d4e5f],"
    assert salutation("can u help me write a cute msg 2 send [NAME:0a1b2c3d4e5f]", "en").startswith("Hi ")
    assert salutation("What should I cook tonight?", "zh") == ""  # nothing written is asked for
    two = "Write a card for [NAME:0a1b2c3d4e5f] and [NAME:0a1b2c3d4e60]."
    assert salutation(two, "en") == ""  # which one it is for is not clear
    # (one it is from is not whom it is to)
    from_to = "Write a card from [NAME:0a1b2c3d4e5f] to [NAME:0a1b2c3d4e60]."
    assert salutation(from_to, "en") == "Dear [NAME:0a1b2c3d4e60],"
    # the model's own greeting is left out after ours; a reply without one is kept whole
    assert without_salutation("Dear Luz, thank you so much.") == "Thank you so much."
    assert without_salutation("笪老师：谢谢您两年的耐心。") == "谢谢您两年的耐心。"
    assert without_salutation("卡片写得很棒，谢谢老师。") == "卡片写得很棒，谢谢老师。"
    assert without_salutation("Thank you: all of it.") == "Thank you: all of it."
    # nor a preamble before it
    assert (
        without_salutation("Sure! Here's the invite text: --- Hi Adaeze, we've moved it.")
        == "We've moved it."
    )
    assert without_salutation("好的，这是贺卡内容：笪老师：谢谢您两年的耐心。") == "谢谢您两年的耐心。"
    assert without_salutation("Sure thing, I can do that.") == "Sure thing, I can do that."


async def test_the_reply_is_opened_with_the_name_and_not_greeted_twice() -> None:
    asked = "Could you write a little thank-you note for the carer?"
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": asked}]
    trace = TurnTrace("s")
    check = ReplyCheck(constraints_from_texts([]), "en", trace, user_words=asked, salutation="Dear Luz,")
    said = await said_by(check, ScriptedLlm("Dear Luz, thank you for looking after Mam so well."), messages)
    assert said.startswith("Dear Luz, Thank you for looking after Mam") and said.count("Luz") == 1
    assert trace.first("reply.salutation") is not None
    # the model gives nothing usable twice: the drafted note follows the greeting without a second one
    draft = message_draft(asked, "Luz", "en")
    none = constraints_from_texts([])
    check = ReplyCheck(none, "en", TurnTrace("t"), user_words=asked, salutation="Dear Luz,", remembered=draft)
    said = await said_by(check, ScriptedLlm(asked, asked), messages)
    assert said.startswith("Dear Luz, Thank you so much") and said.count("Luz") == 1


def test_a_name_the_message_only_mentions_is_not_whom_it_is_to() -> None:
    from voice_agent.conversation.message_draft import salutation

    to_manager = (
        "Can you help me write a quick email to my manager asking if I can leave early that day for "
        "[NAME:f3a346491b45]'s parents' evening?"
    )
    assert salutation(to_manager, "en") == ""  # the manager is unnamed: no "Dear Oscar,"
    birthday = "Write a card for [NAME:0a1b2c3d4e5f]'s birthday."
    assert salutation(birthday, "en") == "Dear [NAME:0a1b2c3d4e5f],"
    assert salutation("你帮我给我老公发个微信，说[NAME:0a1b2c3d4e5f]的家长会改到周五了", "zh") == ""


def test_a_message_to_a_role_is_not_addressed_to_the_name_it_mentions() -> None:
    from voice_agent.conversation.name_note import addressee
    from voice_agent.memory.records import MemoryRecord

    evening = MemoryRecord("c", "[NAME:f3a346491b45]'s parents' evening is on Friday the 15th.", role="user")
    to_manager = (
        "Can you help me write a quick email to my manager asking if I can leave early that day for "
        "[NAME:f3a346491b45]'s parents' evening?"
    )
    assert addressee(to_manager, [evening]) == ""  # not "Dear Oscar, I'm thinking of you"
    mum = MemoryRecord("c", "My mum [NAME:0a1b2c3d4e5f] turns seventy in May.", role="user")
    assert addressee("Can you help me write a birthday card for my mum?", [mum]) == "[NAME:0a1b2c3d4e5f]"


def test_a_turn_naming_no_one_is_greeted_with_the_name_its_words_tie_to_a_memory() -> None:
    from voice_agent.conversation.message_draft import salutation
    from voice_agent.conversation.name_note import tied_addressee

    physio = MemoryRecord(
        "c",
        "My physio's called [NAME:0a1b2c3d4e5f], that's R-U-A-I-R-I, "
        "but you say it like [NAME:0a1b2c3d4e60].",
        role="user",
    )  # fmt: skip
    card = "I've just been signed off from physio. Could you write a short thank-you card message for him?"
    tied = tied_addressee(card, [physio])
    assert tied == "[NAME:0a1b2c3d4e5f]"  # the name, not the way it is said
    assert salutation(card, "en", tied) == "Dear [NAME:0a1b2c3d4e5f],"
    # the only name recalled, in a statement the turn shares no word with: maybe someone else in the story
    story = MemoryRecord("c", "[NAME:0a1b2c3d4e5f] lent me her car for the move.", role="user")
    assert tied_addressee("Write a thank-you card for my neighbour.", [story]) == ""
    # a name taken back in the same breath is not whom the card is for
    corrected = MemoryRecord(
        "c", "Our new carer is lovely, [NAME:0a1b2c3d4e5f]. Ah no wait, [NAME:0a1b2c3d4e5f]'s her sister.",
        role="user",
    )  # fmt: skip
    assert tied_addressee("Write a thank-you card for our carer.", [corrected]) == ""
    # a surname and title told in Chinese greets a message to someone of that calling
    teacher = MemoryRecord("c", "我闺女幼儿园的班主任姓符，大家都叫她符老师，人特别耐心。", role="user")
    wechat = "孩子这学期在幼儿园进步挺大，你帮我给她班主任写条感谢的微信吧。"
    assert salutation(wechat, "zh", tied_addressee(wechat, [teacher])) == "符老师："
    # a name in the turn still wins over the remembered one
    named = "Write a thank-you card for [NAME:0a1b2c3d4e61], my physio."
    assert salutation(named, "en", "[NAME:0a1b2c3d4e5f]") == "Dear [NAME:0a1b2c3d4e61],"


def test_a_name_the_turn_is_about_is_not_whom_a_card_for_someone_else_is_to() -> None:
    from voice_agent.conversation.message_draft import salutation
    from voice_agent.conversation.name_note import addressee

    turn = (
        "[NAME:60bdb39ce1e7]'s leaving for big school in September, could you help me write a thank-you "
        "card for the woman who's looked after him?"
    )
    assert salutation(turn, "en") == ""  # not "Dear Noah," (the boy the card is about)
    minder = MemoryRecord(
        "c", "Our childminder [NAME:5d93b6cab968] has had [NAME:60bdb39ce1e7] since he was one.", role="user"
    )
    assert addressee(turn, [minder]) == "[NAME:5d93b6cab968]"


def test_the_name_someone_asked_to_be_called_is_the_same_person() -> None:
    from voice_agent.conversation.name_note import tied_addressee

    lad = MemoryRecord(
        "c",
        "Got a new Saturday lad at the shop. His name's [NAME:f6c052fb0384], he's Polish, but he told me "
        "straight off to call him [NAME:a96a143145ac], everyone does.",
        role="user",
    )
    note = "Can you write a short note I can leave by the till, thanking my Saturday lad for covering?"
    assert tied_addressee(note, [lad]) == "[NAME:f6c052fb0384]"
