"""``voice-agent doctor``: can the configured stack run here, and if not, what exactly is wrong?

Each check yields ``ok`` / ``warn`` / ``fail`` / ``skip``; the stack can run when nothing fails. Models
are verified by sha256 (doctor may take a second for that). The local LLM server is only started with
``start_llm=True`` (``--llm``), which also measures its first-token latency.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import importlib.util
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from voice_agent.config import Config, LlmEndpoint, resolve_api_key
from voice_agent.errors import DependencyMissingError, VoiceAgentError
from voice_agent.provision import ModelStatus, State, load_manifest, verify
from voice_agent.provision.files import installed_version
from voice_agent.provision.required import required_ids

Status = Literal["ok", "warn", "fail", "skip"]
FILE_MODE_HINT = "use file mode (--input/--output)"

# (distribution, why) always needed by the default pipeline
CORE_PACKAGES = (
    "faster-whisper",
    "ctranslate2",
    "onnxruntime",
    "spacy",
    "tokenizers",
    "numpy",
    "apsw",
    "sqlite-vec",
    "openai",
    "httpx",
    "pydantic",
    "cryptography",
)


@dataclass
class Check:
    name: str
    status: Status
    detail: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "status": self.status, "detail": self.detail, **self.data}


@dataclass
class DoctorReport:
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when the configured stack can run (no check failed)."""
        return all(c.status != "fail" for c in self.checks)

    @property
    def failures(self) -> list[Check]:
        return [c for c in self.checks if c.status == "fail"]

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "checks": [c.to_json() for c in self.checks]}


async def run_doctor(
    config: Config, *, start_llm: bool = False, progress: Callable[[str], None] | None = None
) -> DoctorReport:
    """Run every check for ``config``; blocking checks run off the event loop."""
    say = progress or (lambda _m: None)
    report = DoctorReport()
    report.checks.append(check_python())
    report.checks.extend(check_packages(config))
    say("verifying models (sha256)…")
    report.checks.extend(await asyncio.to_thread(check_models, config))
    say("checking audio…")
    report.checks.append(await asyncio.to_thread(check_audio))
    say("checking LLM endpoint(s)…")
    report.checks.extend(await check_llm(config, start_llm=start_llm))
    report.checks.append(await asyncio.to_thread(check_store_writable, config))
    if config.memory.store == "weaviate":
        report.checks.append(await check_weaviate(config))
    return report


def check_python() -> Check:
    version = platform.python_version()
    good = sys.version_info >= (3, 11)
    detail = f"{version} ({sys.executable})" + ("" if good else "; voice-agent needs Python >= 3.11")
    return Check("python", "ok" if good else "fail", detail, {"version": version})


def check_packages(config: Config) -> list[Check]:
    wanted: list[tuple[str, bool]] = [(name, True) for name in CORE_PACKAGES]
    wanted.append(("voice-agent", False))
    wanted.append(("piper-tts", config.tts.backend == "piper"))
    wanted.append(("sounddevice", False))
    wanted.append(("llama-cpp-python", any(b.kind == "local" for b in config.llm.backends)))
    wanted.append(("edge-tts", False))
    wanted.append(("weaviate-client", config.memory.store == "weaviate"))
    wanted.append(("fastapi", False))
    wanted.append(("uvicorn", False))
    versions = {name: installed_version(name) for name, _ in wanted}
    missing_required = [n for n, req in wanted if req and versions[n] is None]
    missing_optional = [n for n, req in wanted if not req and versions[n] is None]
    found = ", ".join(f"{n} {v}" for n, v in versions.items() if v is not None)
    detail = found
    status: Status = "ok"
    if missing_optional:
        detail += f"; not installed (optional here): {', '.join(missing_optional)}"
    if missing_required:
        status = "fail"
        detail = f"missing: {', '.join(missing_required)} (run scripts/setup.sh); " + detail
    return [Check("packages", status, detail, {"versions": versions})]


