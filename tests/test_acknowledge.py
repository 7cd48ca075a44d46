"""The reply's opening clause that names a remembered constraint ("Since your kid is allergic to nuts, "),
and the checks after it: a reply that only says the prompt back or one bare word is regenerated once,
then replaced by a suggestion that keeps the constraint.

The constraint parser, the reminder line, the splitter and the reply check are the real ones; the LLM is
a scripted stream of deltas (the network edge), so what the check does with each reply can be asserted."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from _scripted_llm import ScriptedLlm

from voice_agent.conversation.acknowledge import acknowledgement, concerns, continues
from voice_agent.conversation.constraints import ConstraintSet, constraints_from_texts
from voice_agent.conversation.no_answer import REFUSAL, is_bare
from voice_agent.conversation.reminders import guided_constraints
from voice_agent.conversation.reply_check import ReplyCheck
from voice_agent.conversation.reply_copies import copies, prompt_lines, without_prompt_echo
from voice_agent.conversation.suggestions import SUGGEST, concrete_option
from voice_agent.metrics.trace import TurnTrace

SCENARIOS = Path(__file__).parent.parent / "voice_agent" / "defaults" / "adoption_scenarios.json"
# The latency benchmark's LibriVox turns (Debian pocketsphinx-testdata transcripts).
LIBRIVOX = [
    "and mister john dashwood had then leisure to consider how much there might be prudently in his power "
    "to do for them",
    "he was not an ill disposed young man",
    "unless to be rather cold hearted and rather selfish is to be ill disposed",
    "had he married a more a amiable woman he might have been made still more respectable than he was",
    "he might even have been made amiable himself",
]


def _opening(
    facts: list[str], turn: str, language: str, constraints: ConstraintSet | None = None
) -> str | None:
    constraints = constraints if constraints is not None else constraints_from_texts(facts)
    guided = guided_constraints(constraints, list(reversed(facts)), turn)
    found = acknowledgement(guided, constraints, language, turn)
    return found.text if found else None


@pytest.mark.parametrize(
    ("fact", "turn", "language", "expected"),
    [
        ("My kid is allergic to nuts, especially peanuts.", "Can you recommend a cake?", "en",
         "You told me your kid is allergic to nuts, especially peanuts, so no nuts. "),
        ("I'm lactose intolerant.", "What dessert could I make?", "en",
         "You told me you're lactose intolerant, so no dairy. "),
        ("My wife has celiac disease, so she can't eat gluten.", "What should I cook for her?", "en",
         "You told me your wife has celiac disease, so no gluten. "),
        ("I'm vegetarian, I never eat meat or fish.", "What should I cook tonight?", "en",
         "Since you're vegetarian, you never eat meat or fish, "),
        ("我家小孩对坚果过敏，尤其是花生。", "孩子过生日，推荐一个蛋糕吧。", "zh",
         "因为你家小孩对坚果过敏，尤其是花生，"),
        ("我吃素，不吃肉也不吃鱼。", "今晚做什么菜好？", "zh", "因为你吃素，不吃肉也不吃鱼，"),
        ("我喜欢喝茶，不喝咖啡。", "下午喝点什么好？", "zh", "因为你喜欢喝茶，不喝咖啡，"),
        # A second thought in the sentence: only the constraint's clause.
        ("我对麸质过敏，所以不能吃小麦。", "晚饭吃什么主食好？", "zh", "因为你对麸质过敏，"),
    ],
)  # fmt: skip
def test_the_opening_says_the_persons_own_statement_back_in_the_second_person(
    fact: str, turn: str, language: str, expected: str
) -> None:
    assert _opening([fact], turn, language) == expected


def test_an_order_or_someone_elses_statement_gives_a_sentence_from_the_constraints_kind() -> None:
    # Said back, an order would read "Since never suggest…"; "she" ten turns later is anyone.
    assert _opening(["以后别给我推荐火锅。"], "周五晚上吃什么好？", "zh") == "按你说的，避开火锅，"
    assert _opening(["She can't eat gluten."], "What should I cook tonight?", "en") == (
        "With no gluten, as you told me, "
    )
    assert _opening(["I'm allergic to shellfish."], "今晚点什么菜好？", "zh") == "因为你说过对海鲜过敏，"


def test_no_opening_without_a_remembered_constraint_or_when_the_turn_is_about_something_else() -> None:
    assert _opening(["My name is Marisol."], "What should I cook tonight?", "en") is None
    nuts = ["My kid is allergic to nuts."]
    for turn in ("Suggest a board game for a rainy day.", "How do plants drink water?", "Who wrote Hamlet?"):
        assert _opening(nuts, turn, "en") is None
    assert _opening(["我吃素。"], "植物怎么喝水？", "zh") is None
    # A constraint on something other than food: said when the turn names it.
    movies = ["Never recommend horror movies to me."]
    assert (
        _opening(movies, "Recommend a movie for tonight.", "en") == "With no horror movies, as you told me, "
    )
    assert _opening(movies, "Suggest a board game for a rainy day.", "en") is None


def _words(text: str) -> set[str]:
    return {w.lower().rstrip("s") for w in re.findall(r"[a-z]{3,}", text, re.IGNORECASE)}


def test_no_false_opening_on_the_benchmarks_filler_turns_or_the_librivox_turns() -> None:
    data = json.loads(SCENARIOS.read_text(encoding="utf-8"))
    # (each scenario's facts are read once: reading them again for every turn is most of the time)
    read = [(s, constraints_from_texts(s["facts"])) for s in data["scenarios"]]
    constrained = [(s, found) for s, found in read if found]
    assert len(constrained) >= 20
    fired = []
    for scenario, found in constrained:
        language = scenario["language"]
        turns = [q for q, _ in data["fillers"][language]] + (LIBRIVOX if language == "en" else [])
        # (a filler asking for the very thing a "never suggest …" names is no unrelated turn: "Suggest a
        # board game" after "Never suggest a board game night to me" is rightly answered leaving it out)
        nouns = {w for c in found.constraints for w in _words(c.noun_en)}
        unrelated = [t for t in turns if not nouns & _words(t)]
        fired += [(scenario["id"], t) for t in unrelated if _opening(scenario["facts"], t, language, found)]
        # ... while every probe asking about food under a remembered constraint gets one (the splits
        # the opening was shaped on; heldout2 only measures).
        if scenario["split"] in ("tune", "heldout"):
            assert _opening(scenario["facts"], scenario["probe"], language, found), scenario["id"]
    assert fired == []


def test_an_opening_that_would_break_another_constraint_is_replaced_or_left_out() -> None:
    eggs = "My daughter is allergic to eggs."
    # "never mention my daughter" makes "daughter" a word the reply must not say.
    both = constraints_from_texts([eggs, "Never mention my daughter again."])
    assert both.check("Since your daughter is allergic to eggs, ") is not None
    egg_rule = next(c for c in both.constraints if c.key == "eggs")
    found = acknowledgement([egg_rule], both, "en", "What can I make for breakfast?")
    assert found is not None and not found.said_back
    assert (
        found.text == "You told me about the allergy to eggs, so no eggs. " and both.check(found.text) is None
    )
    # Nothing that names the allergy passes: no opening at all.
    strict = constraints_from_texts([eggs, "Never mention my daughter again.", "Never mention allergy."])
    assert acknowledgement([egg_rule], strict, "en", "What can I make for breakfast?") is None


def test_only_the_constraints_given_are_ever_said() -> None:
    """The engine passes this conversation's pinned records only; nothing else reaches the opening."""
    mine = constraints_from_texts(["I'm vegan."])
    assert acknowledgement([], mine, "en", "Recommend a breakfast for me.") is None
    other = constraints_from_texts(["My kid is allergic to nuts."])
    found = acknowledgement(mine.constraints, ConstraintSet([*mine.constraints, *other.constraints]), "en",
                            "Recommend a breakfast for me.")  # fmt: skip
    assert found is not None and found.text == "Since you're vegan, "


