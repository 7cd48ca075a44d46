"""A changed plan said after a reply that forgot it.

"婚纱照…下个月去厦门鼓浪屿拍海景" and, later, "…干脆改去青海茶卡盐湖拍天空之镜…
鼓浪屿那套直接取消了", then "你帮我列个拍婚纱照要带的东西的清单吧": the old plan is left
out of the memory block (``revised_plans``), yet the 0.5B model writes a list that names neither place.
The reply is said as it comes (holding it back would delay the first audio of every clean reply); when
it ends without a word of the change, one short sentence follows that says the change back in the
person's words: its clause that names what replaced the plan ("你告诉过我，干脆改去青海茶卡盐湖拍
天空之镜。").

Only for a turn about the plan that was changed: the turn shares a content word with the replaced plan
(婚纱照; "my volunteering" and "volunteer at the food bank"); "What should I cook tonight?" gets nothing
added, whatever plans were changed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from voice_agent.conversation.echo import content_keys
from voice_agent.conversation.recall_answer import said_back
from voice_agent.conversation.revised_plans import (
    REPLACED_BY,
    REVISES_PLAN,
    standing_clauses,
    utterance_keys,
    without_revised,
)
from voice_agent.conversation.said_before import person_statements, stems
from voice_agent.memory.records import MemoryRecord
from voice_agent.text.cjk import has_han
from voice_agent.text.dates import holds_time

_MAX_CHARS = 120
# (not at the dots of "p.m." or "a.m.": "tuition is Sunday two p.m., on Zoom" is one clause)
_CLAUSE = re.compile(r"(?:[^,，;；。.!！?？]|\.(?=\w\.)|(?<=\.\w)\.(?!\s*[A-Z]))+")


def _changed(
    user_text: str, records: Sequence[MemoryRecord]
) -> tuple[list[MemoryRecord], list[MemoryRecord], dict[str, set[str]]]:
    """The replaced plans the turn is about, the statements that changed them since, and the content of
    each utterance among the person's statements (``utterance_keys``)."""
    statements = person_statements(records)
    current = without_revised(statements)
    replaced = [r for r in statements if r not in current]
    asked = stems(content_keys(user_text))  # ("my volunteering": "volunteer at the food bank")
    # (a replaced clause is read with the utterance it came from: "在湘里人家摆三桌" is about 奶奶八十大寿)
    said_with = utterance_keys(statements)
    about = [
        r for r in replaced if asked & stems(content_keys(r.text) | said_with.get(r.source or "", set()))
    ]
    if not about:
        return [], [], said_with
    since = min(r.created_at for r in about)
    return about, [r for r in current if r.created_at > since and REVISES_PLAN.search(r.text)], said_with


def replaced_keys(user_text: str, records: Sequence[MemoryRecord]) -> frozenset[str]:
    """The content of the plans the turn is about as they were before a change, less what the change
    and the turn say too ("人民公园" of "周日在人民公园拍全家福", changed to a studio): a reply that names it
    says the old plan (``names_old_plan``)."""
    about, changes, _ = _changed(user_text, records)
    if not changes:
        return frozenset()
    # (and what the change's utterance says beside it: "…时间还是上午十点" keeps 上午; not a clause on why
    # the old plan fell through: "the Greenhouse went and double-booked us" keeps no Greenhouse)
    sources = {r.source for r in changes if r.source}
    beside = [r for r in person_statements(records) if r.source in sources]
    standing = [content_keys(standing_clauses(r.text)) for r in [*changes, *beside]]
    kept = content_keys(user_text).union(*standing)
    # (unless the change names it only to drop it: "not doing Monzo after all", "instead of Monzo")
    dropped = set().union(*(_dropped(r.text) for r in changes))
    old = set().union(*(content_keys(r.text) for r in about))
    return frozenset(old - (kept - dropped))


# What a change names only to drop it: "not doing Monzo after all", "instead of the Boathouse".
_DROPPED_EN = re.compile(
    r"\b(?:not|no longer|never|instead of|rather than|scrapp(?:ed|ing)|ditch(?:ed|ing)|cancell?(?:ed|ing))\s+"
    r"(?:(?:doing|going(?: to| with)?|using|with|the|that|at|to)\s+){0,2}"
    r"(?P<x>[A-Z][\w'-]+(?: [A-Z][\w'-]+)?)"
)


def names_old_plan(piece: str, keys: frozenset[str], change: str, user_text: str) -> bool:
    """Whether ``piece`` names a plan as it was before the change (two Chinese character pairs of it,
    or one English word), and nothing of the change: "拍全家福的集合地点是人民公园南门。"."""
    if not keys:
        return False
    found = keys & content_keys(piece)
    enough = len(found) >= (2 if has_han(piece) else 1)
    return enough and not (change and names_change(piece, change, user_text))


def changed_plan(user_text: str, records: Sequence[MemoryRecord], language: str) -> str:
    """The change of a plan the turn is about, said back ("You told me …"), or ""."""
    about, changes, _ = _changed(user_text, records)
    if not about:
        return ""
    clauses = []
    for record in changes:
        parts = [part.strip() for part in _CLAUSE.findall(record.text)]
        for i, clause in enumerate(parts):
            if not REPLACED_BY.search(clause):
                continue
            # with the time or the place it names next: "改成晚上的车了，八点二十到南站", "…two p.m., on
            # Zoom", both: "we're doing Wednesday instead, 6:30, at the Logan Square branch on Milwaukee"
            for after in parts[i + 1 : i + 3]:
                timed = (holds_time(after) and not holds_time(clause)) or _CLOCK.match(after) is not None
                if not (timed or _WHERE_NEXT.match(after) or _PLACE_NEXT.match(after)):
                    break
                clause = f"{clause}{'，' if has_han(clause) else ', '}{after}"
            if len(clause) <= _MAX_CHARS:
                clauses.append((record.created_at, clause))
    if not clauses:
        return ""
    return said_back(max(clauses)[1], language)


# A short clause that says where, after the change: "…Sunday two p.m., on Zoom", "改到周六，在二楼".
_WHERE_NEXT = re.compile(r"(?:on|at|in|via|over) (?:\S+ ?){1,3}$|在\S{1,8}$", re.IGNORECASE)
# A place named by its name, however long: "at the Logan Square branch on Milwaukee".
_PLACE_NEXT = re.compile(r"(?:at|in|on) (?:the |our |their )?(?:[a-z]+ )?[A-Z][\w'-]*(?: \S+){0,6}$")
# A time of day, said beside a day: "6:30", "half seven", "9am".
_CLOCK = re.compile(
    r"(?:at |by |from )?(?:\d{1,2}(?::\d\d|\s?[ap]\.?m\b)|half (?:past )?\w+\b)|"
    r"[0-9一二三四五六七八九十两]{1,3}点",
    re.IGNORECASE,
)

_TOLD = content_keys("You told me 你告诉过我")


def names_change(said: str, change: str, user_text: str) -> bool:
    """Whether ``said`` uses a content word of ``change`` (said back) that the turn itself does not."""
    wanted = content_keys(change) - content_keys(user_text) - _TOLD - _dropped(change)
    return bool(wanted & content_keys(said)) or not wanted


def _dropped(text: str) -> set[str]:
    """The words ``text`` names only to drop them ("not doing Monzo after all": monzo)."""
    return {w.lower() for m in _DROPPED_EN.finditer(text) for w in m.group("x").split()}
