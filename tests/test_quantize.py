"""Deriving a faster-reading GGUF at install time: a re-quantized model is checked like any other
(sha256 and size before it replaces anything), and the same llama.cpp always writes the same bytes."""

from __future__ import annotations

from pathlib import Path

import pytest
from _llm_support import smollm2_gguf

from voice_agent.errors import ModelError
from voice_agent.provision.files import sha256_file
from voice_agent.provision.install import write_quantized
from voice_agent.provision.manifest import AssembleStep, load_manifest

pytestmark = pytest.mark.slow


def test_requantized_file_is_deterministic_and_verified(tmp_path: Path) -> None:
    source = smollm2_gguf()
    first = tmp_path / "a" / "model-q4_0.gguf"
    first.parent.mkdir()
    # learn the bytes once (llama.cpp writes a file; the sha is checked after): a wrong expectation
    # is refused and leaves nothing behind
    with pytest.raises(ModelError, match="does not match the manifest"):
        write_quantized([source], first, "Q4_0", "0" * 64, 1)
    assert list(first.parent.iterdir()) == []
    # split in two "parts", as the registry packages carry big models
    data = source.read_bytes()
    parts = [tmp_path / "part1.bin", tmp_path / "part2.bin"]
    parts[0].write_bytes(data[: len(data) // 2])
    parts[1].write_bytes(data[len(data) // 2 :])
    probe = tmp_path / "probe.gguf"
    from voice_agent.provision.quantize import quantize_gguf

    quantize_gguf(source, probe, "Q4_0", threads=1)
    sha, size = sha256_file(probe), probe.stat().st_size
    assert size < source.stat().st_size  # Q4_1 -> Q4_0 is smaller
    write_quantized(parts, first, "Q4_0", sha, size)  # two threads, from the joined parts: same bytes
    assert sha256_file(first) == sha
    assert sorted(p.name for p in first.parent.iterdir()) == ["model-q4_0.gguf"]  # no temp files left


def test_manifest_quantize_step() -> None:
    manifest = load_manifest()
    fast = manifest.get("qwen2.5-coder-0.5b-q4-0")
    (step,) = fast.assemble
    assert step.quantize == "Q4_0"
    assert step.sources == manifest.get("qwen2.5-coder-0.5b").assemble[0].sources  # derived, same parts
    with pytest.raises(ValueError, match=r"llama\.cpp type"):
        AssembleStep(dest="x.gguf", sources=("m/x.bin",), quantize="q4 0")
