"""When the model gives no answer, the person's statement closest to the question is said back
(conversation/said_before.py), a condensed earlier conversation included; nothing for a non-question."""

from __future__ import annotations

from voice_agent.conversation.said_before import person_statements, relevant_statement
from voice_agent.memory.records import MemoryRecord

CAR_THEN = "We're finally replacing the minivan, I think we're going with the Honda."
CAR_NOW = "Update on the car: we walked away from the Honda, the Toyota is the one we're buying."


def test_the_latest_of_the_closest_statements_is_said_back() -> None:
    records = [
        MemoryRecord("c1", "I'm learning the cello.", created_at=1.0),
        MemoryRecord("c1", CAR_THEN, created_at=2.0),
        MemoryRecord("c1", CAR_NOW, created_at=3.0),
    ]
    said = relevant_statement("Which car did we end up going with?", records, "en")
    assert said.startswith("You told me") and "Toyota is the one you're buying" in said


def test_a_condensed_earlier_conversation_gives_the_persons_part_only() -> None:
    summary = MemoryRecord(
        "c1",
        "Earlier conversation (2026-12-02): User: A jury summons came, I have to report on January 22nd at"
        " the courthouse … | Assistant: Got it, I'll remember that.",
        kind="summary",
    )
    statements = person_statements([summary, MemoryRecord("c1", "Got it.", role="assistant")])
    assert [s.text for s in statements] == [
        "A jury summons came, I have to report on January 22nd at the courthouse"
    ]
    said = relevant_statement("What date did the jury summons say?", [summary], "en")
    assert "January 22nd" in said


def test_nothing_for_a_statement_turn_or_without_a_shared_word() -> None:
    records = [MemoryRecord("c1", CAR_NOW)]
    assert relevant_statement("The car is lovely.", records, "en") == ""
    assert relevant_statement("What should I cook tonight?", records, "en") == ""
    chinese = [MemoryRecord("c1", "我们最后定了丰田的车。")]
    assert relevant_statement("我们最后买了哪辆车？", chinese, "zh").startswith("你告诉过我")


def test_of_the_closest_utterance_the_clause_that_names_the_answer_is_said() -> None:
    where = MemoryRecord(
        "c1", "we booked a little place up in Beechworth instead.", source="t9", created_at=9.0
    )
    marker = MemoryRecord("c1", "Change of plans for Easter, mate.", source="t9", created_at=9.0)
    other = MemoryRecord("c1", "The kids can fish off the jetty", source="t1", created_at=1.0)
    asked = "Mum wants to know where we'll be over Easter, where'd we end up booking again?"
    said = relevant_statement(asked, [marker, where, other], "en")
    assert said == "You told me you booked a little place up in Beechworth instead."


def test_a_chinese_request_carrying_the_question_gets_the_clause_of_the_change() -> None:
    then = MemoryRecord("c1", "台面我们两口子商量好了，就用白色的石英石", source="u1", created_at=1.0)
    marker = MemoryRecord("c1", "台面那个事又变卦了哈。", source="u2", created_at=2.0)
    change = MemoryRecord("c1", "最后我们改成岩板了", source="u2", created_at=2.0)
    asked = "明天量尺寸的师傅要过来，他问我们台面到底定的啥子材料，你帮我回他一句嘛。"
    said = relevant_statement(asked, [then, marker, change], "zh")
    assert "岩板" in said and "石英石" not in said
    assert (
        relevant_statement("明天量尺寸的师傅要过来，你帮我回他一句嘛。", [then, marker, change], "zh") == ""
    )


def test_of_a_change_the_clause_that_names_what_replaced_the_plan_is_said() -> None:
    said_first = MemoryRecord(
        "c1", "Mason done changed his mind on me about the party", source="t2", created_at=2.0
    )
    replaced = MemoryRecord(
        "c1",
        "the dinosaurs are out and it's gonna be an outer space party instead",
        source="t2",
        created_at=2.0,
    )
    said = relevant_statement("What should I get for the party?", [said_first, replaced], "en")
    assert "outer space party instead" in said


def test_of_a_story_told_in_one_breath_only_the_closest_sentence_is_said() -> None:
    story = MemoryRecord(
        "c1",
        "We got a puppy last week. Her name is Biscuit and she's a beagle. The kids adore her.",
        source="t1",
    )
    said = relevant_statement("Remind me, when did we pick up the puppy?", [story], "en")
    assert said == "You told me you got a puppy last week."
    said = relevant_statement("Is Biscuit a beagle or a basset, remind me?", [story], "en")
    assert said == "You told me her name is Biscuit and she's a beagle."


def test_a_story_that_states_a_rule_is_kept_whole_for_the_check_to_weigh() -> None:
    story = MemoryRecord(
        "c1",
        "上个礼拜去饮茶，伙计照旧冲咗壶菊普，我饮咗两杯，成块面即刻红晒。医生话我对菊花过敏，以后菊花茶都唔好再掂。",
    )
    said = relevant_statement("我哋饮茶叫咩茶好？", [story], "zh")
    assert "菊普" in said and "菊花茶都唔好再掂" in said  # never the first sentence alone


def test_a_story_that_corrects_itself_is_never_cut_to_the_sentence_taken_back() -> None:
    story = MemoryRecord(
        "c1",
        "I've a new flatmate since Monday, a lovely girl from Ennis, Aoife. Ah no wait, what am I saying, "
        "the flatmate's Caoimhe, Aoife only helped her move in.",
    )
    said = relevant_statement("Which flatmate moved in on Monday again?", [story], "en")
    assert "Caoimhe" in said and not said.startswith("You told me you've a new flatmate")
