"""Foods given up, said in Chinese with 断 or 戒 after them: "连鸡蛋牛奶也一起断了", "葱蒜韭菜那些呛呛的也
通通戒掉". Read for known topics only (the caller's ``topics_only``): "跟他也断了" names no food, and
"烟也戒了" only what a topic knows."""

from __future__ import annotations

import re

__all__ = ["GAVE_UP_ZH"]

_END = "，,。；;！!？?：:"
GAVE_UP_ZH = re.compile(
    rf"(?:^|[{_END}]|连)(?P<x>[^{_END}]{{1,12}}?)(?:那些|这些|那类|这类|之类)?(?:[^{_END}]{{1,4}}的)?"
    r"(?:也|都|我|俺|就)*(?:一起|通通|统统|全都|全|一律|早就|早|彻底)*(?:断|戒)(?:掉|了|干净|光)"
)
