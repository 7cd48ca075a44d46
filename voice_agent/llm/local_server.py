"""The local LLM: llama-cpp-python's OpenAI-compatible server, started and stopped by voice-agent.

``LocalLlamaServer`` runs ``python -m llama_cpp.server`` as a child process (its output goes to
``<data_dir>/logs/llama-server.log``), waits until ``GET /v1/models`` answers, and restarts it when it has
died. The rest of the code talks to it like to any other endpoint, through the ``openai`` client
(``local_backend`` builds that backend).

Server settings chosen here, and why:
- the chat template comes from the GGUF (llama-cpp-python picks ``tokenizer.chat_template`` up itself);
- ``--interrupt_requests false``: a background request (memory extraction) must queue behind the reply,
  not cut it off; a reply the caller abandons still stops, because the server checks for a closed
  connection after every chunk;
- ``--logits_all false``: only the last position's logits are needed to sample, which saves time and
  memory on every prompt;
- the KV cache of the previous request is always reused for the prefix it shares with the next one
  (that is what keeps the stable system and pinned layers cheap); ``prompt_cache_mb`` > 0 also keeps
  states of earlier prompts in RAM (``--cache``), so that an interleaved request on another prompt
  (memory extraction) does not cost the next turn its prefix.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import os
import socket
import subprocess
import sys
import time
from collections import deque
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from voice_agent.config import Config
from voice_agent.errors import BackendError, DependencyMissingError, ModelError

SERVER_LOG_NAME = "llama-server.log"
LOG_ROTATE_BYTES = 5 << 20

# Runs llama_cpp.server as ``__main__`` (like ``python -m llama_cpp.server``), dying with its parent and
# with a lean RAM prompt cache; see that file's docstring.
_LAUNCHER = Path(__file__).with_name("_llama_launch.py")


class LocalServerError(BackendError):
    """The local llama.cpp server could not be started (the message shows the end of its log)."""


class LocalLlamaServer:
    """One llama.cpp server child process serving one GGUF model."""

    def __init__(
        self,
        model_path: str | Path,
        *,
        log_path: str | Path,
        host: str = "127.0.0.1",
        port: int = 8765,
        n_ctx: int = 4096,
        n_threads: int = 2,
        n_threads_batch: int | None = None,
        startup_timeout_s: float = 90.0,
        model_alias: str | None = None,
        prompt_cache_mb: int = 0,
        n_gpu_layers: int | str = 0,
        extra_args: tuple[str, ...] = (),
        python: str = sys.executable,
    ) -> None:
        batch = n_threads if n_threads_batch is None else n_threads_batch
        if startup_timeout_s <= 0 or n_ctx < 64 or min(n_threads, batch) < 1 or not 0 < port < 65536:
            raise ValueError("startup_timeout_s > 0, n_ctx >= 64, n_threads >= 1, 0 < port < 65536")
        self.model_path = Path(model_path)
        self.log_path = Path(log_path)
        self.host = host
        self.port = port
        self.n_ctx = n_ctx
        self.n_threads = n_threads
        self.n_threads_batch = batch
        self.startup_timeout_s = startup_timeout_s
        self.model_alias = model_alias or self.model_path.stem
        self.prompt_cache_mb = prompt_cache_mb
        self.n_gpu_layers = n_gpu_layers  # "auto": the launcher offloads all layers if llama.cpp can
        self.extra_args = tuple(extra_args)
        self.python = python
        self.restarts = 0
        self.last_startup_ms: float | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None
        self._lock = asyncio.Lock()

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible API root (``http://host:port/v1``)."""
        return f"http://{_url_host(self.host)}:{self.port}/v1"

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def command(self) -> list[str]:
        """The server's argument list (after the Python interpreter and launcher)."""
        args = [
            "--model", str(self.model_path),
            "--model_alias", self.model_alias,
            "--host", self.host,
            "--port", str(self.port),
            "--n_ctx", str(self.n_ctx),
            "--n_threads", str(self.n_threads),
            "--n_threads_batch", str(self.n_threads_batch),
            "--logits_all", "false",
            "--use_mlock", "false",
            "--interrupt_requests", "false",
        ]  # fmt: skip
        if self.prompt_cache_mb > 0:
            cache_bytes = str(self.prompt_cache_mb << 20)
            args += ["--cache", "true", "--cache_type", "ram", "--cache_size", cache_bytes]
        if self.n_gpu_layers != 0:
            args += ["--n_gpu_layers", str(self.n_gpu_layers)]
        return [*args, *self.extra_args]

    def cpu_seconds(self) -> float | None:
        """CPU time the server process has used (None when it is not running or this is not Linux): while
        it grows, a late first token means a busy server, not a dead one."""
        from voice_agent.scheduling import process_cpu_s

        pid = self.pid
        return process_cpu_s(pid) if pid is not None and self.is_running() else None

    def is_running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    async def start(self) -> None:
        """Start the server and wait until it answers; a clear ``LocalServerError`` if it cannot."""
        async with self._lock:
            await self._start_locked()

    async def ensure_running(self) -> None:
        """Start the server if it is not running (again, after a crash)."""
        if self.is_running():
            return
        async with self._lock:
            if self.is_running():
                return
            if self._proc is not None:
                code = self._proc.returncode
                self._write_log(f"--- voice-agent: server exited with code {code}; restarting\n")
                self._close_log()
                self._proc = None
                self.restarts += 1
            await self._start_locked()

    async def stop(self, *, grace_s: float = 5.0) -> None:
        """Terminate the server (SIGTERM), then kill it if it has not exited within ``grace_s``."""
        async with self._lock:
            proc, self._proc = self._proc, None
            if proc is not None and proc.poll() is None:
                proc.terminate()
                if not await _wait_exit(proc, grace_s):
                    proc.kill()
                    await _wait_exit(proc, grace_s)
            self._close_log()

    async def healthy(self, timeout_s: float = 2.0) -> bool:
        """Whether the server answers ``GET /v1/models`` now."""
        import httpx

        try:
            async with httpx.AsyncClient(timeout=timeout_s) as client:
                response = await client.get(f"{self.base_url}/models")
            return response.status_code == 200
        except httpx.HTTPError:
            return False

    def log_tail(self, lines: int = 25) -> str:
        try:
            with self.log_path.open("rb") as fh:
                tail = deque(fh, maxlen=lines)
        except OSError:
            return "(no log)"
        return b"".join(tail).decode("utf-8", "replace").rstrip()

    async def __aenter__(self) -> LocalLlamaServer:
        await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.stop()

    async def _start_locked(self) -> None:
        if self.is_running():
            return
        self._check_startable()
        started = time.monotonic()
        self._spawn()
        try:
            await self._wait_ready(started)
        except BaseException:
            proc, self._proc = self._proc, None
            if proc is not None and proc.poll() is None:
                proc.kill()
                await _wait_exit(proc, 5.0)
            self._close_log()
            raise
        self.last_startup_ms = (time.monotonic() - started) * 1000
        self._write_log(f"--- voice-agent: ready after {self.last_startup_ms:.0f} ms\n")

    def _check_startable(self) -> None:
        if not self.model_path.is_file():
            raise ModelError(
                f"LLM model file not found: {self.model_path} (run `voice-agent models install`)",
                path=str(self.model_path),
            )
        if importlib.util.find_spec("llama_cpp") is None:
            raise DependencyMissingError("llama_cpp", "local-llm")
        if not port_is_free(self.host, self.port):
            raise LocalServerError(
                f"port {self.port} on {self.host} is already in use: stop whatever listens there or set "
                f"llm.local.port (VOICE_AGENT_LLM__LOCAL__PORT) to a free port",
                backend="local-server",
            )

    def _spawn(self) -> None:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(OSError):
            if self.log_path.stat().st_size > LOG_ROTATE_BYTES:  # keep one previous log
                self.log_path.replace(self.log_path.with_name(self.log_path.name + ".1"))
        self._log = self.log_path.open("ab")
        cmd = [self.python, "-c", _LAUNCHER.read_text(encoding="utf-8"), *self.command()]
        shown = " ".join([self.python, "-m", "llama_cpp.server", *cmd[3:]])
        self._write_log(f"\n--- voice-agent: starting {shown}\n")
        env = {**os.environ, "VOICE_AGENT_PARENT_PID": str(os.getpid())}
        self._proc = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=self._log, stderr=subprocess.STDOUT, env=env,
            start_new_session=True,
        )  # fmt: skip

    async def _wait_ready(self, started: float) -> None:
        import httpx

        deadline = started + self.startup_timeout_s
        async with httpx.AsyncClient(timeout=2.0) as client:
            while True:
                proc = self._proc
                if proc is None or proc.poll() is not None:
                    code = None if proc is None else proc.returncode
                    raise self._startup_error(f"exited with code {code} while starting")
                with contextlib.suppress(httpx.HTTPError):
                    response = await client.get(f"{self.base_url}/models")
                    if response.status_code == 200:
                        return
                if time.monotonic() > deadline:
                    raise self._startup_error(f"did not answer within {self.startup_timeout_s:g} s")
                await asyncio.sleep(0.1)

    def _startup_error(self, what: str) -> LocalServerError:
        return LocalServerError(
            f"the llama.cpp server for {self.model_path.name} on port {self.port} {what}; "
            f"last lines of {self.log_path}:\n{self.log_tail()}",
            backend="local-server",
        )

    def _write_log(self, text: str) -> None:
        if self._log is not None:
            self._log.write(text.encode("utf-8"))
            self._log.flush()

    def _close_log(self) -> None:
        log, self._log = self._log, None
        if log is not None:
            log.close()


