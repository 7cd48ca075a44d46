"""The reply check between the LLM and the speaker: constraints and reply language, piece by piece.

The LLM here is a scripted stream of deltas (the network edge); the splitter, the constraint checks,
the regeneration and the trace are the real ones."""

from __future__ import annotations

import pytest
from _scripted_llm import ScriptedLlm, deltas

from voice_agent.config import PromptConfig
from voice_agent.conversation.constraints import constraints_from_texts
from voice_agent.conversation.reminders import requested_thing, turn_guidance
from voice_agent.conversation.reply_check import NOTED, ReplyCheck
from voice_agent.conversation.reply_copies import repeats, without_prompt_echo
from voice_agent.conversation.reply_fallbacks import NOTHING_TO_SAY
from voice_agent.conversation.reply_language import LANGUAGE_NOTES, reply_language_ok
from voice_agent.conversation.suggestions import concrete_option
from voice_agent.conversation.turns import said_words
from voice_agent.metrics.trace import TurnTrace
from voice_agent.prompt import PromptBuilder
from voice_agent.text.sentences import SentenceSplitter

NUTS = constraints_from_texts(["My kid is allergic to nuts, especially peanuts."])
MESSAGES = [{"role": "system", "content": "rules"}, {"role": "user", "content": "Recommend a cake."}]


async def _run(check: ReplyCheck, llm: ScriptedLlm) -> str:
    return "".join([text async for text in check.run(MESSAGES, llm)])


async def test_a_clean_reply_passes_unchanged_and_is_not_delayed() -> None:
    reply = "For a birthday, a lemon sponge cake is lovely. Add fresh berries on top."
    llm = ScriptedLlm(reply)
    trace = TurnTrace("c1")
    check = ReplyCheck(NUTS, "en", trace)
    consumed_at_first_output = None
    out = []
    async for text in check.run(MESSAGES, llm):
        if consumed_at_first_output is None:
            consumed_at_first_output = llm.consumed
        out.append(text)
    # The speech loop's own splitter would have released its first piece after the same delta.
    splitter = SentenceSplitter()
    released_after = next(i for i, d in enumerate(deltas(reply), start=1) if splitter.push(d))
    assert consumed_at_first_output == released_after
    assert " ".join("".join(out).split()) == reply
    assert len(llm.calls) == 1 and check.outcome.attempts == 1
    spans = [s for s in trace.spans if s.name == "constraint"]
    assert len(spans) == len(out) == 2 and not any(s.attrs["violated"] for s in spans)
    assert trace.first("constraint.violation") is None


async def test_each_checked_piece_is_released_at_once_by_the_speech_loops_splitter() -> None:
    """The speech loop splits the checked text again: every piece must come out the moment it is passed
    on (a Chinese piece ends without a space, so the check adds one)."""
    for reply, language in (
        ("Sure, here is a good one: a lemon cake. It has fresh berries.", "en"),
        ("好的，推荐柠檬蛋糕。上面放新鲜的草莓。", "zh"),
    ):
        downstream = SentenceSplitter()
        check = ReplyCheck(NUTS, language, TurnTrace("c"))
        async for text in check.run(MESSAGES, ScriptedLlm(reply)):
            released = downstream.push(text)
            assert [p.text for p in released] == [text.strip()], text
        assert downstream.flush() == []


async def test_a_violating_piece_is_not_said_and_the_reply_is_regenerated_with_the_constraint() -> None:
    llm = ScriptedLlm(
        "A classic choice is a peanut butter cake. Kids love it.",
        "How about a nut-free vanilla cake with strawberries?",
    )
    trace = TurnTrace("c2")
    check = ReplyCheck(NUTS, "en", trace)
    said = await _run(check, llm)
    assert "peanut butter" not in said and "nut-free vanilla cake" in said
    assert len(llm.calls) == 2
    second_turn = llm.calls[1][-1]["content"]
    assert second_turn.startswith("Recommend a cake.") and "nuts" in second_turn.split("\n")[-1]
    assert NUTS.check(said) is None
    violation = trace.first("constraint.violation")
    assert violation is not None and violation.attrs["constraint"] == "nuts"
    assert violation.attrs["term"].lower() == "peanut butter"
    assert trace.first("reply.regenerate") is not None and trace.first("constraint.safe_sentence") is None
    assert check.outcome.attempts == 2 and not check.outcome.safe_sentence


async def test_a_second_violation_gives_the_safe_sentence_naming_the_constraint() -> None:
    llm = ScriptedLlm("Try a walnut brownie.", "Sure, a praline cake with hazelnuts.")
    trace = TurnTrace("c3")
    check = ReplyCheck(NUTS, "en", trace)
    said = await _run(check, llm)
    # The person's own words said back, then a suggestion that keeps the constraint.
    assert said.strip().startswith("You told me your kid is allergic to nuts, especially peanuts.")
    assert "walnut" not in said and "praline" not in said and "hazelnut" not in said
    assert check.outcome.safe_sentence and trace.first("constraint.safe_sentence") is not None
    assert [v["attempt"] for v in check.outcome.violations] == [1, 2]


async def test_chinese_violations_are_caught_and_the_safe_sentence_is_chinese() -> None:
    constraints = constraints_from_texts(["我家小孩对坚果过敏，尤其是花生。"])
    llm = ScriptedLlm("推荐一个花生酱蛋糕。", "可以做核桃蛋糕。")
    trace = TurnTrace("c4")
    said = await _run(ReplyCheck(constraints, "zh", trace), llm)
    assert "花生酱" not in said and "核桃" not in said
    assert said.startswith("你告诉过我，你家小孩对坚果过敏，尤其是花生。") and "不含坚果" in said


