"""Which names the service answers to (DNS rebinding), and which pages may open its socket.

A page on an attacker's domain can point its own name at 127.0.0.1 (DNS rebinding): the browser then
sends ``Origin`` and ``Host`` both naming the attacker's domain, so an Origin-equals-Host check passes.
The ``Host`` header is therefore checked against the names this service is meant to be reached by:
the bind host, ``localhost``, ``127.0.0.1``, ``[::1]`` and ``server.allowed_hosts``. When it listens on
every interface (``0.0.0.0`` / ``::``) a bare IP address is accepted too: rebinding needs a name.
Everything else gets 403 (HTTP) or a refused WebSocket handshake, before any route runs.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")
WILDCARD_BINDS = ("0.0.0.0", "::", "")
CLOSE_POLICY = 1008


def host_name(host_header: str) -> str | None:
    """The name in a ``Host`` header without its port, lowercased (``[::1]:8080`` → ``::1``); None when
    the header is not a plain host[:port]."""
    value = host_header.strip().lower()
    if not value or any(c in value for c in "/@?#\\ "):
        return None
    try:
        parsed = urlsplit("//" + value)
        name = parsed.hostname
        parsed.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError:
        return None
    return name.rstrip(".") if name else None


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class HostPolicy:
    """The names accepted in ``Host``."""

    def __init__(self, bind_host: str, extra: Iterable[str] = ()) -> None:
        names = {*LOCAL_NAMES, bind_host.strip("[]").lower(), *(n.strip().strip("[]").lower() for n in extra)}
        self.names = frozenset(n.rstrip(".") for n in names if n and n not in WILDCARD_BINDS)
        self.any_ip = bind_host.strip("[]") in WILDCARD_BINDS

    def allows(self, host_header: str | None) -> bool:
        if not host_header:
            return False
        name = host_name(host_header)
        if name is None:
            return False
        return name in self.names or (self.any_ip and _is_ip(name))


def same_origin(origin: str | None, host: str | None) -> bool:
    """Browsers send Origin: only the page this server serves may open the socket (non-browser clients
    send none; ``Host`` itself is checked by ``HostGuard``)."""
    if not origin:
        return True
    return bool(host) and urlsplit(origin).netloc.lower() == (host or "").lower()


class HostGuard:
    """ASGI middleware: a request or WebSocket whose ``Host`` is not an accepted name is refused."""

    def __init__(self, app: ASGIApp, policy: HostPolicy, on_refused: Callable[[str], None] | None = None):
        self.app = app
        self.policy = policy
        self.on_refused = on_refused

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope.get("type")
        if kind not in ("http", "websocket") or self.policy.allows(_header(scope, b"host")):
            await self.app(scope, receive, send)
            return
        if self.on_refused is not None:
            self.on_refused(kind)
        if kind == "websocket":  # closing before accept refuses the handshake (HTTP 403)
            await send({"type": "websocket.close", "code": CLOSE_POLICY})
            return
        body = b"this service is not reachable under that name\n"
        await send(
            {
                "type": "http.response.start",
                "status": 403,
                "headers": [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", b"%d" % len(body)),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or ():
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None
