"""No answer said as one: the question told about in the third person, a long story or a rule's own words
said back as the fallback."""

from __future__ import annotations

from _scripted_llm import ScriptedLlm

from voice_agent.conversation.constraints import constraints_from_texts
from voice_agent.conversation.reply_check import ReplyCheck
from voice_agent.conversation.reply_fallbacks import ReplyFallbacks
from voice_agent.metrics.trace import TurnTrace

TURN = "my bday is in 2 weeks and my nan wants 2 know what 2 get me, any ideas??"


async def test_the_question_told_about_in_the_third_person_is_no_answer() -> None:
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": TURN}]
    llm = ScriptedLlm(
        "The user's bday is in 2 weeks and their nan wants to know what to get them.",
        "How about a crochet kit with some chunky yarn?",
    )
    check = ReplyCheck(constraints_from_texts([]), "en", TurnTrace("n"), user_words=TURN)
    said = "".join([text async for text in check.run(messages, llm)])  # type: ignore[arg-type]
    assert said.strip() == "How about a crochet kit with some chunky yarn?"
    assert len(llm.calls) == 2


def test_a_remembered_fallback_that_names_what_a_rule_keeps_off_or_runs_long_is_not_said() -> None:
    story = "以后菊花茶、夏桑菊嗰啲都唔好再掂。"
    rules = constraints_from_texts(["我对菊花过敏。"])
    said_back = "你告诉过我，" + story
    fallbacks = ReplyFallbacks(rules, "zh", TurnTrace("f"), user_words="我哋叫咩茶好？", remembered=said_back)
    assert fallbacks.remembered == ""
    long = "You told me " + "we walked along the harbour and " * 8 + "then went home."
    fallbacks = ReplyFallbacks(constraints_from_texts([]), "en", TurnTrace("f"), remembered=long)
    assert fallbacks.remembered == ""
    short = "You told me you moved to Stornoway."
    fallbacks = ReplyFallbacks(constraints_from_texts([]), "en", TurnTrace("f"), remembered=short)
    assert fallbacks.remembered == short