async def test_a_reply_in_the_wrong_language_is_regenerated_with_an_instruction() -> None:
    llm = ScriptedLlm("Here is a nice idea for a cake.", "可以做一个香草蛋糕。")
    trace = TurnTrace("c5")
    check = ReplyCheck(NUTS, "zh", trace)
    said = await _run(check, llm)
    assert said.strip() == "可以做一个香草蛋糕。"
    assert LANGUAGE_NOTES["zh"] in llm.calls[1][-1]["content"]
    mismatch = trace.first("language.mismatch")
    assert mismatch is not None and mismatch.attrs["expected"] == "zh" and not mismatch.attrs["kept"]


async def test_a_reply_still_in_the_wrong_language_is_said_and_marked() -> None:
    llm = ScriptedLlm("Here is a nice idea for a cake.", "A vanilla sponge is always good.")
    trace = TurnTrace("c6")
    check = ReplyCheck(NUTS, "zh", trace)
    said = await _run(check, llm)
    assert "vanilla sponge" in said
    assert check.outcome.language_mismatch
    marks = [s for s in trace.spans if s.name == "language.mismatch"]
    assert [m.attrs["kept"] for m in marks] == [False, True]


def test_reply_language_detection() -> None:
    assert reply_language_ok("zh", "可以做一个香草蛋糕。") is True
    assert reply_language_ok("zh", "Here is a nice idea.") is False
    assert reply_language_ok("zh", "OK.") is None
    assert reply_language_ok("en", "A lemon cake.") is True
    assert reply_language_ok("en", "可以做一个香草蛋糕。") is False
    assert reply_language_ok("fr", "Bonjour tout le monde.") is None


def test_the_turn_carries_the_reminder_line_and_the_language_note() -> None:
    builder = PromptBuilder(PromptConfig())
    prompt = builder.build(
        "孩子过生日，推荐一个蛋糕吧。", reminders=["我家小孩对坚果过敏，尤其是花生。"], language="zh"
    )
    final = prompt.messages[-1]["content"]
    assert "记住：我家小孩对坚果过敏，尤其是花生。" in final
    assert final.endswith("(请只用中文回答。)")
    assert final.index("记住") < final.index("孩子过生日")
    assert said_words(final) == "孩子过生日，推荐一个蛋糕吧。"
    english = builder.build("Recommend a cake.", reminders=["My kid is allergic to nuts."], language="en")
    assert "Remember: My kid is allergic to nuts." in english.messages[-1]["content"]
    assert said_words(english.messages[-1]["content"]) == "Recommend a cake."


def test_the_prompt_changes_can_be_turned_off() -> None:
    builder = PromptBuilder(PromptConfig(reminder_line=False, language_note=False))
    prompt = builder.build("推荐一个蛋糕。", reminders=["我对坚果过敏。"], language="zh")
    assert prompt.messages[-1]["content"] == "推荐一个蛋糕。"


def test_reminders_restate_constraints_when_they_may_matter_and_relevant_facts() -> None:
    from voice_agent.conversation.constraints import constraints_from_texts as parse
    from voice_agent.conversation.reminders import turn_reminders
    from voice_agent.memory.records import MemoryRecord

    allergy = MemoryRecord("c", "My kid is allergic to nuts.", kind="constraint", created_at=1.0)
    name = MemoryRecord("c", "My name is Marisol.", kind="fact", created_at=2.0)
    old = MemoryRecord("c", "I'm vegetarian.", kind="constraint", status="superseded", created_at=0.5)
    pinned = [allergy, name, old]
    constraints = parse(r.text for r in pinned if r.status == "active")
    # A food question: the constraint, though retrieval did not bring it up.
    assert turn_reminders(pinned, [], constraints, "Recommend a cake.") == [allergy.text]
    # An unrelated question: nothing, unless retrieval found it relevant.
    assert turn_reminders(pinned, [], constraints, "What's the capital of France?") == []
    assert turn_reminders(pinned, [name], constraints, "Do you remember my name?") == [name.text]
    assert turn_reminders(pinned, [allergy, name], constraints, "Anything else?") == [allergy.text, name.text]


def test_a_pinned_fact_naming_what_the_turn_asks_about_is_restated() -> None:
    from voice_agent.conversation.constraints import ConstraintSet
    from voice_agent.conversation.reminders import turn_reminders
    from voice_agent.memory.records import MemoryRecord

    moved = MemoryRecord("c", "Actually, we moved the party to Sunday.", kind="decision", created_at=2.0)
    daughter = MemoryRecord("c", "我女儿的生日是三月十四号。", kind="fact", created_at=1.0)
    pinned = [moved, daughter]
    assert turn_reminders(pinned, [], ConstraintSet(), "When is the party?") == [moved.text]
    assert turn_reminders(pinned, [], ConstraintSet(), "我女儿生日是哪天？") == [daughter.text]
    assert turn_reminders(pinned, [], ConstraintSet(), "What is the weather like?") == []


