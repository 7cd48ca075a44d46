"""The clause that gives a name, said back when the person asks which name to write (name_fallback)."""

from __future__ import annotations

from voice_agent.conversation.name_fallback import name_statement
from voice_agent.memory.records import MemoryRecord


def _said(text: str, at: float) -> MemoryRecord:
    return MemoryRecord("c", text, role="user", created_at=at)


def test_the_new_name_wins_over_the_old_and_over_what_it_is_not_called() -> None:
    records = [
        _said("个女坚持要叫佢 Mochi", 1.0),
        _said("Update 吓：只狗唔叫 Mochi 喇。", 2.0),
        _said("而家叫「豆腐花」", 2.0),
        _said("平时我哋叫佢 Tofu 或者阿豆。", 2.0),
    ]
    asked = "下个礼拜要带佢去兽医度打第二针疫苗，登记表上面宠物名嗰栏我应该填咩名？"
    assert name_statement(asked, records, "zh") == "你告诉过我，而家叫「豆腐花」。"


def test_an_english_name_to_engrave_and_nothing_for_other_turns() -> None:
    records = [
        _said("My granddaughter had she baby Tuesday gone.", 1.0),
        _said("Dem call she [NAME:232a380913c5].", 1.0),
        _said("Not Amira like how everybody does spell it.", 1.0),
    ]
    said = name_statement("How I should tell de man to engrave she name on it?", records, "en")
    assert "[NAME:232a380913c5]" in said and "Amira" not in said
    assert name_statement("What should I cook for the christening?", records, "en") == ""
    assistant = [MemoryRecord("c", "She is called Rosa.", role="assistant")]
    assert name_statement("What name should I put on the card?", assistant, "en") == ""


def test_a_statement_with_a_name_changed_since_is_not_said_back() -> None:
    from voice_agent.conversation.said_before import relevant_statement

    records = [
        _said("We adopted a greyhound from the rescue. She raced under the name Blazing Comet.", 1.0),
        _said("So the kids have renamed her Pavlova.", 1.0),
    ]
    said = relevant_statement("Can you write a few lines about her for the rescue's page?", records, "en")
    assert "Blazing Comet" not in said


def test_a_liking_in_one_sentence_beside_a_complaint_in_another() -> None:
    from voice_agent.conversation.likings import says_liking

    assert says_liking("ugh mocks all week. only thing keeping me sane is crocheting lil frogs at 2am lol.")
    assert not says_liking("Ugh, I love cake but beetroot is vile.")  # one sentence that speaks ill


def test_a_name_taken_back_is_not_whom_the_message_is_for() -> None:
    from voice_agent.conversation.name_note import addressee

    aoife, caoimhe = "[NAME:0123456789ab]", "[NAME:ba9876543210]"
    story = MemoryRecord(
        "c1",
        f"I've a new flatmate since Monday, a lovely girl from Ennis, {aoife}. Ah no wait, what am I saying, "
        f"{aoife}'s her sister, she only helped her move in.",
    )
    asked = "Would you write a little thank-you note I can stick on the fridge for her?"
    assert addressee(asked, [story]) == ""
    flatmate = MemoryRecord("c1", f"The flatmate's {caoimhe}, said like Kee-va.")
    assert addressee(asked, [story, flatmate]) == caoimhe
