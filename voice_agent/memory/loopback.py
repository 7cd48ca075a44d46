"""The loopback check: does a reply sentence quote another conversation's memory?

Before a sentence is spoken it is embedded and compared with the *fingerprints* of other conversations
(their personal records' vectors, stored apart from the text); a similarity at or above
``memory.loopback_threshold`` (0.82) flags it, and the speech loop says the information may be inaccurate
instead. Only other tenants' opaque hashes and similarities are ever seen here, never their text.

Calibration, so ordinary replies are never refused:
- a fingerprint is the vector of a whole utterance that carries personal content (:func:`is_personal`):
  user-side, with a PII placeholder, a pinned kind (fact, decision, constraint, state), or enough content
  words — never an utterance that itself reads like a stock phrase, never the assistant's own words;
- a reply speaks to the person ("your daughter"), a memory speaks as them ("my daughter"): the sentence
  is turned to the first person before it is embedded (:func:`first_person`);
- the sentence is compared with a bank of stock assistant phrases: one at least as close to a stock
  phrase as to the fingerprint (within ``generic_margin``) is generic, not a quote;
- embedders disagree on what "similar" means (4-bit e5's cosines bunch up near 0.8, MiniLM's spread from
  0), so raw cosines are mapped onto one scale: ``(cos - floor) / (1 - floor)``, where ``floor`` is the
  embedder's median similarity between mutually unrelated statements (:data:`UNRELATED`), measured once.
  Measured on ``loopback_eval`` (see scripts/measure_loopback.py): no generic reply refused, every
  paraphrased leak caught, with both embedders.
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from voice_agent.memory.records import PINNED_KINDS, MemoryRecord
from voice_agent.memory.store.base import MemoryStore, Tenant, tenant_of
from voice_agent.memory.surface import embedding_text
from voice_agent.text.cjk import HAN_CLASS

# Stock phrases of an assistant (English and Chinese). The loopback never treats these as quotes.
STOCK_PHRASES: tuple[str, ...] = (
    "Sure, I can help with that.",
    "Of course!",
    "Let me know if you need anything else.",
    "Is there anything else I can help you with?",
    "I'm sorry, I didn't catch that.",
    "Could you say that again, please?",
    "I'm not sure I understand.",
    "Thank you for telling me.",
    "That sounds great!",
    "That's a good question.",
    "I don't know the answer to that.",
    "Okay, I'll remember that.",
    "Got it, I've noted that down.",
    "You're welcome!",
    "Have a nice day!",
    "Goodbye, talk to you soon.",
    "Hello! How can I help you today?",
    "How are you doing today?",
    "I'm here to help.",
    "Let me think about that for a moment.",
    "That sounds like a lot of fun.",
    "I hope that helps.",
    "I understand how you feel.",
    "That must have been hard for you.",
    "Congratulations, that's wonderful news!",
    "Please wait a moment while I check.",
    "I can't share that information.",
    "The information may be inaccurate.",
    "Could you tell me more about it?",
    "What would you like to do next?",
    "好的，我可以帮你。",
    "还有什么需要帮忙的吗？",
    "对不起，我没听清楚。",
    "请再说一遍。",
    "谢谢你告诉我。",
    "好的，我记住了。",
    "不客气！",
    "再见，祝你愉快。",
    "你好！有什么可以帮你的？",
    "这个问题很好。",
)
# Mutually unrelated statements: their median cosine is the embedder's "unrelated" floor.
UNRELATED: tuple[str, ...] = (
    "The train to Hamburg leaves at nine.", "Tomatoes need a lot of sun.", "My cousin repairs motorbikes.",
    "The museum closes on Mondays.", "Interest rates went up again.", "We painted the kitchen yellow.",
    "The cat sleeps on the piano.", "Our team lost the final on penalties.", "She is learning the violin.",
    "The bridge was built in 1890.", "I forgot my umbrella at the office.", "Snow is expected in the hills.",
    "He ordered noodles with extra chili.", "The library has a new reading room.",
    "My grandmother grew up on a farm.", "The printer is out of toner.",
)  # fmt: skip
_SECOND_PERSON = re.compile(r"\b(your|yours|you're|youre|you've|you'll|you'd|yourself|you)\b", re.IGNORECASE)
_FIRST_PERSON = {
    "your": "my", "yours": "mine", "you're": "I'm", "youre": "I'm", "you've": "I've", "you'll": "I'll",
    "you'd": "I'd", "yourself": "myself", "you": "I",
}  # fmt: skip
_CONTENT_WORD = re.compile(rf"[^\W\d_]{{3,}}|{HAN_CLASS}", re.UNICODE)
_FUNCTION_WORD_TEXT = (
    "the and but you your yours are was were have has had this that with for not just what when where "
    "how who why can could would should will shall did does doing done been being there their they them "
    "then than very really also some any all more most much many okay yeah yes sure thanks thank please "
    "sorry hello good great nice well like know think going want let"
)
_FUNCTION_WORDS = frozenset(_FUNCTION_WORD_TEXT.split())
MIN_CONTENT_WORDS = 4


@dataclass(frozen=True)
class LoopbackVerdict:
    flagged: bool
    similarity: float  # best calibrated similarity to another conversation's fingerprint (0 if none)
    raw_similarity: float  # the same, as the embedder's cosine
    generic_similarity: float  # calibrated similarity to the nearest stock phrase
    threshold: float
    reason: str  # "quotes another conversation" | "generic phrase" | "no close match" | "empty"
    matches: int = 0  # other-conversation fingerprints at or above the threshold

    def to_json(self) -> dict[str, Any]:
        return {
            "flagged": self.flagged,
            "similarity": round(self.similarity, 4),
            "raw_similarity": round(self.raw_similarity, 4),
            "generic_similarity": round(self.generic_similarity, 4),
            "threshold": self.threshold,
            "reason": self.reason,
            "matches": self.matches,
        }


def first_person(sentence: str) -> str:
    """A reply turned to the speaker's own perspective: "your daughter starts school" → "my daughter
    starts school" (English pronouns; 你/您 → 我 in Chinese)."""
    turned = _SECOND_PERSON.sub(lambda m: _FIRST_PERSON[m.group(1).lower()], sentence)
    return turned.replace("您", "我").replace("你", "我")


