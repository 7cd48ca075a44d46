"""The reply check inside the real assistant: real memory (SQLite, spaCy, e5), the real engine and turn
log; the LLM is a scripted OpenAI-compatible endpoint (the network edge), so the replies that break a
constraint are known and the guard's behaviour can be asserted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _chat_endpoint import ChatEndpoint
from _llm_support import free_port

from voice_agent.assistant import Assistant
from voice_agent.config import load_config
from voice_agent.conversation.constraints import constraints_from_texts
from voice_agent.conversation.suggestions import EXAMPLE, SUGGEST, concrete_option

pytestmark = pytest.mark.slow

FILLERS = [
    ("What's the capital of France?", "Paris."),
    ("How many legs does a spider have?", "Eight."),
    ("Why is the sky blue?", "Air scatters blue light most."),
    ("Name a planet with rings.", "Saturn."),
    ("What is the tallest animal?", "The giraffe."),
    ("Which ocean is the largest?", "The Pacific."),
    ("What colour are emeralds?", "Green."),
    ("How many continents are there?", "Seven."),
    ("Who wrote Hamlet?", "Shakespeare."),
    ("What is a haiku?", "A short poem."),
]


async def _assistant(tmp_path: Path, endpoint: ChatEndpoint, extra: str = "") -> Assistant:
    path = tmp_path / "scripted.toml"
    path.write_text(
        endpoint.backend()
        + "\n[llm]\nmax_tokens = 60\ntemperature = 0.0\nrewarm_prefix = false\n"
        + f"\n[llm.local]\nport = {free_port()}\n"
        + extra,
        encoding="utf-8",
    )
    config = load_config(path, data_dir=tmp_path / "data", env={})
    return await Assistant.open(config)


async def _tell_then_fill(assistant: Assistant, conversation: str, fact: str) -> None:
    await assistant.engine.record(conversation, fact, "Got it.", assistant.new_trace(conversation))
    for question, answer in FILLERS:
        await assistant.engine.record(conversation, question, answer, assistant.new_trace(conversation))
    await assistant.engine.settle(conversation)


async def test_a_reply_breaking_the_allergy_is_regenerated_then_replaced(
    tmp_path: Path, model_dir: Path
) -> None:
    endpoint = await ChatEndpoint(
        ["A peanut butter cake is perfect for kids.", "Sure, a walnut and praline cake."]
    ).start()
    try:
        async with await _assistant(tmp_path, endpoint) as assistant:
            await _tell_then_fill(assistant, "family", "My kid is allergic to nuts, especially peanuts.")
            reply = await assistant.chat_turn("family", "Can you recommend a cake for my kid's birthday?")
            window = await assistant.turns.window("family")
    finally:
        await endpoint.stop()
    said = reply.text.lower()
    assert "peanut butter" not in said and "walnut" not in said and "praline" not in said
    # The reply opened with the allergy, in the person's words; after two violations only the suggestion
    # that keeps it follows (the reason was said already).
    opening = "You told me your kid is allergic to nuts, especially peanuts, so no nuts. "
    nuts = constraints_from_texts(["My kid is allergic to nuts, especially peanuts."])
    option = concrete_option(nuts, "cake", "Can you recommend a cake for my kid's birthday?", "en")
    assert option and reply.text == opening + SUGGEST["en"].format(option=option)
    first, second = endpoint.last_user_messages()
    # What to suggest follows the words, outside the memory block.
    assert first.endswith(
        "Can you recommend a cake for my kid's birthday?\n(Suggest one cake without nuts.)\n"
        f"(For example: {option}.)"
    )
    # The fact left the recent window; the turn restates it right before the person's words.
    assert "Remember: My kid is allergic to nuts, especially peanuts." in first
    assert first.index("Remember:") < first.index("Can you recommend a cake")
    assert second.startswith(first) and "Do not suggest anything containing nuts." in second
    assert EXAMPLE["en"].format(option=option) in second  # something specific to name or take after
    names = [s.name for s in reply.trace.spans]
    assert names.count("constraint.violation") == 2
    assert "reply.regenerate" in names and "constraint.safe_sentence" in names
    assert reply.result.checks["safe_sentence"] and reply.result.checks["attempts"] == 2
    # What the person heard is what the history keeps.
    assert window[-1].role == "assistant" and window[-1].text == reply.text


async def test_a_chinese_turn_is_answered_in_chinese(tmp_path: Path, model_dir: Path) -> None:
    endpoint = await ChatEndpoint(
        ["Here is a nice idea for dinner tonight.", "今晚可以做一个麻婆豆腐，用香菇代替肉末。"]
    ).start()
    try:
        async with await _assistant(tmp_path, endpoint) as assistant:
            await _tell_then_fill(assistant, "home", "我吃素，不吃肉也不吃鱼。")
            reply = await assistant.chat_turn("home", "今晚做什么菜好？")
    finally:
        await endpoint.stop()
    first, second = endpoint.last_user_messages()
    assert first.endswith("(请只用中文回答。)") and "记住：我吃素，不吃肉也不吃鱼。" in first
    assert "请只用中文回答" in second.split("\n")[-1]
    assert reply.text.startswith("因为你吃素，") and "今晚可以做一个麻婆豆腐" in reply.text
    mismatch = reply.trace.first("language.mismatch")
    assert mismatch is not None and mismatch.attrs["expected"] == "zh"


async def test_a_recall_question_is_answered_from_memory_and_traced(tmp_path: Path, model_dir: Path) -> None:
    endpoint = await ChatEndpoint(["The weather is fine."]).start()
    try:
        async with await _assistant(tmp_path, endpoint) as assistant:
            await _tell_then_fill(assistant, "me", "I live in Lyon.")
            reply = await assistant.chat_turn("me", "Which city do I live in?")
            window = await assistant.turns.window("me")
            other = await assistant.chat_turn("me", "What is the weather like in Paris?")
    finally:
        await endpoint.stop()
    assert reply.text.strip() == "You told me you live in Lyon."
    mark = reply.trace.first("recall.answer")
    assert mark is not None and mark.attrs["shared"] == "liv"  # the shared word's stem ("lived", "live")
    assert reply.result.checks == {"recall_answer": mark.attrs["record"]}
    assert window[-1].role == "assistant" and window[-1].text == reply.text.strip()
    # Only the question that memory answers skips the LLM.
    assert len(endpoint.requests) == 1 and other.text.strip() == "The weather is fine."
    assert other.trace.first("recall.answer") is None


async def test_the_opening_names_only_this_conversations_constraint_and_passes_the_loopback_check(
    tmp_path: Path, model_dir: Path
) -> None:
    """A kiosk: one store, two people. The one who told us about the allergy hears it acknowledged; the
    other, asking the same, hears no one else's allergy."""
    endpoint = await ChatEndpoint(
        ["A lemon cake is lovely.", "A banana cake with berries is a good choice."]
    ).start()
    try:
        async with await _assistant(tmp_path, endpoint) as assistant:
            await _tell_then_fill(assistant, "family", "My kid is allergic to nuts, especially peanuts.")
            await _tell_then_fill(assistant, "guest", "I live in Lyon.")
            question = "Can you recommend a cake for my kid's birthday?"
            guest = await assistant.chat_turn("guest", question)
            family = await assistant.chat_turn("family", question)
    finally:
        await endpoint.stop()
    assert guest.text == "A lemon cake is lovely." and guest.trace.first("reply.acknowledged") is None
    assert "allerg" not in guest.text and "nut" not in guest.text
    assert family.sentences[0].startswith("You told me your kid is allergic to nuts,")
    assert family.text.endswith("A banana cake with berries is a good choice.")
    loopback = [s for s in family.trace.spans if s.name == "loopback"]
    assert loopback and loopback[0].attrs["index"] == 0 and not loopback[0].attrs["flagged"]
    assert family.trace.first("llm.holding") is None  # the opening is what the person hears first


