"""Late chunking (``memory.late_chunking``): an utterance's clause vectors from one e5 pass over the whole
utterance. Real e5 (the derived ONNX graph), real spaCy clause chunker, real SQLite."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from voice_agent.config import load_config
from voice_agent.memory.embed_plan import SPEAKER_WEIGHT
from voice_agent.memory.late_chunk import layout
from voice_agent.memory.service import Memory
from voice_agent.memory.surface import embedding_text
from voice_agent.memory.writepath import WriteRequest

pytestmark = pytest.mark.slow

KEY_ENV = {"VOICE_AGENT_PII_KEY": "5e" * 32}
SPAN_CASES = {
    "english": ["My sister moved to Lisbon last spring,", "and she loves it there."],
    "chinese": ["我明天去北京看朋友，", "然后我们一起吃饭。"],
    "placeholders": ["Call [PHONE:3f0c9a12b4de] after six,", "[NAME:0a1b2c3d4e5f] said so."],
    "pseudonyms": [
        embedding_text("Call [PHONE:3f0c9a12b4de] now,"),
        embedding_text("[NAME:0a1b2c3d4e5f] said."),
    ],
    "speaker label": ["Grace: I went hiking in the Alps,", "and I broke my ankle on the way down."],
    "mixed": ["Wei: we met at Café Zoë in 北京", "— it was 3 p.m. — 很好!", "   spaced   out  "],
}
TWO_CLAUSES = "I went hiking in the Alps last summer, and I broke my ankle on the way down."


@pytest.fixture
def e5(e5_late: Any) -> Any:
    return e5_late


def test_token_states_only_where_late_chunking_is_on(e5_engines: dict[str, Any], e5: Any) -> None:
    plain = e5_engines["onnx"]
    assert plain.embed_late(["Hello there.", "General Kenobi."]) is None  # loaded as before: no states
    texts = ["query-like words", "我明天去北京。", "Grace: I broke my ankle."]
    assert np.array_equal(plain.embed_passages(texts), e5.embed_passages(texts))  # the same vectors
    assert np.array_equal(plain.embed_queries(texts), e5.embed_queries(texts))


def _cosine(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


@pytest.mark.parametrize("case", sorted(SPAN_CASES))
def test_spans_are_each_piece_s_own_tokens(e5: Any, case: str) -> None:
    pieces = SPAN_CASES[case]
    tokenizer = e5._onnx.tokenizer
    where = layout(
        tokenizer.content_ids, "passage: ", pieces, bos=tokenizer.bos, eos=tokenizer.eos, max_tokens=512
    )
    assert where is not None
    text = "passage: " + " ".join(piece.strip() for piece in pieces)
    assert where.ids == tokenizer.model_ids(text, 512)  # what embedding the text alone runs
    assert where.ids[slice(*where.prefix)] == tokenizer.content_ids("passage:")
    for piece, (begin, end) in zip(pieces, where.pieces, strict=True):
        assert where.ids[begin:end] == tokenizer.content_ids(piece.strip())
    assert where.pieces[-1][1] == len(where.ids) - 1  # </s> follows the last piece


def test_late_vectors_are_close_to_the_pieces_alone_and_the_whole_is_exact(e5: Any) -> None:
    pieces = ["I went hiking in the Alps last summer,", "and I broke my ankle on the way down."]
    late = e5.embed_late(pieces)
    assert late is not None and late.pieces.shape == (2, e5.dim)
    assert np.array_equal(late.whole, e5.embed_passages([" ".join(pieces)])[0])
    alone = e5.embed_passages(pieces)
    for row, own in zip(late.pieces, alone, strict=True):
        assert abs(float(np.linalg.norm(row)) - 1.0) < 1e-5
        assert 0.75 < _cosine(row, own) < 0.9999  # near the piece alone, not equal: it saw its context
    assert _cosine(late.pieces[0], late.pieces[1]) < 0.999
    # the second clause knows where it happened: closer to hiking than the clause alone is
    hiking = e5.embed_queries(["hiking accident in the mountains"])[0]
    assert _cosine(late.pieces[1], hiking) > _cosine(alone[1], hiking)


def test_no_late_chunking_where_it_cannot_be_exact(e5: Any) -> None:
    assert e5.embed_late(["word " * 600, "and a few more words."]) is None  # beyond 512 tokens
    assert e5.embed_late(["It is fine\u200b", "said Bob."]) is None  # a zero-width space moves the spans
    # alone a control character is one bare word-start token; between two pieces it is nothing
    assert e5.embed_late(["Hello there.", "\x07", "General Kenobi."]) is None
    assert e5.embed_late([]) is None
    assert e5.embed_late(["Hello there.", "General Kenobi."]) is not None


Opener = Callable[..., Any]


@pytest.fixture
async def open_memory(tmp_path: Path, parts: tuple[Any, Any], e5: Any) -> AsyncIterator[Opener]:
    opened: list[Memory] = []

    async def open_one(name: str, *, late: bool) -> Memory:
        env = {"VOICE_AGENT_MEMORY__LATE_CHUNKING": "true" if late else "false"}
        config = load_config(data_dir=tmp_path / name, env=env)
        memory = await Memory.open(config, embedder=e5, chunker=parts[1], env=KEY_ENV)
        opened.append(memory)
        return memory

    yield open_one
    for memory in opened:
        await memory.close()


def _embedded(memory: Memory, text: str, role: str = "user", speaker: str | None = None) -> Any:
    """(clause rows, utterance row, clause texts) the write path gives an utterance, before context mixing."""
    path = memory.writer
    request = WriteRequest("c1", role, text, source="s1", speaker=speaker)  # type: ignore[arg-type]
    named = path.name(path.parse_many([request])[0])
    clauses, utterance = path.embed_many([named])[0]
    return clauses, utterance, [piece for piece, _ in named.pieces], named.speaker


def _passes(monkeypatch: pytest.MonkeyPatch, e5: Any) -> list[int]:
    """Counts the encoder's passes (one entry per pass: its token count)."""
    engine, seen = e5._onnx, []
    run = engine._run

    def counted(rows: list[list[int]], outputs: list[str]) -> Any:
        seen.extend(len(row) for row in rows)
        return run(rows, outputs)

    monkeypatch.setattr(engine, "_run", counted)
    return seen


