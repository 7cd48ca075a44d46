"""Config loading: file layering, env overrides, bad files (file, key and reason named), secrets."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from voice_agent.config import (
    Config,
    LlmEndpoint,
    load_config,
    masked_dump,
    read_secret_file,
    resolve_api_key,
)
from voice_agent.errors import ConfigError
from voice_agent.paths import config_dir

NO_ENV: dict[str, str] = {}


def write(tmp_path: Path, text: str, name: str = "local.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_default_file_is_loaded_and_matches_the_model() -> None:
    config = load_config(env=NO_ENV)
    assert (config_dir() / "default.toml").is_file()
    assert config.asr.model == "whisper-base"
    assert config.llm.backends[0].kind == "local"
    assert config.llm.local.port == 8765


def test_every_shipped_config_file_loads() -> None:
    for name in ("default.toml", "kiosk.toml", "bench.toml"):
        assert isinstance(load_config(config_dir() / name, env=NO_ENV), Config)


def test_file_layers_over_defaults_and_keeps_the_rest(tmp_path: Path) -> None:
    path = write(tmp_path, "[asr]\nbeam_size = 3\n\n[llm.local]\nport = 9100\n")
    config = load_config(path, env=NO_ENV)
    assert config.asr.beam_size == 3
    assert config.llm.local.port == 9100
    # untouched keys of the same sections still come from default.toml / the model
    assert config.asr.model == "whisper-base"
    assert config.llm.local.n_ctx == 4096


def test_kiosk_file_overrides_defaults() -> None:
    config = load_config(config_dir() / "kiosk.toml", env=NO_ENV)
    assert config.vad.end_silence_ms == 500
    assert config.privacy.retention_days == 1


def test_env_overrides_beat_files_including_nested_keys(tmp_path: Path) -> None:
    path = write(tmp_path, "[llm.local]\nport = 9100\n\n[asr]\nbeam_size = 3\n")
    env = {
        "VOICE_AGENT_LLM__LOCAL__PORT": "9200",
        "VOICE_AGENT_LLM__TEMPERATURE": "0.2",
        "VOICE_AGENT_ASR__STREAMING": "false",
        "VOICE_AGENT_TTS__BACKEND": "espeak",  # not a TOML literal: taken as a string
        "UNRELATED": "x",
    }
    config = load_config(path, env=env)
    assert config.llm.local.port == 9200
    assert config.llm.temperature == pytest.approx(0.2)
    assert config.asr.streaming is False
    assert config.tts.backend == "espeak"
    assert config.asr.beam_size == 3  # the file still applies where env says nothing


def test_data_and_model_dirs_from_env_and_flag(tmp_path: Path) -> None:
    env = {"VOICE_AGENT_DATA_DIR": str(tmp_path / "d"), "VOICE_AGENT_MODEL_DIR": str(tmp_path / "m")}
    config = load_config(env=env)
    assert config.data_dir == tmp_path / "d"
    assert config.model_dir == tmp_path / "m"
    flagged = load_config(env=env, data_dir=tmp_path / "flag")
    assert flagged.data_dir == tmp_path / "flag"
    assert flagged.store_path() == tmp_path / "flag" / "memory.sqlite3"


def test_bad_toml_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "[asr\nbeam_size = 1\n")
    with pytest.raises(ConfigError) as info:
        load_config(path, env=NO_ENV)
    assert info.value.file == str(path)
    assert "not valid TOML" in str(info.value)


def test_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path / "nope.toml", env=NO_ENV)
    assert info.value.file == str(tmp_path / "nope.toml")
    assert "not found" in str(info.value)


def test_unknown_key_names_file_and_key(tmp_path: Path) -> None:
    path = write(tmp_path, "[vad]\nend_silence_ms = 400\nsilence_typo = 3\n")
    with pytest.raises(ConfigError) as info:
        load_config(path, env=NO_ENV)
    assert info.value.key == "vad.silence_typo"
    assert info.value.file == str(path)
    assert "extra" in info.value.reason.lower() or "not permitted" in info.value.reason.lower()


def test_unknown_section_from_env_names_the_environment() -> None:
    with pytest.raises(ConfigError) as info:
        load_config(env={"VOICE_AGENT_NOSUCH__KEY": "1"})
    assert info.value.file == "environment"
    assert info.value.key is not None and info.value.key.startswith("nosuch")


def test_wrong_type_names_file_key_and_reason(tmp_path: Path) -> None:
    path = write(tmp_path, '[vad]\nend_silence_ms = "soon"\n')
    with pytest.raises(ConfigError) as info:
        load_config(path, env=NO_ENV)
    err = info.value
    assert (err.file, err.key) == (str(path), "vad.end_silence_ms")
    assert "integer" in err.reason
    assert str(path) in str(err) and "vad.end_silence_ms" in str(err)


def test_out_of_range_value_from_env_is_attributed_to_env(tmp_path: Path) -> None:
    path = write(tmp_path, "[llm.local]\nport = 9100\n")
    with pytest.raises(ConfigError) as info:
        load_config(path, env={"VOICE_AGENT_LLM__LOCAL__PORT": "70000"})
    assert info.value.file == "environment"
    assert info.value.key == "llm.local.port"


def test_duplicate_backend_names_are_refused(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '[[llm.backends]]\nname = "a"\nkind = "openai"\n\n[[llm.backends]]\nname = "a"\nkind = "openai"\n',
    )
    with pytest.raises(ConfigError) as info:
        load_config(path, env=NO_ENV)
    assert info.value.key == "llm.backends"
    assert "unique" in info.value.reason


def test_secret_values_in_a_file_are_refused(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '[[llm.backends]]\nname = "cloud"\nkind = "openai"\napi_key = "sk-live-123"\n',
    )
    with pytest.raises(ConfigError) as info:
        load_config(path, env=NO_ENV)
    assert info.value.file == str(path)
    assert info.value.key == "llm.backends.0.api_key"
    assert "sk-live-123" not in str(info.value)


def test_secret_file_with_mode_0600_is_read(tmp_path: Path) -> None:
    secret = tmp_path / "key"
    secret.write_text("sk-file-secret\n", encoding="utf-8")
    os.chmod(secret, 0o600)
    assert read_secret_file(secret, what="test key") == "sk-file-secret"
    endpoint = LlmEndpoint(name="cloud", api_key_file=str(secret))
    assert resolve_api_key(endpoint, env=NO_ENV) == "sk-file-secret"


def test_secret_file_readable_by_others_is_refused(tmp_path: Path) -> None:
    secret = tmp_path / "key"
    secret.write_text("sk-file-secret\n", encoding="utf-8")
    os.chmod(secret, 0o644)
    with pytest.raises(ConfigError) as info:
        read_secret_file(secret, what="test key")
    assert info.value.file == str(secret)
    assert "0600" in str(info.value)
    assert "sk-file-secret" not in str(info.value)


def test_api_key_env_must_be_set() -> None:
    endpoint = LlmEndpoint(name="cloud", api_key_env="MY_LLM_KEY")
    assert resolve_api_key(endpoint, env={"MY_LLM_KEY": "sk-env"}) == "sk-env"
    with pytest.raises(ConfigError) as info:
        resolve_api_key(endpoint, env=NO_ENV)
    assert "MY_LLM_KEY" in str(info.value)


def test_masked_dump_never_contains_secret_values(tmp_path: Path) -> None:
    secret = tmp_path / "key"
    secret.write_text("sk-from-file", encoding="utf-8")
    os.chmod(secret, 0o600)
    path = write(
        tmp_path,
        '[[llm.backends]]\nname = "env"\nkind = "openai"\napi_key_env = "MY_LLM_KEY"\n\n'
        f'[[llm.backends]]\nname = "file"\nkind = "openai"\napi_key_file = "{secret}"\n\n'
        '[[llm.backends]]\nname = "unset"\nkind = "openai"\napi_key_env = "NOT_SET_KEY"\n',
    )
    env = {"MY_LLM_KEY": "sk-from-env", "VOICE_AGENT_PII_KEY": "pii-secret"}
    config = load_config(path, env=env, data_dir=tmp_path / "data")
    dumped = masked_dump(config, env=env)
    text = json.dumps(dumped)
    for value in ("sk-from-env", "sk-from-file", "pii-secret"):
        assert value not in text
    keys = {b["name"]: b["api_key"] for b in dumped["llm"]["backends"]}
    assert keys == {"env": "****", "file": "****", "unset": "<not set>"}
    assert dumped["privacy"]["pii_key"] == "****"