@pytest.mark.parametrize(
    ("source", "language", "request_text", "suggests"),
    [
        (
            "My kid is allergic to nuts, especially peanuts.",
            "en",
            "Can you recommend a cake?",
            "a cake without nuts",
        ),
        (
            "I'm vegetarian, I never eat meat or fish.",
            "en",
            "What should I cook tonight?",
            "a vegetarian dish, without meat or fish",
        ),
        ("I can't stand mushrooms.", "en", "What pizza should I order tonight?", "a pizza without mushroom"),
        ("我家小孩对坚果过敏，尤其是花生。", "zh", "孩子过生日，推荐一个蛋糕吧。", "不含坚果的蛋糕"),
        ("我不喝酒。", "zh", "今晚聚会，我喝点什么好？", "不含酒的饮品"),
    ],
)
async def test_the_safe_sentence_suggests_something_that_keeps_the_constraint(
    source: str, language: str, request_text: str, suggests: str
) -> None:
    constraints = constraints_from_texts([source])
    constraint = constraints.constraints[0]
    term = constraint.terms_zh[0].text if language == "zh" else constraint.terms_en[0]
    llm = ScriptedLlm(f"Try {term} today. {term}!", f"Or {term} then. {term}!")
    check = ReplyCheck(
        constraints, language, TurnTrace("s"), requested=requested_thing(request_text), concrete=False
    )
    said = await _run(check, llm)
    assert check.outcome.safe_sentence and suggests in said
    # What is said instead keeps the constraint itself, by the guard's own check.
    assert constraints.check(said) is None


def test_the_requested_thing_is_read_from_the_turn() -> None:
    assert requested_thing("Can you recommend a cake for my kid's birthday?") == "cake"
    assert requested_thing("Which dish should I order at the seaside restaurant?") == "dish"
    assert requested_thing("What can I make my daughter for breakfast?") == "breakfast"
    assert requested_thing("春游的时候给儿子带什么零食好？") == "零食"
    assert requested_thing("去川菜馆点什么好？") == ""
    assert requested_thing("Tell me about the moon.") == ""


def test_guidance_follows_the_words_outside_the_memory_block() -> None:
    builder = PromptBuilder(PromptConfig())
    prompt = builder.build(
        "孩子过生日，推荐一个蛋糕吧。",
        reminders=["我家小孩对坚果过敏，尤其是花生。"],
        language="zh",
        guidance=["只推荐不含坚果的选择。"],
    )
    final = prompt.messages[-1]["content"]
    assert final.endswith("孩子过生日，推荐一个蛋糕吧。\n(只推荐不含坚果的选择。)\n(请只用中文回答。)")
    assert final.index("</memory>") < final.index("只推荐")
    assert said_words(final) == "孩子过生日，推荐一个蛋糕吧。"
    off = PromptBuilder(PromptConfig(turn_guidance=False)).build("Recommend a cake.", guidance=["Suggest x."])
    assert off.messages[-1]["content"] == "Recommend a cake."


def test_guidance_names_the_restated_constraints_on_food_and_recommendation_turns() -> None:
    nuts_text = "My kid is allergic to nuts, especially peanuts."
    both = constraints_from_texts([nuts_text, "I'm vegetarian."])
    # What the person asked for, kept to the constraint the reminder line restates (not the other one).
    assert turn_guidance(both, [nuts_text], "Recommend a cake.", "en", example=False) == [
        "Suggest one cake without nuts."
    ]
    assert turn_guidance(both, [nuts_text], "What should I bake?", "en", example=False) == [
        "Suggest only options without nuts."
    ]
    assert turn_guidance(both, [nuts_text], "What's the capital of France?", "en", example=False) == []
    assert turn_guidance(both, [nuts_text], "推荐一个蛋糕吧。", "zh", example=False) == [
        "推荐一个不含坚果的蛋糕。"
    ]
    avoid = constraints_from_texts(["Never suggest sushi to me."])
    assert turn_guidance(
        avoid, ["Never suggest sushi to me."], "Where can we eat lunch?", "en", example=False
    ) == ["Suggest something other than sushi."]
    # By default a specific thing that keeps every constraint follows (the first of its kind that does).
    assert turn_guidance(both, [nuts_text], "Recommend a cake.", "en") == [
        "Suggest one cake without nuts.",
        "For example: " + concrete_option(both, "cake", "Recommend a cake.", "en") + ".",
    ]
    assert turn_guidance(both, [nuts_text], "Which smoothie should I blend?", "en") == [
        "Suggest one smoothie without nuts.",
        "For example: " + concrete_option(both, "smoothie", "Which smoothie should I blend?", "en") + ".",
    ]
    # Advice asked for with other facts restated: answer with them in mind; plain questions get nothing.
    jazz = ["My favourite music is jazz."]
    no_constraints = constraints_from_texts(jazz)
    concert = "What kind of concert should I look for?"
    assert turn_guidance(no_constraints, jazz, concert, "en", specific=False) == [
        "Answer with what I told you in mind."
    ]
    assert turn_guidance(no_constraints, jazz, "周末去听什么音乐会好？", "zh", specific=False) == [
        "请结合我告诉你的情况回答。"
    ]
    # By default, what the person likes is said again after the turn, with one specific thing to name.
    assert turn_guidance(no_constraints, jazz, concert, "en") == [
        "Suggest one specific thing that fits this: My favourite music is jazz."
    ]
    scifi = ["I'm a huge fan of science fiction novels."]
    assert turn_guidance(
        constraints_from_texts(scifi), scifi, "Can you recommend a book for my trip?", "en"
    ) == ["Suggest one specific book that fits this: I'm a huge fan of science fiction novels."]
    films = ["我特别喜欢看科幻电影。"]
    assert turn_guidance(constraints_from_texts(films), films, "今晚看部什么电影好？", "zh") == [
        "推荐一个具体的电影，要符合这一点：我特别喜欢看科幻电影。"
    ]
    # A fact that is no liking keeps the general note.
    moved = ["We just moved to Porto."]
    assert turn_guidance(constraints_from_texts(moved), moved, "What should I do this weekend?", "en") == [
        "Answer with what I told you in mind."
    ]
    assert turn_guidance(no_constraints, jazz, "Who wrote Hamlet?", "en") == []
    assert turn_guidance(no_constraints, [], "What kind of concert should I look for?", "en") == []


