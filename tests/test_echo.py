"""A reply piece that only restates what the person said is no answer (English and Chinese)."""

from __future__ import annotations

import pytest
from test_reply_check import ScriptedLlm

from voice_agent.conversation.constraints import constraints_from_texts
from voice_agent.conversation.echo import open_request, restates
from voice_agent.conversation.reply_check import ReplyCheck
from voice_agent.conversation.reply_fallbacks import NOTHING_TO_SAY
from voice_agent.metrics.trace import TurnTrace


@pytest.mark.parametrize(
    ("piece", "line"),
    [
        ("I suggest a board game for a rainy day.", "Suggest a board game for a rainy day."),
        ("We're firing up the grill on Saturday.", "We're firing up the grill on Saturday. What goes on it?"),
        ("I should order at the bar with my team.", "What should I order at the bar with my team tonight?"),
        ("Yes, I remember your name.", "Do you remember my name?"),
        ("下午有点饿，", "下午有点饿，吃点什么零食好？"),
        ("周末想给老婆做个水果沙拉，", "周末想给老婆做个水果沙拉，放哪些水果好？"),
    ],
)  # fmt: skip
def test_a_piece_made_only_of_the_lines_words_restates_it(piece: str, line: str) -> None:
    assert restates(piece, line)


@pytest.mark.parametrize(
    ("piece", "line"),
    [
        ("You should order a mocktail at the bar.", "What should I order at the bar with my team tonight?"),
        ("Your flight to Oslo is on Thursday.", "Which day is my flight to Oslo?"),
        ("今晚和同事聚会，我喝点咖啡。", "今晚和同事聚会，我喝点什么好？"),
        ("早餐配豆浆。", "早餐配什么饮品好？"),
        ("Sure.", "Can you recommend a cake?"),
    ],
)  # fmt: skip
def test_a_piece_that_adds_something_of_its_own_is_an_answer(piece: str, line: str) -> None:
    assert not restates(piece, line)


def test_open_requests_are_told_from_choices_and_yes_no_questions() -> None:
    assert open_request("What should I drink tonight?") and open_request("推荐一个蛋糕吧。")
    assert not open_request("Should I bring an umbrella or sunglasses?")
    assert not open_request("喝茶还是喝咖啡？") and not open_request("Is Lyon in France?")


@pytest.mark.parametrize(
    "text",
    [
        "I don't know what to cook tonight.",
        "I'm not sure which one I should pick.",
        "Any ideas for a rainy day?",
        "Name a famous painter.",
        "Please pick a film for us.",
        "Do you remember my name?",
        "My kid is allergic to nuts. Can you recommend a cake?",
        "帮我想一个聚餐的菜单。",
        "你还记得我叫啥不？",
        "马拉松有多长？",
        "说一个有名的画家。",
    ],
)
def test_requests_in_any_form_are_open_requests(text: str) -> None:
    assert open_request(text)


@pytest.mark.parametrize(
    "text",
    [
        "I know where you live.",
        "They talked about how to best work with trans people.",
        "And he had then leisure to consider how much there might be in his power to do for them.",
        "My name is Marisol.",
        "Never suggest sushi to me, I don't like raw fish.",
        "Please don't ever suggest horror movies to me.",
        "Honestly, give me a trail and a pair of boots and I'm happy.",
        "以后别给我推荐火锅。",
        "我什么都不吃辣的。",
        "我哪儿都不想去。",
    ],
)
def test_statements_with_question_words_or_asking_verbs_are_not_requests(text: str) -> None:
    """A question word inside a statement, a name said, a request never to make: statements."""
    assert not open_request(text)


async def _said(check: ReplyCheck, llm: ScriptedLlm, messages: list[dict[str, str]]) -> str:
    return "".join([text async for text in check.run(messages, llm)])


EARLIER = "Suggest a board game for a rainy day."


