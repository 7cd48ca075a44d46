"""The memory record: what is stored about a conversation. Text is always scrubbed before it gets here."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field, replace
from typing import Any, Literal, get_args

Kind = Literal["utterance", "fact", "decision", "constraint", "artifact", "state", "summary"]
# consolidated: condensed into a summary record (memory/consolidate.py); kept on disk, out of the index.
Status = Literal["active", "superseded", "deprecated", "consolidated"]
Role = Literal["user", "assistant", "system"]

KINDS: tuple[str, ...] = get_args(Kind)
STATUSES: tuple[str, ...] = get_args(Status)
ROLES: tuple[str, ...] = get_args(Role)
# Kinds a person sets on purpose: they go to the pinned prompt layer, not only to retrieval.
PINNED_KINDS: frozenset[str] = frozenset({"fact", "decision", "constraint", "state"})


def new_record_id() -> str:
    return uuid.uuid4().hex


@dataclass(frozen=True)
class MemoryRecord:
    conversation_id: str
    text: str  # scrubbed: PII values appear only as placeholders like [PHONE:7f3a…]
    role: Role = "user"
    kind: Kind = "utterance"
    source: str = ""  # the turn id (or LoCoMo dia_id) this came from
    user_id: str | None = None
    id: str = field(default_factory=new_record_id)
    pii_tokens: tuple[str, ...] = ()
    created_at: float = field(default_factory=time.time)  # wall-clock seconds, for dates in prompts
    importance: float = 0.5
    status: Status = "active"
    supersedes: str | None = None
    subject: str | None = None  # normalised subject key, used to find what a new item supersedes
    speaker: str | None = None  # who said it (scrubbed: a [NAME:…] placeholder), when not just the role
    token_count: int = 0
    vector: tuple[float, ...] | None = None

    def __post_init__(self) -> None:
        if not self.conversation_id:
            raise ValueError("a record needs a conversation_id")
        if self.kind not in KINDS:
            raise ValueError(f"unknown kind {self.kind!r}; expected one of {KINDS}")
        if self.status not in STATUSES:
            raise ValueError(f"unknown status {self.status!r}; expected one of {STATUSES}")
        if self.role not in ROLES:
            raise ValueError(f"unknown role {self.role!r}; expected one of {ROLES}")
        if not 0.0 <= self.importance <= 1.0:
            raise ValueError("importance must be within [0, 1]")

    @property
    def pinned(self) -> bool:
        return self.kind in PINNED_KINDS and self.role == "user"

    def with_(self, **changes: Any) -> MemoryRecord:
        return replace(self, **changes)

    def to_json(self, *, with_vector: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": self.id,
            "conversation_id": self.conversation_id,
            "user_id": self.user_id,
            "source": self.source,
            "role": self.role,
            "kind": self.kind,
            "text": self.text,
            "pii_tokens": list(self.pii_tokens),
            "created_at": self.created_at,
            "importance": self.importance,
            "status": self.status,
            "supersedes": self.supersedes,
            "subject": self.subject,
            "speaker": self.speaker,
            "token_count": self.token_count,
        }
        if with_vector and self.vector is not None:
            data["vector"] = list(self.vector)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MemoryRecord:
        vector = data.get("vector")
        return cls(
            id=str(data["id"]),
            conversation_id=str(data["conversation_id"]),
            user_id=data.get("user_id"),
            source=str(data.get("source", "")),
            role=data.get("role", "user"),
            kind=data.get("kind", "utterance"),
            text=str(data["text"]),
            pii_tokens=tuple(data.get("pii_tokens", ())),
            created_at=float(data.get("created_at", time.time())),
            importance=float(data.get("importance", 0.5)),
            status=data.get("status", "active"),
            supersedes=data.get("supersedes"),
            subject=data.get("subject"),
            speaker=data.get("speaker"),
            token_count=int(data.get("token_count", 0)),
            vector=tuple(float(v) for v in vector) if vector is not None else None,
        )


@dataclass(frozen=True)
class ScoredRecord:
    record: MemoryRecord
    score: float  # higher is more relevant; the meaning depends on the stage that set it
    why: str = ""  # e.g. "vector 0.71 + bm25 rank 3"