def test_every_note_after_the_words_is_left_out_of_what_the_person_said() -> None:
    builder = PromptBuilder(PromptConfig())
    notes = ["Suggest one cake without nuts.", "Answer with what I told you in mind."]
    liked = [
        "Suggest one specific cake that fits this: I love lemon.",
        "推荐一个具体的蛋糕，要符合这一点：我爱吃柠檬。",
    ]
    for guidance in (notes[:1], notes[1:], ["推荐一个不含坚果的蛋糕。"], ["请结合我告诉你的情况回答。"],
                     liked[:1], liked[1:], [notes[0], "For example: a lemon olive-oil cake."],
                     ["推荐一个不含坚果的蛋糕。", "比如：柠檬戚风蛋糕。"]):  # fmt: skip
        language = "zh" if "蛋糕" in guidance[0] or "请" in guidance[0] else "en"
        final = builder.build("Recommend a cake.", reminders=["I love lemon."], language=language,
                              guidance=guidance).messages[-1]["content"]  # fmt: skip
        assert f"({guidance[0]})" in final and said_words(final) == "Recommend a cake."


async def test_the_prompts_markup_and_notes_said_back_are_never_passed_on() -> None:
    llm = ScriptedLlm("Sure! Here is a cake without nuts: <memory> A lemon sponge. (Answer in English only.)")
    trace = TurnTrace("m")
    said = await _run(ReplyCheck(NUTS, "en", trace), llm)
    assert "memory" not in said and "<" not in said and "Answer in English" not in said
    assert "A lemon sponge." in said and "without nuts" in said
    assert trace.first("reply.echo_dropped") is not None and len(llm.calls) == 1
    assert without_prompt_echo("晚饭吃什么主食好？ （请只用中文回答。）") == "晚饭吃什么主食好？"
    assert (
        without_prompt_echo("A lemon cake (without nuts) is nice.") == "A lemon cake (without nuts) is nice."
    )


async def test_a_question_said_back_clause_by_clause_is_caught_after_its_first_clause() -> None:
    """The first clause alone is only the question's beginning, too short to call a copy: it is held and
    judged with the next one, so the question said back in pieces is regenerated, not spoken."""
    question = "下个月放暑假，想带个女喺广州周边玩两日，你帮我谂下去边度好？"
    llm = ScriptedLlm(question, "可以去从化泡温泉，或者去长隆野生动物园。")
    trace = TurnTrace("q")
    said = await _run(ReplyCheck(NUTS, "zh", trace, user_words=question), llm)
    assert said.replace(" ", "") == "可以去从化泡温泉，或者去长隆野生动物园。" and len(llm.calls) == 2
    assert trace.first("reply.question_start_held") is not None
    assert trace.first("reply.repeats_question") is not None
    # a word changed at its start, said back clause by clause: the same
    porridge = "这两天胃口不大好，想熬锅杂粮粥溜溜缝儿，你说都放点啥进去熬？"
    llm = ScriptedLlm("今天胃口不大好，想熬锅杂粮粥溜溜缝儿，你说都放点啥进去熬？", "放点小米、红豆和燕麦。")
    said = await _run(ReplyCheck(NUTS, "zh", TurnTrace("p"), user_words=porridge), llm)
    assert said.replace(" ", "") == "放点小米、红豆和燕麦。" and len(llm.calls) == 2
    # an answer that starts otherwise is said at once
    direct = ScriptedLlm("下个月可以去从化泡温泉。")
    assert (await _run(ReplyCheck(NUTS, "zh", TurnTrace("d"), user_words=question), direct)).strip() == (
        "下个月可以去从化泡温泉。"
    )


async def test_a_first_piece_that_only_repeats_the_question_is_regenerated_once() -> None:
    question = "晚饭吃什么主食好？"
    llm = ScriptedLlm("晚饭吃什么主食好？", "可以吃米饭或者土豆。")
    trace = TurnTrace("r")
    said = await _run(ReplyCheck(NUTS, "zh", trace, user_words=question), llm)
    assert said.strip() == "可以吃米饭或者土豆。" and len(llm.calls) == 2
    assert trace.first("reply.repeats_question") is not None
    # Said again on the second attempt: with one constraint known, the safe sentence suggests something.
    gluten = constraints_from_texts(["我对麸质过敏，不能吃小麦。"])
    again = ScriptedLlm("晚饭吃什么主食好？", "晚饭吃什么主食好？")
    said = await _run(ReplyCheck(gluten, "zh", TurnTrace("r2"), user_words=question, requested="主食"), again)
    assert said.startswith("你告诉过我，你对麸质过敏") and "不含麸质的主食" in said and question not in said
    # Without a constraint to keep, the person does not hear their question back: a short apology.
    plain = ScriptedLlm("晚饭吃什么主食好？", "晚饭吃什么主食好？")
    none = constraints_from_texts([])
    assert (
        await _run(ReplyCheck(none, "zh", TurnTrace("r3"), user_words=question), plain)
    ).strip() == NOTHING_TO_SAY["zh"]
    # An answer that starts with the question's words is no repetition.
    assert not repeats("The tallest animal", "What is the tallest animal?")
    assert repeats("Name a planet with rings.", "Name a planet with rings!")


