"""The PII vault: placeholder → raw value, encrypted, for the owning conversation only.

Rows live in table ``pii_vault`` of the store's SQLite file (an apsw connection handed in; the store owns
the file and its thread). Each value is sealed with AES-256-GCM under a key derived from the install
secret (HKDF, an ``info`` distinct from the placeholder HMAC key), with the conversation id and the
placeholder as associated data: a row copied into another conversation, or under another placeholder,
fails authentication instead of decrypting. Nothing here is ever embedded or put in a vector store.

The methods block (SQLite): call them from the store's worker thread, not on the event loop.
:func:`unscrub_for_owner` turns a reply holding placeholders into speakable text for the owner
("your phone number ending 8000"); any other conversation gets only a generic noun ("a phone number").
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from voice_agent.errors import InputError, StoreError, TenantRequiredError
from voice_agent.memory.keys import vault_encryption_key
from voice_agent.memory.scrub import PLACEHOLDER_RE, PiiFinding
from voice_agent.memory.store.sqlite_conn import write_transaction

if TYPE_CHECKING:
    import apsw

_SCHEMA = """
CREATE TABLE IF NOT EXISTS pii_vault (
    conversation_id TEXT NOT NULL,
    placeholder     TEXT NOT NULL,
    kind            TEXT NOT NULL,
    nonce           BLOB NOT NULL,
    ciphertext      BLOB NOT NULL,
    created_at      REAL NOT NULL,
    PRIMARY KEY (conversation_id, placeholder)
) WITHOUT ROWID
"""
_AAD_PREFIX = b"voice-agent/pii-vault/v1\x00"
_NONCE_BYTES = 12

Language = Literal["en", "zh"]
_NOUNS: dict[str, tuple[str, str]] = {
    "PHONE": ("phone number", "电话号码"),
    "ID": ("ID number", "身份证号"),
    "CARD": ("card", "银行卡"),
    "EMAIL": ("e-mail address", "邮箱"),
    "ADDRESS": ("address", "地址"),
    "NAME": ("name", "名字"),
}


class VaultIntegrityError(StoreError):
    """A vault row failed authentication: tampered with, copied from elsewhere, or the install key changed."""


@dataclass(frozen=True, repr=False)
class VaultEntry:
    kind: str
    placeholder: str
    value: str = field(compare=False)  # as first said
    canonical: str = field(compare=False)  # normalised (digits of a phone, lower-case e-mail, …)

    def __repr__(self) -> str:
        return f"VaultEntry(kind={self.kind!r}, placeholder={self.placeholder!r})"

    __str__ = __repr__


class PiiVault:
    """Encrypted (conversation_id, placeholder) → value map in table ``pii_vault`` of ``connection``."""

    def __init__(self, connection: apsw.Connection, install_key: bytes) -> None:
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        self._conn = connection
        self._aead = AESGCM(vault_encryption_key(install_key))
        write_transaction(self._conn, lambda conn: conn.execute(_SCHEMA))

    def put(self, conversation_id: str, findings: Iterable[PiiFinding]) -> int:
        """Store the values of ``findings`` for ``conversation_id``; returns how many rows were new.

        A placeholder already stored for the conversation is kept as is (same placeholder, same value).
        """
        _require_conversation(conversation_id, "pii vault put")
        rows = []
        now = time.time()
        for finding in findings:
            kind = _check_placeholder(finding.placeholder)
            if kind != finding.kind:
                raise InputError(f"finding of kind {finding.kind} carries placeholder of kind {kind}")
            payload = json.dumps({"v": finding.value, "c": finding.canonical}).encode("ascii")
            nonce = os.urandom(_NONCE_BYTES)
            sealed = self._aead.encrypt(nonce, payload, _aad(conversation_id, finding.placeholder))
            rows.append((conversation_id, finding.placeholder, kind, nonce, sealed, now))
        if not rows:
            return 0

        def insert(conn: apsw.Connection) -> int:
            before = conn.total_changes()
            conn.executemany(
                "INSERT INTO pii_vault (conversation_id, placeholder, kind, nonce, ciphertext, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (conversation_id, placeholder) DO NOTHING",
                rows,
            )
            return conn.total_changes() - before

        return write_transaction(self._conn, insert)

    def reveal(self, conversation_id: str, placeholder: str) -> str | None:
        """The raw value behind ``placeholder`` for its owning conversation; None for any other one.

        Raises ``VaultIntegrityError`` when the stored row does not authenticate.
        """
        entry = self.entry(conversation_id, placeholder)
        return entry.value if entry else None

    def entry(self, conversation_id: str, placeholder: str) -> VaultEntry | None:
        """Like :meth:`reveal`, with the kind and the canonical form (for hints such as "ending 8000")."""
        _require_conversation(conversation_id, "pii vault reveal")
        kind = _check_placeholder(placeholder)
        row = self._conn.execute(
            "SELECT nonce, ciphertext FROM pii_vault WHERE conversation_id = ? AND placeholder = ?",
            (conversation_id, placeholder),
        ).fetchone()
        if row is None:
            return None
        from cryptography.exceptions import InvalidTag

        nonce, sealed = row
        try:
            payload = json.loads(
                self._aead.decrypt(bytes(nonce), bytes(sealed), _aad(conversation_id, placeholder))
            )
        except (InvalidTag, ValueError) as err:
            raise VaultIntegrityError(
                f"pii_vault row {placeholder} of conversation {conversation_id!r} failed authentication "
                "(tampered, copied from another conversation, or the install key changed)"
            ) from err
        return VaultEntry(kind, placeholder, str(payload["v"]), str(payload["c"]))

    def names(self, conversation_id: str) -> set[str]:
        """The canonical form of every person name stored for ``conversation_id`` (rows that fail
        authentication are left out)."""
        _require_conversation(conversation_id, "pii vault names")
        rows = self._conn.execute(
            "SELECT placeholder FROM pii_vault WHERE conversation_id = ? AND kind = 'NAME'",
            (conversation_id,),
        ).fetchall()
        found: set[str] = set()
        for (placeholder,) in rows:
            try:
                entry = self.entry(conversation_id, str(placeholder))
            except VaultIntegrityError:
                continue
            if entry is not None:
                found.add(entry.canonical)
        return found

    def forget_conversation(self, conversation_id: str) -> int:
        """Delete every value of ``conversation_id``; returns how many rows were removed."""
        _require_conversation(conversation_id, "pii vault forget")

        def delete(conn: apsw.Connection) -> int:
            before = conn.total_changes()
            conn.execute("DELETE FROM pii_vault WHERE conversation_id = ?", (conversation_id,))
            return conn.total_changes() - before

        return write_transaction(self._conn, delete)


def safe_hint(entry: VaultEntry, *, language: Language = "en") -> str:
    """Speakable, minimal words for the owner: "your phone number ending 8000", "您尾号8000的电话号码".

    Numbers show only their last four characters, e-mail only its domain, addresses nothing; a name is
    said as the owner said it (saying it back to them tells them nothing new).
    """
    noun_en, noun_zh = _NOUNS[entry.kind]
    if entry.kind == "NAME":
        return entry.value
    tail, domain = _tail(entry), _domain(entry)
    if tail:
        return f"您尾号{tail}的{noun_zh}" if language == "zh" else f"your {noun_en} ending {tail}"
    if domain:
        return f"您在{domain}的{noun_zh}" if language == "zh" else f"your {noun_en} at {domain}"
    return f"您的{noun_zh}" if language == "zh" else f"your {noun_en}"


def _tail(entry: VaultEntry) -> str:
    """The last four characters of a number (phone, ID, card): all of it that is ever said."""
    return re.sub(r"[^0-9X]", "", entry.canonical)[-4:] if entry.kind in ("PHONE", "ID", "CARD") else ""


def _domain(entry: VaultEntry) -> str:
    """An e-mail address's domain: all of it that is ever said."""
    return entry.canonical.rsplit("@", 1)[1] if entry.kind == "EMAIL" and "@" in entry.canonical else ""


