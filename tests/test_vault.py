"""PII vault on a real SQLite file, owner-only reveal, integrity, hints; the install key and its file."""

from __future__ import annotations

import base64
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import apsw
import pytest

from voice_agent.config import load_config
from voice_agent.errors import ConfigError, InputError, TenantRequiredError
from voice_agent.memory.keys import (
    PII_KEY_ENV,
    install_key_from_config,
    load_or_create_install_key,
    placeholder_hmac_key,
    vault_encryption_key,
)
from voice_agent.memory.scrub import PiiFinding, Scrubber
from voice_agent.memory.vault import (
    PiiVault,
    VaultIntegrityError,
    generic_hint,
    safe_hint,
    unscrub_for_owner,
    unscrub_for_owner_async,
)

Scrubbed = tuple[str, list[PiiFinding]]
KEY = bytes(range(32))
TEXT = (
    "I'm Mary, call 138 0013 8000 or mail john dot smith at gmail dot com; "
    "I live at 221B Baker Street and my card is 4111 1111 1111 1111."
)
RAW_VALUES = ["138 0013 8000", "13800138000", "john dot smith", "john.smith", "Baker", "4111", "Mary"]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "memory.sqlite3"


@pytest.fixture
def conn(db_path: Path) -> Iterator[apsw.Connection]:
    connection = apsw.Connection(str(db_path))
    yield connection
    connection.close()


@pytest.fixture
def scrubbed() -> Scrubbed:
    result = Scrubber(KEY).scrub(TEXT, name_spans=[(4, 8)])
    assert [f.kind for f in result.found] == ["NAME", "PHONE", "EMAIL", "ADDRESS", "CARD"]
    return result.text, result.found


def test_round_trip_and_owner_only_reveal(conn: apsw.Connection, scrubbed: Scrubbed) -> None:
    _, found = scrubbed
    vault = PiiVault(conn, KEY)
    assert vault.put("conv-a", found) == len(found)
    assert vault.put("conv-a", found) == 0  # already there
    for finding in found:
        assert vault.reveal("conv-a", finding.placeholder) == finding.value
        assert vault.reveal("conv-b", finding.placeholder) is None
        entry = vault.entry("conv-a", finding.placeholder)
        assert entry is not None and entry.canonical == finding.canonical
        assert finding.value not in repr(entry)


def test_values_survive_reopening_and_are_not_stored_in_clear(db_path: Path, scrubbed: Scrubbed) -> None:
    _, found = scrubbed
    first = apsw.Connection(str(db_path))
    PiiVault(first, KEY).put("conv-a", found)
    first.close()
    raw = db_path.read_bytes()
    for value in RAW_VALUES:
        assert value.encode() not in raw, value
    second = apsw.Connection(str(db_path))
    vault = PiiVault(second, KEY)  # CREATE TABLE IF NOT EXISTS: the rows stay
    assert vault.reveal("conv-a", found[1].placeholder) == "138 0013 8000"
    second.close()


def test_vault_shares_the_store_file_with_other_tables(conn: apsw.Connection) -> None:
    conn.execute("CREATE TABLE records (id TEXT PRIMARY KEY, text TEXT)")
    conn.execute("INSERT INTO records VALUES ('r1', 'hello')")
    PiiVault(conn, KEY)
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"records", "pii_vault"}
    assert conn.execute("SELECT text FROM records").fetchall() == [("hello",)]


def test_tampered_row_fails(conn: apsw.Connection, scrubbed: Scrubbed) -> None:
    text, found = scrubbed
    vault = PiiVault(conn, KEY)
    vault.put("conv-a", found)
    phone = found[1].placeholder
    row = conn.execute(
        "SELECT ciphertext FROM pii_vault WHERE conversation_id = 'conv-a' AND placeholder = ?", (phone,)
    ).fetchone()
    assert row is not None
    sealed = row[0]
    flipped = bytes([sealed[0] ^ 1]) + bytes(sealed[1:])
    conn.execute("UPDATE pii_vault SET ciphertext = ? WHERE placeholder = ?", (flipped, phone))
    with pytest.raises(VaultIntegrityError, match="failed authentication"):
        vault.reveal("conv-a", phone)
    # the reply path degrades to a generic noun instead of failing or leaking
    assert "a phone number" in unscrub_for_owner(text, "conv-a", vault)
    # other rows are untouched
    assert vault.reveal("conv-a", found[2].placeholder) == found[2].value