def test_a_chinese_reply_mostly_one_stretch_of_the_question_is_a_copy() -> None:
    """The 0.5B model says back the question's tail, or a copy behind our own opening."""
    asked = "我要跟老板请半天假，侬帮我写条微信，把日子讲讲清爽。"
    assert repeats("请帮忙写条微信，把日子讲讲清爽。", asked)
    hotpot = "这个礼拜天爷爷满八十，一大家子陪他去吃火锅，锅底跟菜你帮我参谋一下咯？"
    assert repeats("按你说的，避开牛肉，爷爷满八十，一大家子陪他去吃火锅，锅底跟菜你帮我参谋一下咯？", hotpot)
    trip = "下个月放暑假，想带个女喺广州周边玩两日，你帮我谂下去边度好？"
    assert repeats("下个月放暑假，想带个女喺广州周边玩两日，你帮我看看她是否能理解我。", trip)
    # the question's frame filled in is an answer
    major = "孩子让我帮她再核对一遍，第一志愿那个专业应该填的是啥来着？"
    assert not repeats("第一志愿那个专业应该填的是计算机科学与技术来着。", major)
    # an answer that takes a few of the question's words is no copy
    assert not repeats("周末带孩子去哪玩都行，推荐去公园。", "周末带孩子去哪玩？")
    assert not repeats("可以做一个水果蛋糕，孩子过生日吃着开心。", "孩子过生日，推荐一个蛋糕吧")
    assert not repeats("锅底可以点菌菇清汤锅，菜点羊肉、豆腐和青菜。", hotpot)


async def test_the_safe_sentence_names_the_constraint_when_the_persons_words_do_not_fit() -> None:
    """Words in the other language (or that would break a constraint themselves) are not said back."""
    english_source = constraints_from_texts(["My kid is allergic to nuts."])
    said = await _run(
        ReplyCheck(english_source, "zh", TurnTrace("x")), ScriptedLlm("花生蛋糕。", "核桃蛋糕。")
    )
    assert said.startswith(english_source.constraints[0].explanation("zh"))
    mixed = constraints_from_texts(["I'm vegetarian, but I love peanut butter.", "I'm allergic to peanuts."])
    check = ReplyCheck(mixed, "en", TurnTrace("y"))
    said = await _run(check, ScriptedLlm("Bacon pasta.", "Chicken pasta."))
    assert "peanut butter" not in said and mixed.check(said) is None


async def test_a_first_piece_copied_from_an_earlier_reply_is_regenerated_once() -> None:
    messages = [
        {"role": "system", "content": "rules"},
        {"role": "user", "content": "How many legs does a spider have?"},
        {"role": "assistant", "content": "A spider has eight legs."},
        {"role": "user", "content": "What should I cook for dinner tonight?"},
    ]
    llm = ScriptedLlm("A spider has eight legs.", "A vegetable curry with rice.")
    trace = TurnTrace("e")
    check = ReplyCheck(NUTS, "en", trace, user_words=messages[-1]["content"])
    said = "".join([text async for text in check.run(messages, llm)])
    assert said.strip() == "A vegetable curry with rice." and len(llm.calls) == 2
    assert trace.first("reply.repeats_earlier_reply") is not None
    # The same question asked again may get the same answer: no second request.
    asked = {"role": "user", "content": "(today is 2026-12-02)\nHow many legs does a spider have?\n(Answer.)"}
    again = [
        messages[0],
        asked,
        messages[2],
        {"role": "user", "content": "How many legs does a spider have?"},
    ]
    same = ScriptedLlm("A spider has eight legs.", "Eight.")
    repeat_trace = TurnTrace("g")
    asked_again = ReplyCheck(NUTS, "en", repeat_trace, user_words=again[-1]["content"])
    said = "".join([text async for text in asked_again.run(again, same)])
    assert said.strip() == "A spider has eight legs." and len(same.calls) == 1
    assert repeat_trace.first("reply.repeats_earlier_reply") is None
    # ... also when the name in it reaches the LLM refilled and the check sees its placeholder
    named = {"role": "user", "content": "<memory>\n- ok\n</memory>\n\nHow many legs does Charlotte have?"}
    window = [messages[0], named, {"role": "assistant", "content": "Charlotte has eight legs."}]
    placeholder = "How many legs does [NAME:0123456789ab] have?"
    window.append({"role": "user", "content": placeholder})
    again_named = ScriptedLlm("Charlotte has eight legs.", "Eight.")
    check = ReplyCheck(NUTS, "en", TurnTrace("h"), user_words=placeholder)
    said = "".join([text async for text in check.run(window, again_named)])
    assert said.strip() == "Charlotte has eight legs." and len(again_named.calls) == 1
    # A short common answer ("Sure.") said again is no copy.
    short = [*messages[:2], {"role": "assistant", "content": "Sure."}, messages[-1]]
    plain = ReplyCheck(NUTS, "en", TurnTrace("f"))
    assert "".join([t async for t in plain.run(short, ScriptedLlm("Sure. Try a curry."))]).startswith("Sure.")


