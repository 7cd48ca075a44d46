"""A Chinese vow or standing order said back as the reply's opening: "你说过这辈子再也不骑车了，" for
"打那儿起我就跟我媳妇儿发了誓，这辈子再也不骑车了", "你说过以后别给你推荐火锅，" for "以后别给我推荐火锅".

The person's clause names what they keep off with the verb they use for it (不骑车, 不坐红眼航班, 别再叫我去
爬山), which "按你说的，避开骑车，" loses; and it says back that we remember what they swore, not only a
rule. Only for a thing kept off (``avoid``) whose clause does not start with the person (``own_words`` says
those: "因为你不吃香菜，").
"""

from __future__ import annotations

import re

from voice_agent.conversation.constraints import Constraint, parse_constraints
from voice_agent.text.placeholders import spoken_length

_CLAUSES = re.compile(r"[^，。！？；,.!?;：:]+")
# The clause refuses or swears off: 不, 别, 甭, 莫 (Sichuan), 千万.
_REFUSES = re.compile(r"不|别|甭|莫|千万")
# Words that open a clause and say nothing of it ("就是羊肉硬是吃不来", "反正这辈子再也不去了").
_LEAD = re.compile(r"^(?:(?:就是|反正|说实话|说真的|其实|真的|而且|所以|总之|可|但|那|说|我[是就可]?)\s*)+")
_TAIL = re.compile(r"[啊呀哈哦嘛呢哟吧]+$")
_SWAP = (("咱们", "你们"), ("我们", "你们"), ("我", "你"), ("俺", "你"))
_MAX_CHARS = 20  # a clause longer than this is no opening


def vow_said(constraint: Constraint) -> str:
    """The clause of ``constraint``'s statement that swears off or refuses what it keeps off, said back
    ("你说过再也不坐长途大巴回去了，"), or "" when no short clause of it does."""
    if constraint.kind != "avoid":
        return ""
    for match in _CLAUSES.finditer(constraint.source):
        clause = _TAIL.sub("", _LEAD.sub("", match.group(0).strip()))
        if not _REFUSES.search(clause) or spoken_length(clause) > _MAX_CHARS:
            continue
        if constraint.key not in {c.key for c in parse_constraints(clause)}:
            continue
        for mine, yours in _SWAP:
            clause = clause.replace(mine, yours)
        return f"你说过{clause}，"
    return ""
