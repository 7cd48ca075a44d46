"""Visits: who is talking to the kiosk now, and under which conversation id.

An anonymous visitor gets a fresh random conversation id; nothing links it to the visit before or after,
so the next visitor can never reach it. A returning user, identified by an opaque id the operator's badge
or QR reader supplies, gets a conversation id derived from that id with a keyed hash (HMAC under the
install secret): stable across visits and kiosks sharing the secret, and not reversible or guessable
without the secret. Outside the store, a conversation is only ever named by ``public_id`` (logs, the page).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from typing import Literal

from voice_agent.clock import Clock

_USER_LABEL = b"voice-agent/kiosk-user/v1:"
EndReason = Literal["button", "idle", "erase", "disconnect", "shutdown"]


def users_key(install_key: bytes) -> bytes:
    """The key returning-user ids are hashed under, derived from the install secret."""
    return hmac.new(install_key, b"voice-agent/kiosk-users/v1", hashlib.sha256).digest()


def new_conversation_id() -> str:
    return "visit-" + secrets.token_hex(16)


def returning_conversation_id(install_key: bytes, user: str) -> str:
    """The conversation (tenant) of a returning user: a keyed hash of the operator-supplied id."""
    if not user or not user.strip():
        raise ValueError("a returning user's id must not be empty")
    digest = hmac.new(install_key, _USER_LABEL + user.strip().encode("utf-8"), hashlib.sha256)
    return "user-" + digest.hexdigest()[:40]


def public_id(conversation_id: str) -> str:
    """How logs, metrics and the page name a conversation: a short one-way hash."""
    return hashlib.sha256(b"voice-agent/public:" + conversation_id.encode("utf-8")).hexdigest()[:12]


@dataclass
class Visit:
    """One visitor's stay at the kiosk: a conversation, and when it was last active."""

    conversation_id: str
    returning: bool
    clock: Clock
    started_ns: int = 0
    last_activity_ns: int = 0
    turns: int = 0
    user_key: str | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        now = self.clock.now_ns()
        self.started_ns = self.started_ns or now
        self.last_activity_ns = self.last_activity_ns or now

    @classmethod
    def start(cls, clock: Clock, *, install_key: bytes, user: str | None = None) -> Visit:
        if user:
            conversation = returning_conversation_id(install_key, user)
            return cls(conversation, True, clock, user_key=conversation)
        return cls(new_conversation_id(), False, clock)

    @property
    def public(self) -> str:
        return public_id(self.conversation_id)

    def touch(self) -> None:
        self.last_activity_ns = self.clock.now_ns()

    def idle_s(self) -> float:
        return (self.clock.now_ns() - self.last_activity_ns) / 1e9


HEARING_GRACE_S = 30.0  # the most a turn being heard (not decided yet) holds the idle timeout off


def idle_seconds(since_activity_s: float, hearing_s: float | None) -> float:
    """A visit's idle time: the seconds since its last activity, except while a turn is being heard
    (``hearing_s``: seconds since its speech started), which is no idle time for up to
    ``HEARING_GRACE_S`` (a speech start whose turn never resolves must not keep a conversation open)."""
    if hearing_s is None:
        return since_activity_s
    return max(0.0, min(since_activity_s, hearing_s - HEARING_GRACE_S))
