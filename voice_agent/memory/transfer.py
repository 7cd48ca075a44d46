"""Export and import of a conversation's memory as JSON.

An export holds the scrubbed records (ids, kinds, status, supersede links, dates, speakers): no vectors
(import re-embeds, so a file moves between embedders) and never a vault value (raw PII does not leave
the machine; placeholders stay placeholders).
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from voice_agent.errors import InputError
from voice_agent.memory.records import MemoryRecord
from voice_agent.memory.writepath import clean_text

FORMAT = "voice-agent-memory"
VERSION = 1


@dataclass
class ImportReport:
    imported: int = 0
    skipped: int = 0  # records whose id is already stored
    failed: list[str] = field(default_factory=list)  # "record N: reason"

    def to_json(self) -> dict[str, Any]:
        return {"imported": self.imported, "skipped": self.skipped, "failed": self.failed}


def export_document(conversation_id: str, records: list[MemoryRecord], *, embedder: str) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "conversation_id": conversation_id,
        "exported_at": time.time(),
        "embedder": embedder,
        "records": [record.to_json() for record in records],
    }


def _moved_id(conversation_id: str, record_id: str) -> str:
    return uuid.uuid5(uuid.NAMESPACE_URL, f"voice-agent:{conversation_id}:{record_id}").hex


def parse_import(
    document: Any, *, conversation_id: str | None = None, max_chars: int
) -> tuple[list[MemoryRecord], ImportReport]:
    """Validate an export; ``conversation_id`` moves every record into that conversation. A record gets
    the limits of a live write (``max_chars``, no binary or control characters; a record over them is
    reported as failed, never stored), and the file's ``token_count`` is never trusted (the import
    recounts it)."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise InputError(f'not a voice-agent memory export (expected "format": "{FORMAT}")')
    if document.get("version") != VERSION:
        raise InputError(
            f"unsupported export version {document.get('version')!r}; this reads version {VERSION}"
        )
    raw_records = document.get("records")
    if not isinstance(raw_records, list):
        raise InputError('the export has no "records" list')
    report = ImportReport()
    records: list[MemoryRecord] = []
    source_conversation = str(document.get("conversation_id") or "")
    # Into another conversation, records get new ids (derived, so a second import is recognised) and
    # their supersede links follow; into the same one (a restore), ids are kept.
    moved = bool(conversation_id) and conversation_id != source_conversation
    for index, raw in enumerate(raw_records):
        if not isinstance(raw, dict):
            report.failed.append(f"record {index}: not an object")
            continue
        data = dict(raw)
        data.pop("vector", None)
        if conversation_id:
            data["conversation_id"] = conversation_id
        if moved:
            data["id"] = _moved_id(conversation_id or "", str(data.get("id", "")))
            if data.get("supersedes"):
                data["supersedes"] = _moved_id(conversation_id or "", str(data["supersedes"]))
        try:
            text = clean_text(data.get("text"), limit=max_chars)
            record = MemoryRecord.from_json({**data, "text": text, "token_count": 0})
        except InputError as err:
            report.failed.append(f"record {index}: {err}")
            continue
        except (KeyError, TypeError, ValueError) as err:
            report.failed.append(f"record {index}: {type(err).__name__}: {err}")
            continue
        if not record.text:
            report.failed.append(f"record {index}: empty text")
            continue
        records.append(record)
    return records, report
