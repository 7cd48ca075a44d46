"""The kiosk service as an ASGI app (FastAPI): the page, ``/ws``, ``/privacy``, ``/healthz``, ``/metrics``.

    app = create_app(config)          # nothing loads until the app starts (lifespan)
    uvicorn.run(app, host=..., port=...)

The lifespan opens the shared ``Runtime`` (models, memory, LLM) once and closes it after the last client:
clients end their visits, memory writes are drained, then the models are closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import os
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from voice_agent.config import Config
from voice_agent.errors import ConfigError
from voice_agent.server import logs
from voice_agent.server.client import KioskClient, read_hello
from voice_agent.server.health import HealthChecker
from voice_agent.server.hosts import HostGuard, HostPolicy, same_origin
from voice_agent.server.metrics import CONTENT_TYPE, ServerMetrics
from voice_agent.server.notice import privacy_facts
from voice_agent.server.protocol import CLOSE_POLICY, ProtocolError, dumps
from voice_agent.server.runtime import Runtime

log = logging.getLogger(__name__)
STATIC_DIR = Path(__file__).parent / "static"
MAX_CLIENTS = 16
MAX_PENDING = 64  # sockets waiting for their hello (each for at most server.hello_timeout_s)
MAX_PENDING_PER_PEER = 32  # … of them from one address
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
    pending: Counter[str] = field(default_factory=Counter)  # sockets without a hello yet, by address
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
    from fastapi import FastAPI, Request, WebSocket
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
    policy = HostPolicy(config.server.host, config.server.allowed_hosts)
    app.add_middleware(
        HostGuard, policy=policy, on_refused=lambda kind: state.metrics.disconnects.inc(reason="bad_host")
    )
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    @app.get("/")
    async def index() -> Any:
        return FileResponse(STATIC_DIR / "index.html", headers=SECURITY_HEADERS)

    @app.get("/privacy")
    async def privacy() -> Any:
        return JSONResponse(privacy_facts(config), headers=SECURITY_HEADERS)

    async def healthz(request: Request) -> Any:
        report = await state.health.report(state.runtime)
        status = 200 if report["ok"] else 503
        if not _may_see_details(state, request):  # paths, ports and models are for the operator only
            return JSONResponse({"ok": report["ok"]}, status_code=status)
        return JSONResponse(report, status_code=status)

    @app.get("/metrics")
    async def metrics() -> Any:
        return PlainTextResponse(state.metrics.render(), media_type=CONTENT_TYPE)

    async def websocket(ws: WebSocket) -> None:
        await _accept_client(state, ws)

    # annotations are strings here (PEP 563) and WebSocket is local: give FastAPI the real classes
    websocket.__annotations__["ws"] = WebSocket
    healthz.__annotations__["request"] = Request
    app.add_api_route("/healthz", healthz, methods=["GET"])
    app.add_api_websocket_route("/ws", websocket)

    return app


def _may_see_details(state: AppState, request: Any) -> bool:
    """``/healthz`` details need the service token (``Authorization: Bearer …``); without a token
    configured, only a client on this machine sees them."""
    if state.token is None:
        peer = request.client.host if request.client else ""
        return peer in ("127.0.0.1", "::1")
    scheme, _, given = (request.headers.get("authorization") or "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), state.token.encode())


async def _accept_client(state: AppState, ws: Any) -> None:
    """Admission: origin, the cap on sockets still without a hello (per address and in all), a valid
    hello with the token within ``server.hello_timeout_s``, the address's lockout, and only then one of
    the ``MAX_CLIENTS`` slots."""
    runtime = state.runtime
    if not same_origin(ws.headers.get("origin"), ws.headers.get("host")):
        state.metrics.disconnects.inc(reason="bad_origin")
        await ws.close(code=CLOSE_POLICY)
        return
    peer = ws.client.host if getattr(ws, "client", None) else "unknown"
    crowded = sum(state.pending.values()) >= MAX_PENDING or state.pending[peer] >= MAX_PENDING_PER_PEER
    if runtime is None or runtime.closing or crowded:
        state.metrics.disconnects.inc(reason="busy")
        await ws.close(code=CLOSE_TRY_AGAIN)
        return
    state.pending[peer] += 1
    try:
        await ws.accept()
        hello = await read_hello(ws, timeout_s=state.config.server.hello_timeout_s, token=state.token)
        _admit(runtime, peer)
    except ProtocolError as err:
        await _refuse(state, ws, err)
        return
    except Exception:  # the socket went away before its hello
        state.metrics.disconnects.inc(reason="client_closed")
        with contextlib.suppress(Exception):
            await ws.close(code=CLOSE_POLICY)
        return
    finally:
        state.pending[peer] -= 1
        if state.pending[peer] <= 0:
            del state.pending[peer]
    client = KioskClient(runtime, ws, token=state.token, peer=peer)
    await client.run(hello)


def _admit(runtime: Runtime, peer: str) -> None:
    """A client that was locked out, or a full house, is refused (``ProtocolError``)."""
    wait = runtime.refusals.retry_after(peer)
    if wait > 0:
        raise ProtocolError("try_later", f"please come back in {wait:.0f} s", close_code=CLOSE_TRY_AGAIN)
    if len(runtime.clients) >= MAX_CLIENTS:
        raise ProtocolError("server_full", "every place is taken; trying again", close_code=CLOSE_TRY_AGAIN)


async def _refuse(state: AppState, ws: Any, err: ProtocolError) -> None:
    state.metrics.disconnects.inc(reason=err.code)
    logs.event("client_refused", reason=err.code)
    with contextlib.suppress(Exception):
        await ws.send_text(dumps(err.event()))
    with contextlib.suppress(Exception):
        await ws.close(code=err.close_code)
