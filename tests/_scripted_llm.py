"""A scripted OpenAI-compatible endpoint (the LLM is the network edge): a real HTTP server on 127.0.0.1
that streams the given replies in order, a few characters per event, and records every request."""

from __future__ import annotations

import asyncio
import contextlib
import json


class ScriptedEndpoint:
    def __init__(self, replies: list[str], *, chunk_chars: int = 3) -> None:
        self.replies = list(replies)
        self.chunk_chars = chunk_chars
        self.requests: list[dict[str, object]] = []
        self.port = 0
        self._server: asyncio.Server | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def backend(self, name: str = "scripted") -> str:
        return f"""
[[llm.backends]]
name = "{name}"
kind = "openai"
base_url = "{self.base_url}"
model = "scripted"
timeout_s = 10
max_retries = 0
"""

    def last_user_messages(self) -> list[str]:
        out = []
        for request in self.requests:
            messages = request.get("messages")
            assert isinstance(messages, list)
            out.append(str(messages[-1]["content"]))
        return out

    async def start(self) -> ScriptedEndpoint:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.decode("latin-1").split("\r\n"):
                if line.lower().startswith("content-length:"):
                    length = int(line.split(":", 1)[1])
            body = json.loads(await reader.readexactly(length)) if length else {}
            self.requests.append(body)
            reply = self.replies.pop(0) if self.replies else "Okay."
            await self._stream(writer, reply)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            with contextlib.suppress(Exception):
                writer.close()

    async def _stream(self, writer: asyncio.StreamWriter, reply: str) -> None:
        writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n"
            b"Connection: close\r\n\r\n"
        )
        pieces = [reply[i : i + self.chunk_chars] for i in range(0, len(reply), self.chunk_chars)]
        for piece in pieces:
            self._event(writer, {"content": piece}, None)
            await writer.drain()
        self._event(writer, {}, "stop")
        done = b"data: [DONE]\n\n"
        writer.write(f"{len(done):x}\r\n".encode() + done + b"\r\n0\r\n\r\n")
        await writer.drain()

    def _event(self, writer: asyncio.StreamWriter, delta: dict[str, str], finish: str | None) -> None:
        chunk = {
            "id": "scripted",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": "scripted",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }
        event = f"data: {json.dumps(chunk)}\n\n".encode()
        writer.write(f"{len(event):x}\r\n".encode() + event + b"\r\n")
