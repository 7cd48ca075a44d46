"""Who a message is for, named next to a turn that asks to write to them."""

from __future__ import annotations

from voice_agent.conversation.name_note import name_note
from voice_agent.memory.records import MemoryRecord

BRONWEN = "[NAME:0123456789ab]"
ME = "[NAME:aaaaaaaaaaaa]"


def _said(text: str, role: str = "user") -> MemoryRecord:
    return MemoryRecord("c1", text, role=role)  # type: ignore[arg-type]


def test_the_name_tied_to_the_turn_is_named() -> None:
    records = [
        _said(f"My name is {ME}."),
        _said(f"Our childminder {BRONWEN} has had Noah three days a week since he was one."),
    ]
    turn = "Noah's leaving for school, could you help me write a thank-you card for the woman who had him?"
    assert name_note(turn, records, "en") == f"Address it to {BRONWEN}."
    zh = [_said(f"下礼拜头一回去我对象家吃饭，他爸叫{BRONWEN}，退休前是中学校长。")]
    assert (
        name_note("眼看要过年了，我想先给对象他爸发条微信问个好，你帮我写两句？", zh, "zh")
        == f"称呼对方：{BRONWEN}。"
    )


def test_nothing_when_no_message_is_asked_for_or_the_name_is_unclear() -> None:
    one = [_said(f"Our childminder {BRONWEN} is lovely.")]
    assert name_note("What should I cook tonight?", one, "en") == ""
    assert name_note("Help me write an email to my landlord.", [_said(f"My name is {ME}.")], "en") == ""
    two = [_said(f"Our childminder {BRONWEN} is lovely."), _said("My dentist [NAME:bbbbbbbbbbbb] is great.")]
    assert name_note("Help me write a card.", two, "en") == ""
    assert name_note("Help me write a card.", [_said(f"{BRONWEN} is lovely.", role="assistant")], "en") == ""


def test_a_name_to_put_on_a_personalised_gift_is_named() -> None:
    records = [_said(f"Our first grandchild is here! They've called her {BRONWEN}.")]
    turn = "I want to order a personalised baby blanket for her, what should I have stitched on it?"
    assert name_note(turn, records, "en") == f"Address it to {BRONWEN}."
    assert name_note("我想给她订个手环，上面刻什么字好？", [_said(f"外孙女叫{BRONWEN}。")], "zh")


def test_a_message_asked_for_in_texting_or_netspeak_is_one() -> None:
    from voice_agent.conversation.writing import WRITES_TO

    for text in (
        "our 1 month is on friday can u help me write a cute msg 2 send her",
        "下周五是我们在一起一百天，帮我写段小作文发他呗",
        "你帮我回她一个讯息，叫她不要担心啦",
    ):
        assert WRITES_TO.search(text), text
    assert not WRITES_TO.search("写作业好累")
