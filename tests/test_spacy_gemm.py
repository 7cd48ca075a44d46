"""spaCy pipelines loaded under ``numpy_gemm`` compute their products with numpy and parse the same."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from voice_agent.memory.spacy_gemm import numpy_gemm

SENTENCES = [
    "My kid Tom is allergic to peanuts, so no nut cake for his birthday.",
    "Caroline Smith moved to Boston last May and now works at the hospital.",
    "We cancelled the train and booked a flight to York instead.",
    "I'm vegetarian; I never eat meat or fish.",
]


def _parse(nlp: Any) -> list[list[tuple[str, str, int, str]]]:
    return [[(t.text, t.tag_, t.head.i, t.ent_type_) for t in nlp(s)] for s in SENTENCES]


@pytest.fixture(scope="module")
def english() -> tuple[Any, Any]:
    spacy = pytest.importorskip("spacy")
    from thinc.api import get_current_ops

    from voice_agent.memory.chunker import ENGLISH_MODEL

    plain = spacy.load(ENGLISH_MODEL, exclude=["lemmatizer"])
    before = get_current_ops()
    with numpy_gemm():
        fast = spacy.load(ENGLISH_MODEL, exclude=["lemmatizer"])
    assert get_current_ops() is before  # the ops in effect before are back
    return plain, fast


def test_loaded_pipelines_keep_numpy_ops_and_the_previous_ops_come_back(english: tuple[Any, Any]) -> None:
    from thinc.api import get_current_ops

    plain, fast = english
    assert type(fast.get_pipe("tok2vec").model.ops).__name__ == "NumpyGemmOps"
    assert type(plain.get_pipe("tok2vec").model.ops) is type(get_current_ops())


def test_the_parse_is_the_same(english: tuple[Any, Any]) -> None:
    plain, fast = english
    assert _parse(fast) == _parse(plain)


def test_gemm_handles_transposes_and_an_output_buffer() -> None:
    pytest.importorskip("thinc")
    from voice_agent.memory.spacy_gemm import _ops

    ops = _ops()
    rng = np.random.default_rng(0)
    x, y = rng.random((5, 7), dtype=np.float32), rng.random((3, 7), dtype=np.float32)
    expected = x @ y.T
    assert np.allclose(ops.gemm(x, y, trans2=True), expected, atol=1e-5)
    assert np.allclose(ops.gemm(x.T.copy(), y, trans1=True, trans2=True), expected, atol=1e-5)
    out = np.zeros((5, 3), dtype=np.float32)
    assert ops.gemm(x, y, trans2=True, out=out) is out
    assert np.allclose(out, expected, atol=1e-5)


def test_a_parse_on_a_fresh_thread_does_not_look_the_backend_up(
    english: tuple[Any, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker thread starts without thinc ops set; inside ``parse_ops`` a parse makes its models with
    the pipelines' ops instead of ``require_cpu`` (an entry-point scan per model), parses the same, and
    leaves the thread's ops as they were."""
    import threading

    import thinc.backends

    from voice_agent.memory.spacy_gemm import parse_ops

    plain, fast = english
    expected = _parse(plain)
    lookups: list[int] = []
    real = thinc.backends.require_cpu
    monkeypatch.setattr(thinc.backends, "require_cpu", lambda: (lookups.append(1), real())[1])
    seen: dict[str, Any] = {}

    def work() -> None:
        with parse_ops():
            seen["parsed"] = _parse(fast)
        seen["after"] = thinc.backends.context_ops.get()
        _parse(fast)  # without it: the lookup happens (what the context spares)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert seen["parsed"] == expected
    assert seen["after"] is None
    assert lookups  # the bare parse looked the backend up ...
    count = len(lookups)
    thread = threading.Thread(target=lambda: seen.update(again=_with_ops(fast)))
    thread.start()
    thread.join()
    assert len(lookups) == count and seen["again"] == expected  # ... the parse inside parse_ops did not


def _with_ops(nlp: Any) -> list[list[tuple[str, str, int, str]]]:
    from voice_agent.memory.spacy_gemm import parse_ops

    with parse_ops():
        return _parse(nlp)