def content_words(text: str) -> int:
    return sum(1 for w in _CONTENT_WORD.findall(text.lower()) if w not in _FUNCTION_WORDS)


class StockBank:
    """The stock phrases' vectors and the embedder's unrelated-pair floor, computed once per embedder."""

    def __init__(self, embedder: Any, phrases: Sequence[str] = STOCK_PHRASES) -> None:
        self.embedder = embedder
        self.phrases = tuple(phrases)
        self._vectors: np.ndarray | None = None
        self._floor = 0.0
        self._lock = threading.Lock()

    def _load(self) -> np.ndarray:
        with self._lock:
            if self._vectors is None:
                rows = np.asarray(self.embedder.embed_passages([*self.phrases, *UNRELATED]), dtype=np.float32)
                unrelated = rows[len(self.phrases) :]
                sims = unrelated @ unrelated.T
                self._floor = float(min(0.9, max(0.0, np.median(sims[~np.eye(len(sims), dtype=bool)]))))
                self._vectors = rows[: len(self.phrases)]
            return self._vectors

    @property
    def floor(self) -> float:
        self._load()
        return self._floor

    def calibrate(self, cosine: float | np.ndarray) -> Any:
        floor = self.floor
        return np.clip((np.asarray(cosine) - floor) / (1.0 - floor), 0.0, 1.0)

    def generic_similarity(self, vectors: np.ndarray) -> np.ndarray:
        """Calibrated similarity of each row to its nearest stock phrase."""
        bank = self._load()
        return self.calibrate((np.atleast_2d(vectors) @ bank.T).max(axis=1))


def may_fingerprint(role: str, kind: str) -> bool:
    """Whether records of this role and kind can get a loopback fingerprint at all: the assistant's own
    words and summaries never do (the write path then needs no vector of the whole utterance)."""
    return role != "assistant" and kind != "summary"


def is_personal(record: MemoryRecord, generic_similarity: float, *, generic_limit: float = 0.75) -> bool:
    """Whether a record gets a loopback fingerprint: it carries personal content, and is not stock talk."""
    if not may_fingerprint(record.role, record.kind):
        return False
    if generic_similarity >= generic_limit:
        return False
    return (
        bool(record.pii_tokens)
        or record.kind in PINNED_KINDS
        or content_words(record.text) >= MIN_CONTENT_WORDS
    )


class LoopbackChecker:
    def __init__(
        self,
        store: MemoryStore,
        embedder: Any,
        *,
        threshold: float = 0.82,
        generic_margin: float = 0.05,
        bank: StockBank | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.threshold = threshold
        self.generic_margin = generic_margin
        self.bank = bank or StockBank(embedder)

    async def check(self, conversation_id: str, sentence: str) -> LoopbackVerdict:
        """``sentence`` must already be scrubbed (placeholders then match across conversations)."""
        tenant = tenant_of(
            Tenant(conversation_id) if isinstance(conversation_id, str) else conversation_id, "loopback"
        )
        if content_words(sentence) == 0:
            return LoopbackVerdict(False, 0.0, 0.0, 0.0, self.threshold, "empty")
        vector, generic = await asyncio.to_thread(self._embed, sentence)
        hits = await self.store.fingerprint_search(tenant, vector, limit=8)
        raw = max((h.similarity for h in hits), default=0.0)
        similarity = float(self.bank.calibrate(raw))
        matches = sum(1 for h in hits if float(self.bank.calibrate(h.similarity)) >= self.threshold)
        if similarity < self.threshold:
            return LoopbackVerdict(False, similarity, raw, generic, self.threshold, "no close match", matches)
        if generic + self.generic_margin >= similarity:
            return LoopbackVerdict(False, similarity, raw, generic, self.threshold, "generic phrase", matches)
        return LoopbackVerdict(
            True, similarity, raw, generic, self.threshold, "quotes another conversation", matches
        )

    def _embed(self, sentence: str) -> tuple[np.ndarray, float]:
        surface = embedding_text(first_person(sentence))
        vector = np.asarray(self.embedder.embed_passages([surface]), dtype=np.float32)[0]
        return vector, float(self.bank.generic_similarity(vector)[0])
