"""Streaming sentence splitting over LLM token deltas, for speech.

Releases a piece as soon as it is certainly complete: after ``. ! ? ; …`` followed by whitespace, and
right after the CJK ``。！？；…`` (Chinese has no spaces), with closing quotes/brackets kept on the
sentence. It does not split "Dr. Smith", "e.g. this", "J. K. Rowling" or "3.5". The first piece of a
reply may be a clause: a comma, 、 or colon after ``first_clause_min_words`` words releases it, so the
first audio starts sooner; a first piece that runs past ``first_clause_max_words`` words without one is
cut before a joining word ("and", "because", "which" ...), where a speaker would breathe. Very long runs
without punctuation are cut at a space or comma.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

from voice_agent.clock import Clock, MonotonicClock
from voice_agent.frames import Sentence
from voice_agent.text.cjk import HAN, KANA, char_class

ASCII_TERMINALS = ".!?;…"
CJK_TERMINALS = "。！？；"  # end a sentence at once: Chinese puts no space after them
CLOSERS = "\"'”’)]}」』）》*_`"
CLAUSE_MARKS = ",，、:："
ABBREVIATIONS = frozenset(
    [
        "mr",
        "mrs",
        "ms",
        "dr",
        "prof",
        "sr",
        "jr",
        "st",
        "vs",
        "etc",
        "eg",
        "ie",
        "cf",
        "al",
        "approx",
        "no",
        "nos",
        "fig",
        "figs",
        "inc",
        "ltd",
        "co",
        "corp",
        "mt",
        "ave",
        "dept",
        "est",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "am",
        "pm",
        "ph",
        "gen",
        "col",
        "lt",
        "sgt",
        "capt",
        "rev",
        "hon",
    ]
)
MAX_WORDS = 40  # a piece this long without punctuation is cut anyway (TTS latency)
# Words before which a first clause may end when no comma comes (a speaker pauses there naturally).
_JOINING = "and but so because which who whose where when while although though or since unless until"
JOINING_WORDS = frozenset(_JOINING.split(" "))
_CJK = re.compile(char_class(KANA, HAN))
_CJK_MARKS = frozenset("，。！？；：、）」』】》…")
_MARKDOWN = re.compile(r"(\*\*|__|`+|^#+\s*|^\s*[-*+]\s+|^\s*\d+\.\s+(?=\D))", re.MULTILINE)


def count_words(text: str) -> int:
    """Words for pacing decisions: CJK characters count one each, other words by spaces."""
    cjk = len(_CJK.findall(text))
    return cjk + len(_CJK.sub(" ", text).split())


def clean_for_speech(text: str) -> str:
    """Drop markdown that a TTS voice would read out (asterisks, backticks, heading marks)."""
    return re.sub(r"\s+", " ", _MARKDOWN.sub("", text)).strip()


def _is_abbreviation(before: str) -> bool:
    """``before`` is the text up to (not including) a period."""
    token = re.split(r"[\s(\"'“]", before)[-1] if before else ""
    if not token:
        return False
    if token.isdigit():  # "in 2023." ends a sentence; "3.5" never reaches here (no space after)
        return False
    bare = token.replace(".", "").lower()
    if bare in ABBREVIATIONS:
        return True
    if "." in token:  # "e.g", "U.S"
        return True
    return len(token) == 1 and token.isalpha() and token.isupper()  # an initial: "J. K. Rowling"


class SentenceSplitter:
    """Feed deltas with ``push``; call ``flush`` at the end of the stream."""

    def __init__(
        self, *, first_clause_min_words: int = 4, first_clause_max_words: int = 0, clock: Clock | None = None
    ) -> None:
        """``first_clause_max_words`` (0: off): past this many words without a clause mark, the first
        piece is cut before its last joining word."""
        self.first_clause_min_words = first_clause_min_words
        self.first_clause_max_words = first_clause_max_words
        self._clock = clock or MonotonicClock()
        self._buffer = ""
        self._index = 0

    def push(self, delta: str) -> list[Sentence]:
        self._buffer += delta
        out: list[Sentence] = []
        while True:
            cut = self._find_cut()
            if cut is None:
                break
            piece, self._buffer = self._buffer[:cut], self._buffer[cut:]
            out += self._emit(piece)
        return out

    def flush(self) -> list[Sentence]:
        piece, self._buffer = self._buffer, ""
        return self._emit(piece)

    def _emit(self, piece: str) -> list[Sentence]:
        text = clean_for_speech(piece)
        if not any(ch.isalnum() for ch in text):
            return []
        sentence = Sentence(text, self._index, self._clock.now_ns())
        self._index += 1
        return [sentence]

    def _find_cut(self) -> int | None:
        """End index of the first complete piece in the buffer, or None."""
        buf = self._buffer
        for i, ch in enumerate(buf):
            if ch in CJK_TERMINALS or (ch == "…" and i > 0 and _CJK.match(buf[i - 1])):
                end = self._after_closers(i + 1)
                return end if end < len(buf) else None  # a closing quote may follow in the next delta
            if ch in ASCII_TERMINALS:
                end = self._after_closers(i + 1)
                if end >= len(buf):
                    return None  # need the next character to decide
                if buf[end].isspace() and not (ch == "." and _is_abbreviation(buf[:i])):
                    return end
            if ch in CLAUSE_MARKS and self._index == 0 and self._clause_ready(buf, i):
                return self._after_closers(i + 1)
        if self._index == 0 and self.first_clause_max_words > 0:
            cut = self._joining_word_cut(buf)
            if cut is not None:
                return cut
        return self._long_run_cut(buf)

    def _joining_word_cut(self, buf: str) -> int | None:
        """Where the first piece may end before a joining word, once it is long enough to wait no more."""
        if _CJK.search(buf) or count_words(buf) <= self.first_clause_max_words:
            return None
        words = list(re.finditer(r"\S+", buf))
        for k in range(len(words) - 2, self.first_clause_min_words - 1, -1):  # the last word may grow
            if words[k].group().lower() in JOINING_WORDS:
                return words[k].start()
        return None

    def _after_closers(self, end: int) -> int:
        buf = self._buffer
        while end < len(buf) and (buf[end] in CLOSERS or buf[end] in ASCII_TERMINALS + CJK_TERMINALS):
            end += 1
        return end

    def _clause_ready(self, buf: str, i: int) -> bool:
        if count_words(buf[:i]) < self.first_clause_min_words:
            return False
        # "1,000" or "3:30" are not clause ends; at the end of the buffer we cannot tell yet
        return buf[i] not in ",:" or (i + 1 < len(buf) and buf[i + 1].isspace())

    def _long_run_cut(self, buf: str) -> int | None:
        if count_words(buf) <= MAX_WORDS:
            return None
        last_space = buf.rstrip().rfind(" ")
        return last_space + 1 if last_space > 0 else None


async def split_sentences(
    deltas: AsyncIterator[str],
    *,
    first_clause_min_words: int = 4,
    first_clause_max_words: int = 0,
    clock: Clock | None = None,
) -> AsyncIterator[Sentence]:
    """The stage form: LLM deltas in, sentences (first one possibly a clause) out."""
    splitter = SentenceSplitter(
        first_clause_min_words=first_clause_min_words,
        first_clause_max_words=first_clause_max_words,
        clock=clock,
    )
    async for delta in deltas:
        for sentence in splitter.push(delta):
            yield sentence
    for sentence in splitter.flush():
        yield sentence


_SENTENCE_MARK = re.compile(r"(?<=[.!?。！？])\s*")


def sentences_of(text: str) -> list[str]:
    """A whole text's sentences, each ending with its mark (English and Chinese), stripped and never
    empty: for reading what a remembered statement says, not for the streaming splitter above."""
    return [part.strip() for part in _SENTENCE_MARK.split(text.strip()) if part.strip()]


def join_spoken(*parts: str) -> str:
    """Pieces of a reply as one text: a space between two pieces, none where either side is Chinese or
    Japanese ("好的，我记住了：" + "你对芒果过敏。"), so history does not teach the LLM spaces after "，"."""
    joined = ""
    for part in (p.strip() for p in parts):
        if not part:
            continue
        if joined and not (_CJK.match(part[0]) or _CJK.match(joined[-1]) or joined[-1] in _CJK_MARKS):
            joined += " "
        joined += part
    return joined
