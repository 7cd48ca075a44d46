"""The streaming sentence splitter over LLM deltas, and the turn-completeness check."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from voice_agent.clock import FakeClock
from voice_agent.text.complete import looks_complete
from voice_agent.text.sentences import SentenceSplitter, clean_for_speech, count_words, split_sentences


def _split(text: str, *, step: int = 3, first_clause_min_words: int = 4) -> list[str]:
    """Feed ``text`` in deltas of ``step`` characters, as an LLM stream would."""
    splitter = SentenceSplitter(first_clause_min_words=first_clause_min_words)
    out = []
    for i in range(0, len(text), step):
        out += [s.text for s in splitter.push(text[i : i + step])]
    return out + [s.text for s in splitter.flush()]


@pytest.mark.parametrize("step", [1, 2, 5, 1000])
def test_english_sentences_with_abbreviations_numbers_and_initials(step: int) -> None:
    text = (
        "Sure. Dr. Smith moved to St. Louis in 2019. It costs 3.5 dollars, e.g. less than a coffee! "
        "J. K. Rowling wrote it, i.e. the author. Really? Yes… I think so"
    )
    assert _split(text, step=step, first_clause_min_words=99) == [
        "Sure.",
        "Dr. Smith moved to St. Louis in 2019.",
        "It costs 3.5 dollars, e.g. less than a coffee!",
        "J. K. Rowling wrote it, i.e. the author.",
        "Really?",
        "Yes…",
        "I think so",
    ]


def test_chinese_splits_without_spaces_and_keeps_closing_quotes() -> None:
    text = "你好！今天北京天气晴朗，最高气温二十五度。他说：“明天下雨。”我们走吧；好的……然后呢？"
    assert _split(text, first_clause_min_words=99) == [
        "你好！",
        "今天北京天气晴朗，最高气温二十五度。",
        "他说：“明天下雨。”",
        "我们走吧；",
        "好的……",
        "然后呢？",
    ]


def test_first_clause_is_released_early_only_once() -> None:
    text = "Well, the weather in Paris today is sunny, with a light breeze, and highs of twenty degrees."
    pieces = _split(text)
    assert pieces[0] == "Well, the weather in Paris today is sunny,"  # "Well," alone is too short
    assert pieces[1] == "with a light breeze, and highs of twenty degrees."  # later commas do not split
    assert _split("今天北京的天气，晴朗而且温暖。明天也一样，很好。") == [
        "今天北京的天气，",
        "晴朗而且温暖。",
        "明天也一样，很好。",
    ]


def test_thousands_separators_and_times_are_not_clause_ends() -> None:
    assert _split("We sold 12,000 units at 3:30 pm yesterday afternoon, a record.")[0] == (
        "We sold 12,000 units at 3:30 pm yesterday afternoon,"
    )


def test_the_first_piece_comes_out_as_soon_as_it_is_complete() -> None:
    splitter = SentenceSplitter()
    assert splitter.push("Hello there") == []
    assert splitter.push(".") == []  # a period may be "Mr." or "3.5": wait for the next character
    out = splitter.push(" How")
    assert [s.text for s in out] == ["Hello there."]
    assert splitter.push("你好。") == []  # a closing quote may still follow the full stop
    assert [s.text for s in splitter.push("我")] == ["How你好。"]  # no space needed after it
    assert [s.text for s in splitter.flush()] == ["我"]


def test_run_on_text_is_cut_at_a_space() -> None:
    text = " ".join(["word"] * 100)
    pieces = _split(text, step=7)
    assert len(pieces) >= 2
    assert all(count_words(p) <= 41 for p in pieces)
    assert " ".join(pieces) == text


def test_markdown_is_not_read_out_and_empty_pieces_are_dropped() -> None:
    assert clean_for_speech("**Sure!** Use `pip` for it.") == "Sure! Use pip for it."
    assert _split("**Sure!** ... Here it is.", first_clause_min_words=99) == ["Sure!", "Here it is."]


async def test_stage_form_timestamps_with_the_injected_clock() -> None:
    clock = FakeClock(start_ns=1_000)

    async def deltas() -> AsyncIterator[str]:
        for d in ["One. ", "Two", " three. Four"]:
            clock.advance_ms(10)
            yield d

    out = [s async for s in split_sentences(deltas(), clock=clock)]
    assert [(s.text, s.index) for s in out] == [("One.", 0), ("Two three.", 1), ("Four", 2)]
    assert [s.t_ns for s in out] == [10_001_000, 30_001_000, 30_001_000]  # released when their end arrived


@pytest.mark.parametrize(
    ("text", "complete"),
    [
        ("What is the weather like in Paris today?", True),
        ("My name is Anna.", True),
        ("Remind me to call my sister.", True),
        ("明天天气怎么样？", True),
        ("I want to go to the.", False),
        ("So I was thinking, um...", False),
        ("And then", False),
        ("Can you tell me about", False),
        ("我想问一下因为。", False),
        ("My favourite colour is", False),
        ("", False),
    ],
)
def test_looks_complete(text: str, complete: bool) -> None:
    assert looks_complete(text) is complete


def test_a_long_first_sentence_without_a_comma_is_cut_before_a_joining_word() -> None:
    text = "The capital of France is Paris which is famous for the Eiffel Tower and the Louvre. It is lovely."
    splitter = SentenceSplitter(first_clause_max_words=10)
    pieces = [s.text for i in range(0, len(text), 3) for s in splitter.push(text[i : i + 3])]
    pieces += [s.text for s in splitter.flush()]
    assert pieces == [
        "The capital of France is Paris",
        "which is famous for the Eiffel Tower and the Louvre.",  # only the first piece is cut early
        "It is lovely.",
    ]
    short = "Paris is the capital and the largest city."  # under the limit: one sentence
    assert _split(short) == [short]
    chinese = SentenceSplitter(first_clause_max_words=3)
    whole = "巴黎是法国的首都和最大的城市。"  # Chinese has its own clause marks: no joining-word cut
    assert [s.text for s in chinese.push(whole + "好")] == [whole]


def test_spoken_pieces_join_without_spaces_around_chinese() -> None:
    from voice_agent.text.sentences import join_spoken

    assert join_spoken("好的，我记住了：", "你对芒果过敏。") == "好的，我记住了：你对芒果过敏。"
    assert join_spoken("因为你对芒果过敏，", "我建议试试草莓。") == "因为你对芒果过敏，我建议试试草莓。"
    assert join_spoken("Got it.", " ", "I'll remember that.") == "Got it. I'll remember that."
    assert join_spoken("我喜欢", "Paddington 2。") == "我喜欢Paddington 2。"
    assert join_spoken() == ""