def test_the_models_first_piece_continues_the_opening() -> None:
    assert continues("A lemon sponge cake.") == "a lemon sponge cake."
    assert continues("I'd bake a carrot cake.") == "I'd bake a carrot cake."
    assert continues("Sure!") == "" and continues("好的！") == ""
    assert continues("推荐香草蛋糕。") == "推荐香草蛋糕。"
    assert is_bare("Chocolate.") and is_bare("茶。") and not is_bare("A lemon sorbet with berries.")
    assert not is_bare("推荐水果沙拉。")


# -- the reply check with an opening ---------------------------------------------------------------------
NUTS_FACT = "My kid is allergic to nuts, especially peanuts."
NUTS = constraints_from_texts([NUTS_FACT])
OPENING = "You told me your kid is allergic to nuts, especially peanuts, so no nuts. "
TURN = "Can you recommend a cake for my kid's birthday?"
MESSAGES = [
    {"role": "system", "content": "rules"},
    {"role": "user", "content": "Suggest a board game for a rainy day."},
    {"role": "assistant", "content": "Try Ticket to Ride."},
    {"role": "user", "content": f"<memory>\nRemember: {NUTS_FACT}\n</memory>\n\n{TURN}\n(Suggest one cake "
                                "without nuts.)"},
]  # fmt: skip


