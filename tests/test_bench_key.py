"""The benchmarks' fixed PII key: the same code gives the same placeholders (and so the same pseudonyms
and vectors) on every run, another key number gives others, a kept store keeps its key, and
``VOICE_AGENT_PII_KEY`` still wins."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from voice_agent.bench.bench_key import bench_key_hex, key_in_use, with_bench_key
from voice_agent.config import load_config
from voice_agent.memory.keys import PII_KEY_ENV, install_key_from_config
from voice_agent.memory.scrub import Scrubber


def _name_placeholder(config_dir: Path, number: int, env: dict[str, str] | None = None) -> str:
    config = with_bench_key(load_config(), config_dir, number)
    key = install_key_from_config(config, env or {})
    return Scrubber(key).placeholder_for("NAME", "Caroline")


def test_the_bench_key_is_the_same_on_every_run_and_differs_by_number(tmp_path: Path) -> None:
    first = _name_placeholder(tmp_path / "a", 0)
    again = _name_placeholder(tmp_path / "b", 0)
    other = _name_placeholder(tmp_path / "c", 1)
    assert first == again and first != other
    key_file = tmp_path / "a" / "secrets" / "pii.key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert key_file.read_text().strip() == bench_key_hex(0) != bench_key_hex(1)


def test_a_user_key_file_in_the_config_is_not_used_or_touched(tmp_path: Path) -> None:
    user_key = tmp_path / "user.key"
    user_key.write_text("ab" * 32)
    user_key.chmod(0o600)
    config = load_config().model_copy(
        update={"privacy": load_config().privacy.model_copy(update={"key_file": str(user_key)})}
    )
    bench = with_bench_key(config, tmp_path / "bench")
    assert bench.data_dir == tmp_path / "bench"
    assert install_key_from_config(bench, {}) == bytes.fromhex(bench_key_hex(0))
    assert user_key.read_text() == "ab" * 32


def test_a_kept_store_keeps_the_key_it_was_written_with(tmp_path: Path) -> None:
    with_bench_key(load_config(), tmp_path, 0)
    kept = with_bench_key(load_config(), tmp_path, 3)  # the same dir again, asked for another key
    assert install_key_from_config(kept, {}) == bytes.fromhex(bench_key_hex(0))


def test_the_environment_key_wins_and_the_report_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env_key = "cd" * 32
    placeholder = _name_placeholder(tmp_path, 0, {PII_KEY_ENV: env_key})
    assert placeholder == Scrubber(bytes.fromhex(env_key)).placeholder_for("NAME", "Caroline")
    monkeypatch.delenv(PII_KEY_ENV, raising=False)
    assert key_in_use(2) == "bench key 2"
    monkeypatch.setenv(PII_KEY_ENV, env_key)
    assert PII_KEY_ENV in key_in_use()
