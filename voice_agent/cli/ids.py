"""Operator-supplied ids (``--conversation``, ``--user``, an ingested dataset's conversation ids) at the
CLI boundary: they become the install's keyed hash before anything stores, logs or traces them.

An operator may name a conversation after a person ("sarah-connor-13800138000", "jane.doe@example.com");
that name must not end up in the SQLite file, in ``trace.jsonl`` or in a log line. The id is hashed with
the same keyed hash (HMAC under the install secret) as a kiosk badge id, so ``--conversation X`` means
the same conversation every time, on every command, and the kiosk's returning user ``X`` too; without the
install secret the hash can be neither reversed nor guessed (a phone number is not brute-forced from it).
An id that is already in stored form (``user-…`` as listed by ``memory list``, a kiosk's ``visit-…``) is
used as it is, so listed conversations can be exported, searched and forgotten.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from voice_agent.config import Config
from voice_agent.errors import InputError
from voice_agent.server.visitors import returning_conversation_id, users_key

_STORED_FORM = re.compile(r"(?:user-[0-9a-f]{40}|visit-[0-9a-f]{32})")


def is_stored_form(identifier: str) -> bool:
    """Already a keyed hash (or a kiosk's random visit id): nothing of a person is left in it."""
    return _STORED_FORM.fullmatch(identifier) is not None


@dataclass(frozen=True)
class OperatorIds:
    """Hashes ids the operator typed, with the key derived from the install secret."""

    key: bytes = field(repr=False)

    @classmethod
    def for_config(cls, config: Config) -> OperatorIds:
        from voice_agent.memory.keys import install_key_from_config

        return cls(users_key(install_key_from_config(config)))

    def conversation(self, raw: str | None, *, what: str = "--conversation") -> str:
        """The stored conversation id for ``raw``; an empty id is an error, never "every conversation"."""
        text = (raw or "").strip()
        if not text:
            raise InputError(f"{what}: the conversation id is empty")
        if is_stored_form(text):
            return text
        return returning_conversation_id(self.key, text)

    def user(self, raw: str | None) -> str | None:
        """The stored user id for ``raw`` (``None`` stays ``None``; an empty one is an error)."""
        if raw is None:
            return None
        return self.conversation(raw, what="--user")
