"""Plans the person changed later, left out of the memory block.

"For Jess's hen do we've booked flights to Prague" and, days later, "hen do update … we've knocked Prague
on the head and we're doing Brighton instead": both are recalled for "write the message for Jess's
weekend", and a small model writes the first one it reads ("…book flights to Prague"). A recalled plan
that a later statement revises is not shown in the block, so the prompt holds only what stands now.

A plan is a statement with a word of arranging (booked, planning, 订在, 打算, 得去, 挂好…) or a pinned
decision; a revision is a later statement, from another turn, with a word of change (instead, update,
moved, cancelled, "from this week onwards", 换地方了, 改到, 变了, 算了…) that shares a content word with
the plan ("hen", "Prague", 满月, 复查). What states a constraint is never left out (an allergy stays
whatever the change). Nothing is deleted or marked in the store: the records stay, and the old plan is
still there when asked about ("where were we going first?" finds it by its own words).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from voice_agent.conversation.constraints import parse_constraints
from voice_agent.conversation.echo import content_keys
from voice_agent.memory.records import MemoryRecord
from voice_agent.text.cjk import has_han
from voice_agent.text.dates import holds_time

_I = re.IGNORECASE
# The words of a change that name what replaced the plan: "…an outer space party instead", "改去青海".
REPLACED_BY = re.compile(
    r"\binstead\b|\bswitch(?:ed|ing)? to\b|\bgoing with\b|\bnow (?:it's|we're)\b|\b(?:it's|it is) now\b|"
    r"\b(?:moved|shifted|bumped|rescheduled|changed|pushed (?:it )?(?:back|forward)|brought (?:it )?forward)"
    # ("we've moved knit and natter to Sunday")
    r"(?: (?:me|us|it|him|her|them|the \w+|"
    r"(?!house\b|home\b|in\b|out\b|back\b|away\b)[a-z'-]+(?: [a-z'-]+){0,3}?))?"
    r" (?:to|till|until)\b|"
    r"\bfrom (?:this|next) (?:week|month|term)(?: on(?:wards?)?)?\b|\bfrom now on(?:wards?)?\b|"
    r"改成|改去|换成|改为|改到|改在|改用|换到|改拍|转到|调到|转去|调去|挪到|挪去|挪至|移到|改约(?:到|在|成)?|转成",
    _I,
)
REVISES_PLAN = re.compile(
    r"\b(?:actually|instead|change of plans?|plans? (?:have |has )?changed|update|scratch that|"
    r"changed (?:my|our|his|her|their) minds?|moved|shifted|rescheduled|postponed|pushed (?:back|forward)|"
    r"brought forward|cancell?ed|called off|scrapped|ditched|knocked \S+(?: \S+)? on the head|no longer|"
    r"switched|plot twist|declined?|turned (?:it|them|him|her) down|thanks but no thanks|"
    # a standing arrangement changed from a day on: "from this week onwards tuition is Sunday two p.m."
    r"(?:from|starting|as of) (?:this|next|the) (?:week|month|term|year|session|class|lesson)"
    r"(?: on(?:wards?)?)?|from now on(?:wards?)?|going forward)\b|"
    r"从(?:这|下|本)(?:周|礼拜|星期|个月|学期|次)(?:起|开始)|从(?:现在|今天|明天)(?:起|开始)|以后都改|"
    r"改成|改去|换成|改为|改到|改在|改咗|换咗|取消咗|推迟咗|改坐|改乘|改订|改住|改用|改叫|改名|又改了|改约|改咯|改哒|换地方|换了|变了|退了|退掉了|取消了|推迟|"
    r"转到|调到|转成|(?:还是|最后|后来|终究)改了|开不成|办不成|去不成|黄了|泡汤了|"
    r"提前到|换到|挪到|(?:地方|时间|日子|地点|安排)(?:又)?改了|"
    r"^\s*算了|不去了|不办了|不订了|拒了|推掉了",
    _I,
)
_PLAN = re.compile(
    r"\b(?:booked|book|booking|reserved|reservation|planning|planned|plan|going to|gonna|we're doing|"
    r"we are doing|appointment|tickets?|flights?|scheduled|organi[sz]ed|arranged|signed up|registered|named|"
    r"going with|go with|decided|settled on|opted for|chose|chosen|picked|"
    # a job taken: "Assistant manager at JD Sports, starting next month", "下个月一号 join 字节"
    r"got the job|new job|starting|start (?:on|at)|joining|join|offer|accepted|"
    # said with a dropped g, or as done: "We're doin' it in the backyard", "got the party all figured out"
    r"doin'|goin' to|figured out|lined up|all set|sorted(?: out)?)(?!\w)|"
    # a trip or a party being had: "Our group is finally doing a proper trip! Five days in Bologna"
    r"\b(?:doing|having|taking|going on|throwing)\s+(?:a|an|our|the|my)\s+(?:\w+\s+)?(?:trip|holiday|party|"
    r"weekend away|break|tour)\b|"
    r"订|约了|约在|报了|报的是|打算|计划|准备|要去|得去|挂好|挂了号|定在|定了|安排|报名|预约|决定|选了|入职|拿到|票|"
    r"(?:坐|乘)(?:高铁|火车|动车|飞机|大巴|船)|到[东南西北]?站|到机场",
    _I,
)
# Words a plan and its change share that say nothing about which plan it is.
_GENERIC_TEXT = (
    "day week weekend time today tomorrow month year thing people going plan update change actually instead"
)
_GENERIC = frozenset(_GENERIC_TEXT.split())


def without_revised(
    records: Sequence[MemoryRecord], also: Sequence[MemoryRecord] = (), *, constraints_stand: bool = True
) -> list[MemoryRecord]:
    """``records`` less the plans that a later statement among ``records`` or ``also`` (the pinned
    records) revises. A change is read with the rest of its utterance: "the dinosaurs are out" and "it's
    gonna be an outer space party instead" are clauses of one turn, and together revise "dinosaur theme".
    A plan that states a constraint too stays (the constraint still holds), unless ``constraints_stand``
    is off: for what is said back as the plan, where the old plan must not be."""
    every = (*records, *also)
    revisions = [r for r in every if r.role == "user" and REVISES_PLAN.search(r.text)]
    if not revisions:
        return list(records)
    said = [r for r in every if r.role == "user"]
    said_with = utterance_keys(said)
    # the utterances that set a plan (a clause of one is part of the plan)
    planned = {r.source for r in said if r.source and _sets_plan(r)}
    return [r for r in records if not _revised(r, revisions, said_with, planned, constraints_stand)]


def utterance_keys(records: Sequence[MemoryRecord]) -> dict[str, set[str]]:
    """The content keys of each utterance (by its turn id), over the records of its clauses."""
    keys: dict[str, set[str]] = {}
    for record in records:
        if record.source:
            keys.setdefault(record.source, set()).update(content_keys(record.text))
    return keys


def _sets_plan(record: MemoryRecord) -> bool:
    """A plan, or an arrangement for a day ("这礼拜六早上九点在小区南门集合")."""
    return record.kind == "decision" or _PLAN.search(record.text) is not None or holds_time(record.text)


def _revised(
    record: MemoryRecord,
    revisions: list[MemoryRecord],
    said_with: dict[str, set[str]],
    planned: set[str],
    constraints_stand: bool = True,
) -> bool:
    if record.role != "user" or REVISES_PLAN.search(record.text):
        return False
    # (a clause of a change that says why the old plan fell through names the old plan: "老堂那边礼拜六
    # 有人办婚礼" of "…借不出来，挪到22号礼拜天下午两点半", copied into a notice as the rehearsal's place)
    fell_through = FELL_THROUGH.search(record.text) and not REPLACED_BY.search(record.text)
    if record.source and fell_through and any(r.source == record.source for r in revisions):
        return not (constraints_stand and parse_constraints(record.text))
    # (or a clause of an utterance that set one: "在湘里人家摆三桌" of "奶奶八十大寿定在下个月15号中午，…")
    if not _sets_plan(record) and record.source not in planned:
        return False
    if constraints_stand and parse_constraints(record.text):
        return False
    keys = content_keys(record.text) - _GENERIC
    names = GIVES_NAME.search(record.text) is not None
    timed = holds_time(record.text)
    return any(
        later.created_at > record.created_at
        and (not record.source or later.source != record.source)
        and (
            keys & (said_with.get(later.source, set()) if later.source else content_keys(later.text))
            or (names and _NAME_CHANGED.search(later.text) is not None)
            # (a time moved, said of "the one we had" without naming it: "医院刚打电话来，说原来那个大夫临时
            # 出差，给我改到周五下午两点了" of "…根管治疗…定的是这周三上午九点半")
            or (timed and holds_time(later.text) and _POINTS_BACK.search(later.text) is not None)
        )
        for later in revisions
    )


_POINTS_BACK = re.compile(
    r"\b(?:originally|the original|it's now|they've moved it|moved it to|pushed it (?:back|to))\b|"
    r"原来(?:那个|的|定的)|原定|原先定|本来定|给我改到|帮我改到",
    _I,
)


# A name chosen, then changed: "孩子大名定了…叫陆子轩" and "名字那事儿又改了…最后改叫陆屿安了" share no word
# but the naming itself.
GIVES_NAME = re.compile(
    r"\b(?:named?|call(?:ed|ing)?|name (?:is|will be))\b|"
    r"叫|名字|大名|起名|取名",
    _I,
)
_NAME_CHANGED = re.compile(
    r"\b(?:renamed|changed (?:the|his|her|their) name|new name|"
    r"(?:calling|call) (?:him|her|them|it) \S+ instead)\b|"
    r"改叫|改名|名字[^。！？!?]{0,12}改|换了?(?:个)?名字",
    _I,
)


def gives_replaced_name(record: MemoryRecord, records: Sequence[MemoryRecord]) -> bool:
    """Whether ``record`` gives a name that another statement of the person's, said with it or after it,
    says was changed ("she raced under the name Blazing Comet" beside "so the kids have renamed her
    Pavlova"): said back, it would name what the person no longer uses."""
    if not GIVES_NAME.search(record.text) or _NAME_CHANGED.search(record.text):
        return False
    return any(
        other.id != record.id and other.created_at >= record.created_at and _NAME_CHANGED.search(other.text)
        for other in records
    )


def renamed_later(record: MemoryRecord, records: Sequence[MemoryRecord]) -> bool:
    """Whether ``record`` gives a name that a later statement of the person's, from another turn, says was
    changed ("最后改叫陆屿安了" after "叫陆子轩")."""
    if record.role != "user" or not GIVES_NAME.search(record.text):
        return False
    return any(
        later.role == "user"
        and later.created_at > record.created_at
        and (not record.source or later.source != record.source)
        and _NAME_CHANGED.search(later.text) is not None
        for later in records
    )


# A clause of a change that says why the old plan fell through, or what it was: "the Greenhouse went and
# double-booked us", "北门那边在修路", "礼拜二我本来还有个会". Its words are the old plan's.
FELL_THROUGH = re.compile(
    r"\b(?:double[- ]?booked|overbooked|booked (?:up|out)|fully booked|closed|closing|shut|flooded|"
    r"renovat\w*|refurb\w*|roadworks|cancell?ed|fell through|went bust|can't make it|couldn't make it|"
    r"can't do it|no longer available|not available|(?:cannot|can't|can not) (?:go up|go in|use|get in)|"
    r"originally|(?:was|were) (?:supposed|meant|going) to|"
    r"had planned)\b|"
    r"修路|装修|关门|停业|包场|订满|满了|被订|被人订|被占|有人(?:办|用|包|订|占)|借不(?:出|到)|腾不出|取消|"
    r"去不了|来不了|不开了|本来|原来|原定|原本|冲突|撞了|撞车|黄了|泡汤|超售|超卖|不让用|用不了|不能用",
    _I,
)
_CLAUSE = re.compile(r"[^,，;；。.!！?？]+[,，;；。.!！?？]*")


def standing_clauses(text: str) -> str:
    """A change of plan without its clauses saying why the old plan fell through or what it was ("哎呀，
    植物园那个嫁接课改时间了，北门那边在修路，改成下礼拜四下午两点…" → without "北门那边在修路"); ``text``
    as it is when it is no change, or every clause would go."""
    if not REVISES_PLAN.search(text):
        return text
    clauses = _CLAUSE.findall(text)
    kept = [c for c in clauses if not FELL_THROUGH.search(c) or REPLACED_BY.search(c)]
    if not kept or len(kept) == len(clauses):
        return text
    joined = "".join(kept).strip().rstrip(",，;；")
    return joined if joined.endswith(tuple("。.!！?？")) else joined + ("。" if has_han(joined) else ".")


def the_change(text: str) -> str:
    """What a change of plan says the plan is now, to be said back: its standing clauses from the one that
    names what replaced the plan ("周会又得改,周一上午老跟…撞车,…腾讯会议不让用了。以后改成每周二下午三点,飞书
    视频会议…" → "以后改成每周二下午三点,飞书视频会议…"): the clauses before it tell the plan as it was.
    ``text`` as ``standing_clauses`` leaves it when no clause names the replacement."""
    standing = standing_clauses(text)
    clauses = _CLAUSE.findall(standing)
    first = next((i for i, clause in enumerate(clauses) if REPLACED_BY.search(clause)), 0)
    kept = "".join(clauses[first:]).strip()
    # (without the joining word it followed: "…double-booked us, so we're going to the Boathouse instead")
    return kept if kept == text.strip() else re.sub(r"^(?:so|and|but|then)\s+", "", kept, flags=_I)