def test_row_copied_to_another_conversation_fails(conn: apsw.Connection, scrubbed: Scrubbed) -> None:
    _, found = scrubbed
    vault = PiiVault(conn, KEY)
    vault.put("conv-a", found)
    conn.execute(
        "INSERT INTO pii_vault (conversation_id, placeholder, kind, nonce, ciphertext, created_at) "
        "SELECT 'conv-b', placeholder, kind, nonce, ciphertext, created_at FROM pii_vault "
        "WHERE conversation_id = 'conv-a'"
    )
    for finding in found:
        with pytest.raises(VaultIntegrityError):
            vault.reveal("conv-b", finding.placeholder)
    # a row moved under another placeholder of the same conversation fails too
    conn.execute(
        "UPDATE pii_vault SET placeholder = ? WHERE conversation_id = 'conv-a' AND placeholder = ?",
        (found[0].placeholder.replace(found[0].placeholder[-5:-1], "0000"), found[0].placeholder),
    )
    with pytest.raises(VaultIntegrityError):
        vault.reveal("conv-a", found[0].placeholder.replace(found[0].placeholder[-5:-1], "0000"))


def test_another_install_key_cannot_read(conn: apsw.Connection, scrubbed: Scrubbed) -> None:
    _, found = scrubbed
    PiiVault(conn, KEY).put("conv-a", found)
    with pytest.raises(VaultIntegrityError, match="install key changed"):
        PiiVault(conn, bytes(range(1, 33))).reveal("conv-a", found[1].placeholder)


def test_forget_conversation(conn: apsw.Connection, scrubbed: Scrubbed) -> None:
    _, found = scrubbed
    vault = PiiVault(conn, KEY)
    vault.put("conv-a", found)
    vault.put("conv-b", found[:2])
    assert vault.forget_conversation("conv-a") == len(found)
    assert vault.forget_conversation("conv-a") == 0
    assert vault.reveal("conv-a", found[0].placeholder) is None
    assert vault.reveal("conv-b", found[0].placeholder) == found[0].value


def test_bad_arguments_are_clear_errors(conn: apsw.Connection, scrubbed: Scrubbed) -> None:
    _, found = scrubbed
    vault = PiiVault(conn, KEY)
    with pytest.raises(TenantRequiredError):
        vault.put("", found)
    with pytest.raises(TenantRequiredError):
        vault.reveal("", found[0].placeholder)
    with pytest.raises(InputError, match="not a PII placeholder"):
        vault.reveal("conv-a", "13800138000")
    forged = PiiFinding("PHONE", found[2].placeholder, "x", "x")
    with pytest.raises(InputError, match="carries placeholder of kind EMAIL"):
        vault.put("conv-a", [forged])
    assert vault.put("conv-a", []) == 0
    assert conn.execute("SELECT count(*) FROM pii_vault").fetchone() == (0,)


# ---- speaking values back to their owner ---------------------------------------------------------
def test_unscrub_for_owner_gives_hints_only_to_the_owner(conn: apsw.Connection, scrubbed: Scrubbed) -> None:
    text, found = scrubbed
    vault = PiiVault(conn, KEY)
    vault.put("conv-a", found)
    owner = unscrub_for_owner(text, "conv-a", vault)
    assert owner == (
        "I'm Mary, call your phone number ending 8000 or mail your e-mail address at gmail.com; "
        "I live at your address and my card is the one ending 1111."
    )
    stranger = unscrub_for_owner(text, "conv-b", vault)
    assert stranger == (
        "I'm a name, call a phone number or mail an e-mail address; "
        "I live at an address and my card is a card."
    )
    assert unscrub_for_owner(text, "conv-a", vault, mode="value") == TEXT
    zh = unscrub_for_owner(text, "conv-a", vault, language="zh")
    assert "您尾号8000的电话号码" in zh and "尾号1111的那个" in zh


