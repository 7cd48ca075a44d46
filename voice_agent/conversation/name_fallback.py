"""The name a person told us, said back when they ask which name to write and the model gave no answer.

"登记表上面宠物名嗰栏我应该填咩名？" after "只狗唔叫 Mochi 喇……而家叫「豆腐花」", or "How I should tell
de man to engrave she name on it?" after "Dem call she Ameerah Joy. Not Amira like how everybody does
spell it": the name is in the memory block, yet the 0.5B model says nothing twice, and "sorry" leaves
the person with a blank form. Their own clause that gives the name is said back instead
("你告诉过我，而家叫「豆腐花」。").

A clause gives a name when it says someone or something is called so ("call", "named", "叫", "改名");
one that says what it is *not* called ("唔叫 Mochi 喇", "not called Biscuit any more") gives none. Of
several, a clause that says the name is the new one ("now", "而家", "现在", "改叫") wins, then the
latest. Nothing when the turn does not ask about a name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from voice_agent.conversation.recall_answer import said_back
from voice_agent.conversation.revised_plans import GIVES_NAME
from voice_agent.memory.records import MemoryRecord

_I = re.IGNORECASE
# Asking which name to write, give or use: "what name do I put on the form", "engrave her name",
# "宠物名嗰栏我应该填咩名", "名字写哪个".
ASKS_WHICH_NAME = re.compile(
    r"\b(?:what|which) name\b|\bname (?:should|do|would|shall|to) (?:i|we)\b|"
    r"\b(?:engrave|write|put|spell|fill in|print|stitch|embroider)\w*\b[^.?!]{0,30}\bname\b|"
    r"(?:填|写|刻|登记|印|绣)[^，。！？]{0,4}(?:咩|什么|啥|哪个)名|(?:咩|什么|啥)名字?|名字(?:写|填)(?:哪个|什么|啥|咩)",
    _I,
)
# (a name given as ``revised_plans`` reads one, or said another way: "goes by", "renamed", "name's")
_GIVES = re.compile(rf"{GIVES_NAME.pattern}|\b(?:calls|goes by|renamed|name(?:'s| was))\b|改名", _I)
# Saying what it is not called: "唔叫 Mochi 喇", "不再叫", "not called Biscuit any more".
_NOT_CALLED = re.compile(
    r"\b(?:not|no longer|isn't|aren't|stopped)\s+(?:\w+\s+)?(?:called|calling|named|going by)\b|"
    r"(?:唔|不|不再|冇再|没再|别再)叫",
    _I,
)
_NOW = re.compile(
    r"\b(?:now|these days|from now on|renamed|instead|new name)\b|而家|现在|宜家|改叫|改名|改成", _I
)
_MAX_CHARS = 160


def name_statement(question: str, records: Sequence[MemoryRecord], language: str) -> str:
    """The person's clause that gives the name ``question`` asks for, said back; "" when the turn asks
    about no name or no clause of theirs gives one."""
    if not ASKS_WHICH_NAME.search(question):
        return ""
    best: tuple[int, float, int, str] | None = None
    for position, record in enumerate(records):
        text = record.text.strip()
        if record.role != "user" or record.status != "active" or len(text) > _MAX_CHARS:
            continue
        if not _GIVES.search(text) or _NOT_CALLED.search(text):
            continue
        score = (int(_NOW.search(text) is not None), record.created_at, position, text)
        if best is None or score[:3] > best[:3]:
            best = score
    return said_back(best[3], language) if best is not None else ""
