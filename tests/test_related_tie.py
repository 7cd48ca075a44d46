"""What the person told us that a request is about is said after a reply that used none of it
(conversation/related_tie.py): the statement the request shares the most strong words with, never a
story of something gone wrong, a rule or a vow. Real constraint parsing and reply check; the LLM is
scripted at its edge. The last test runs it through the real assistant (memory, engine, guard)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _chat_endpoint import ChatEndpoint
from _scripted_llm import ScriptedLlm
from test_reply_guard_engine import _assistant, _tell_then_fill

from voice_agent.conversation.constraints import constraints_from_texts
from voice_agent.conversation.related_tie import asks_something, related_statement, related_tie, strong_keys
from voice_agent.conversation.reply_check import ReplyCheck
from voice_agent.conversation.reply_fallbacks import ReplyFallbacks
from voice_agent.memory.records import MemoryRecord
from voice_agent.metrics.trace import TurnTrace

CERYS = (
    "Our Cerys is Doctor Who daft, always has been. She's got the TARDIS fridge magnets and a scarf her nan "
    "knitted. Anyway, the garage says the Corsa needs a new clutch, so there goes my bonus."
)
GIFT = (
    "Cerys finishes at Swansea Uni this July. I want to get her something special for her graduation. "
    "Any ideas?"
)


def _said_in(*texts: str) -> list[MemoryRecord]:
    return [MemoryRecord("c1", text, source=f"t{i}", created_at=100.0 + i) for i, text in enumerate(texts)]


def test_the_sentence_the_request_shares_a_name_with_is_said_back() -> None:
    said = related_statement(GIFT, _said_in(CERYS, "I walk the dog every morning."), "en")
    assert said == "You told me your Cerys is Doctor Who daft, always has been."


def test_a_chinese_request_gets_the_chinese_statement_it_is_about() -> None:
    told = "我们导师老郑是个围棋痴，业余五段，中午在办公室下快棋。对了，南京这两天梅雨。"
    asked = "马上博士毕业了，师门几个人想给导师送份谢师礼，你看送点啥好？"
    said = related_statement(asked, _said_in(told), "zh")
    assert said.startswith("你告诉过我，") and "围棋" in said and "梅雨" not in said


@pytest.mark.parametrize(
    "told",
    [
        # a story of something gone wrong names what must not be offered
        "Had two sips of some hazy IPA at a brewery tap on Kelham Island, lips blew up and my neck came "
        "out in hives.",
        # a vow, though the sentence the request shares a word with tells only the start of the story
        "See that mattress I got off Gumtree when I moved into the flat? Hoaching with bed bugs. Never "
        "again, I swear.",
        # a rule
        "My husband Dev can't have anything with sesame.",
        # a dislike
        "Dev hates the lo-fi beats the team plays on the focus call.",
    ],
)
def test_nothing_gone_wrong_refused_or_sworn_off_is_said_back(told: str) -> None:
    for asked in ("Where should I get a mattress for the box room?", "What should I get Dev for lunch?",
                  "Any beers for the Kelham Island crawl?", "Any playlists for my focus time?"):  # fmt: skip
        assert related_statement(asked, _said_in(told), "en") == ""


def test_a_statement_is_said_back_only_for_a_request_and_a_strong_shared_word() -> None:
    told = _said_in("My mum loves the garden centre on Mill Road.")
    assert related_statement("My mum is coming next week.", told, "en") == ""  # no request
    assert related_statement("What should I cook for my mum next week?", told, "en") == ""  # only "mum"
    said = related_statement("Can you plan a Saturday around Mill Road for us?", told, "en")
    assert said == "You told me your mum loves the garden centre on Mill Road."
    assert asks_something("Help me furnish the living room.") and not asks_something("Plants need water.")
    assert strong_keys("Can you help me find something for him?") == set()


def test_a_plan_changed_since_is_not_said_back_as_it_was() -> None:
    told = _said_in(
        "The team lunch is at Nando's on Friday.",
        "Change of plan, the team lunch is moving to the Thai place instead.",
    )
    assert "Nando" not in related_statement("Can you write the team a note about the lunch?", told, "en")


def test_the_tie_follows_only_a_reply_that_named_nothing_of_it() -> None:
    told = "You told me your Cerys is Doctor Who daft, always has been."
    none = constraints_from_texts([])
    assert related_tie(told, "A nice watch would be a lovely gift.", GIFT, none) == told
    assert related_tie(told, "A TARDIS lamp or a Doctor Who box set.", GIFT, none) == ""
    assert related_tie(told, "", GIFT, none) == ""  # no reply: the no-answer fallbacks speak instead
    peanuts = constraints_from_texts(["My kid is allergic to peanuts."])
    assert (
        related_tie("You told me your kid loves peanut butter toast.", "Try toast.", "Any snack?", peanuts)
        == ""
    )


async def _check(said: str, *, related: str) -> tuple[str, TurnTrace]:
    trace = TurnTrace("related")
    looked_up: list[bool] = []

    async def lookup() -> str:
        looked_up.append(True)
        return related

    llm = ScriptedLlm(said)
    check = ReplyCheck(constraints_from_texts([]), "en", trace, user_words=GIFT, related=lookup)
    out = "".join([text async for text in check.run([{"role": "user", "content": GIFT}], llm)])
    assert looked_up == [True] and len(llm.calls) == 1  # looked up once, after the reply
    return out, trace


async def test_a_reply_that_ignored_the_statement_is_followed_by_it() -> None:
    related = "You told me your Cerys is Doctor Who daft, always has been."
    said, trace = await _check("A nice silver watch would make a lovely graduation gift.", related=related)
    assert said.startswith("A nice silver watch") and said.rstrip().endswith(related)
    assert trace.first("reply.related_tie") is not None
    used, trace = await _check("A Doctor Who box set, and a TARDIS mug.", related=related)
    assert "told me" not in used and trace.first("reply.related_tie") is None
    # an opening already named what the turn is under ("Since your kid is allergic to nuts, ")
    fallbacks = ReplyFallbacks(constraints_from_texts([]), "en", TurnTrace("o"), user_words=GIFT)
    fallbacks.related = related
    assert fallbacks.ties("A nice silver watch.", opened=True) == []
    assert fallbacks.ties("A nice silver watch.") == [related + " "]


@pytest.mark.slow
async def test_the_assistant_says_back_what_the_request_is_about_after_an_unrelated_reply(
    tmp_path: Path, model_dir: Path
) -> None:
    reply_text = "A nice silver watch would make a lovely graduation gift."
    endpoint = await ChatEndpoint([reply_text] * 4).start()
    (tmp_path / "off").mkdir()
    try:
        async with await _assistant(tmp_path, endpoint) as assistant:
            await _tell_then_fill(assistant, "desk", CERYS)
            reply = await assistant.chat_turn("desk", GIFT)
        async with await _assistant(tmp_path / "off", endpoint, "\n[prompt]\nrelated_tie = false\n") as off:
            await _tell_then_fill(off, "desk", CERYS)
            plain = await off.chat_turn("desk", GIFT)
    finally:
        await endpoint.stop()
    assert reply.text.startswith(reply_text) and "Doctor Who" in reply.text
    assert reply.trace.first("reply.related_tie") is not None
    assert plain.text == reply_text and plain.trace.first("reply.related_tie") is None