# What is said instead of a reply that failed twice: a specific cake that keeps the constraint.
SUGGESTED = SUGGEST["en"].format(option=concrete_option(NUTS, "cake", TURN, "en"))


def _check(trace: TurnTrace, *, opening: bool = True) -> ReplyCheck:
    found = acknowledgement(NUTS.constraints, NUTS, "en", TURN) if opening else None
    return ReplyCheck(
        NUTS, "en", trace, requested="cake", user_words=TURN, acknowledgement=found, expects_suggestion=True
    )


async def _said(check: ReplyCheck, llm: ScriptedLlm) -> list[str]:
    return [text async for text in check.run(MESSAGES, llm)]


async def test_the_opening_is_said_first_and_checked_then_the_model_continues() -> None:
    trace = TurnTrace("c")
    llm = ScriptedLlm("Sure! A lemon sponge cake with berries is lovely.")
    said = await _said(_check(trace), llm)
    assert said[0] == OPENING
    assert "".join(said).strip() == OPENING + "A lemon sponge cake with berries is lovely."
    spans = [s for s in trace.spans if s.name == "constraint"]
    assert spans[0].attrs["index"] == -1 and not spans[0].attrs["violated"]  # the opening was checked
    mark = trace.first("reply.acknowledged")
    assert mark is not None and mark.attrs["constraint"] == "nuts" and mark.attrs["said_back"]
    assert len(llm.calls) == 1


async def test_a_bare_word_is_regenerated_with_a_stronger_instruction_then_replaced() -> None:
    trace = TurnTrace("c")
    llm = ScriptedLlm("Chocolate.", "Vanilla.")
    said = await _said(_check(trace), llm)
    # The reason was said already: only the suggestion that keeps the constraint follows.
    assert "".join(said).strip() == OPENING + SUGGESTED
    assert "Answer with one whole sentence" in llm.calls[1][-1]["content"].split("\n")[-1]
    assert [s.name for s in trace.spans].count("reply.fragment") == 2
    assert trace.first("constraint.safe_sentence") is not None

    again = ScriptedLlm("Chocolate.", "A vanilla cake with strawberries.")
    said = await _said(_check(TurnTrace("d")), again)
    assert "".join(said).strip().endswith("A vanilla cake with strawberries.")
    # A bare first piece followed by more is said with it, not regenerated.
    more = ScriptedLlm("Tea. It goes well with a carrot cake.")
    said = await _said(_check(TurnTrace("e")), more)
    assert "".join(said).strip().endswith("Tea. It goes well with a carrot cake.") and len(more.calls) == 1


async def test_a_reply_copying_the_prompt_is_regenerated_then_replaced() -> None:
    trace = TurnTrace("c")
    llm = ScriptedLlm("Suggest a board game for a rainy day.", "Suggest one cake without nuts.")
    said = await _said(_check(trace), llm)
    assert "".join(said).strip() == OPENING + SUGGESTED
    assert trace.first("reply.repeats_prompt") is not None and len(llm.calls) == 2
    # Without an opening the same copy is regenerated too, and the safe sentence names the constraint.
    plain = ScriptedLlm("Suggest one cake without nuts.", "Can you recommend a cake for my kid's birthday?")
    said = await _said(_check(TurnTrace("d"), opening=False), plain)
    assert "".join(said).strip().startswith("You told me your kid is allergic to nuts")