async def test_the_llm_reads_the_persons_own_names_and_nothing_else_leaves_scrubbed(
    tmp_path: Path, model_dir: Path
) -> None:
    """A kiosk: one store, two people. The reader's favourite author reaches the LLM by name (refilled
    from the vault; "always" here because the scripted endpoint stands in for a local LLM), the guest's
    prompt never holds it, and memory and the turn log keep the placeholder."""
    endpoint = await ChatEndpoint(["The Left Hand of Darkness is a classic.", "Try Dune."]).start()
    try:
        extra = '\n[prompt]\nrefill_own_names = "always"\n'
        async with await _assistant(tmp_path, endpoint, extra) as assistant:
            await _tell_then_fill(assistant, "reader", "My favourite author is Ursula Le Guin.")
            await _tell_then_fill(assistant, "guest", "I live in Lyon.")
            question = "Can you recommend a book for my holiday?"
            await assistant.chat_turn("reader", question)
            await assistant.chat_turn("guest", question)
            stored = [r.text for r in await assistant.memory.list("reader", limit=100)]
            logged = [t.text for t in await assistant.turns.window("reader")]
    finally:
        await endpoint.stop()
    reader, guest = (json.dumps(r["messages"], ensure_ascii=False) for r in endpoint.requests)
    assert "Ursula Le Guin" in reader and "[NAME:" not in reader
    assert "Le Guin" not in guest
    assert stored and not any("Le Guin" in text for text in stored)
    assert any("[NAME:" in text for text in stored)
    assert logged and not any("Le Guin" in text for text in logged)