# The kind of value named just before its placeholder ("my card is …", "电话是…"): the hint then says
# only which one, not "your card" again.
_NOUN_SAID_BEFORE: dict[str, re.Pattern[str]] = {
    "PHONE": re.compile(r"(?i:\b(?:phone|mobile|cell|number)\b[^.;!?]*$)|(?:电话|手机|号码)[^。；！？]*$"),
    "ID": re.compile(r"(?i:\b(?:ID|passport|number)\b[^.;!?]*$)|(?:身份证|证件|号码)[^。；！？]*$"),
    "CARD": re.compile(r"(?i:\bcard\b[^.;!?]*$)|(?:卡|卡号)[^。；！？]*$"),
    "EMAIL": re.compile(r"(?i:\b(?:e-?mail|address)\b[^.;!?]*$)|(?:邮箱|邮件)[^。；！？]*$"),
    "ADDRESS": re.compile(r"(?i:\baddress\b[^.;!?]*$)|地址[^。；！？]*$"),
    "NAME": re.compile(r"(?!)"),
}


def _short_hint(entry: VaultEntry, language: Language) -> str:
    """Which value it is, for a sentence that already says what kind: "the one ending 8000"."""
    tail, domain = _tail(entry), _domain(entry)
    if tail:
        return f"尾号{tail}的那个" if language == "zh" else f"the one ending {tail}"
    if domain:
        return f"{domain}的那个" if language == "zh" else f"the one at {domain}"
    return "您告诉过我的那个" if language == "zh" else "the one you gave me"


