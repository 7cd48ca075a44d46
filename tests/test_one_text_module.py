"""Character classes and token estimates are defined once, in ``voice_agent/text/cjk.py``: a second copy
drifts (the CJK ranges were once defined ten times with different ranges, and two token estimates
disagreed, so a budget and the prompt counted differently)."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "voice_agent"
HOME = PACKAGE / "text" / "cjk.py"
_HAN_RANGE = re.compile(r"\\u4e00|\\u9fff|\u4e00-\u9fff")
_TOKEN_ESTIMATE = re.compile(r"^def (estimate_tokens|approx_tokens)\(", re.MULTILINE)


def _sources() -> list[Path]:
    return [p for p in sorted(PACKAGE.rglob("*.py")) if p != HOME]


def test_the_han_range_is_written_only_in_the_text_module() -> None:
    copies = [str(p.relative_to(PACKAGE)) for p in _sources() if _HAN_RANGE.search(p.read_text())]
    assert copies == [], f"use voice_agent.text.cjk (HAN_RE, HAN_CLASS, has_han, is_han) in {copies}"


def test_one_token_estimate() -> None:
    defined = [str(p.relative_to(PACKAGE)) for p in _sources() if _TOKEN_ESTIMATE.search(p.read_text())]
    assert defined == [], f"import estimate_tokens from voice_agent.text.cjk; defined in {defined}"


def test_the_shared_han_helpers_agree() -> None:
    from voice_agent.text.cjk import HAN_RE, has_han, is_han

    assert has_han("我喜欢用 Python") and not has_han("Python, ひらがな, 한국어")
    assert is_han("龍") and is_han("㐀")  # extension A counts
    assert not is_han("a") and not is_han("。")
    assert HAN_RE.findall("a中b文") == ["中", "文"]