@pytest.mark.parametrize(
    ("said", "language", "heard"),
    [
        ("My phone number is 138 0013 8000.", "en", "My phone number is the one ending 8000."),
        ("Call 138 0013 8000 after six.", "en", "Call your phone number ending 8000 after six."),
        ("我的电话是13800138000。", "zh", "我的电话是尾号8000的那个。"),
        ("My e-mail is mary@gmail.com.", "en", "My e-mail is the one at gmail.com."),
    ],
)
def test_a_value_whose_kind_was_just_said_is_told_apart_not_named_again(
    conn: apsw.Connection, said: str, language: str, heard: str
) -> None:
    scrubbed = Scrubber(KEY).scrub(said)
    vault = PiiVault(conn, KEY)
    vault.put("conv-a", scrubbed.found)
    assert unscrub_for_owner(scrubbed.text, "conv-a", vault, language=language) == heard  # type: ignore[arg-type]


async def test_unscrub_for_owner_async(conn: apsw.Connection, scrubbed: Scrubbed) -> None:
    text, found = scrubbed
    vault = PiiVault(conn, KEY)
    vault.put("conv-a", found)
    assert await unscrub_for_owner_async(text, "conv-a", vault) == unscrub_for_owner(text, "conv-a", vault)
    assert await unscrub_for_owner_async("no placeholders here", "conv-a", vault) == "no placeholders here"


def test_hints(conn: apsw.Connection) -> None:
    scrubber = Scrubber(KEY)
    vault = PiiVault(conn, KEY)
    found = scrubber.scrub("身份证11010519491231002X，手机一三八零零一三八零零零").found
    vault.put("c", found)
    entries = [vault.entry("c", f.placeholder) for f in found]
    assert [safe_hint(e) for e in entries if e] == [
        "your ID number ending 002X",
        "your phone number ending 8000",
    ]
    assert [safe_hint(e, language="zh") for e in entries if e] == [
        "您尾号002X的身份证号",
        "您尾号8000的电话号码",
    ]
    assert generic_hint("EMAIL") == "an e-mail address"
    assert generic_hint("PHONE", language="zh") == "某个电话号码"


# ---- the install key ----------------------------------------------------------------------------
def test_key_file_is_created_private_and_reused(tmp_path: Path) -> None:
    path = tmp_path / "data" / "secrets" / "pii.key"
    key = load_or_create_install_key(path, env={})
    assert len(key) >= 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert load_or_create_install_key(path, env={}) == key
    assert [p.name for p in path.parent.iterdir()] == ["pii.key"]  # no temp file left behind


def test_group_readable_key_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "pii.key"
    load_or_create_install_key(path, env={})
    os.chmod(path, 0o644)
    with pytest.raises(ConfigError, match="0600"):
        load_or_create_install_key(path, env={})
    assert path.read_text().strip()  # refused, not replaced


def test_environment_key_wins(tmp_path: Path) -> None:
    path = tmp_path / "pii.key"
    raw = os.urandom(32)
    assert load_or_create_install_key(path, env={PII_KEY_ENV: raw.hex()}) == raw
    assert load_or_create_install_key(path, env={PII_KEY_ENV: base64.b64encode(raw).decode()}) == raw
    assert load_or_create_install_key(path, env={PII_KEY_ENV: base64.urlsafe_b64encode(raw).decode()}) == raw
    assert not path.exists()  # nothing written when the environment provides the key


@pytest.mark.parametrize("value", ["00" * 16, "not a key!", "c2hvcnQ="])
def test_bad_environment_keys_are_refused(tmp_path: Path, value: str) -> None:
    with pytest.raises(ConfigError, match=PII_KEY_ENV):
        load_or_create_install_key(tmp_path / "pii.key", env={PII_KEY_ENV: value})


def test_short_key_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "pii.key"
    path.write_text("abcd\n")
    os.chmod(path, 0o600)
    with pytest.raises(ConfigError, match="at least 32"):
        load_or_create_install_key(path, env={})


def test_install_key_from_config_uses_the_data_dir(tmp_path: Path) -> None:
    config = load_config(data_dir=tmp_path, env={})
    key = install_key_from_config(config, env={})
    assert config.pii_key_path() == tmp_path / "secrets" / "pii.key"
    assert config.pii_key_path().is_file()
    assert install_key_from_config(config, env={}) == key


def test_derived_keys_are_independent() -> None:
    assert placeholder_hmac_key(KEY) != vault_encryption_key(KEY)
    assert placeholder_hmac_key(KEY) != KEY and vault_encryption_key(KEY) != KEY
    with pytest.raises(ConfigError, match="at least 32"):
        placeholder_hmac_key(b"short")