def _url_host(host: str) -> str:
    if host in ("0.0.0.0", ""):
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host


def port_is_free(host: str, port: int) -> bool:
    """True when nothing listens on ``host:port``.

    SO_REUSEADDR makes a port whose old connections sit in TIME_WAIT (for a minute after a killed
    server) count as free, as it is for the llama.cpp server, which binds with the same option.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


async def _wait_exit(proc: subprocess.Popen[Any], timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while proc.poll() is None:
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


def locate_model(model_id: str, model_dir: Path) -> Path:
    """The assembled GGUF of ``model_id`` in the model cache (provisioning knows where)."""
    try:
        from voice_agent.provision import locate
    except ImportError as err:
        raise ModelError(
            f"cannot locate model {model_id!r}: model provisioning is not available in this install",
            model=model_id,
        ) from err
    return Path(locate(model_id, model_dir))


def server_from_config(
    config: Config, *, data_dir: Path | None = None, model_id: str | None = None
) -> LocalLlamaServer:
    """A ``LocalLlamaServer`` for ``config.llm.local`` (the model from the model cache)."""
    local = config.llm.local
    model = model_id or local.model
    n_threads, n_threads_batch = local.threads()
    return LocalLlamaServer(
        locate_model(model, config.model_dir),
        log_path=(data_dir or config.data_dir) / "logs" / SERVER_LOG_NAME,
        host=local.host,
        port=local.port,
        n_ctx=local.n_ctx,
        n_threads=n_threads,
        n_threads_batch=n_threads_batch,
        startup_timeout_s=local.startup_timeout_s,
        model_alias=model,
        prompt_cache_mb=local.prompt_cache_mb,
        n_gpu_layers=local.n_gpu_layers,
    )
