"""Schema and migrations of the embedded store (one SQLite file, versioned with ``PRAGMA user_version``).

Tables:
    meta            key/value: embedder name and vector dimension the vectors were made with
    conversations   one row per conversation (tenant): user, created/updated, JSON metadata
    records         the memory records (scrubbed text only); ``rid`` is shared with the FTS and vec rows
    links           supersede links (new record -> the record it replaced)
    records_fts     FTS5 keywords, contentless (holds terms, not text), porter + unicode61: the tenant
                    token (every MATCH is ANDed with it, so BM25 only scores this conversation's rows),
                    the record's words, and (weighted lower) the words of the exchange it came from
    records_vec     sqlite-vec ``vec0``: one partition per conversation, status/kind metadata columns
    fingerprints    sqlite-vec ``vec0``: loopback fingerprints with the owning tenant's opaque hash
    pii_vault       created and owned by ``voice_agent.memory.vault`` in the same file

Vector tables depend on the embedder's dimension, so they are created on open once it is known.
"""

from __future__ import annotations

from typing import Any

from voice_agent.errors import StoreError

SCHEMA_VERSION = 1

_V1 = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS conversations (
    id TEXT PRIMARY KEY,
    tenant_key TEXT NOT NULL,
    user_id TEXT,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    meta TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS records (
    rid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    conversation_id TEXT NOT NULL REFERENCES conversations(id),
    user_id TEXT,
    source TEXT NOT NULL DEFAULT '',
    role TEXT NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    pii_tokens TEXT NOT NULL DEFAULT '[]',
    created_at REAL NOT NULL,
    importance REAL NOT NULL,
    status TEXT NOT NULL,
    supersedes TEXT,
    superseded_by TEXT,
    subject TEXT,
    speaker TEXT,
    token_count INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS records_by_conv ON records(conversation_id, status, kind);
CREATE INDEX IF NOT EXISTS records_by_created ON records(conversation_id, created_at);
CREATE INDEX IF NOT EXISTS records_by_source ON records(conversation_id, source);
CREATE INDEX IF NOT EXISTS records_by_subject ON records(conversation_id, subject);
CREATE TABLE IF NOT EXISTS links (
    from_id TEXT NOT NULL,
    to_id TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    relation TEXT NOT NULL DEFAULT 'supersedes',
    created_at REAL NOT NULL,
    PRIMARY KEY (from_id, to_id, relation)
);
CREATE INDEX IF NOT EXISTS links_by_conv ON links(conversation_id);
CREATE VIRTUAL TABLE IF NOT EXISTS records_fts USING fts5(
    tenant, body, context, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2'
);
"""

# Each entry migrates from version i to i + 1 (index 0: empty file -> v1).
MIGRATIONS: tuple[str, ...] = (_V1,)


def migrate(conn: Any) -> int:
    """Bring the file to ``SCHEMA_VERSION`` inside one transaction; refuse files from a newer version."""
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"memory store schema version {version} is newer than this voice-agent understands "
            f"({SCHEMA_VERSION}); upgrade voice-agent"
        )
    with conn:  # the connection policy makes this BEGIN IMMEDIATE; a second process waits here
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        for step in range(version, SCHEMA_VERSION):
            conn.execute(MIGRATIONS[step])
            conn.execute(f"PRAGMA user_version = {step + 1}")
    return SCHEMA_VERSION


def ensure_vector_tables(conn: Any, *, dim: int, embedder: str) -> None:
    """Create the vec0 tables for ``dim``; refuse to mix vectors from another embedder or dimension.
    Checked and created in one transaction: two processes opening a new file at once agree."""
    with conn:
        rows = dict(conn.execute("SELECT key, value FROM meta WHERE key IN ('dim', 'embedder')").fetchall())
        if rows:
            if int(rows["dim"]) != dim or rows["embedder"] != embedder:
                raise StoreError(
                    f"this memory store holds {rows['dim']}-d vectors from embedder {rows['embedder']!r}, "
                    f"but the configured embedder is {embedder!r} ({dim}-d): set memory.embedder back, or "
                    "export the memories and import them into a fresh data directory"
                )
            return
        conn.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS records_vec USING vec0("
            " rid INTEGER PRIMARY KEY, tenant TEXT PARTITION KEY, status TEXT, kind TEXT,"
            f" embedding float[{dim}] distance_metric=cosine)"
        )
        conn.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS fingerprints USING vec0("
            " rid INTEGER PRIMARY KEY, owner TEXT,"
            f" embedding float[{dim}] distance_metric=cosine)"
        )
        conn.execute("INSERT INTO meta(key, value) VALUES ('dim', ?), ('embedder', ?)", (str(dim), embedder))