async def test_a_reworded_earlier_question_is_regenerated_and_a_clause_of_this_one_left_out() -> None:
    turn = "What should I order at the bar with my colleagues tonight?"
    messages = [
        {"role": "system", "content": "rules"},
        {"role": "user", "content": f"<memory>\nuser: {EARLIER}\n</memory>\n\n{turn}"},
    ]
    none = constraints_from_texts([])
    trace = TurnTrace("a")
    llm = ScriptedLlm("I suggest a board game for a rainy day.", "I should order at the bar. A mocktail.")
    said = await _said(ReplyCheck(none, "en", trace, user_words=turn), llm, messages)
    assert said.strip() == "A mocktail." and len(llm.calls) == 2
    assert trace.first("reply.repeats_prompt") is not None


async def test_on_the_second_attempt_a_copied_memory_is_said_back_and_a_question_left_out() -> None:
    fact = "Raw onions are the one thing I will not eat."
    turn = "Give me an idea for a salad tonight."
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": f"Remember: {fact}\n"}]
    messages[-1]["content"] += turn
    none = constraints_from_texts([])
    llm = ScriptedLlm(fact, fact)
    said = await _said(ReplyCheck(none, "en", TurnTrace("b"), user_words=turn), llm, messages)
    assert said.strip().lower().startswith("you told me raw onions are the one thing you will not eat")
    quiet = ScriptedLlm(turn, "A salad tonight.")
    said = await _said(ReplyCheck(none, "en", TurnTrace("c"), user_words=turn), quiet, messages)
    assert said.strip() == NOTHING_TO_SAY["en"]


def test_the_memory_block_leaves_out_earlier_questions_unrelated_to_this_turn() -> None:
    from voice_agent.conversation.block_records import block_records
    from voice_agent.memory.records import MemoryRecord

    fact = MemoryRecord("c", "I live in Lyon.", created_at=1.0)
    unrelated = MemoryRecord("c", "How many legs does a spider have?", created_at=2.0)
    related = MemoryRecord("c", "What's a good tea for the evening?", created_at=3.0)
    mixed = MemoryRecord("c", "I love rooibos. Is it a real tea?", created_at=4.0)
    zh = MemoryRecord("c", "蜜蜂会做什么？", created_at=5.0)
    records = [fact, unrelated, related, mixed, zh]
    turn = "Which tea should I drink tonight?"
    kept = block_records(records, [], [], 8, turn, unrelated_questions=False)
    assert kept == [fact, related, mixed]
    assert block_records(records, [], [], 8, turn) == records  # the setting on: every record quoted
    zh_turn = "蜜蜂做的蜂蜜能放多久？"
    assert zh in block_records(records, [], [], 8, zh_turn, unrelated_questions=False)
    assert zh not in block_records(records, [], [], 8, "晚上喝什么茶好？", unrelated_questions=False)


async def test_the_turn_and_its_guidance_mixed_and_said_back_is_left_out() -> None:
    turn = "Suggest a topping for my tacos."
    content = f"Remember: I really hate olives.\n{turn}\n(Suggest one topping without olives.)"
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": content}]
    olives = constraints_from_texts(["I really hate olives."])
    llm = ScriptedLlm("Suggest a topping for my tacos without olives. Try pickled onions.")
    said = await _said(ReplyCheck(olives, "en", TurnTrace("g"), user_words=turn), llm, messages)
    assert said.strip() == "Try pickled onions." and len(llm.calls) == 1


def test_a_symptom_said_back_is_no_recommendation() -> None:
    from voice_agent.conversation.acknowledge import acknowledgement

    dairy = constraints_from_texts(["Dairy makes me sick."])
    found = acknowledgement(dairy.constraints, dairy, "en", "What dessert can I make?")
    assert found is not None and found.text == "You told me dairy makes you sick, so no dairy. "
    assert dairy.check("A cheesecake.") is not None
    milk = constraints_from_texts(["我一喝牛奶就拉肚子。"])
    assert milk.check("因为你一喝牛奶就拉肚子，") is None and milk.check("早餐配牛奶。") is not None
