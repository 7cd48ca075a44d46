"""Helpers for the kiosk service tests: a config with the small models (whisper-tiny-en, SmolLM2,
MiniLM), the real `voice-agent serve` as a subprocess, and speech made with the real piper voice."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import numpy as np
from _llm_support import smollm2_backend, smollm2_sections
from _speech_support import silence, speak

from voice_agent.config import load_config
from voice_agent.frames import PcmFloat32
from voice_agent.llm.local_server import port_is_free

TOKEN_ENV = "VOICE_AGENT_TEST_KIOSK_TOKEN"
REPO = Path(__file__).resolve().parents[1]


def write_config(
    directory: Path,
    *,
    port: int,
    llm_port: int | None = None,
    server_extra: str = "",
    llm_section: str | None = None,
    llm_extra: str = "",
    extra: str = "",
) -> Path:
    """A kiosk config with the small models; ``llm_section`` replaces the local SmolLM2 backend."""
    backends = llm_section or smollm2_backend(timeout_s=60)
    sections = smollm2_sections(backends=backends, llm_port=llm_port, max_tokens=16, llm_extra=llm_extra)
    path = directory / "kiosk-test.toml"
    path.write_text(
        f"""
[asr]
model = "whisper-tiny-en"
language = "en"

{sections}
[memory]
embedder = "minilm"

[vad]
end_silence_ms = 500

[server]
host = "127.0.0.1"
port = {port}
{server_extra}

{extra}
""",
        encoding="utf-8",
    )
    return path


class ServerProcess:
    """`python -m voice_agent serve` with its log in a file."""

    def __init__(
        self,
        config: Path,
        data_dir: Path,
        *,
        env: dict[str, str] | None = None,
        extra_args: tuple[str, ...] = (),
    ) -> None:
        self.config = config
        self.extra_args = extra_args
        self.data_dir = data_dir
        self.port = load_config(config, env={}).server.port
        self.env = {**os.environ, **(env or {})}
        self.log_path = data_dir.parent / f"serve-{self.port}.log"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self, timeout_s: float = 300.0) -> ServerProcess:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        log = self.log_path.open("ab")
        command = [sys.executable, "-m", "voice_agent", "serve", "--config", str(self.config)]
        command += ["--data-dir", str(self.data_dir), *self.extra_args]
        self.proc = subprocess.Popen(command, stdout=log, stderr=log, env=self.env, cwd=REPO)
        log.close()
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"serve exited with {self.proc.returncode}:\n{self.log_tail()}")
            try:
                if httpx.get(self.base + "/healthz", timeout=5).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(1.0)
        self.kill()
        raise RuntimeError(f"serve did not become healthy in {timeout_s} s:\n{self.log_tail()}")

    def metrics(self) -> dict[str, float]:
        from voice_agent.server.metrics import parse_text

        return parse_text(httpx.get(self.base + "/metrics", timeout=10).text)

    def stop(self, sig: int = signal.SIGTERM, timeout_s: float = 60.0) -> int | None:
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout_s)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        return self.proc.returncode

    def kill(self) -> None:
        self.stop(signal.SIGKILL, 10)
        # the LLM server child notices its parent died and exits on its own (see test_llm_server)

    def log_text(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])


def utterances(model_dir: Path, texts: dict[str, str]) -> dict[str, PcmFloat32]:
    """Each text spoken by the real piper voice at 16 kHz, with a little silence before it."""
    from voice_agent.config import TtsConfig
    from voice_agent.tts.router import TtsRouter

    async def make() -> dict[str, PcmFloat32]:
        tts = TtsRouter(TtsConfig(), model_dir)
        await tts.start()
        try:
            return {k: np.concatenate([silence(0.4), await speak(tts, v)]) for k, v in texts.items()}
        finally:
            await tts.close()

    return asyncio.run(make())


def wait_port_free(port: int, timeout_s: float = 30.0) -> None:
    """Wait until nothing listens on ``port`` (old connections in TIME_WAIT do not count)."""
    deadline = time.monotonic() + timeout_s
    while not port_is_free("127.0.0.1", port):
        if time.monotonic() > deadline:
            raise RuntimeError(f"port {port} still has a listener after {timeout_s} s")
        time.sleep(0.5)
