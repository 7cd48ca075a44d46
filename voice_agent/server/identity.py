"""Who a ``hello`` may speak as: a returning user only with their second factor, else a fresh visitor.

    verdict = await gate.resolve(hello, peer="10.0.0.7")
    verdict.user       # the badge id to continue (None: a fresh anonymous conversation)
    verdict.problem    # None, or the non-fatal error to tell the client (pin_required, identity_refused,
                       # identity_locked with retry_after_s)

Without a valid PIN or badge token a returning id gives nothing back: the visitor gets a fresh
conversation (no memories, and ``erase`` there cannot touch the badge's conversation). Wrong PINs are
counted per badge and per client; ``server.identity_max_failures`` of them lock both out, for
``server.identity_lockout_s`` and twice as long each time after.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from voice_agent.config import ServerConfig
from voice_agent.server.attempts import AttemptLimiter
from voice_agent.server.credentials import BadgeError, BadgeSigner, PinStore, valid_pin
from voice_agent.server.protocol import ClientMessage, error_event
from voice_agent.server.visitors import returning_conversation_id

HasHistory = Callable[[str], Awaitable[bool]]
REFUSED = "that badge and PIN do not match, or this badge is not enrolled; ask the staff for help"


@dataclass(frozen=True)
class Verdict:
    user: str | None  # the badge id to continue as (None: anonymous)
    problem: str | None = None  # error code for the client, None when nothing went wrong
    message: str = ""
    retry_after_s: float | None = None
    enrolled: bool = False  # the PIN was set just now, at the badge's first visit

    def event(self) -> dict[str, Any] | None:
        if self.problem is None:
            return None
        event = error_event(self.problem, self.message)
        if self.retry_after_s is not None:
            event["retry_after_s"] = round(self.retry_after_s, 1)
        return event


class IdentityGate:
    def __init__(
        self,
        config: ServerConfig,
        *,
        user_key: bytes,
        pins: PinStore,
        signer: BadgeSigner,
        by_badge: AttemptLimiter,
        by_client: AttemptLimiter,
        has_history: HasHistory,
    ) -> None:
        self.config = config
        self.user_key = user_key
        self.pins = pins
        self.signer = signer
        self.by_badge = by_badge
        self.by_client = by_client
        self.has_history = has_history

    async def resolve(self, hello: ClientMessage, *, peer: str) -> Verdict:
        if hello.badge:
            return self._badge(hello.badge, peer)
        if not hello.user:
            return Verdict(None)
        if self.config.returning_factor == "badge":
            return Verdict(
                None, "identity_refused", "this kiosk recognises returning users by signed badge only"
            )
        return await self._pin(hello.user, hello.pin, peer)

    def _badge(self, token: str, peer: str) -> Verdict:
        if self.config.returning_factor == "pin":
            return Verdict(
                None, "identity_refused", "this kiosk recognises returning users by badge id and PIN"
            )
        try:
            user = self.signer.verify(token)
        except BadgeError as err:
            self.by_client.fail(peer)
            message = (
                "this badge has expired; ask the staff for a new one" if err.reason == "expired" else REFUSED
            )
            return Verdict(None, "badge_expired" if err.reason == "expired" else "identity_refused", message)
        return Verdict(user)

    async def _pin(self, user: str, pin: str | None, peer: str) -> Verdict:
        badge = returning_conversation_id(self.user_key, user)
        wait = max(self.by_client.retry_after(peer), self.by_badge.retry_after(badge))
        if wait > 0:
            return _locked(wait)
        if pin is None:
            return Verdict(None, "pin_required", "type your PIN, then Enter")
        if not valid_pin(pin):  # cannot match any PIN: not a guess worth counting
            return Verdict(None, "identity_refused", "a PIN is 4 to 12 digits")
        pins = self.pins  # a small file under a lock: read off the event loop
        if await asyncio.to_thread(pins.verify, badge, pin):
            self.by_badge.succeed(badge)
            self.by_client.succeed(peer)
            return Verdict(user)
        may_enrol = self.config.pin_self_enrol and not await asyncio.to_thread(pins.has_pin, badge)
        if may_enrol and not await self.has_history(badge):
            if await asyncio.to_thread(pins.set, badge, pin, by="visitor", only_if_unset=True):
                return Verdict(user, enrolled=True)
            if await asyncio.to_thread(pins.verify, badge, pin):  # another kiosk enrolled it just now
                return Verdict(user)
        lockout = max(self.by_badge.fail(badge), self.by_client.fail(peer))
        if lockout > 0:
            return _locked(lockout)
        return Verdict(None, "identity_refused", REFUSED)


def _locked(wait_s: float) -> Verdict:
    return Verdict(
        None, "identity_locked", "too many wrong PINs; please wait before trying again", retry_after_s=wait_s
    )
