"""``/healthz``: are the models loaded, does the LLM endpoint answer, is the store usable?

Reuses the doctor's checks (remote endpoints, data dir, Weaviate); the local llama.cpp server is asked
directly. Results are cached for a few seconds so the endpoint cannot be used to load the service.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from voice_agent.doctor import Check, check_llm, check_store_writable, check_weaviate
from voice_agent.server.runtime import Runtime

CACHE_S = 3.0


class HealthChecker:
    def __init__(self) -> None:
        self._cached: tuple[float, dict[str, Any]] | None = None
        self._lock = asyncio.Lock()

    async def report(self, runtime: Runtime | None) -> dict[str, Any]:
        async with self._lock:
            if self._cached is not None and time.monotonic() - self._cached[0] < CACHE_S:
                return self._cached[1]
            report = await _build(runtime)
            self._cached = (time.monotonic(), report)
            return report


async def _build(runtime: Runtime | None) -> dict[str, Any]:
    if runtime is None:
        checks = [Check("models", "fail", "still loading")]
    else:
        checks = [_models(runtime), *(await _llm(runtime)), *(await _store(runtime))]
    ok = all(c.status != "fail" for c in checks)
    clients = 0 if runtime is None else len(runtime.clients)
    return {"ok": ok, "clients": clients, "checks": [c.to_json() for c in checks]}


def _models(runtime: Runtime) -> Check:
    loaded = runtime.metrics.models_loaded.value() == 1 and not runtime.closing
    speech = runtime.speech
    detail = f"asr {speech.recognizer.name}, tts {speech.synthesizer.name}, vad silero"
    return Check("models", "ok" if loaded else "fail", detail if loaded else "not loaded (closing?)")


async def _llm(runtime: Runtime) -> list[Check]:
    router = runtime.assistant.router
    local = {server.base_url: server for server in router.servers}
    checks: list[Check] = []
    config = runtime.config
    remote = [b for b in config.llm.backends if b.kind != "local"]
    if remote:
        checks += [
            c
            for c in await check_llm(
                config.model_copy(update={"llm": _only(config, remote)}), start_llm=False
            )
        ]
    for url, server in local.items():
        up = await server.healthy(timeout_s=2.0)
        checks.append(
            Check("llm local", "ok" if up else "fail", f"{url} {'answers' if up else 'does not answer'}")
        )
    if any(c.status == "ok" for c in checks):  # the router falls back: one usable endpoint is enough
        for c in checks:
            if c.status == "fail":
                c.status = "warn"
    return checks


def _only(config: Any, backends: list[Any]) -> Any:
    return config.llm.model_copy(update={"backends": backends})


async def _store(runtime: Runtime) -> list[Check]:
    config = runtime.config
    checks = [await asyncio.to_thread(check_store_writable, config)]
    if config.memory.store == "weaviate":
        checks.append(await check_weaviate(config))
    return checks
