"""The kiosk WebSocket protocol (version 1): message shapes, validation and the PCM framing.

See ``PROTOCOL.md`` beside this file for the full description. In short: binary frames are audio
(client → server: PCM16LE mono 16 kHz from the microphone; server → client: PCM16LE mono at the rate
announced in ``ready``), text frames are JSON objects with a ``type``. Everything a client sends is
validated here; a violation raises ``ProtocolError`` with the WebSocket close code to use.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from voice_agent.frames import PcmFloat32

PROTOCOL_VERSION = 1
AUDIO_IN_RATE_HZ = 16_000
AUDIO_ENCODING = "pcm_s16le"
MAX_TEXT_FRAME_CHARS = 4096
MAX_TOKEN_CHARS = 512
MAX_USER_ID_CHARS = 128
MAX_PIN_CHARS = 32

# WebSocket close codes (RFC 6455 §7.4.1)
CLOSE_NORMAL = 1000
CLOSE_GOING_AWAY = 1001
CLOSE_UNSUPPORTED = 1003
CLOSE_INVALID = 1007
CLOSE_POLICY = 1008
CLOSE_TOO_BIG = 1009
CLOSE_SERVER_ERROR = 1011

CLIENT_TYPES = ("hello", "new_conversation", "erase", "ping")


class ProtocolError(Exception):
    """A client broke the protocol; ``close_code`` says how the connection is closed."""

    def __init__(self, code: str, message: str, *, close_code: int = CLOSE_POLICY) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.close_code = close_code

    def event(self) -> dict[str, Any]:
        return error_event(self.code, self.message, fatal=True)


@dataclass(frozen=True)
class ClientMessage:
    type: str
    token: str | None = None
    user: str | None = None
    t: float | None = None
    pin: str | None = field(default=None, repr=False)
    badge: str | None = field(default=None, repr=False)


def parse_client_text(raw: str) -> ClientMessage:
    """One JSON control message from a client, validated."""
    if len(raw) > MAX_TEXT_FRAME_CHARS:
        raise ProtocolError(
            "text_too_long",
            f"a text frame holds {len(raw)} characters; the limit is {MAX_TEXT_FRAME_CHARS}",
            close_code=CLOSE_TOO_BIG,
        )
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, RecursionError) as err:
        raise ProtocolError("bad_json", f"a text frame is not JSON: {err}", close_code=CLOSE_INVALID) from err
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a text frame must be a JSON object", close_code=CLOSE_INVALID)
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise ProtocolError(
            "unknown_type", f"unknown message type {kind!r}; expected one of {', '.join(CLIENT_TYPES)}"
        )
    if kind == "hello":
        return _hello(data)
    if kind == "ping":
        t = data.get("t")
        return ClientMessage("ping", t=float(t) if isinstance(t, int | float) else None)
    return ClientMessage(kind)


def _hello(data: dict[str, Any]) -> ClientMessage:
    version = data.get("protocol", PROTOCOL_VERSION)
    if version != PROTOCOL_VERSION:
        raise ProtocolError(
            "bad_version", f"protocol {version!r} is not supported; this server speaks {PROTOCOL_VERSION}"
        )
    token = _optional_str(data, "token", MAX_TOKEN_CHARS)
    user = _optional_str(data, "user", MAX_USER_ID_CHARS)
    if user is not None and (not user.strip() or not user.isprintable()):
        raise ProtocolError("bad_user", "hello.user must be printable text with something besides spaces")
    pin = _optional_str(data, "pin", MAX_PIN_CHARS)
    badge = _optional_str(data, "badge", MAX_TOKEN_CHARS)
    if badge is not None and user is not None:
        raise ProtocolError("bad_user", "hello carries either user (with pin) or badge, not both")
    return ClientMessage(
        "hello", token=token, user=user.strip() if user else None, pin=pin.strip() if pin else None,
        badge=badge.strip() if badge else None,
    )  # fmt: skip


def _optional_str(data: dict[str, Any], key: str, limit: int) -> str | None:
    value = data.get(key)
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise ProtocolError(f"bad_{key}", f"hello.{key} must be a string")
    if len(value) > limit:
        raise ProtocolError(f"bad_{key}", f"hello.{key} is {len(value)} characters; the limit is {limit}")
    return value


def pcm16_to_float32(data: bytes, *, max_bytes: int) -> PcmFloat32:
    """A client's audio frame (PCM16LE mono) as float32 in [-1, 1]."""
    if not data:
        raise ProtocolError("empty_frame", "an audio frame is empty", close_code=CLOSE_INVALID)
    if len(data) > max_bytes:
        raise ProtocolError(
            "frame_too_big",
            f"an audio frame is {len(data)} bytes; the limit is {max_bytes}",
            close_code=CLOSE_TOO_BIG,
        )
    if len(data) % 2:
        raise ProtocolError(
            "odd_frame",
            f"an audio frame is {len(data)} bytes: PCM16 needs an even count",
            close_code=CLOSE_INVALID,
        )
    samples = np.frombuffer(data, dtype="<i2").astype(np.float32)
    return samples / 32768.0


def float32_to_pcm16(samples: PcmFloat32) -> bytes:
    clipped = np.clip(samples, -1.0, 1.0)
    return (clipped * 32767.0).astype("<i2").tobytes()


# -- server events ---------------------------------------------------------------------------------
def error_event(code: str, message: str, *, fatal: bool = False) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message, "fatal": fatal}


def ready_event(
    *,
    conversation: str,
    returning: bool,
    out_rate_hz: int,
    max_frame_bytes: int,
    retention_days: int,
    idle_timeout_s: float,
    turns_per_minute: int,
    max_utterance_s: float,
) -> dict[str, Any]:
    return {
        "type": "ready",
        "protocol": PROTOCOL_VERSION,
        "conversation": conversation,
        "returning": returning,
        "audio_in": {
            "encoding": AUDIO_ENCODING,
            "sample_rate_hz": AUDIO_IN_RATE_HZ,
            "channels": 1,
            "max_frame_bytes": max_frame_bytes,
        },
        "audio_out": {"encoding": AUDIO_ENCODING, "sample_rate_hz": out_rate_hz, "channels": 1},
        "privacy": {"retention_days": retention_days, "idle_timeout_s": idle_timeout_s},
        "limits": {"turns_per_minute": turns_per_minute, "max_utterance_s": max_utterance_s},
    }


def dumps(event: dict[str, Any]) -> str:
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"))
