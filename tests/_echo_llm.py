"""A real HTTP server that answers like an OpenAI-compatible chat endpoint whose model repeats the user.

The reply to every chat request is the last line of the last user message (the words the visitor said,
without the memory block or date the prompt puts before them), streamed as server-sent events. With
``leaks``, a turn that names one of its keys is answered with that key's text instead: a model that
knows what it should not (another visitor's words), which is what the loopback guard is there for.
Runs on its own thread, so a server in another process can call it while the
test's event loop waits.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class EchoLlm:
    def __init__(self, leaks: dict[str, str] | None = None) -> None:
        self.prompts: list[str] = []
        self.leaks = {key.lower(): text for key, text in (leaks or {}).items()}
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, name="echo-llm", daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def start(self) -> EchoLlm:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def backend_section(self) -> str:
        return f"""
[[llm.backends]]
name = "echo"
kind = "openai"
base_url = "{self.base_url}"
model = "echo"
timeout_s = 30
max_retries = 0
"""

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        echo = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_args: Any) -> None:  # quiet
                pass

            def do_GET(self) -> None:
                self._json({"object": "list", "data": [{"id": "echo", "object": "model"}]})

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                request = json.loads(self.rfile.read(length) or b"{}")
                users = [m for m in request.get("messages", []) if m.get("role") == "user"]
                said = str(users[-1]["content"]).strip().rsplit("\n", 1)[-1] if users else ""
                echo.prompts.append(said)
                leaked = [text for key, text in echo.leaks.items() if key in said.lower()]
                self._stream(leaked[0] if leaked else said)

            def _json(self, payload: dict[str, Any]) -> None:
                body = json.dumps(payload).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _stream(self, text: str) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                words = text.split(" ")
                for i, word in enumerate(words):
                    delta = word if i == 0 else " " + word
                    self._event(
                        {"choices": [{"index": 0, "delta": {"content": delta}, "finish_reason": None}]}
                    )
                self._event({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
                self.close_connection = True

            def _event(self, payload: dict[str, Any]) -> None:
                chunk = {
                    "id": "echo",
                    "object": "chat.completion.chunk",
                    "created": 0,
                    "model": "echo",
                    **payload,
                }
                self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.flush()

        return Handler
