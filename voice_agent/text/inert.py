"""Making user- and memory-derived text inert before an LLM reads it.

Two dangers, two functions:

* ``neutralize_markers``: chat-template control markers typed or transcribed as text
  (``<|im_start|>``, ``<|eot_id|>``, ``<s>``, ``[INST]``, ``<<SYS>>``, ``<start_of_turn>``, …) would be
  read by llama.cpp (which parses special tokens in chat content) as real role switches. Their brackets
  are swapped for look-alikes (``<|im_start|>`` → ``‹|im_start|›``): still readable, never a token.
  The LLM backends apply it to every message they send (``neutralize_messages``).
* ``escape_data``: text shown inside a fence (``<memory>…</memory>``) must not close the fence or
  open another one, in any spelling: angle brackets in every form that NFKC folds to ``<``/``>``
  (``＜``, ``﹤``) become ``&lt;``/``&gt;``, and the other look-alike brackets (``‹〈⟨``) do so when
  they enclose a tag name. Invisible format characters (zero-width space, word joiner, bidi controls,
  Unicode tag characters) are dropped first, and newlines flattened, so nothing can hide or start a
  line of its own.

``normalized`` gives the folded form (NFKC, no format characters, casefolded, one kind of quote and of
space) that detectors match on.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Mapping

_LEFT = "<\uff1c\ufe64"  # < ＜ ﹤
_RIGHT = ">\uff1e\ufe65"  # > ＞ ﹥
_PIPE = "|\uff5c\u00a6"  # | ｜ ¦
_L, _R, _P = f"[{_LEFT}]", f"[{_RIGHT}]", f"[{_PIPE}]"
_OPEN_SQ, _CLOSE_SQ = "[\\[\uff3b]", "[\\]\uff3d]"

# Named markers of the common templates that have no pipes (<s>, <start_of_turn>, <think>, …); any
# name with an underscore is taken as a marker too (<file_sep>, <tool_call>, <jupyter_code>).
_ANGLE_NAMES = "s|unk|pad|bos|eos|eot|mask|sep|cls|sop|eop|think|reponame|filename|[a-z]+(?:_[a-z0-9]+)+"
# Bracketed markers (Mistral, ChatGLM): the known names in any case, any upper-case name with "_".
_BRACKET_NAMES = "(?i:inst|sys|img|prefix|middle|suffix|gmask|smask|mask)|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+"
_MARKER = re.compile(
    rf"{_L}\s*{_P}[^\s{_LEFT}{_RIGHT}{_PIPE}]{{1,64}}{_P}\s*{_R}"  # <|im_start|>, <｜User｜>
    rf"|{_L}\s*{_L}\s*/?\s*(?i:sys)\s*{_R}\s*{_R}"  # <<SYS>>, <</SYS>>
    rf"|{_L}\s*/?\s*(?i:{_ANGLE_NAMES})\s*{_R}"  # <s>, </s>, <start_of_turn>, <file_sep>
    rf"|{_OPEN_SQ}\s*/?\s*(?:{_BRACKET_NAMES})\s*{_CLOSE_SQ}"  # [INST], [/INST]
)
_SWAP = str.maketrans(
    {**dict.fromkeys(_LEFT, "\u2039"), **dict.fromkeys(_RIGHT, "\u203a"), "[": "\u2045", "]": "\u2046"}
    | {"\uff3b": "\u2045", "\uff3d": "\u2046"}
)

# Brackets that NFKC folds to < or > (escaped always) and other look-alikes (escaped around a tag name).
_FOLDS_TO_LT = frozenset(_LEFT)  # every character NFKC folds to "<" (checked in the tests)
_FOLDS_TO_GT = frozenset(_RIGHT)
_LOOKALIKE_LT = "\u2039\u3008\u27e8\u2329\u276e\u276c\u02c2\u1438\u00ab"  # ‹ 〈 ⟨ 〈 ❮ ❬ ˂ ᐸ «
_LOOKALIKE_GT = "\u203a\u3009\u27e9\u232a\u276f\u276d\u02c3\u1433\u00bb"
_LOOKALIKE_TAG = re.compile(
    rf"[{_LOOKALIKE_LT}](\s*[/\uff0f\u2044\u2215]?\s*[^\W\d_][\w\s-]{{0,30}})[{_LOOKALIKE_GT}]"
)
_NEWLINES = re.compile(r"\s*[\r\n\u0085\u2028\u2029\v\f]+\s*")
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u02bc": "'", "\u201c": '"', "\u201d": '"'})
_SPACES = re.compile(r"\s+")


def strip_invisible(text: str) -> str:
    """Drop format characters (Unicode category Cf): zero-width spaces and joiners, soft hyphens, bidi
    controls, the invisible tag characters. They carry nothing a voice assistant needs and can hide
    words from a reader or a pattern."""
    if text.isascii():
        return text
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf")


def neutralize_markers(text: str) -> str:
    """The text with every chat-template control marker made plain text (idempotent)."""
    if not text:
        return text
    text = strip_invisible(text)
    return _MARKER.sub(lambda m: m.group(0).translate(_SWAP), text)


def neutralize_messages(messages: Iterable[Mapping[str, str]]) -> list[dict[str, str]]:
    """Every message's content neutralised (roles untouched): what an LLM backend may send."""
    out: list[dict[str, str]] = []
    for message in messages:
        clean = dict(message)
        content = clean.get("content")
        if isinstance(content, str):
            clean["content"] = neutralize_markers(content)
        out.append(clean)
    return out


@functools.lru_cache(maxsize=8192)
def escape_data(text: str) -> str:
    """Text to be shown as quoted data inside a fence: one line, no markers, no tags in any spelling
    (cached: the same remembered texts are quoted on every turn)."""
    text = neutralize_markers(text)
    text = _LOOKALIKE_TAG.sub(lambda m: f"&lt;{m.group(1)}&gt;", text)
    text = "".join(
        "&lt;" if ch in _FOLDS_TO_LT or ch == "<" else "&gt;" if ch in _FOLDS_TO_GT or ch == ">" else ch
        for ch in text
    )
    return _NEWLINES.sub(" / ", text).strip()


def normalized(text: str) -> str:
    """The folded form detectors match on: NFKC (full-width → ASCII), no format characters,
    casefolded, straight quotes, single spaces."""
    folded = unicodedata.normalize("NFKC", strip_invisible(text)).casefold().translate(_QUOTES)
    return _SPACES.sub(" ", folded).strip()