async def test_a_statement_answered_with_a_copy_is_noted_without_a_second_request() -> None:
    """The person told us something; the model only copied an earlier reply: the copy is not said,
    what follows in the same reply is, and with nothing else the statement is noted ("Got it.")."""
    messages = [
        {"role": "system", "content": "rules"},
        {"role": "user", "content": "My sister lives in Lisbon."},
        {"role": "assistant", "content": "Lisbon is a lovely city to live in."},
        {"role": "user", "content": "I started a pottery class last week."},
    ]
    words = messages[-1]["content"]
    only_copy = ScriptedLlm("Lisbon is a lovely city to live in.", "Pottery is fun.")
    trace = TurnTrace("s")
    said = "".join(
        [t async for t in ReplyCheck(NUTS, "en", trace, user_words=words).run(messages, only_copy)]
    )
    assert said.strip() == NOTED["en"] and len(only_copy.calls) == 1
    assert trace.first("reply.copy_left_out") is not None and trace.first("reply.noted") is not None
    more = ScriptedLlm("Lisbon is a lovely city to live in. Pottery is a calming hobby.")
    said = "".join(
        [t async for t in ReplyCheck(NUTS, "en", TurnTrace("t"), user_words=words).run(messages, more)]
    )
    assert said.strip() == "Pottery is a calming hobby." and len(more.calls) == 1
    # A question is still regenerated: it needs an answer, not a note.
    asked = [*messages[:3], {"role": "user", "content": "What should I make in my pottery class?"}]
    question = ScriptedLlm("Lisbon is a lovely city to live in.", "A small bowl.")
    check = ReplyCheck(NUTS, "en", TurnTrace("q"), user_words=str(asked[-1]["content"]))
    said = "".join([t async for t in check.run(asked, question)])
    assert said.strip() == "A small bowl." and len(question.calls) == 2


@pytest.mark.parametrize(
    "statement",
    [
        "I had to consider how much there might be in my power to do for them.",
        "My name is Marisol.",
        "Never suggest sushi to me, I don't like raw fish.",
    ],
)
async def test_a_statement_with_a_question_word_or_an_asking_verb_is_still_a_statement(
    statement: str,
) -> None:
    """A question word inside a statement, "my name is", or a request never to make do not turn what the
    person told us into a request: a copied earlier reply is left out, not sent back to the LLM."""
    messages = [
        {"role": "system", "content": "rules"},
        {"role": "user", "content": "My sister lives in Lisbon."},
        {"role": "assistant", "content": "Lisbon is a lovely city to live in."},
        {"role": "user", "content": statement},
    ]
    llm = ScriptedLlm("Lisbon is a lovely city to live in.", "Something else.")
    trace = TurnTrace("w")
    said = "".join([t async for t in ReplyCheck(NUTS, "en", trace, user_words=statement).run(messages, llm)])
    assert said.strip() == NOTED["en"] and len(llm.calls) == 1
    assert trace.first("reply.regenerate") is None


async def test_a_reply_that_says_nothing_is_regenerated_then_never_left_silent() -> None:
    """Empty, or only the prompt's markup said back: the person would hear nothing."""
    trace = TurnTrace("n")
    llm = ScriptedLlm("<memory>", "A lemon sponge cake.")
    assert (await _run(ReplyCheck(NUTS, "en", trace), llm)).strip() == "A lemon sponge cake."
    assert trace.first("reply.empty") is not None and len(llm.calls) == 2
    # Twice nothing: the safe sentence when one constraint is known, else a short apology.
    said = await _run(ReplyCheck(NUTS, "en", TurnTrace("n2"), requested="cake"), ScriptedLlm("", "<memory>"))
    assert "I'd suggest a strawberry sponge cake." in said  # a specific cake that keeps the constraint
    none = constraints_from_texts([])
    silent = await _run(ReplyCheck(none, "zh", TurnTrace("n3")), ScriptedLlm(" ", "(请只用中文回答。)"))
    assert silent.strip() == NOTHING_TO_SAY["zh"]


async def test_a_statement_said_back_is_an_acknowledgement_not_an_echo() -> None:
    statement = "My sister Margaret lives in Lisbon."
    llm = ScriptedLlm("My sister Margaret lives in Lisbon.", "Something else.")
    trace = TurnTrace("s")
    said = await _run(ReplyCheck(NUTS, "en", trace, user_words=statement), llm)
    assert said.strip() == statement and len(llm.calls) == 1  # said as it came, never regenerated
    assert trace.first("reply.repeats_question") is None


def test_questions_are_told_from_statements() -> None:
    from voice_agent.text.questions import is_question

    for text in (
        "What should I cook tonight",
        "Can you recommend a cake?",
        "so how was it",
        "你记得我的名字吗",
        "孩子过生日，推荐一个蛋糕吧？",
        "Is it raining",
    ):
        assert is_question(text), text
    for text in (
        "My sister lives in Lisbon.",
        "我家小孩对坚果过敏。",
        "Whatever you say.",
        "Howard is my cousin.",
    ):
        assert not is_question(text), text


