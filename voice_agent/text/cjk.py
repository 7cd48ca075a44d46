"""CJK character classes and the tokenizer-free token estimate, defined once.

The ranges are regex character-class bodies; callers combine the scripts they mean::

    re.compile(char_class(HAN))              # Chinese characters (language guess, BM25 bigrams)
    re.compile(char_class(KANA, HAN))        # one word per character when pacing speech
    re.compile(char_class(CJK_SYMBOLS, KANA, HAN, HANGUL, FULLWIDTH))   # about a token each

``estimate_tokens`` is the budget rule the prompt builder and the memory share (one token per CJK
character, four characters a token otherwise), so a budget and the prompt count the same way.
"""

from __future__ import annotations

import functools
import re

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # unified ideographs (ext. A, basic), compatibility
KANA = "\u3040-\u30ff"  # hiragana, katakana
HANGUL = "\uac00-\ud7af"  # hangul syllables
CJK_SYMBOLS = "\u3000-\u303f"  # ideographic space, 。、「」 ...
FULLWIDTH = "\uff00-\uffef"  # ！？（） and the other full-width forms


def char_class(*ranges: str) -> str:
    """``[...]`` holding these ranges."""
    return "[" + "".join(ranges) + "]"


def is_cjk(ch: str) -> bool:
    """The token estimate's notion of a CJK character (symbols, kana, Han, compatibility ideographs)."""
    code = ord(ch)
    return 0x3000 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF


@functools.lru_cache(maxsize=8192)
def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate of an LLM's token count: one token per CJK character, about four
    characters a token for everything else. Cached: the prompt is fitted from the same remembered texts
    on every turn."""
    cjk = len(_CJK_RE.findall(text))
    return cjk + (len(text) - cjk + 3) // 4


_CJK_RE = re.compile("[\u3000-\u9fff\uf900-\ufaff]")  # (``is_cjk``, as one pattern)


HAN_BASIC = (0x4E00, 0x9FFF)  # the basic block of unified ideographs, first and last code points
HAN_CLASS = char_class(HAN)  # for use inside larger patterns: rf"(?P<x>{HAN_CLASS}{{1,6}})"
HAN_RE = re.compile(HAN_CLASS)


def has_han(text: str) -> bool:
    """Whether ``text`` holds a Chinese character."""
    return HAN_RE.search(text) is not None


def is_han(ch: str) -> bool:
    """Whether the character ``ch`` is a Chinese character."""
    return HAN_RE.match(ch) is not None
