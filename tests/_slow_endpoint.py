"""A slow OpenAI-compatible chat endpoint at the network edge: a real HTTP server on 127.0.0.1 that serves
one request at a time (like llama.cpp's single slot: later requests queue), waits ``delay_s`` before the
first token of each, then streams ``reply`` word by word with usage and ``[DONE]``."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any


class SlowEndpoint:
    def __init__(self, reply: str, *, delay_s: float) -> None:
        self.reply = reply
        self.delay_s = delay_s
        self.requests: list[dict[str, Any]] = []
        self.served = 0
        self.port = 0
        self._slot = asyncio.Lock()
        self._server: asyncio.Server | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def backend_toml(self, *, timeout_s: float = 10.0, first_token_timeout_s: float | None = None) -> str:
        first = (
            "" if first_token_timeout_s is None else f"first_token_timeout_s = {first_token_timeout_s:g}\n"
        )
        return (
            f'[[llm.backends]]\nname = "slow"\nkind = "openai"\nbase_url = "{self.base_url}"\n'
            f'model = "stub"\ntimeout_s = {timeout_s:g}\nmax_retries = 0\n{first}'
        )

    async def __aenter__(self) -> SlowEndpoint:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2.0)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.decode("latin-1").split("\r\n"):
                if line.lower().startswith("content-length:"):
                    length = int(line.split(":", 1)[1])
            body = json.loads(await reader.readexactly(length)) if length else {}
            self.requests.append(body)
            writer.write(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n"
                b"Connection: close\r\n\r\n"
            )
            await writer.drain()
            async with self._slot:  # one at a time: a second request waits for the first
                await asyncio.sleep(self.delay_s)
                words = self.reply.split(" ")
                for i, word in enumerate(words):
                    await self._event(writer, _chunk(word if i == 0 else " " + word))
                await self._event(writer, {**_chunk(""), "choices": [], "usage": _usage(body, len(words))})
                self.served += 1
            await self._send(writer, b"data: [DONE]\n\n")
            writer.write(b"0\r\n\r\n")
            await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass
        finally:
            with contextlib.suppress(Exception):
                writer.close()

    async def _event(self, writer: asyncio.StreamWriter, payload: dict[str, Any]) -> None:
        await self._send(writer, f"data: {json.dumps(payload)}\n\n".encode())

    @staticmethod
    async def _send(writer: asyncio.StreamWriter, data: bytes) -> None:
        writer.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        await writer.drain()


def _chunk(text: str) -> dict[str, Any]:
    return {
        "id": "slow",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "stub",
        "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}],
    }


def _usage(body: dict[str, Any], completion: int) -> dict[str, int]:
    prompt = sum(len(str(m.get("content", "")).split()) for m in body.get("messages", []))
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