@pytest.mark.parametrize(
    ("language", "question", "liked", "names"),
    [
        ("zh", "这周末去看什么展览好？", "我最喜欢印象派的画。", "印象派"),
        ("en", "What kind of show should I see this weekend?", "My favourite thing is stand-up comedy.",
         "stand-up comedy"),
    ],
)  # fmt: skip
async def test_a_request_shaped_by_a_liking_never_ends_in_no_answer(
    language: str, question: str, liked: str, names: str
) -> None:
    """Asked for a recommendation that what the person likes should shape: when the model says the
    question back twice, the person hears their liking said back with a suggestion that fits it."""
    none = constraints_from_texts([])
    trace = TurnTrace("liked")
    requested = requested_thing(question)
    check = ReplyCheck(none, language, trace, user_words=question, requested=requested, liked=liked,
                       expects_suggestion=True)  # fmt: skip
    said = await _run(check, ScriptedLlm(question, question))
    assert names in said and said.strip() != NOTHING_TO_SAY[language] and question not in said
    assert reply_language_ok(language, said) is not False
    assert trace.first("reply.liked_fallback") is not None
    # A liking said in the other language is not said back in this one: the short apology instead.
    other = "我最喜欢喜剧。" if language == "en" else "I love comedy shows."
    plain = ReplyCheck(
        none, language, TurnTrace("o"), user_words=question, liked=other, expects_suggestion=True
    )
    assert (await _run(plain, ScriptedLlm(question, question))).strip() == NOTHING_TO_SAY[language]


async def test_a_reply_whose_opening_clause_is_left_out_starts_with_a_capital() -> None:
    """ "To keep basil fresh, you can put it in a glass of water." for "How do I keep basil fresh?": the
    question said back is left out, and what is said starts as a sentence."""
    turn = "How do I keep basil fresh?"
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": turn}]
    llm = ScriptedLlm("To keep basil fresh, you can put it in a glass of water.")
    check = ReplyCheck(NUTS, "en", TurnTrace("c"), user_words=turn)
    said = "".join([t async for t in check.run(messages, llm)]).strip()
    assert said.startswith("You can put it in a glass of water") and len(llm.calls) == 1
    kept = ReplyCheck(NUTS, "en", TurnTrace("d"), user_words="Which phone should I buy?")
    said = "".join([t async for t in kept.run(messages, ScriptedLlm("iPhone is a good choice."))])
    assert said.strip() == "iPhone is a good choice."


async def test_the_date_said_back_is_left_out_anywhere_unless_asked() -> None:
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": "Hello!"}]
    llm = ScriptedLlm("Hello! Today is 2026-12-02 (Wednesday). Nice to hear from you.")
    said = "".join(
        [t async for t in ReplyCheck(NUTS, "en", TurnTrace("d"), user_words="Hello!").run(messages, llm)]
    )
    assert "2026" not in said and "Nice to hear from you." in said
    asked = "What's the date today?"
    llm = ScriptedLlm("Today is 2026-12-02 (Wednesday).")
    said = "".join(
        [t async for t in ReplyCheck(NUTS, "en", TurnTrace("e"), user_words=asked).run(messages, llm)]
    )
    assert "2026-12-02" in said


async def test_the_memory_blocks_bar_is_never_spoken() -> None:
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": "Can you speak Chinese?"}]
    llm = ScriptedLlm("Yes, I can. | 我会说中文。")
    check = ReplyCheck(NUTS, "en", TurnTrace("b"), user_words="Can you speak Chinese?")
    said = "".join([t async for t in check.run(messages, llm)])
    assert "|" not in said and "Yes, I can." in said


async def test_a_question_answered_as_if_noting_it_loses_the_noting() -> None:
    """The model copies the product's "Got it, I'll remember that …" from the history into an answer to
    a question: the answer is said without it."""
    asked = "How many minutes should I boil an egg?"
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": asked}]
    llm = ScriptedLlm("I'll remember that boiling an egg takes about nine minutes.")
    said = "".join(
        [t async for t in ReplyCheck(NUTS, "en", TurnTrace("n"), user_words=asked).run(messages, llm)]
    )
    assert said.strip() == "Boiling an egg takes about nine minutes."


def test_a_question_said_back_behind_a_lead_in_or_with_a_word_changed_is_a_copy() -> None:
    from voice_agent.conversation.reply_copies import repeats

    asked = "Mum wants to know where we'll be over Easter, where'd we end up booking again?"
    assert repeats("The user's story tells us that " + asked, asked)
    assert repeats("The user's story tells us that Mum wants to know where we'll be over Easter,", asked)
    assert repeats(
        "今天热得一点胃口都没有，你说弄点啥开胃的吃吃？", "这两天热得一点胃口都没有，你说弄点啥开胃的吃吃？"
    )
    # an answer that quotes a few of the question's words is no copy
    assert not repeats("Paris is the capital of France,", "What is the capital of France?")
    assert not repeats("Over Easter you'll be at the cabin you booked in Beechworth.", asked)
    # an English question said back with one word changed
    trip = "My in-laws want to bring the whole family to Bangkok end September, 24th to 30th. Can or not ah?"
    assert repeats("The in-laws want to bring the whole family to Bangkok end September, 24th to 30th.", trip)
    assert not repeats("Bangkok from the 24th to the 30th clashes with his exams on the 26th.", trip)
    assert not repeats("开胃的话，来份凉拌黄瓜吧。", "这两天热得一点胃口都没有，你说弄点啥开胃的吃吃？")


