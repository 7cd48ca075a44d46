"""The command-line surface: help for every command, plain messages for unbuilt ones, masked config,
models listing, and doctor's exit code agreeing with its report."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from voice_agent.cli import COMMANDS, build_parser, main
from voice_agent.cli.common import not_ready, run_handler

COMMAND_NAMES = [
    "talk",
    "chat",
    "transcribe",
    "speak",
    "memory",
    "bench",
    "serve",
    "kiosk",
    "models",
    "config",
    "doctor",
]


def run_cli(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    """The installed console script in a child process (a real user's view, env included)."""
    exe = shutil.which("voice-agent", path=str(Path(sys.executable).parent)) or "voice-agent"
    full_env = {**os.environ, **env}
    return subprocess.run(
        [exe, *args], capture_output=True, text=True, env=full_env, timeout=120, check=False
    )


def test_every_command_is_registered() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert set(COMMAND_NAMES) <= set(sub.choices)
    assert len(COMMANDS) == len(sub.choices)


@pytest.mark.parametrize("command", COMMAND_NAMES)
def test_help_of_every_command_exits_0(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main([command, "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: voice-agent " + command)


def test_console_script_top_level_help() -> None:
    proc = run_cli(["--help"])
    assert proc.returncode == 0
    for name in COMMAND_NAMES:
        assert name in proc.stdout


def test_models_subcommands_have_help(capsys: pytest.CaptureFixture[str]) -> None:
    for action in ("list", "install", "verify"):
        with pytest.raises(SystemExit) as info:
            main(["models", action, "--help"])
        assert info.value.code == 0
        assert f"voice-agent models {action}" in capsys.readouterr().out


def test_not_ready_handler_prints_a_plain_message(capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(handler=not_ready("`demo`", 42))
    assert run_handler(args) == 3
    err = capsys.readouterr().err
    assert err.strip() == "voice-agent: `demo` is not built yet (issue #42); see README for what works today"


def test_unbuilt_commands_say_so_plainly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser()
    for name in COMMAND_NAMES:
        try:
            args = parser.parse_args([name, "--data-dir", str(tmp_path)])
        except SystemExit:
            continue  # a built command that needs arguments
        if "not_ready" not in getattr(args.handler, "__qualname__", ""):
            continue  # built: its own tests cover it
        assert main([name, "--data-dir", str(tmp_path)]) == 3
        err = capsys.readouterr().err
        assert "is not built yet" in err and "Traceback" not in err


def test_config_show_json_masks_secrets(tmp_path: Path) -> None:
    config = tmp_path / "cloud.toml"
    config.write_text(
        '[[llm.backends]]\nname = "cloud"\nkind = "openai"\nbase_url = "http://127.0.0.1:9/v1"\n'
        'api_key_env = "TEST_CLOUD_KEY"\n',
        encoding="utf-8",
    )
    proc = run_cli(
        ["config", "show", "--json", "--config", str(config), "--data-dir", str(tmp_path / "d")],
        TEST_CLOUD_KEY="sk-very-secret-value",
        VOICE_AGENT_PII_KEY="pii-very-secret",
    )
    assert proc.returncode == 0, proc.stderr
    assert "sk-very-secret-value" not in proc.stdout and "pii-very-secret" not in proc.stdout
    data = json.loads(proc.stdout)
    (backend,) = data["llm"]["backends"]
    assert backend["api_key"] == "****" and backend["api_key_env"] == "TEST_CLOUD_KEY"
    assert data["data_dir"] == str(tmp_path / "d")


def test_config_show_reports_a_bad_file_without_traceback(tmp_path: Path) -> None:
    config = tmp_path / "bad.toml"
    config.write_text("[vad]\nend_silence_ms = 'soon'\n", encoding="utf-8")
    proc = run_cli(["config", "show", "--config", str(config)])
    assert proc.returncode == 1
    assert str(config) in proc.stderr and "vad.end_silence_ms" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_models_json_lists_every_model(model_dir: Path) -> None:
    proc = run_cli(["models", "--json"], VOICE_AGENT_MODEL_DIR=str(model_dir))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    data = json.loads(proc.stdout)
    assert data["model_dir"] == str(model_dir)
    states = {m["id"]: m["state"] for m in data["models"]}
    assert states["whisper-base"] == "ok" and states["qwen2.5-coder-0.5b"] == "ok"


def test_models_in_an_empty_cache_exit_1_with_the_fix(tmp_path: Path) -> None:
    proc = run_cli(["models", "list", "minilm"], VOICE_AGENT_MODEL_DIR=str(tmp_path))
    assert proc.returncode == 1
    assert "missing" in proc.stdout and "voice-agent models install minilm" in proc.stdout


def test_models_unknown_id_is_a_clear_error(tmp_path: Path) -> None:
    proc = run_cli(["models", "verify", "no-such-model"], VOICE_AGENT_MODEL_DIR=str(tmp_path))
    assert proc.returncode == 1
    assert "unknown model id 'no-such-model'" in proc.stderr and "Traceback" not in proc.stderr


def test_doctor_exit_code_agrees_with_its_report(model_dir: Path, tmp_path: Path) -> None:
    proc = run_cli(["doctor", "--json", "--data-dir", str(tmp_path)], VOICE_AGENT_MODEL_DIR=str(model_dir))
    report = json.loads(proc.stdout)
    failing = [c for c in report["checks"] if c["status"] == "fail"]
    assert report["ok"] == (not failing)
    assert proc.returncode == (0 if report["ok"] else 1)
    names = {c["name"] for c in report["checks"]}
    assert {"python", "packages", "audio", "store", "model whisper-base", "model espeak-ng"} <= names
    assert any(n.startswith("llm ") for n in names)


def test_doctor_text_output_names_a_corrupt_file(model_dir: Path, tmp_path: Path) -> None:
    models = tmp_path / "models"
    shutil.copytree(model_dir / "whisper-base", models / "whisper-base", copy_function=shutil.copyfile)
    damaged = models / "whisper-base" / "vocabulary.txt"
    damaged.write_bytes(damaged.read_bytes()[:-10] + b"XXXXXXXXXX")
    proc = run_cli(["doctor", "--data-dir", str(tmp_path / "d")], VOICE_AGENT_MODEL_DIR=str(models))
    assert proc.returncode == 1
    line = next(ln for ln in proc.stdout.splitlines() if "model whisper-base" in ln)
    assert line.startswith("FAIL") and str(damaged) in line
    assert "cannot run" in proc.stdout.splitlines()[-1]


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.slow
def test_doctor_llm_starts_the_local_server_and_measures_first_token(model_dir: Path, tmp_path: Path) -> None:
    proc = run_cli(
        ["doctor", "--llm", "--json", "--data-dir", str(tmp_path)],
        VOICE_AGENT_MODEL_DIR=str(model_dir),
        VOICE_AGENT_LLM__LOCAL__MODEL="smollm2-135m",
        VOICE_AGENT_LLM__LOCAL__PORT=str(_free_port()),
    )
    report = json.loads(proc.stdout)
    llm = next(c for c in report["checks"] if c["name"] == "llm local")
    assert llm["status"] == "ok", llm
    assert llm["first_token_ms"] > 0
    assert "SmolLM2" in llm["model"]
    assert (tmp_path / "logs").is_dir()  # the server wrote its log under the data dir


def test_a_common_option_before_a_nested_action_is_kept(tmp_path: Path) -> None:
    parser = build_parser()
    before = parser.parse_args(["memory", "--data-dir", str(tmp_path), "--json", "add", "--conversation", "c",
                                "--text", "I like tea."])  # fmt: skip
    assert before.data_dir == str(tmp_path) and before.json is True  # not the action's own default
    after = parser.parse_args(
        ["memory", "add", "--data-dir", str(tmp_path), "--conversation", "c", "--text", "t"]
    )
    assert after.data_dir == str(tmp_path) and after.json is False
    kiosk = parser.parse_args(["kiosk", "--data-dir", str(tmp_path), "pin", "badge-1"])
    assert kiosk.data_dir == str(tmp_path)