def generic_hint(kind: str, *, language: Language = "en") -> str:
    """What anyone but the owner hears for a placeholder: the kind of value, nothing of the value."""
    noun_en, noun_zh = _NOUNS.get(kind, ("detail", "信息"))
    if language == "zh":
        return f"某个{noun_zh}"
    return f"an {noun_en}" if noun_en[0] in "aeiouAEIOU" else f"a {noun_en}"


def unscrub_for_owner(
    text: str,
    conversation_id: str,
    vault: PiiVault,
    *,
    mode: Literal["hint", "value"] = "hint",
    language: Language = "en",
) -> str:
    """Replace each placeholder in ``text`` for speaking to the owner of ``conversation_id``.

    ``mode="hint"`` says "your phone number ending 8000"; ``mode="value"`` gives the full value back (for
    the owner only, e.g. to fill in a form). Placeholders of other conversations, or whose row fails
    authentication, become a generic noun ("a phone number"), so no placeholder is ever spoken.
    """

    def _render(m: re.Match[str]) -> str:
        try:
            entry = vault.entry(conversation_id, m.group())
        except VaultIntegrityError:
            entry = None
        if entry is None:
            return generic_hint(m.group(1), language=language)
        if mode == "value":
            return entry.value
        if _NOUN_SAID_BEFORE[entry.kind].search(text[max(0, m.start() - 40) : m.start()]):
            return _short_hint(entry, language)  # "your phone number is the one ending 8000"
        return safe_hint(entry, language=language)

    return PLACEHOLDER_RE.sub(_render, text)


def refill_own_names(text: str, conversation_id: str, vault: PiiVault) -> str:
    """``text`` with the person names of ``conversation_id`` as they were said ("[NAME:…]" → "Le Guin"),
    for an LLM that runs on this machine. Only names, and only this conversation's own: a placeholder
    of another conversation, of another kind (a phone number is said back only as a hint), or whose row
    fails authentication stays a placeholder."""

    def _refill(m: re.Match[str]) -> str:
        if m.group(1) != "NAME":
            return m.group()
        try:
            entry = vault.entry(conversation_id, m.group())
        except VaultIntegrityError:
            return m.group()
        return entry.value if entry is not None else m.group()

    return PLACEHOLDER_RE.sub(_refill, text)


async def unscrub_for_owner_async(
    text: str,
    conversation_id: str,
    vault: PiiVault,
    *,
    mode: Literal["hint", "value"] = "hint",
    language: Language = "en",
) -> str:
    """:func:`unscrub_for_owner` off the event loop (it reads SQLite)."""
    if not PLACEHOLDER_RE.search(text):
        return text
    return await asyncio.to_thread(
        unscrub_for_owner, text, conversation_id, vault, mode=mode, language=language
    )


def _aad(conversation_id: str, placeholder: str) -> bytes:
    return _AAD_PREFIX + conversation_id.encode("utf-8", "surrogatepass") + b"\x00" + placeholder.encode()


def _check_placeholder(placeholder: str) -> str:
    m = PLACEHOLDER_RE.fullmatch(placeholder) if isinstance(placeholder, str) else None
    if m is None:
        raise InputError(f"not a PII placeholder: {placeholder!r:.40}")
    return m.group(1)


def _require_conversation(conversation_id: str, operation: str) -> None:
    if not isinstance(conversation_id, str) or not conversation_id:
        raise TenantRequiredError(operation)
