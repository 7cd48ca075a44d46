"""A fake OpenAI-compatible chat endpoint at the network edge (the LLM): a real HTTP server on 127.0.0.1
that streams chat-completion chunks and records every request.

Configured per test:

- ``ChatEndpoint(["first", "second"])`` streams the replies in order, a few characters per event, then
  ``then`` ("Okay.") for every later request (a scripted conversation);
- ``ChatEndpoint(then="The answer.", delay_s=1.0, single_slot=True, by_words=True, usage=True)`` serves
  one request at a time like llama.cpp's single slot (later ones queue), waits ``delay_s`` before the
  first token of each, and streams word by word with a usage chunk (a slow, busy server).

Use ``async with ChatEndpoint(...) as endpoint`` or ``await endpoint.start()`` / ``stop()``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any


async def read_request(reader: asyncio.StreamReader) -> dict[str, Any]:
    """The JSON body of one HTTP request (its Content-Length bytes after the head)."""
    head = await reader.readuntil(b"\r\n\r\n")
    length = 0
    for line in head.decode("latin-1").split("\r\n"):
        if line.lower().startswith("content-length:"):
            length = int(line.split(":", 1)[1])
    body: dict[str, Any] = json.loads(await reader.readexactly(length)) if length else {}
    return body


class ChatEndpoint:
    def __init__(
        self,
        replies: list[str] | None = None,
        *,
        then: str = "Okay.",
        chunk_chars: int = 3,
        by_words: bool = False,
        delay_s: float = 0.0,
        single_slot: bool = False,
        usage: bool = False,
        model: str = "scripted",
    ) -> None:
        self.replies = list(replies or [])
        self.then = then
        self.chunk_chars = chunk_chars
        self.by_words = by_words
        self.delay_s = delay_s
        self.usage = usage
        self.model = model
        self.requests: list[dict[str, Any]] = []
        self.served = 0
        self.port = 0
        self._slot = asyncio.Lock() if single_slot else None
        self._server: asyncio.Server | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def backend(self, name: str = "scripted") -> str:
        """A ``[[llm.backends]]`` entry (TOML) pointing at this endpoint."""
        return (
            f'\n[[llm.backends]]\nname = "{name}"\nkind = "openai"\nbase_url = "{self.base_url}"\n'
            f'model = "{self.model}"\ntimeout_s = 10\nmax_retries = 0\n'
        )

    def last_user_messages(self) -> list[str]:
        out = []
        for request in self.requests:
            messages = request.get("messages")
            assert isinstance(messages, list)
            out.append(str(messages[-1]["content"]))
        return out

    async def start(self) -> ChatEndpoint:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2.0)
            self._server = None

    async def __aenter__(self) -> ChatEndpoint:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            body = await read_request(reader)
            self.requests.append(body)
            reply = self.replies.pop(0) if self.replies else self.then
            writer.write(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n"
                b"Connection: close\r\n\r\n"
            )
            await writer.drain()
            async with self._slot or contextlib.nullcontext():  # single slot: later requests wait
                await asyncio.sleep(self.delay_s)
                await self._stream(writer, body, reply)
                self.served += 1
            await self._send(writer, b"data: [DONE]\n\n")
            writer.write(b"0\r\n\r\n")
            await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass
        finally:
            with contextlib.suppress(Exception):
                writer.close()

    async def _stream(self, writer: asyncio.StreamWriter, body: dict[str, Any], reply: str) -> None:
        if self.by_words:
            words = reply.split(" ")
            pieces = [word if i == 0 else " " + word for i, word in enumerate(words)]
        else:
            pieces = [reply[i : i + self.chunk_chars] for i in range(0, len(reply), self.chunk_chars)]
        for piece in pieces:
            await self._event(writer, {"content": piece}, None)
        if self.usage:
            await self._send_json(
                writer, {**self._chunk({}, None), "choices": [], "usage": _usage(body, pieces)}
            )
        else:
            await self._event(writer, {}, "stop")

    async def _event(self, writer: asyncio.StreamWriter, delta: dict[str, str], finish: str | None) -> None:
        await self._send_json(writer, self._chunk(delta, finish))

    def _chunk(self, delta: dict[str, str], finish: str | None) -> dict[str, Any]:
        return {
            "id": self.model,
            "object": "chat.completion.chunk",
            "created": 0,
            "model": self.model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    async def _send_json(self, writer: asyncio.StreamWriter, payload: dict[str, Any]) -> None:
        await self._send(writer, f"data: {json.dumps(payload)}\n\n".encode())

    @staticmethod
    async def _send(writer: asyncio.StreamWriter, data: bytes) -> None:
        writer.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        await writer.drain()


def _usage(body: dict[str, Any], pieces: list[str]) -> dict[str, int]:
    prompt = sum(len(str(m.get("content", "")).split()) for m in body.get("messages", []))
    completion = len(pieces)
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def slow_endpoint(reply: str, *, delay_s: float) -> ChatEndpoint:
    """A busy local server: one request at a time, ``delay_s`` to each first token, ``reply`` word by word."""
    return ChatEndpoint(
        then=reply, by_words=True, delay_s=delay_s, single_slot=True, usage=True, model="stub"
    )