async def test_a_number_alone_is_no_suggestion_and_a_fish_free_spread_is_said_instead() -> None:
    no_fish = constraints_from_texts(["我一个土生土长的武汉伢，硬是不恰鱼。"])
    turn = "丈母娘打电话问我想恰么斯，让我点几个菜，你帮我想一下撒。"
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": turn}]
    trace = TurnTrace("c")
    check = ReplyCheck(no_fish, "zh", trace, user_words=turn, asks_suggestion=True)
    said = "".join([text async for text in check.run(messages, ScriptedLlm("16", "16"))])
    assert "16" not in said and "鱼" not in said.replace("不恰鱼", "").replace("不吃鱼", "")
    assert trace.first("reply.fragment") is not None
    terse = ReplyCheck(no_fish, "zh", TurnTrace("c"), user_words="你今年多大了？")
    assert "16" in "".join([text async for text in terse.run(messages, ScriptedLlm("16岁。"))])


async def test_a_reply_that_says_no_word_gets_the_fallback_whatever_left_it_out() -> None:
    """The net under every check: if nothing with a word in it was passed on (here only the holding
    phrase, from a check path that ended quietly), the person hears the fallback, traced."""
    from voice_agent.conversation.holding import HoldingPhrase

    class Quiet(ReplyCheck):
        async def _run(self, messages, stream):  # type: ignore[no-untyped-def, override]
            yield HoldingPhrase("稍等一下。 ")

    turn = "下个礼拜三是我幺妹儿生日，帮我写一段话嘛。"
    trace = TurnTrace("q")
    check = Quiet(constraints_from_texts([]), "zh", trace, user_words=turn)
    said = [text async for text in check.run([{"role": "user", "content": turn}], ScriptedLlm())]
    assert said[-1] == check.no_answer() and trace.first("reply.nothing_said") is not None


async def test_i_remembered_is_no_answer_to_a_question() -> None:
    turn = "孙子过生日，你说整点啥好吃的？"
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": turn}]
    trace = TurnTrace("n")
    check = ReplyCheck(constraints_from_texts([]), "zh", trace, user_words=turn)
    said = "".join(
        [text async for text in check.run(messages, ScriptedLlm("嗯，我记住了。", "当然，我记住了。"))]
    )
    assert "记住" not in said and said.strip()
    assert trace.first("reply.regenerate") is not None


async def test_a_request_said_back_or_i_remembered_after_the_opening_is_no_answer() -> None:
    from voice_agent.conversation.acknowledge import acknowledgement
    from voice_agent.conversation.reminders import guided_constraints

    asked = "下个礼拜三是我幺妹儿生日，我想在朋友圈发段话祝她生日快乐，你帮我写一段嘛，要走心点的。"
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": asked}]
    check = ReplyCheck(constraints_from_texts([]), "zh", TurnTrace("r"), user_words=asked)
    llm = ScriptedLlm(
        "你来朋友圈发段话祝她生日快乐，你帮我写一段嘛。", "愿我家幺妹新的一岁平安喜乐，读研顺利！"
    )
    said = "".join([text async for text in check.run(messages, llm)])
    assert "帮我写" not in said and "平安喜乐" in said
    fact = "大夫说我是松子过敏。"
    rules = constraints_from_texts([fact])
    turn = "过年了，给我推荐点零食吧。"
    opening = acknowledgement(guided_constraints(rules, [fact], turn), rules, "zh", turn)
    assert opening is not None
    trace = TurnTrace("a")
    check = ReplyCheck(rules, "zh", trace, user_words=turn, acknowledgement=opening)
    said = "".join([t async for t in check.run(messages, ScriptedLlm("我记住了。", "来点草莓和瓜子吧。"))])
    assert "记住" not in said and "草莓" in said


def test_a_templates_blanks_are_never_read_aloud() -> None:
    assert without_prompt_echo("Dear [NAME], I hope this message finds you well.") == (
        "I hope this message finds you well."
    )
    assert without_prompt_echo("Good evening, [Your Name]! Welcome.") == "Good evening! Welcome."
    assert without_prompt_echo("亲爱的[名字]，生日快乐！") == "生日快乐！"
    kept = "Hi [NAME:1a2b3c4d5e6f], happy birthday!"  # our own placeholder: refilled for the owner later
    assert without_prompt_echo(kept) == kept
    assert without_prompt_echo("(Start the answer with this: Tell them first.)") == "Tell them first."


async def test_an_english_question_said_back_from_its_first_clause_is_not_spoken() -> None:
    trip = "My in-laws want to bring the whole family to Bangkok end September, 24th to 30th. Can or not ah?"
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": trip}]
    check = ReplyCheck(constraints_from_texts([]), "en", TurnTrace("t"), user_words=trip)
    llm = ScriptedLlm(
        "The in-laws want to bring the whole family to Bangkok end September, 24th to 30th. Can or not?",
        "Check the dates first: the 24th to the 30th may clash with his exams.",
    )
    said = "".join([text async for text in check.run(messages, llm)])
    assert "whole family" not in said and "clash" in said


async def test_a_question_followed_by_more_words_is_still_asked_not_noted() -> None:
    from tests._scripted_llm import ScriptedLlm
    from voice_agent.conversation.constraints import constraints_from_texts
    from voice_agent.conversation.reply_check import NOTED, ReplyCheck
    from voice_agent.metrics.trace import TurnTrace

    turn = "My aunty like go visit him. Wat she can do ova dea? She neva come back since small kid time."
    trace = TurnTrace("asked")
    check = ReplyCheck(constraints_from_texts([]), "en", trace, user_words=turn)
    assert check.asked and not check.statement
    messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": turn}]
    said = "".join(
        [text async for text in check.run(messages, ScriptedLlm(turn, "Try Volcanoes National Park."))]
    )
    assert said != NOTED["en"] and trace.first("reply.noted") is None
