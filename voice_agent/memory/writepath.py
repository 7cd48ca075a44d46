"""The write path of one utterance, before the store: validate → scrub → chunk → scrub names → embed.

Everything here is blocking CPU work, run by the service in one worker thread per utterance. The raw
text never leaves this module: what comes out is scrubbed records, their vectors, and the PII findings
whose raw values go straight into the encrypted vault (in the same store transaction).

Names are found three ways: the chunker's parse (PERSON entities), names already known in this
conversation (once "Caroline" was found, every later "Caroline" is scrubbed even where the parser misses
it), and the speaker label when the caller gives one. Known names are kept per conversation in memory,
loaded from the vault on first use.
"""

from __future__ import annotations

import re
import threading
import time
import unicodedata
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from voice_agent.errors import InputError
from voice_agent.memory.embed import PassageCache
from voice_agent.memory.embed_plan import EmbedPlan, plan_embedding
from voice_agent.memory.language import estimate_tokens
from voice_agent.memory.loopback import may_fingerprint
from voice_agent.memory.records import Kind, MemoryRecord, Role, new_record_id
from voice_agent.memory.scrub import PiiFinding, Scrubber, ScrubResult, canonical_name
from voice_agent.memory.surface import embedding_text
from voice_agent.text.cjk import HAN_RE

CONTEXT_CHARS = 600  # how much of the previous utterance is the next one's keyword context
_NAME_CHARS = re.compile(r"\w")
_CJK = HAN_RE


