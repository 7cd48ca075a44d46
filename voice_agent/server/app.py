"""The kiosk service as an ASGI app (FastAPI): the page, ``/ws``, ``/privacy``, ``/healthz``, ``/metrics``.

    app = create_app(config)          # nothing loads until the app starts (lifespan)
    uvicorn.run(app, host=..., port=...)

The lifespan opens the shared ``Runtime`` (models, memory, LLM) once and closes it after the last client:
clients end their visits, memory writes are drained, then the models are closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from voice_agent.config import Config
from voice_agent.errors import ConfigError
from voice_agent.server import logs
from voice_agent.server.health import HealthChecker
from voice_agent.server.metrics import CONTENT_TYPE, ServerMetrics
from voice_agent.server.notice import privacy_facts
from voice_agent.server.protocol import CLOSE_POLICY
from voice_agent.server.runtime import Runtime

log = logging.getLogger(__name__)
STATIC_DIR = Path(__file__).parent / "static"
MAX_CLIENTS = 16
CLOSE_TRY_AGAIN = 1013
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self' ws: wss:; media-src 'self' blob:; worker-src 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


@dataclass
class AppState:
    config: Config
    token: str | None
    local_audio: bool = False
    metrics: ServerMetrics = field(default_factory=ServerMetrics)
    redactor: logs.IdRedactor = field(default_factory=logs.IdRedactor)
    health: HealthChecker = field(default_factory=HealthChecker)
    runtime: Runtime | None = None
    background: list[asyncio.Task[Any]] = field(default_factory=list)


def resolve_token(config: Config, env: dict[str, str] | None = None) -> str | None:
    """The WebSocket token from the env var ``server.token_env`` names (None: no token required)."""
    name = config.server.token_env
    if not name:
        return None
    value = (os.environ if env is None else env).get(name, "")
    if len(value) < 16:
        raise ConfigError(
            f"environment variable {name} must hold a token of at least 16 characters", key="server.token_env"
        )
    return value


def create_app(config: Config, *, local_audio: bool = False, token: str | None = None) -> Any:
    from fastapi import FastAPI, WebSocket
    from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
    from fastapi.staticfiles import StaticFiles

    state = AppState(config, token if token is not None else resolve_token(config), local_audio)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Any) -> AsyncIterator[None]:
        state.runtime = await Runtime.open(config, metrics=state.metrics, redactor=state.redactor)
        state.runtime.start_retention()
        if local_audio:
            from voice_agent.server.local_audio import run_local_audio

            state.background.append(asyncio.create_task(run_local_audio(state.runtime)))
        logs.event("started", clients_max=MAX_CLIENTS, token_required=state.token is not None)
        try:
            yield
        finally:
            for task in state.background:
                task.cancel()
            await asyncio.gather(*state.background, return_exceptions=True)
            await state.runtime.close()
            logs.event("stopped")

    app = FastAPI(lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.kiosk = state
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    @app.get("/")
    async def index() -> Any:
        return FileResponse(STATIC_DIR / "index.html", headers=SECURITY_HEADERS)

    @app.get("/privacy")
    async def privacy() -> Any:
        return JSONResponse(privacy_facts(config), headers=SECURITY_HEADERS)

    @app.get("/healthz")
    async def healthz() -> Any:
        report = await state.health.report(state.runtime)
        return JSONResponse(report, status_code=200 if report["ok"] else 503)

    @app.get("/metrics")
    async def metrics() -> Any:
        return PlainTextResponse(state.metrics.render(), media_type=CONTENT_TYPE)

    async def websocket(ws: WebSocket) -> None:
        await _accept_client(state, ws)

    # annotations are strings here (PEP 563) and WebSocket is local: give FastAPI the real class
    websocket.__annotations__["ws"] = WebSocket
    app.add_api_websocket_route("/ws", websocket)

    return app


async def _accept_client(state: AppState, ws: Any) -> None:
    from voice_agent.server.client import KioskClient

    runtime = state.runtime
    if not _same_origin(ws.headers.get("origin"), ws.headers.get("host")):
        state.metrics.disconnects.inc(reason="bad_origin")
        await ws.close(code=CLOSE_POLICY)
        return
    if runtime is None or runtime.closing or len(runtime.clients) >= MAX_CLIENTS:
        state.metrics.disconnects.inc(reason="busy")
        await ws.close(code=CLOSE_TRY_AGAIN)
        return
    await KioskClient(runtime, ws, token=state.token).run()


def _same_origin(origin: str | None, host: str | None) -> bool:
    """Browsers send Origin: only the page this server serves may open the socket (non-browser
    clients send none)."""
    if not origin:
        return True
    return bool(host) and urlsplit(origin).netloc == host