async def test_switched_off_the_vectors_are_today_s(open_memory: Opener, e5: Any) -> None:
    memory = await open_memory("off", late=False)
    assert memory.writer.late_chunking is False
    clauses, utterance, pieces, speaker = _embedded(memory, TWO_CLAUSES, speaker="Ana")
    assert len(pieces) >= 2, pieces
    expected = e5.embed_passages([embedding_text(piece, speaker) for piece in pieces])
    assert np.array_equal(clauses, expected)
    assert np.array_equal(utterance, e5.embed_passages([embedding_text(" ".join(pieces))])[0])


async def test_one_pass_for_an_utterance_and_its_fingerprint_unchanged(
    open_memory: Opener, e5: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = await open_memory("late", late=True)
    assert memory.writer.late_chunking is True
    passes = _passes(monkeypatch, e5)
    clauses, utterance, pieces, _ = _embedded(memory, TWO_CLAUSES)
    assert len(pieces) >= 2 and len(passes) == 1  # today: one per clause and one for the utterance
    alone = e5.embed_passages([embedding_text(piece) for piece in pieces])
    assert all(0.75 < _cosine(a, b) < 0.9999 for a, b in zip(clauses, alone, strict=True))
    assert np.array_equal(utterance, e5.embed_passages([embedding_text(" ".join(pieces))])[0])
    passes.clear()
    again, _, _, _ = _embedded(memory, TWO_CLAUSES)  # said again: not embedded again
    assert passes == [] and np.array_equal(again, clauses)


async def test_a_speaker_s_clauses_lean_towards_the_label_and_the_pass_stays_one(
    open_memory: Opener, e5: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = await open_memory("speaker", late=True)
    _embedded(memory, "I like tea, and I drink it every morning.", speaker="Ana")  # Ana's label, once
    passes = _passes(monkeypatch, e5)
    clauses, utterance, pieces, speaker = _embedded(memory, TWO_CLAUSES, speaker="Ana")
    assert len(pieces) >= 2 and len(passes) == 1  # today: one per clause and the utterance alone
    late = e5.embed_late([embedding_text(piece) for piece in pieces])
    voice = e5.embed_passages([f"{embedding_text(speaker)}:"])[0]
    leaning = late.pieces + SPEAKER_WEIGHT * voice
    np.testing.assert_allclose(clauses, leaning / np.linalg.norm(leaning, axis=1, keepdims=True), atol=1e-6)
    assert np.array_equal(utterance, late.whole)  # the fingerprint: the utterance as said, no label
    alone = e5.embed_passages([embedding_text(piece, speaker) for piece in pieces])
    assert _cosine(clauses[0], alone[0]) > _cosine(clauses[0], alone[1])
    passes.clear()
    reply = "Lisbon is lovely in spring, and you could take the tram up to the castle."
    clauses, utterance, pieces, other = _embedded(memory, reply, role="assistant", speaker="Bob")
    assert embedding_text(other) != embedding_text(speaker)  # another pseudonym (97 of them: may collide)
    assert len(pieces) >= 2 and len(passes) == 2  # the reply, and Bob's label the first time
    assert np.array_equal(utterance, e5.embed_late([embedding_text(piece) for piece in pieces]).whole)


async def test_a_long_utterance_falls_back_to_one_pass_per_clause(open_memory: Opener) -> None:
    sentence = "We walked along the old harbour wall and counted the fishing boats coming home. "
    long_text = sentence * 40  # well beyond e5's 512 tokens
    off, late = await open_memory("long-off", late=False), await open_memory("long-on", late=True)
    expected = _embedded(off, long_text)
    got = _embedded(late, long_text)
    assert len(got[2]) > 1 and got[2] == expected[2]
    np.testing.assert_array_equal(got[0], expected[0])
    np.testing.assert_array_equal(got[1], expected[1])


def test_a_graph_of_another_shape_gives_no_token_states(tmp_path: Path) -> None:
    """Late chunking needs the graph to end as ``build_graph`` writes it; any other graph loads as
    before, with ``pooled`` only (each clause then embedded alone)."""
    from onnx import TensorProto, helper, save

    from voice_agent.memory.e5_onnx import _graph_with_states

    value = helper.make_tensor_value_info
    graph = helper.make_graph(
        [helper.make_node("ReduceMean", ["embeddings"], ["pooled"], axes=[1], keepdims=0)],
        "other",
        [value("embeddings", TensorProto.FLOAT, ["batch", "tokens", 4])],
        [value("pooled", TensorProto.FLOAT, ["batch", 4])],
    )
    path = tmp_path / "other.onnx"
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    assert _graph_with_states(path) is None
