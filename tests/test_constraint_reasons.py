"""The reason a rule comes from, as the person named it (``constraint_reasons``), and the opening that
names it when their own sentence is too long to say back: "Since you told me about the PKU, " where the
kind alone said "Leaving out meat, as you told me, ". The constraint parser, the turn guidance and the
acknowledgement are the real ones."""

from __future__ import annotations

import pytest

from voice_agent.conversation.acknowledge import acknowledgement
from voice_agent.conversation.constraint_reasons import Reason, reason_for
from voice_agent.conversation.constraints import constraints_from_texts
from voice_agent.conversation.reminders import guided_constraints


@pytest.mark.parametrize(
    ("source", "terms", "language", "expected"),
    [
        ("Mum keeps her Ekadashi every fortnight: no grains, no rice, no lentils that day.", ("grains",),
         "en", Reason("Ekadashi", True)),
        ("I got diagnosed with diverticulitis last year, so seeds and nuts are out.", ("seeds",), "en",
         Reason("diverticulitis", False)),
        ("The diagnosis took ages, but it's gout, so no red meat.", ("red meat",), "en",
         Reason("gout", False)),
        ("My husband has gout, and since my IBS flared up I've cut out onions.", ("onions",), "en",
         Reason("IBS", False)),
        ("去年体检查出来痛风，海鲜啤酒都不能碰了。", ("海鲜",), "zh", Reason("痛风", False)),
        ("我爸上回做胃镜查出来食管静脉曲张，硬的东西一概不能吃。", ("硬的",), "zh",
         Reason("食管静脉曲张", False)),
        ("我婆家是回族，家里的规矩，猪肉一口不能碰。", ("猪肉",), "zh", Reason("回族", True)),
        ("上个月住院，查出来是急性胰腺炎，油腻的一口都不能碰。", ("油腻",), "zh",
         Reason("急性胰腺炎", False)),
        ("我最近生病了，不想吃辣的。", ("辣的",), "zh", None),
        ("I never eat mushrooms, can't stand them.", ("mushrooms",), "en", None),
        ("去年体检查出来痛风，海鲜啤酒都不能碰了。", ("海鲜",), "en", None),  # not named in an English reply
    ],
)  # fmt: skip
def test_the_reason_named_for_a_rule(
    source: str, terms: tuple[str, ...], language: str, expected: Reason | None
) -> None:
    assert reason_for(source, terms, language) == expected


def test_the_reason_reads_as_said() -> None:
    assert Reason("Lent", True).clause("en") == "Since you told me about Lent, "
    assert Reason("Daniel Fast", True).clause("en") == "Since you told me about the Daniel Fast, "
    assert Reason("coeliac", False).clause("en") == "Since you told me about the coeliac disease, "
    assert Reason("PKU", False).clause("en") == "Since you told me about the PKU, "
    assert Reason("回族", True).clause("zh") == "因为你说过回族的规矩，"
    assert Reason("痛风", False).clause("zh") == "因为你说过有痛风，"


@pytest.mark.parametrize(
    ("fact", "turn", "language", "opening"),
    [
        ("Our Jamie's clinic went well on Friday, his levels are finally down, the dietitian was thrilled. "
         "Because of the PKU he can't have meat, fish, eggs or cheese, only the special low-protein bread.",
         "What could I pack for his lunches on the school trip next week?", "en",
         "Since you told me about the PKU, "),
        ("Right, so the whole church is doing the Daniel Fast for three weeks from Monday, and I said I'd "
         "join in: no meat, no dairy, no sugar, nothing fried, water only to drink.",
         "What should I cook for dinner on Sunday?", "en", "Since you told me about the Daniel Fast, "),
        ("我爸那肝不好，上回做胃镜查出来食管静脉曲张，大夫嘱咐，硬的、带刺带骨头的一概不能吃，酒一滴都不能沾。",
         "周末带我爸去郊游，吃的东西你帮我安排一下。", "zh", "因为你说过有食管静脉曲张，"),
    ],
)  # fmt: skip
def test_a_long_story_opens_with_its_reason(fact: str, turn: str, language: str, opening: str) -> None:
    constraints = constraints_from_texts([fact])
    assert constraints.constraints  # the rule was read
    found = acknowledgement(guided_constraints(constraints, [fact], turn), constraints, language, turn)
    assert found is not None and found.text == opening and not found.said_back