def check_models(config: Config) -> list[Check]:
    manifest = load_manifest()
    needed = set(required_ids(config))
    checks = []
    for result in verify(config.model_dir, manifest=manifest):
        checks.append(_model_check(result, required=result.id in needed))
    return checks


def _model_check(result: ModelStatus, *, required: bool) -> Check:
    data = {"model": result.to_json(), "required": required}
    if result.ok:
        detail = f"{result.describe()}: {result.path}"
        return Check(f"model {result.id}", "ok", detail, data)
    # a corrupt file is never acceptable; a missing model only matters when the config uses it
    bad = result.state is State.CORRUPT or required
    note = "" if required or bad else " (not used by this config)"
    return Check(f"model {result.id}", "fail" if bad else "warn", result.describe() + note, data)


def check_audio() -> Check:
    try:
        import sounddevice as sd
    except ImportError:
        return Check("audio", "warn", f"sounddevice is not installed: {FILE_MODE_HINT}")
    except OSError as err:  # sounddevice raises OSError when the PortAudio library is absent
        return Check(
            "audio",
            "warn",
            f"PortAudio library missing ({err}); apt-get install libportaudio2, or {FILE_MODE_HINT}",
        )
    try:
        devices = list(sd.query_devices())
    except Exception as err:  # PortAudio errors are vendor-specific; report them, never crash doctor
        return Check("audio", "warn", f"PortAudio cannot list devices ({err}): {FILE_MODE_HINT}")
    inputs = [d["name"] for d in devices if d.get("max_input_channels", 0) > 0]
    outputs = [d["name"] for d in devices if d.get("max_output_channels", 0) > 0]
    data = {"inputs": inputs, "outputs": outputs}
    if not inputs and not outputs:
        return Check("audio", "warn", f"no devices — {FILE_MODE_HINT}", data)
    detail = f"inputs: {', '.join(inputs) or 'none'}; outputs: {', '.join(outputs) or 'none'}"
    return Check("audio", "ok", detail, data)


def check_store_writable(config: Config) -> Check:
    data_dir = config.data_dir
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=".doctor-", dir=data_dir)
        try:
            os.write(fd, b"ok")
        finally:
            os.close(fd)
            os.unlink(name)
    except OSError as err:
        return Check("store", "fail", f"data dir {data_dir} is not writable: {err}")
    return Check("store", "ok", f"data dir {data_dir} is writable ({config.memory.store} store)")


async def check_llm(config: Config, *, start_llm: bool) -> list[Check]:
    checks = []
    for endpoint in config.llm.backends:
        try:
            if endpoint.kind == "local":
                check = await _check_local_llm(config, endpoint, start_llm=start_llm)
            else:
                check = await _check_remote_llm(endpoint, start_llm=start_llm)
        except VoiceAgentError as err:
            check = Check(f"llm {endpoint.name}", "fail", str(err))
        checks.append(check)
    # the router falls back: one usable backend is enough; the others are warnings
    if any(c.status == "ok" for c in checks):
        for c in checks:
            if c.status == "fail":
                c.status = "warn"
    return checks


async def _check_local_llm(config: Config, endpoint: LlmEndpoint, *, start_llm: bool) -> Check:
    name = f"llm {endpoint.name}"
    try:
        llama_version = await asyncio.to_thread(_import_llama_cpp)
    except Exception as err:  # a broken native build fails in many ways (OSError, ImportError)
        return Check(
            name,
            "fail",
            f"llama_cpp is not importable ({err}); install llama-cpp-python[server]==0.3.36 with the "
            "portable CMAKE_ARGS (scripts/setup.sh does)",
        )
    from voice_agent.provision import locate

    gguf = await asyncio.to_thread(locate, config.llm.local.model, config.model_dir)
    data: dict[str, Any] = {"llama_cpp": llama_version, "model": str(gguf), "port": config.llm.local.port}
    if not start_llm:
        detail = (
            f"local llama.cpp server ready to start (llama_cpp {llama_version}, {gguf.name}, "
            f"port {config.llm.local.port}); not started: run `voice-agent doctor --llm` to measure "
            "first-token latency"
        )
        return Check(name, "ok", detail, data)
    latency_ms = await _local_first_token_ms(config, endpoint)
    data["first_token_ms"] = latency_ms
    return Check(name, "ok", f"local server answered; first token {latency_ms:.0f} ms ({gguf.name})", data)