async def test_a_turn_that_tells_a_constraint_hears_it_is_remembered(tmp_path: Path, model_dir: Path) -> None:
    """ "My daughter Asha is allergic to sesame." is answered at once with what was remembered (her name
    said back to its owner), without the LLM; a question afterwards goes to the LLM as usual."""
    endpoint = await ChatEndpoint(["A fruit salad and cheese sandwiches."]).start()
    try:
        async with await _assistant(tmp_path, endpoint) as assistant:
            told = await assistant.chat_turn(
                "family", "Hi, I'm Priya. My daughter Asha is allergic to sesame."
            )
            served_after_telling = endpoint.served
            asked = await assistant.chat_turn("family", "What should I pack for a picnic with Asha?")
            window = await assistant.turns.window("family")
    finally:
        await endpoint.stop()
    assert told.text.strip() == "Got it, I'll remember that your daughter Asha is allergic to sesame."
    assert served_after_telling == 0 and endpoint.served == 1
    assert "fruit salad" in asked.text.lower()
    # The note is what the turn log keeps as the reply (with the name as a placeholder, like any reply).
    replies = [turn.text for turn in window if turn.role == "assistant"]
    assert replies[0].startswith("Got it, I'll remember that your daughter [NAME:")


async def test_noting_constraints_can_be_switched_off(tmp_path: Path, model_dir: Path) -> None:
    endpoint = await ChatEndpoint(["Thanks for telling me."]).start()
    try:
        extra = "\n[prompt]\nnote_constraints = false\n"
        async with await _assistant(tmp_path, endpoint, extra) as assistant:
            told = await assistant.chat_turn("family", "My kid is allergic to nuts, especially peanuts.")
    finally:
        await endpoint.stop()
    assert endpoint.served == 1 and "remember" not in told.text


async def test_the_persons_name_is_greeted_and_never_made_up(tmp_path: Path, model_dir: Path) -> None:
    """Asked before it was said, the name is not invented; said, it is greeted (as the person said it);
    asked again, it is said back from memory. None of it needs the LLM."""
    endpoint = await ChatEndpoint(["My name is Xiaoming."]).start()
    try:
        async with await _assistant(tmp_path, endpoint) as assistant:
            before = await assistant.chat_turn("desk", "What's my name?")
            told = await assistant.chat_turn("desk", "My name is Marisol Ortega.")
            after = await assistant.chat_turn("desk", "What's my name?")
    finally:
        await endpoint.stop()
    assert before.text.strip() == "You haven't told me your name yet. What should I call you?"
    assert told.text.strip() == "Nice to meet you, Marisol Ortega!"
    assert "Marisol" in after.text and "Xiaoming" not in after.text
    assert endpoint.served == 0


async def test_what_the_person_asks_to_forget_leaves_memory_and_the_window(
    tmp_path: Path, model_dir: Path
) -> None:
    """ "Forget that …" is confirmed at once; the memory no longer holds it, no guard is left behind, and
    the recent window the LLM reads next no longer says it (it had been told and said back)."""
    endpoint = await ChatEndpoint(["A peanut butter sandwich is a classic snack."]).start()
    try:
        async with await _assistant(tmp_path, endpoint) as assistant:
            await assistant.chat_turn("desk", "Remember my kid is allergic to peanuts.")
            forgot = await assistant.chat_turn("desk", "Forget that my kid is allergic to peanuts.")
            await assistant.engine.settle("desk")
            asked = await assistant.chat_turn("desk", "What snack should I pack for school?")
            request = endpoint.requests[-1]
            left = await assistant.memory.list("desk")
    finally:
        await endpoint.stop()
    assert forgot.text.strip() == "Okay, I've forgotten that."
    assert "peanut butter" in asked.text.lower()  # no allergy left to guard
    sent = json.dumps(request, ensure_ascii=False).lower()
    assert "allergic" not in sent and "(forgotten)" in sent
    assert not any("allergic" in record.text for record in left)
