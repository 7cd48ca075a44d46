"""The per-install PII secret and the keys derived from it.

One random install secret (≥32 bytes) is the root. Two independent keys are derived from it with HKDF,
each under its own ``info`` string, so the placeholder HMAC key and the vault encryption key never coincide:

- :func:`placeholder_hmac_key` keys the irreversible placeholder hashes (``[PHONE:7f3a…]``);
- :func:`vault_encryption_key` keys AES-GCM encryption of the raw values in the vault.

Where the secret comes from (first match wins): the ``VOICE_AGENT_PII_KEY`` environment variable (hex or
base64); the key file (refused when group or other users can read it); else a new random key written
atomically to the key file with mode 0600 (its missing parent directories are created 0700).
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import os
import secrets
from collections.abc import Mapping
from pathlib import Path

from voice_agent.config import Config, read_secret_file
from voice_agent.errors import ConfigError

PII_KEY_ENV = "VOICE_AGENT_PII_KEY"
MIN_KEY_BYTES = 32
_HMAC_INFO = b"voice-agent/pii/placeholder-hmac/v1"
_VAULT_INFO = b"voice-agent/pii/vault-aes-256-gcm/v1"


def load_or_create_install_key(path: Path, env: Mapping[str, str] | None = None) -> bytes:
    """Return the install secret: from ``VOICE_AGENT_PII_KEY``, else the file at ``path``, else a new one.

    Raises ``ConfigError`` naming the source when a key is too short, undecodable, or its file is
    readable by group/other users (``chmod 600``). A new key file is never written over an existing one.
    """
    env = os.environ if env is None else env
    raw = env.get(PII_KEY_ENV)
    if raw:
        return decode_key(raw, source=f"environment variable {PII_KEY_ENV}")
    path = Path(path).expanduser()
    if path.exists():
        return decode_key(read_secret_file(path, what="PII key"), source=str(path))
    return _create_key_file(path)


def install_key_from_config(config: Config, env: Mapping[str, str] | None = None) -> bytes:
    """The install secret for ``config`` (its ``privacy.key_file`` or ``<data_dir>/secrets/pii.key``)."""
    return load_or_create_install_key(config.pii_key_path(), env)


def decode_key(text: str, *, source: str) -> bytes:
    """Decode a key written as hex (64+ hex digits) or base64 (standard or URL-safe alphabet)."""
    text = text.strip()
    key: bytes | None = None
    if len(text) % 2 == 0 and all(c in "0123456789abcdefABCDEF" for c in text):
        key = bytes.fromhex(text)
    else:
        padded = text + "=" * (-len(text) % 4)
        try:
            key = base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
        except (binascii.Error, ValueError):
            key = None
    if key is None:
        raise ConfigError("PII key is neither hex nor base64", file=source)
    if len(key) < MIN_KEY_BYTES:
        raise ConfigError(
            f"PII key is {len(key)} bytes; at least {MIN_KEY_BYTES} random bytes are required "
            f"(e.g. `python -c 'import secrets; print(secrets.token_hex(32))'`)",
            file=source,
        )
    return key


def placeholder_hmac_key(install_key: bytes) -> bytes:
    """The HMAC-SHA256 key for placeholder hashes, derived from the install secret."""
    return _hkdf(install_key, _HMAC_INFO)


def vault_encryption_key(install_key: bytes) -> bytes:
    """The AES-256-GCM key for the vault, derived from the install secret (independent of the HMAC key)."""
    return _hkdf(install_key, _VAULT_INFO)


def _hkdf(install_key: bytes, info: bytes) -> bytes:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    if not isinstance(install_key, bytes | bytearray) or len(install_key) < MIN_KEY_BYTES:
        raise ConfigError(f"the PII install key must be at least {MIN_KEY_BYTES} bytes")
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(bytes(install_key))


def _create_key_file(path: Path) -> bytes:
    """Write a fresh key, mode 0600, atomically: no reader sees a partial file, nothing is clobbered."""
    key = secrets.token_bytes(MIN_KEY_BYTES)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        _make_private_dirs(path.parent)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.fchmod(fd, 0o600)
            os.write(fd, (key.hex() + "\n").encode("ascii"))
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)  # fails if another process created the key first: then use theirs
        except FileExistsError:
            return decode_key(read_secret_file(path, what="PII key"), source=str(path))
        _fsync_dir(path.parent)
    except OSError as err:
        raise ConfigError(f"cannot create the PII key file: {err.strerror}", file=str(path)) from err
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    return key


def _make_private_dirs(directory: Path) -> None:
    missing: list[Path] = []
    probe = directory
    while not probe.exists():
        missing.append(probe)
        probe = probe.parent
    for folder in reversed(missing):
        with contextlib.suppress(FileExistsError):
            folder.mkdir(mode=0o700)
        os.chmod(folder, 0o700)  # mkdir's mode is filtered by the umask


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