def clean_text(text: object, *, limit: int, what: str = "text") -> str:
    """The text to store, stripped; ``""`` means nothing to do. Raises ``InputError`` for bytes that are not
    UTF-8, binary data, and text over ``limit`` characters — naming what was wrong."""
    if isinstance(text, bytes | bytearray | memoryview):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as err:
            raise InputError(f"{what} is not valid UTF-8 (bad byte at offset {err.start})") from err
    if not isinstance(text, str):
        raise InputError(f"{what} must be text, got {type(text).__name__}")
    if any("\ud800" <= ch <= "\udfff" for ch in text):
        raise InputError(f"{what} holds lone surrogates: it was decoded from invalid UTF-8")
    stripped = text.strip()
    if not stripped:
        return ""
    if len(stripped) > limit:
        raise InputError(
            f"{what} is {len(stripped)} characters; the limit is {limit} (memory.max_text_chars)"
        )
    if "\x00" in stripped:
        raise InputError(f"{what} holds NUL characters: it looks like binary data, not speech")
    odd = sum(1 for ch in stripped if unicodedata.category(ch) in ("Cc", "Co", "Cn") and ch not in "\t\n\r")
    if odd > max(2, len(stripped) // 50):
        raise InputError(f"{what} holds {odd} control or unassigned characters: it looks like binary data")
    return stripped


class KnownNames:
    """Per-conversation person names already found (canonical form), to scrub every later mention."""

    def __init__(self, loader: Callable[[str], set[str]]) -> None:
        self._loader = loader
        self._names: dict[str, set[str]] = {}
        self._patterns: dict[str, re.Pattern[str] | None] = {}
        self._lock = threading.Lock()

    def names(self, conversation_id: str) -> set[str]:
        with self._lock:
            if conversation_id not in self._names:
                self._names[conversation_id] = set(self._loader(conversation_id))
            return self._names[conversation_id]

    def add(self, conversation_id: str, canonical_names: Sequence[str]) -> None:
        """Remember names, and the parts of a full name ("maria gonzalez" → "maria", "gonzalez"): a
        surname said alone is as personal as the full name."""
        current = self.names(conversation_id)
        candidates = {part for name in canonical_names for part in (name, *name.split()) if len(part) >= 3}
        candidates |= set(canonical_names)
        new = {n for n in candidates if len(n) >= 2 and _NAME_CHARS.search(n)} - current
        if new:
            with self._lock:
                current |= new
                self._patterns.pop(conversation_id, None)

    def forget(self, conversation_id: str) -> None:
        with self._lock:
            self._names.pop(conversation_id, None)
            self._patterns.pop(conversation_id, None)

    def spans(self, conversation_id: str, text: str) -> list[tuple[int, int]]:
        """Spans of known names in ``text``: whole words, Latin names only where written capitalised
        (so a name like "Will" does not swallow the verb "will")."""
        pattern = self._pattern(conversation_id)
        if pattern is None:
            return []
        out = []
        for m in pattern.finditer(text):
            first = m.group()[0]
            if first.isalpha() and first.isascii() and not first.isupper():
                continue
            out.append((m.start(), m.end()))
        return out

    def _pattern(self, conversation_id: str) -> re.Pattern[str] | None:
        names = self.names(conversation_id)
        with self._lock:
            if conversation_id not in self._patterns:
                ordered = sorted(names, key=len, reverse=True)
                # Chinese runs words together: a Chinese name needs no boundary around it (张伟明天来).
                parts = [
                    re.escape(name) if _CJK.search(name) else
                    r"(?<!\w)" + r"\s+".join(re.escape(w) for w in name.split()) + r"(?!\w)"
                    for name in ordered
                ]  # fmt: skip
                self._patterns[conversation_id] = (
                    re.compile("|".join(parts), re.IGNORECASE) if parts else None
                )
            return self._patterns[conversation_id]


@dataclass
class PreparedWrite:
    records: list[MemoryRecord]
    vectors: np.ndarray
    findings: list[PiiFinding]
    timings_ms: dict[str, float] = field(default_factory=dict)
    surface: str = ""  # the utterance as the embedder saw it, the next utterance's context
    scrubbed: str = ""  # the whole utterance, scrubbed (keyword context of its clauses and the next's)
    keyword_context: str = ""  # words of the exchange (previous utterance + this one) for BM25
    utterance_vector: np.ndarray | None = None  # the whole utterance, as said: its loopback fingerprint


@dataclass(frozen=True)
class WriteRequest:
    conversation_id: str
    role: Role
    text: str
    source: str
    user_id: str | None = None
    kind: Kind = "utterance"
    importance: float = 0.5
    subject: str | None = None
    speaker: str | None = None
    created_at: float | None = None
    chunked: bool = True  # False: one record for the whole text (facts, summaries)
    # Set: record ids derive from (conversation, key, clause index), so writing the same source again
    # replaces its records instead of adding a second copy (ingest, resumable).
    record_key: str | None = None


@dataclass
class ParsedWrite:
    """An utterance after stage 1 (:meth:`WritePath.parse_many`)."""

    request: WriteRequest
    scrubbed: ScrubResult  # PII patterns replaced; names not yet
    chunks: list[Any] | None  # the chunker's clauses (None: the request is not chunked)
    ms: dict[str, float] = field(default_factory=dict)


@dataclass
class NamedWrite:
    """An utterance after stage 2 (:meth:`WritePath.name`): its records' texts, every name scrubbed."""

    request: WriteRequest
    pieces: list[tuple[str, int]]  # (scrubbed text, token count) per record
    findings: list[PiiFinding]
    speaker: str | None  # the speaker label's placeholder
    ms: dict[str, float] = field(default_factory=dict)

    @property
    def whole(self) -> str:
        return " ".join(text for text, _ in self.pieces)

    def plan(self, passages: PassageCache, *, late_chunking: bool) -> EmbedPlan:
        """What to embed for this utterance (:func:`plan_embedding`): each clause as the embedder sees it,
        with the speaker label; the utterance alone, without, only where it may become a loopback
        fingerprint (:func:`may_fingerprint`): elsewhere (the assistant's replies, summaries) it is only
        the next utterance's context, and the direction of its clauses' vectors serves (late-chunked:
        the one pass's own vector)."""
        fingerprint = may_fingerprint(self.request.role, self.request.kind)
        plain = embedding_text(self.whole) if fingerprint else None
        return plan_embedding(
            [text for text, _ in self.pieces], self.speaker, plain, passages, late_chunking=late_chunking
        )


class WritePath:
    """Scrub, chunk, embed (blocking). ``chunker`` is a ``ClauseChunker``; ``embedder`` an ``Embedder``."""

    def __init__(
        self,
        scrubber: Scrubber,
        chunker: Any,
        embedder: Any,
        names: KnownNames,
        *,
        context_weight: float = 0.0,
        late_chunking: bool = False,
    ) -> None:
        self.scrubber = scrubber
        self.chunker = chunker
        self.embedder = embedder
        self.passages = PassageCache(embedder)  # a text said again is not embedded again
        self.names = names
        self.context_weight = context_weight
        self.late_chunking = late_chunking  # clause vectors from one pass over the utterance (embed_plan)

    def scrub(
        self, conversation_id: str, text: str, name_spans: Sequence[tuple[int, int]] = ()
    ) -> ScrubResult:
        """Patterns (phones, IDs, cards, e-mail, addresses), the given name spans, and known names."""
        first = self.scrubber.scrub(text, name_spans=name_spans)
        found = list(first.found)
        self.names.add(conversation_id, [f.canonical for f in found if f.kind == "NAME"])
        known = self.names.spans(conversation_id, first.text)
        if not known:
            return first
        second = self.scrubber.scrub_names(first.text, known)
        return ScrubResult(second.text, found + list(second.found))

    def count_tokens(self, text: str) -> int:
        count = getattr(self.chunker, "count_tokens", None)
        return int(count(text)) if callable(count) else estimate_tokens(text)

    def speaker_finding(self, conversation_id: str, speaker: str) -> PiiFinding:
        """A speaker label is a person's name: it becomes a NAME placeholder like any other."""
        canonical = canonical_name(speaker)
        placeholder = self.scrubber.placeholder("NAME", canonical)
        self.names.add(conversation_id, [canonical])
        return PiiFinding("NAME", placeholder, speaker, canonical)

    def prepare(
        self, request: WriteRequest, context: np.ndarray | None = None, keyword_context: str = ""
    ) -> PreparedWrite:
        """``context``: the previous utterance's vector, and ``keyword_context`` its scrubbed text: each
        clause's vector leans towards the exchange it came from (see :meth:`_vectors`), and the
        exchange's words are indexed with it at a lower weight. The four stages below, for one
        utterance; ``write_many`` runs them over many, with the same result."""
        named = self.name(self.parse_many([request])[0])
        return self.finish(named, self.embed_many([named])[0], context, keyword_context)

    def parse_many(self, requests: Sequence[WriteRequest]) -> list[ParsedWrite]:
        """Stage 1, which needs nothing of the utterances before: PII patterns scrubbed, clauses parsed
        (the chunker parses many texts in one ``nlp.pipe``, about half the CPU per text)."""
        parsed = []
        for request in requests:
            t0 = time.perf_counter()
            # Patterns only here: known names are replaced after the parse, so that the parser still
            # sees "Caroline Smith" whole and the surname does not escape next to a placeholder.
            scrubbed = self.scrubber.scrub(request.text)
            parsed.append(ParsedWrite(request, scrubbed, None, {"scrub": (time.perf_counter() - t0) * 1e3}))
        chunked = [p for p in parsed if p.request.chunked]
        if chunked:
            t0 = time.perf_counter()
            chunk_lists = self.chunker.chunk_many([p.scrubbed.text for p in chunked])
            share = (time.perf_counter() - t0) * 1e3 / len(chunked)
            for item, chunks in zip(chunked, chunk_lists, strict=True):
                item.chunks, item.ms["chunk"] = list(chunks), share
        return parsed

    def name(self, parsed: ParsedWrite) -> NamedWrite:
        """Stage 2, in the order the utterances were said: the speaker label and the names the parser
        found become placeholders, and so does every name known from earlier in the conversation."""
        t0 = time.perf_counter()
        request = parsed.request
        findings: list[PiiFinding] = []
        speaker = None
        if request.speaker:
            finding = self.speaker_finding(request.conversation_id, request.speaker)
            findings.append(finding)
            speaker = finding.placeholder
        findings += parsed.scrubbed.found
        names = [f.canonical for f in parsed.scrubbed.found if f.kind == "NAME"]
        self.names.add(request.conversation_id, names)
        pieces = self._pieces(request, parsed, findings)
        ms = {**parsed.ms, "chunk": parsed.ms.get("chunk", 0.0) + (time.perf_counter() - t0) * 1e3}
        return NamedWrite(request, pieces, findings, speaker, ms)

    def embed_many(self, named: Sequence[NamedWrite]) -> list[tuple[np.ndarray, np.ndarray]]:
        """Stage 3: (clause rows, utterance row) per utterance (:mod:`embed_plan`). Late-chunked
        utterances take their one pass each; every other text goes to the embedder in one call (a text
        said twice is embedded once). e5 runs one text per pass, so a vector never depends on what it
        was embedded with."""
        t0 = time.perf_counter()
        plans = [item.plan(self.passages, late_chunking=self.late_chunking) for item in named]
        flat = [text for plan in plans for text in plan.to_embed]
        rows = self.passages.embed_passages(flat) if flat else np.empty((0, self.embedder.dim), np.float32)
        out, cursor = [], 0
        for plan in plans:
            out.append(plan.rows(rows[cursor : cursor + len(plan.to_embed)]))
            cursor += len(plan.to_embed)
        share = (time.perf_counter() - t0) * 1e3 / max(1, len(named))
        for item in named:
            item.ms["embed"] = share
        return out

    def finish(
        self,
        named: NamedWrite,
        rows: tuple[np.ndarray, np.ndarray],
        context: np.ndarray | None = None,
        keyword_context: str = "",
    ) -> PreparedWrite:
        """Stage 4: each clause vector leans towards its exchange (``context``: the previous utterance's
        vector), and the records are built."""
        t0 = time.perf_counter()
        request, pieces, speaker = named.request, named.pieces, named.speaker
        vectors, utterance = self._vectors(rows[0], rows[1], context)
        created = time.time() if request.created_at is None else request.created_at
        records = [
            MemoryRecord(
                conversation_id=request.conversation_id,
                text=text,
                role=request.role,
                kind=request.kind,
                source=request.source,
                user_id=request.user_id,
                id=_record_id(request, index),
                pii_tokens=_placeholders(text),
                created_at=created,
                importance=request.importance,
                subject=request.subject,
                speaker=speaker,
                token_count=tokens,
            )
            for index, (text, tokens) in enumerate(pieces)
        ]
        timings = {key: named.ms.get(key, 0.0) for key in ("scrub", "chunk", "embed")}
        timings["embed"] += (time.perf_counter() - t0) * 1e3
        whole = named.whole
        return PreparedWrite(
            records,
            vectors,
            named.findings,
            timings,
            surface=embedding_text(whole, speaker),
            scrubbed=whole,
            keyword_context=f"{keyword_context} {whole}".strip(),
            utterance_vector=utterance,
        )

    def reprepare(self, conversation_id: str, records: Sequence[MemoryRecord]) -> PreparedWrite:
        """Imported records again: their text is scrubbed anew (an export may have been edited by hand),
        their speaker labels become placeholders, and they are re-embedded (as one record each, with
        their ids, status and links kept)."""
        from voice_agent.memory.scrub import PLACEHOLDER_RE

        findings: list[PiiFinding] = []
        clean: list[MemoryRecord] = []
        for record in records:
            result = self.scrub(conversation_id, record.text)
            findings += result.found
            speaker = record.speaker
            if speaker and not PLACEHOLDER_RE.fullmatch(speaker):
                finding = self.speaker_finding(conversation_id, speaker)
                findings.append(finding)
                speaker = finding.placeholder
            clean.append(
                record.with_(
                    text=result.text,
                    pii_tokens=_placeholders(result.text),
                    speaker=speaker,
                    token_count=self.count_tokens(result.text),  # never the file's own count
                )
            )
        vectors = self.embedder.embed_passages([embedding_text(r.text, r.speaker) for r in clean])
        return PreparedWrite(clean, np.asarray(vectors, dtype=np.float32), findings)

    def _vectors(
        self, clauses: np.ndarray, utterance: np.ndarray, context: np.ndarray | None
    ) -> tuple[np.ndarray, np.ndarray]:
        """(clause vectors, utterance vector). The utterance vector is the utterance embedded alone (its
        loopback fingerprint), or its clauses' direction where it never is one; either way it is the
        next utterance's context. Each clause vector then leans towards its
        exchange — this utterance and the one before it (``context``, that one's utterance vector):
        ``normalise(v_clause + w · normalise(v_previous + v_utterance))``. A clause like "5 years
        already!" is then found by "how long have they been married?", which only the question before
        it mentions. The previous vector is reused, not re-embedded."""
        w = self.context_weight
        if w <= 0 or (len(clauses) == 1 and context is None):
            return clauses, utterance
        exchange = utterance if context is None else utterance + np.asarray(context, dtype=np.float32)
        exchange = exchange / max(float(np.linalg.norm(exchange)), 1e-12)
        mixed = clauses + w * exchange
        mixed /= np.maximum(np.linalg.norm(mixed, axis=1, keepdims=True), 1e-12)
        return mixed.astype(np.float32), utterance

    def _pieces(
        self, request: WriteRequest, parsed: ParsedWrite, findings: list[PiiFinding]
    ) -> list[tuple[str, int]]:
        """(scrubbed text, token count) per record: clause chunks, with names scrubbed in each."""
        text = parsed.scrubbed.text
        if not request.chunked or parsed.chunks is None:
            names = self.scrub(request.conversation_id, text)
            findings += names.found
            return [(names.text, estimate_tokens(names.text))]
        out: list[tuple[str, int]] = []
        named: list[str] = []
        for chunk in parsed.chunks:
            result = self.scrubber.scrub_names(chunk.text, chunk.person_spans) if chunk.person_spans else None
            if result is not None:
                findings += result.found
                self.names.add(request.conversation_id, [f.canonical for f in result.found])
            named.append(result.text if result is not None else chunk.text)
        for chunk_text in named:  # a name found in one clause is scrubbed in all of them
            again = self.scrub(request.conversation_id, chunk_text)
            findings += again.found
            out.append((again.text, estimate_tokens(again.text)))
        if not out:  # nothing the chunker kept (punctuation only): store the utterance as one record
            whole = self.scrub(request.conversation_id, text)
            findings += whole.found
            out.append((whole.text, estimate_tokens(whole.text)))
        return out


def _placeholders(text: str) -> tuple[str, ...]:
    from voice_agent.memory.scrub import PLACEHOLDER_RE

    found = [m.group() for m in PLACEHOLDER_RE.finditer(text)]
    return tuple(dict.fromkeys(found))


def _record_id(request: WriteRequest, index: int) -> str:
    if request.record_key is None:
        return new_record_id()
    name = f"voice-agent/record:{request.conversation_id}\x00{request.record_key}\x00{index}"
    return uuid.uuid5(uuid.NAMESPACE_URL, name).hex
