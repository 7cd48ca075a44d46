"""A visit to a dentist or a doctor: the allergies the person told us go next to the turn and open the
reply (conversation/clinical.py). The constraint parser, the reminder line, the opening and the reply
check are the real ones; the LLM is a scripted stream (the network edge)."""

from __future__ import annotations

import pytest
from _scripted_llm import ScriptedLlm

from voice_agent.conversation.acknowledge import acknowledgement
from voice_agent.conversation.clinical import clinical_turn
from voice_agent.conversation.constraints import constraints_from_texts
from voice_agent.conversation.reminders import guided_constraints, turn_guidance
from voice_agent.conversation.reply_check import ReplyCheck
from voice_agent.metrics.trace import TurnTrace

PENICILLIN = (
    "The consultant said it is penicillin allergy, a serious one. So amoxicillin, Augmentin, anything in "
    "that penicillin family, I must not take it again in my life."
)
DENTIST = "I have an appointment with the dentist on Thursday. Is there anything I should tell them first?"


@pytest.mark.parametrize(
    ("turn", "clinical"),
    [
        (DENTIST, True),
        ("I'm seeing the GP tomorrow, anything I should mention?", True),
        ("下礼拜要去拔牙，要跟医生说点啥不？", True),
        ("My doctor says I should walk more. Any tips?", False),  # no visit, nothing given
        ("医生让我多走路。", False),
        ("Recommend a board game.", False),
    ],
)
def test_a_turn_about_care_or_what_to_tell_a_clinician_is_told_apart(turn: str, clinical: bool) -> None:
    assert clinical_turn(turn) is clinical


def test_the_allergies_open_the_reply_and_are_restated_after_the_turn() -> None:
    constraints = constraints_from_texts([PENICILLIN])
    guided = guided_constraints(constraints, [PENICILLIN], DENTIST)
    assert [c.key for c in guided][:2] == ["allergy:penicillin", "allergy:amoxicillin"]
    (note,) = turn_guidance(constraints, [PENICILLIN], DENTIST, "en")
    assert "allergic to penicillin" in note and "Suggest" not in note
    opening = acknowledgement(guided, constraints, "en", DENTIST)
    assert opening is not None
    assert opening.text.startswith("Tell them first that you're allergic to penicillin")
    said = "大夫说我是松子过敏。"
    zh = constraints_from_texts([said])
    turn = "下礼拜要去拔牙，要跟医生说点啥不？"
    found = acknowledgement(guided_constraints(zh, [said], turn), zh, "zh", turn)
    assert found is not None and found.text == "记得先告诉医生你对松子过敏。"


def test_no_allergy_opening_for_a_turn_about_something_else() -> None:
    constraints = constraints_from_texts([PENICILLIN])
    turn = "Recommend a board game for a rainy day."
    guided = guided_constraints(constraints, [PENICILLIN], turn)
    assert acknowledgement(guided, constraints, "en", turn) is None


async def test_the_model_goes_on_with_a_sentence_of_its_own_after_the_opening() -> None:
    constraints = constraints_from_texts([PENICILLIN])
    guided = guided_constraints(constraints, [PENICILLIN], DENTIST)
    opening = acknowledgement(guided, constraints, "en", DENTIST)
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": DENTIST}]
    check = ReplyCheck(constraints, "en", TurnTrace("t"), user_words=DENTIST, acknowledgement=opening)
    llm = ScriptedLlm("Also ask whether you should eat before the extraction.")
    said = "".join([text async for text in check.run(messages, llm)])
    assert said.startswith("Tell them first that you're allergic to penicillin")
    assert "Also ask whether you should eat" in said  # a new sentence keeps its capital
