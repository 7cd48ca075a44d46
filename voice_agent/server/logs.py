"""Structured logs for the service: one JSON object per line, with no personal data.

The server's own events carry only counts, durations, reasons and public (hashed) conversation ids,
never transcripts or reply text. Library modules log plain messages that may name a conversation id;
``IdRedactor`` replaces every live conversation id with its public hash before a record is written.
"""

from __future__ import annotations

import json
import logging
import sys
import threading
import time
from typing import Any

from voice_agent.server.visitors import public_id

EVENT_LOGGER = "voice_agent.server"


class IdRedactor:
    """The conversation ids in use now; ``redact`` swaps each for its public hash."""

    def __init__(self) -> None:
        self._ids: dict[str, str] = {}
        self._lock = threading.Lock()

    def add(self, conversation_id: str) -> None:
        with self._lock:
            self._ids[conversation_id] = public_id(conversation_id)

    def discard(self, conversation_id: str) -> None:
        with self._lock:
            self._ids.pop(conversation_id, None)

    def redact(self, text: str) -> str:
        with self._lock:
            pairs = list(self._ids.items())
        for raw, public in pairs:
            if raw in text:
                text = text.replace(raw, f"conv:{public}")
        return text


class JsonFormatter(logging.Formatter):
    def __init__(self, redactor: IdRedactor) -> None:
        super().__init__()
        self.redactor = redactor

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": self.redactor.redact(record.getMessage()),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            entry.update(fields)
        if record.exc_info and record.exc_info[0] is not None:
            # the exception type and message only: a traceback's locals may hold user text
            exc = record.exc_info[1]
            entry["error"] = self.redactor.redact(f"{record.exc_info[0].__name__}: {exc}")
        return json.dumps(entry, ensure_ascii=False, default=str)


def configure(redactor: IdRedactor, *, level: str = "info") -> logging.Handler:
    """Send every log record to stderr as JSON lines (replacing earlier root handlers)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter(redactor))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    for noisy in ("uvicorn.access", "httpx", "httpcore"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    return handler


def event(name: str, **fields: Any) -> None:
    """Log one service event (``fields`` must hold no personal data: counts, ms, reasons, public ids)."""
    logging.getLogger(EVENT_LOGGER).info(name, extra={"fields": {"event": name, **fields}})


def now_ms() -> float:
    return time.monotonic() * 1000
