"""`voice-agent serve`: the kiosk service (browser page, WebSocket audio, /healthz, /metrics)."""

from __future__ import annotations

import argparse
import ipaddress
import sys

from voice_agent.cli.common import add_command, config_from_args, run_async
from voice_agent.config import Config
from voice_agent.errors import DependencyMissingError

GRACEFUL_SHUTDOWN_S = 15


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = add_command(sub, "serve", "Run the kiosk service (browser front end, WebSocket audio)", _run)
    parser.add_argument("--host", help="address to bind (default: server.host, 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port (default: server.port)")
    parser.add_argument(
        "--local-audio", action="store_true", help="also talk through this machine's microphone and speaker"
    )
    parser.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])


def _with_address(config: Config, host: str | None, port: int | None) -> Config:
    update: dict[str, object] = {}
    if host:
        update["host"] = host
    if port:
        update["port"] = port
    if not update:
        return config
    server = config.server.model_validate({**config.server.model_dump(), **update})
    return config.model_copy(update={"server": server})


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _run(args: argparse.Namespace) -> int:
    try:
        import uvicorn
    except ImportError as err:
        raise DependencyMissingError("uvicorn", "serve") from err
    from voice_agent.server import logs
    from voice_agent.server.app import create_app
    from voice_agent.server.protocol import MAX_TEXT_FRAME_CHARS

    config = _with_address(config_from_args(args), args.host, args.port)
    app = create_app(config, local_audio=args.local_audio)
    logs.configure(app.state.kiosk.redactor, level=args.log_level)
    host, port = config.server.host, config.server.port
    if not _is_loopback(host):
        logs.event(
            "exposed", host=host, token_required=app.state.kiosk.token is not None,
            note="listening beyond this machine; put it behind TLS and set server.token_env",
        )  # fmt: skip
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host=host,
            port=port,
            log_config=None,
            lifespan="on",
            ws_max_size=max(config.server.max_frame_bytes, MAX_TEXT_FRAME_CHARS * 4),
            ws_ping_interval=20.0,
            ws_ping_timeout=20.0,
            timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_S,
            server_header=False,
        )
    )

    async def serve() -> int:
        await server.serve()
        return 0 if server.started else 1

    code = run_async(serve())
    if code:
        print("voice-agent: the service did not start (see the log above)", file=sys.stderr)
    return code
