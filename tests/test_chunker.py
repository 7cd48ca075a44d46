"""The clause chunker with the real parsers (spaCy en_core_web_sm, UD-Chinese) on real sentences."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from voice_agent.errors import InputError
from voice_agent.memory.chunker import Chunk, ClauseChunker, blocks, mask_placeholders
from voice_agent.memory.language import PLACEHOLDER_RE, detect_language, estimate_tokens

pytestmark = pytest.mark.slow

LOCOMO = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "locomo-dev.json"
PARTIAL_PLACEHOLDER = re.compile(r"\[[A-Z_]+:[0-9a-f]*(?![0-9a-f]*\])")


@pytest.fixture(scope="module")
def chunker() -> ClauseChunker:
    model = ClauseChunker()
    model.start()
    return model


def texts(chunks: list[Chunk]) -> list[str]:
    return [c.text for c in chunks]


# ----- English clauses ---------------------------------------------------------------------------


def test_coordinated_verb_borrows_the_subject(chunker: ClauseChunker) -> None:
    assert texts(chunker.chunk("I went to the park and played chess.")) == [
        "I went to the park",
        "I played chess.",
    ]
    chunks = chunker.chunk(
        "My sister moved to Denver in 2019 and works as a nurse at the children's hospital."
    )
    assert texts(chunks) == [
        "My sister moved to Denver in 2019",
        "My sister works as a nurse at the children's hospital.",
    ]


def test_coordinated_clause_with_its_own_subject_is_split(chunker: ClauseChunker) -> None:
    chunks = chunker.chunk("I went to a LGBTQ support group yesterday and it was so powerful.")
    assert texts(chunks) == ["I went to a LGBTQ support group yesterday", "it was so powerful."]
    # the source span of each clause is where it came from
    source = "I went to a LGBTQ support group yesterday and it was so powerful."
    assert [source[c.start_char : c.end_char] for c in chunks] == [c.text for c in chunks]


def test_negation_stays_with_its_clause(chunker: ClauseChunker) -> None:
    assert texts(chunker.chunk("I don't eat meat, and I never drink alcohol.")) == [
        "I don't eat meat",
        "I never drink alcohol.",
    ]
    # a shared negation is not cut off its second verb: one fact, one chunk
    assert texts(chunker.chunk("I don't smoke or drink.")) == ["I don't smoke or drink."]
    # ... and a finite second verb does not inherit a negation it does not have
    assert texts(chunker.chunk("I didn't go to school and stayed home.")) == [
        "I didn't go to school",
        "I stayed home.",
    ]


def test_facts_are_not_cut_in_half(chunker: ClauseChunker) -> None:
    # objects, prepositional phrases, numbers, dates, "when" clauses stay with their verb
    chunks = texts(
        chunker.chunk("She gave it to me when I was young, and it stands for love, faith and strength.")
    )
    assert chunks == ["She gave it to me when I was young", "it stands for love, faith and strength."]
    chunks = texts(
        chunker.chunk("I told my mom that I am moving to Boston next month because I got a new job.")
    )
    assert chunks == ["I told my mom that I am moving to Boston next month because I got a new job."]
    chunks = texts(chunker.chunk("I have 3 kids, 2 dogs and a cat named Max."))
    assert chunks == ["I have 3 kids, 2 dogs and a cat named Max."]


def test_clause_set_off_by_a_dash_is_split(chunker: ClauseChunker) -> None:
    chunks = texts(
        chunker.chunk("I ran a charity race for mental health last Saturday – it was really rewarding.")
    )
    assert chunks == ["I ran a charity race for mental health last Saturday", "it was really rewarding."]


def test_small_talk_is_dropped_and_fragments_merged(chunker: ClauseChunker) -> None:
    # "Thanks, Melanie!" is no memory; the addressee's name would only mislead retrieval
    assert texts(chunker.chunk("Thanks, Melanie! That's really sweet.")) == ["That's really sweet."]
    assert texts(chunker.chunk("Wow, Mel, family love and support is the best!")) == [
        "family love and support is the best!"
    ]
    # an utterance of nothing but small talk is still one chunk
    assert texts(chunker.chunk("Thanks, Caroline! Wow!")) == ["Thanks, Caroline! Wow!"]
    # a short fragment with content is merged into its neighbour, not dropped
    assert texts(chunker.chunk("5 years already! Time flies when you are having fun.")) == [
        "5 years already! Time flies when you are having fun."
    ]
    keep_all = ClauseChunker(drop_small_talk=False)
    assert texts(keep_all.chunk("Thanks, Melanie! That's really sweet.")) == [
        "Thanks, Melanie! That's really sweet."
    ]


def test_person_spans_point_at_names_in_the_chunk_text(chunker: ClauseChunker) -> None:
    (chunk,) = chunker.chunk("Yesterday Caroline told Melanie that John Smith was moving to Paris.")
    names = [chunk.text[a:b] for a, b in chunk.person_spans]
    assert names == ["Caroline", "Melanie", "John Smith"]
    # a carried subject is text of the chunk too, and its name is reported there
    chunks = chunker.chunk("John Smith moved to Denver last year and opened a bakery there.")
    assert [[c.text[a:b] for a, b in c.person_spans] for c in chunks] == [["John Smith"], ["John Smith"]]
    assert chunks[1].text == "John Smith opened a bakery there."


# ----- placeholders ------------------------------------------------------------------------------

PLACEHOLDERS = ["[PHONE:7f3a9c2e10]", "[EMAIL:0f1e2d3c4b]", "[ADDRESS:a1b2c3d4e5]", "[ID:99aa88bb77]"]


def assert_placeholders_whole(source: str, chunks: list[Chunk]) -> None:
    expected = PLACEHOLDER_RE.findall(source)
    found = [p for c in chunks for p in PLACEHOLDER_RE.findall(c.text)]
    assert sorted(set(found)) == sorted(set(expected))
    for chunk in chunks:
        assert not PARTIAL_PLACEHOLDER.search(PLACEHOLDER_RE.sub("", chunk.text)), chunk.text
        for a, b in chunk.person_spans:
            assert "[" not in chunk.text[a:b]


def test_placeholders_stay_whole(chunker: ClauseChunker) -> None:
    source = "My number is [PHONE:7f3a9c2e10], and you can email me at [EMAIL:0f1e2d3c4b] tomorrow."
    chunks = chunker.chunk(source)
    assert_placeholders_whole(source, chunks)
    assert any("[PHONE:7f3a9c2e10]" in c.text and "number" in c.text for c in chunks)
    zh = "我的电话是[PHONE:7f3a9c2e10]，请记住。我住在[ADDRESS:a1b2c3d4e5]附近。"
    zh_chunks = chunker.chunk(zh)
    assert_placeholders_whole(zh, zh_chunks)
    assert "我的电话是[PHONE:7f3a9c2e10]，请记住。" in texts(zh_chunks)


def test_placeholders_stay_whole_when_long_text_is_windowed(chunker: ClauseChunker) -> None:
    template = "call me at {} or write to {} and we can meet at {} sometime next week"
    source = " ".join(template.format(*PLACEHOLDERS[i % 4 :], *PLACEHOLDERS[: i % 4]) for i in range(12))
    for language in (None, "fr", "zh"):  # parsed English, the fallback, and a mislabelled utterance
        chunks = chunker.chunk(source, language)
        assert len(chunks) > 3
        assert all(c.token_count <= chunker.max_tokens for c in chunks)
        assert_placeholders_whole(source, chunks)


def test_mask_keeps_offsets() -> None:
    source = "a [PHONE:7f3a9c2e10] b"
    masked, spans = mask_placeholders(source)
    assert len(masked) == len(source) and spans == [(2, 20)]
    assert masked[2:20].isalpha()


# ----- length limits -----------------------------------------------------------------------------


def test_run_on_speech_is_split_into_clauses(chunker: ClauseChunker) -> None:
    run_on = " ".join(
        ["i went to the store and bought some milk then i drove home and my wife said it was sour"] * 8
    )
    chunks = chunker.chunk(run_on)
    assert len(chunks) >= 8 * 3
    assert all(0 < c.token_count <= chunker.max_tokens for c in chunks)
    assert all(c.token_count == estimate_tokens(c.text) for c in chunks)
    # nothing lost but the conjunctions between clauses
    assert set(run_on.split()) - {w for c in chunks for w in c.text.split()} <= {"and"}


def test_overlong_clause_is_windowed_under_the_limit(chunker: ClauseChunker) -> None:
    items = ["apples", "pears", "plums", "cherries", "grapes", "lemons", "limes", "melons", "figs", "kiwis"]
    source = "For the party we bought " + ", ".join(items * 12) + " and a cake."
    chunks = chunker.chunk(source)
    assert len(chunks) > 3
    assert all(c.token_count <= chunker.window_tokens for c in chunks)
    # in order, nothing lost (a window cut after a comma drops that comma)
    assert [w.strip(",") for c in chunks for w in c.text.split()] == [w.strip(",") for w in source.split()]
    no_spaces = "我今天早上起床以后先去跑步然后回家洗澡吃早饭" * 20
    zh_chunks = chunker.chunk(no_spaces)
    assert len(zh_chunks) > 2
    assert all(c.token_count <= chunker.max_tokens for c in zh_chunks)
    assert "".join(c.text for c in zh_chunks) == no_spaces


def test_custom_token_limit_and_counter(chunker: ClauseChunker) -> None:
    words = ClauseChunker(max_tokens=16, count_tokens=lambda text: len(text.split()))
    text = "My grandmother who lived in a small village near the mountains taught me how to bake bread."
    chunks = words.chunk(text * 3)
    assert all(len(c.text.split()) <= 16 for c in chunks)


def test_long_input_is_parsed_in_blocks(chunker: ClauseChunker) -> None:
    sentence = "My brother lives in Berlin and works at [ID:99aa88bb77] as an engineer. "
    source = sentence * 800  # about 58,000 characters
    assert len(blocks(source, 5000)) > 10
    chunks = chunker.chunk(source)
    assert len(chunks) >= 1600
    assert all(c.end_char <= len(source) for c in chunks)
    assert chunks[-1].end_char >= len(source.rstrip()) - 1
    assert_placeholders_whole(source, chunks)


# ----- Chinese -----------------------------------------------------------------------------------


def test_chinese_elaboration_stays_with_its_fact(chunker: ClauseChunker) -> None:
    chunks = chunker.chunk("我家小孩对坚果过敏，尤其是花生。")
    assert texts(chunks) == ["我家小孩对坚果过敏，尤其是花生。"]
    assert chunks[0].language == "zh"


def test_chinese_clauses_and_carried_subject(chunker: ClauseChunker) -> None:
    chunks = chunker.chunk("我昨天去了公园，然后和朋友下了棋。")
    assert texts(chunks) == ["我昨天去了公园", "然后我和朋友下了棋。"]
    assert texts(chunker.chunk("我不喜欢吃辣的，但是我老公特别喜欢。")) == [
        "我不喜欢吃辣的",
        "但是我老公特别喜欢。",
    ]


def test_chinese_subject_is_not_guessed_wrongly(chunker: ClauseChunker) -> None:
    # "我女儿" is the subject: carrying "我" alone would state that the speaker is in third grade
    chunks = texts(chunker.chunk("我女儿今年八岁了，在实验小学读三年级，她很喜欢画画和弹钢琴。"))
    assert not any("我在" in c for c in chunks)
    assert "她很喜欢画画和弹钢琴。" in chunks


def test_chinese_small_talk_dropped(chunker: ClauseChunker) -> None:
    chunks = texts(chunker.chunk("好的，谢谢！我下周三要去上海出差，大概待三天，周六回来。"))
    assert chunks == ["我下周三要去上海出差，大概待三天，周六回来。"]
    assert texts(chunker.chunk("嗯嗯。")) == ["嗯嗯。"]


def test_chinese_spaces_act_as_clause_breaks(chunker: ClauseChunker) -> None:
    chunks = texts(chunker.chunk("我上个月换了工作 现在在一家做人工智能的公司上班 每天通勤要一个多小时"))
    assert len(chunks) == 3
    assert chunks[1].startswith("我现在")


# ----- API, languages, bad input ----------------------------------------------------------------


def test_language_detection_and_override(chunker: ClauseChunker) -> None:
    assert detect_language("我喜欢用 Python 写代码") == "zh"
    assert detect_language("My number is [PHONE:7f3a9c2e10]") == "en"
    assert detect_language("Der Hund ist nicht hier") == "de"
    assert detect_language("12345") == "und"
    assert chunker.chunk("我喜欢用 Python 写代码。")[0].language == "zh"
    assert chunker.chunk("我喜欢用 Python 写代码。", language="zh-CN")[0].language == "zh"
    french = chunker.chunk(
        "Bonjour, je m'appelle Marie. J'habite à Paris depuis dix ans et je travaille ici."
    )
    assert [c.language for c in french] == ["fr", "fr"]


def test_chunk_many_matches_chunk(chunker: ClauseChunker) -> None:
    utterances = [
        "I went to the park and played chess.",
        "",
        "我家小孩对坚果过敏，尤其是花生。",
        "Thanks, Melanie! That's really sweet.",
        "Je suis allé au marché ce matin.",
    ]
    assert chunker.chunk_many(utterances) == [chunker.chunk(u) for u in utterances]
    with pytest.raises(InputError, match="2 texts but 1 languages"):
        chunker.chunk_many(["a", "b"], ["en"])


async def test_async_chunking(chunker: ClauseChunker) -> None:
    chunks = await chunker.achunk("I went to the park and played chess.")
    assert texts(chunks) == ["I went to the park", "I played chess."]
    many = await chunker.achunk_many(["我家小孩对坚果过敏，尤其是花生。", "Hi."])
    assert [len(c) for c in many] == [1, 1]


def test_bad_input(chunker: ClauseChunker) -> None:
    assert chunker.chunk("") == []
    assert chunker.chunk("   \n\t") == []
    with pytest.raises(InputError, match="not str"):
        chunker.chunk(b"bytes")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="single str"):
        chunker.chunk_many("a string")
    garbage = "\x00\x01 garbage \ud800 text \ufffe"
    chunks = chunker.chunk(garbage)
    assert chunks and "garbage" in chunks[0].text


# ----- real conversation turns -------------------------------------------------------------------


@pytest.mark.skipif(not LOCOMO.is_file(), reason="LoCoMo dev file not present")
def test_locomo_turns(chunker: ClauseChunker) -> None:
    data = json.loads(LOCOMO.read_text())
    conversation = data[0]["conversation"]
    turns = [
        t["text"]
        for k, v in conversation.items()
        if k.startswith("session_") and isinstance(v, list)
        for t in v
    ]
    results = chunker.chunk_many(turns)
    per_turn = [len(chunks) for chunks in results]
    assert all(per_turn)  # every turn is kept
    assert 2.0 <= sum(per_turn) / len(turns) <= 5.0  # finer than sentences would be ~3
    for turn, chunks in zip(turns, results, strict=True):
        for chunk in chunks:
            assert 0 < chunk.token_count <= 128
            assert 0 <= chunk.start_char < chunk.end_char <= len(turn)
            # no tiny fragments, except an utterance that is nothing more
            if len(chunks) > 1:
                assert len(chunk.text.split()) >= 3, (turn, chunk.text)


def test_an_unpunctuated_chinese_run_on_fits_the_smallest_memory_budget() -> None:
    """A transcript with no punctuation is one clause to the parser; whole, it would never fit the
    recall budget's floor (64 tokens) and so never be recalled."""
    from voice_agent.config import MemoryConfig

    text = (
        "呃那个我跟你说一下啊就是我最近嗯特别迷露营就是基本上每个周末都会开车去山里然后搭个帐篷煮个咖啡"
        "晚上看看星星什么的然后装备也是越买越多天幕啊炉子啊折叠椅啊反正就是停不下来那种"
    )
    chunks = ClauseChunker().chunk(text, "zh")
    floor = MemoryConfig().budget_floor_tokens
    assert len(chunks) >= 2
    assert all(c.token_count + 4 <= floor for c in chunks)  # (with the label and the separator)
    assert "露营" in chunks[0].text


def test_a_day_and_its_month_stay_in_one_clause(chunker: ClauseChunker) -> None:
    told = (
        "Right eye first, 19th November, she has to be at the eye unit for half seven, and someone has to "
        "take her home."
    )
    texts = [c.text for c in chunker.chunk(told, "en")]
    assert any("19th November" in t for t in texts), texts
    assert not any(t.startswith((",", "November")) for t in texts), texts
