"""Everyday Chinese phrases the name finder once scrubbed as names in a request, and a diet eaten."""

from __future__ import annotations

import pytest

from voice_agent.memory.scrub import Scrubber


@pytest.mark.parametrize(
    "text",
    [
        "你帮我把这段时间的安排和走之前要准备的东西列一下",
        "你帮我定个菜单，要像样点，几冷几热那种。",
        "下个月底阿拉公司要搞个万圣节团建，我负责挑片子",
        "我负责烧烤，帮我弄个菜单再列个采购单好伐，大概七个人。",
        "我们家是跟着阿嬷吃全素的，从我国小就这样。",
    ],
)
def test_an_everyday_phrase_is_no_name(name_scrubber: Scrubber, text: str) -> None:
    assert name_scrubber.scrub(text).text == text


@pytest.mark.parametrize("text", ["我同事全素芬今天请假了", "我跟段时雨说好了", "昨天张好来我家了"])
def test_a_name_beside_those_words_is_still_scrubbed(name_scrubber: Scrubber, text: str) -> None:
    assert "[NAME:" in name_scrubber.scrub(text).text