async def test_the_model_saying_the_opening_again_is_not_said_twice() -> None:
    llm = ScriptedLlm("Since your kid is allergic to nuts, a banana cake is a good choice.")
    said = await _said(_check(TurnTrace("c")), llm)
    assert "".join(said).count("allergic") == 1 and "banana cake" in "".join(said)


async def test_a_violation_after_the_opening_gives_only_the_suggestion() -> None:
    llm = ScriptedLlm("A peanut butter cake.", "A walnut cake.")
    said = "".join(await _said(_check(TurnTrace("c")), llm))
    assert NUTS.check(said) is None and "walnut" not in said and said.count("allergic") == 1
    assert said.strip().endswith(SUGGESTED)


def test_prompt_lines_leave_out_the_turn_itself() -> None:
    lines = prompt_lines(MESSAGES, TURN)
    assert "Suggest a board game for a rainy day." in lines and "Suggest one cake without nuts." in lines
    assert TURN not in lines and "Try Ticket to Ride." not in lines  # replies are checked on their own


def test_concerns_needs_the_person_asking() -> None:
    nuts = NUTS.constraints[0]
    assert concerns(nuts, "What snack should I pack?") and not concerns(nuts, "How do plants drink water?")


def test_copies_of_a_prompt_line_and_refusals_are_told_from_answers() -> None:
    fact = "I'm vegetarian, I never eat meat or fish."
    assert copies("I'm vegetarian,", fact)  # the line's beginning, word for word
    assert copies("suggest a topping without cilantro.", "Suggest one topping without cilantro.")
    assert copies("我女儿对鸡蛋过敏，", "我女儿对鸡蛋过敏。")
    assert not copies("A lentil curry with rice is filling.", fact)
    assert not copies("You could try a mushroom risotto.", "Suggest one dinner without meat.")
    assert REFUSAL.search("I'm sorry, but I can't help with that.") and REFUSAL.search(
        "抱歉，我无法协助完成这个请求。"
    )
    assert not REFUSAL.search("You can't go wrong with a lemon tart.") and not REFUSAL.search("我推荐米饭。")


async def test_a_refusal_is_regenerated_then_replaced_by_the_suggestion() -> None:
    trace = TurnTrace("c")
    llm = ScriptedLlm("I'm sorry, but I can't help with that.", "I cannot assist with this request.")
    said = "".join(await _said(_check(trace), llm)).strip()
    assert said == OPENING + SUGGESTED
    assert [s.name for s in trace.spans].count("reply.refusal") == 2


async def test_the_question_said_back_after_the_opening_is_left_out() -> None:
    llm = ScriptedLlm("Can you recommend a cake for my kid's birthday, a banana cake is a good choice.")
    said = "".join(await _said(_check(TurnTrace("c")), llm)).strip()
    assert said == OPENING + "a banana cake is a good choice." and len(llm.calls) == 1


def test_the_rules_after_the_turn_are_never_spoken_even_half_quoted() -> None:
    leaked = "(请只用中文回答。 请用一句完整的话回答，说出一个具体的推荐。 不要推荐任何含猪肉和酒的东西。"
    assert without_prompt_echo(leaked) == ""
    assert without_prompt_echo("Do not suggest anything containing nuts. A lemon cake.") == "A lemon cake."
    assert without_prompt_echo("推荐一个不含鸡蛋的燕麦粥。") == "推荐一个不含鸡蛋的燕麦粥。"


def test_a_piece_that_copies_the_memory_blocks_earlier_conversation_is_not_said() -> None:
    copied = "I just got the job in Leeds…Assistant: Got it, I'll remember that. User: Nah listen."
    assert without_prompt_echo(copied) == ""
    assert without_prompt_echo("用户：我下个月去新加坡了。助手：好的，我记住了。") == ""
    assert without_prompt_echo("Dear Nan, I've got a new job on the Central line!") != ""
