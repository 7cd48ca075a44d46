"""The second factor of a returning kiosk user: a PIN, or a signed badge token.

A badge id alone is not a credential (anyone who reads or types it would hear that person's memories),
so a returning user also shows one of:

- **a PIN** (4 to 12 digits), set by the user at their first visit (``server.pin_self_enrol``: only for a
  badge id that has no PIN and no stored conversation yet) or by the operator
  (``voice-agent kiosk pin BADGE``). It is stored only as an HMAC under a key derived from the install
  secret, bound to the badge's hashed conversation id, in ``<data_dir>/kiosk/pins.json`` (mode 0600);
  neither the badge id nor the PIN is written anywhere.
- **a signed badge token**, issued by the operator (``voice-agent kiosk badge BADGE``): the badge id, an
  expiry and an HMAC over both under a key derived from the install secret. A badge or QR code carries the
  whole token; it cannot be forged or extended without the secret.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import hashlib
import hmac
import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

BADGE_PREFIX = "vab1"
PIN_PATTERN = re.compile(r"^[0-9]{4,12}$")
_PINS_LABEL = b"voice-agent/kiosk-pins/v1"
_BADGES_LABEL = b"voice-agent/kiosk-badges/v1"
_MAC_BYTES = 18


class BadgeError(ValueError):
    """A badge token that is malformed, forged or expired (``reason``: "invalid" | "expired")."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"badge token {reason}")
        self.reason = reason


def pins_key(install_key: bytes) -> bytes:
    return hmac.new(install_key, _PINS_LABEL, hashlib.sha256).digest()


def badges_key(install_key: bytes) -> bytes:
    return hmac.new(install_key, _BADGES_LABEL, hashlib.sha256).digest()


def valid_pin(pin: str) -> bool:
    return bool(PIN_PATTERN.match(pin))


# -- badge tokens -----------------------------------------------------------------------------------------
def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class BadgeSigner:
    """Issues and verifies ``vab1.<badge id>.<expiry>.<mac>`` tokens."""

    def __init__(self, key: bytes) -> None:
        self._key = key

    def _mac(self, body: str) -> str:
        return _b64(hmac.new(self._key, body.encode("ascii"), hashlib.sha256).digest()[:_MAC_BYTES])

    def issue(self, badge: str, *, expires_at: float) -> str:
        badge = badge.strip()
        if not badge or not badge.isprintable():
            raise ValueError("a badge id must be printable text")
        body = f"{BADGE_PREFIX}.{_b64(badge.encode('utf-8'))}.{int(expires_at)}"
        return f"{body}.{self._mac(body)}"

    def verify(self, token: str, *, now: float | None = None) -> str:
        """The badge id a token names; ``BadgeError`` when it is forged, malformed or expired."""
        parts = token.strip().split(".")
        if len(parts) != 4 or parts[0] != BADGE_PREFIX or not parts[2].isdigit():
            raise BadgeError("invalid")
        body = ".".join(parts[:3])
        if not hmac.compare_digest(self._mac(body), parts[3]):
            raise BadgeError("invalid")
        if int(parts[2]) <= (time.time() if now is None else now):
            raise BadgeError("expired")
        try:
            badge = _unb64(parts[1]).decode("utf-8")
        except (ValueError, UnicodeDecodeError) as err:
            raise BadgeError("invalid") from err
        if not badge.strip() or not badge.isprintable():
            raise BadgeError("invalid")
        return badge.strip()


def looks_like_badge_token(text: str) -> bool:
    return text.startswith(BADGE_PREFIX + ".")


# -- PINs -------------------------------------------------------------------------------------------------
class PinStore:
    """Keyed PIN hashes per returning conversation, in one small JSON file shared by the service and the
    operator's CLI (writes under an exclusive file lock, replaced atomically)."""

    def __init__(self, path: Path, key: bytes) -> None:
        self.path = Path(path)
        self._key = key

    @classmethod
    def for_data_dir(cls, data_dir: Path, key: bytes) -> PinStore:
        return cls(Path(data_dir) / "kiosk" / "pins.json", key)

    def _hash(self, conversation_id: str, pin: str) -> str:
        message = conversation_id.encode("utf-8") + b"\x00" + pin.encode("ascii")
        return hmac.new(self._key, message, hashlib.sha256).hexdigest()

    def has_pin(self, conversation_id: str) -> bool:
        with self._locked(exclusive=False):
            return conversation_id in self._read()

    def verify(self, conversation_id: str, pin: str) -> bool:
        if not valid_pin(pin):
            return False
        with self._locked(exclusive=False):
            entry = self._read().get(conversation_id)
        if not isinstance(entry, dict):
            return False
        return hmac.compare_digest(str(entry.get("hash", "")), self._hash(conversation_id, pin))

    def set(self, conversation_id: str, pin: str, *, by: str, only_if_unset: bool = False) -> bool:
        """Store ``pin`` for a conversation; with ``only_if_unset`` nothing changes when one exists
        (two kiosks enrolling the same badge at once: the first wins). True when stored."""
        if not valid_pin(pin):
            raise ValueError("a PIN is 4 to 12 digits")
        with self._locked(exclusive=True):
            pins = self._read()
            if only_if_unset and conversation_id in pins:
                return False
            pins[conversation_id] = {
                "hash": self._hash(conversation_id, pin),
                "by": by,
                "at": int(time.time()),
            }
            self._write(pins)
        return True

    def remove(self, conversation_id: str) -> bool:
        with self._locked(exclusive=True):
            pins = self._read()
            if pins.pop(conversation_id, None) is None:
                return False
            self._write(pins)
        return True

    @contextlib.contextmanager
    def _locked(self, *, exclusive: bool) -> Iterator[None]:
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(self.path.with_name(self.path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
            yield
        finally:
            os.close(fd)  # releases the lock

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        pins = data.get("pins") if isinstance(data, dict) else None
        if not isinstance(pins, dict):
            raise ValueError(f"{self.path} is not a PIN file")
        return pins

    def _write(self, pins: dict[str, Any]) -> None:
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump({"version": 1, "pins": pins}, handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, self.path)
