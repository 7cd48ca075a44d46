"""The shared CJK classes match exactly what each module's own pattern matched before they shared them,
over the whole Basic Multilingual Plane, and the token estimate keeps its rule."""

from __future__ import annotations

import re

from voice_agent.memory.language import estimate_tokens as memory_estimate
from voice_agent.prompt import approx_token_count
from voice_agent.text.cjk import CJK_SYMBOLS, FULLWIDTH, HAN, HANGUL, KANA, char_class, estimate_tokens

BMP = "".join(chr(c) for c in range(0x20, 0x10000) if not 0xD800 <= c <= 0xDFFF)
BEFORE = {  # the patterns the modules defined themselves
    (HAN,): r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]",
    (KANA, HAN): r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]",
    (KANA, HAN, HANGUL): r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]",
    (CJK_SYMBOLS, KANA, HAN, HANGUL, FULLWIDTH): (
        r"[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]"
    ),
}


def test_each_combination_matches_the_same_characters_as_before() -> None:
    for ranges, old in BEFORE.items():
        assert re.findall(char_class(*ranges), BMP) == re.findall(old, BMP), ranges


def test_one_token_estimate_for_the_prompt_and_the_memory() -> None:
    for text in (
        "",
        "hello there",
        "我叫张伟，我女儿叫张小雨。",
        "Call [PHONE:7f3a9c2e10] ok?",
        "ｈｉ！こんにちは",
    ):
        assert estimate_tokens(text) == memory_estimate(text) == approx_token_count(text)
    assert estimate_tokens("我叫张伟") == 4 and estimate_tokens("abcdefgh") == 2


def test_without_a_vocabulary_the_prompt_counts_as_the_memory_budget_does() -> None:
    from voice_agent.llm.tokens import TokenCounter

    counter = TokenCounter.estimate()
    texts = (
        "hello there, how are you?",
        "我叫张伟，我女儿叫张小雨。",
        "Call [PHONE:7f3a9c2e10ab] ok?",
        "ｈｉ！こんにちは",
    )
    for text in texts:
        assert counter.count(text) == estimate_tokens(text) == approx_token_count(text)