def _import_llama_cpp() -> str:
    module = importlib.import_module("llama_cpp")
    return str(getattr(module, "__version__", "?"))


async def _local_first_token_ms(config: Config, endpoint: LlmEndpoint) -> float:
    """Start the local llama.cpp server (logs under the data dir), time one streamed reply, stop it."""
    from voice_agent.llm.local_server import server_from_config

    server = server_from_config(config)
    await server.start()
    try:
        return await _first_token_ms(endpoint.name, server.base_url, server.model_alias, None, 60.0)
    finally:
        await server.stop()


async def _check_remote_llm(endpoint: LlmEndpoint, *, start_llm: bool) -> Check:
    import httpx

    name = f"llm {endpoint.name}"
    base_url = (endpoint.base_url or "https://api.openai.com/v1").rstrip("/")
    api_key = resolve_api_key(endpoint)
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    started = time.perf_counter()
    try:
        async with httpx.AsyncClient(timeout=min(endpoint.timeout_s, 5.0)) as client:
            response = await client.get(f"{base_url}/models", headers=headers)
    except httpx.HTTPError as err:
        return Check(name, "fail", f"{base_url} unreachable: {err!r}")
    elapsed_ms = (time.perf_counter() - started) * 1000
    data: dict[str, Any] = {"base_url": base_url, "models_ms": round(elapsed_ms, 1)}
    if response.status_code in (401, 403):
        return Check(name, "fail", f"{base_url}: HTTP {response.status_code}, the API key was refused", data)
    if response.status_code >= 400:
        # some servers have no /models; reachable is what matters here
        data["models_status"] = response.status_code
    detail = f"{base_url} reachable ({elapsed_ms:.0f} ms)"
    if start_llm:
        latency_ms = await _first_token_ms(
            endpoint.name, base_url, endpoint.model, api_key, endpoint.timeout_s
        )
        data["first_token_ms"] = latency_ms
        detail += f"; first token {latency_ms:.0f} ms ({endpoint.model})"
    return Check(name, "ok", detail, data)


async def _first_token_ms(
    name: str, base_url: str, model: str, api_key: str | None, timeout_s: float
) -> float:
    """Stream a one-line request through the openai client and time its first text delta."""
    from voice_agent.llm.openai_backend import OpenAIBackend

    backend = OpenAIBackend(name, base_url=base_url, model=model, api_key=api_key, timeout_s=timeout_s)
    messages = [{"role": "user", "content": "Say hello in three words."}]
    started = time.perf_counter()
    stream = backend.stream(messages, max_tokens=8, temperature=0.0)
    try:
        async for _delta in stream:
            return (time.perf_counter() - started) * 1000
        raise VoiceAgentError(f"{name}: the server streamed no text")
    finally:
        with contextlib.suppress(Exception):
            await stream.aclose()
        with contextlib.suppress(Exception):
            await backend.aclose()


async def check_weaviate(config: Config) -> Check:
    if importlib.util.find_spec("weaviate") is None:
        err = DependencyMissingError("weaviate", "weaviate")
        return Check("weaviate", "fail", str(err))
    url = config.memory.weaviate_url
    if not url:
        return Check("weaviate", "fail", "memory.store = 'weaviate' but memory.weaviate_url is not set")
    import httpx

    ready = f"{url.rstrip('/')}/v1/.well-known/ready"
    try:
        async with httpx.AsyncClient(timeout=5.0) as client:
            response = await client.get(ready)
    except httpx.HTTPError as err:
        return Check("weaviate", "fail", f"{url} unreachable: {err!r}")
    if response.status_code != 200:
        return Check("weaviate", "fail", f"{ready} answered HTTP {response.status_code}")
    return Check("weaviate", "ok", f"{url} is ready")
