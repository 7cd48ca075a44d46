"""Rule-based extraction of durable items from a user turn (English and Chinese).

A turn that tries to instruct the assistant (``injection.find_instruction``: new rules, roles,
authority, secrets or instructions for other people) yields no item: it is kept, if at all, as an
ordinary utterance, never pinned.

Explicit commands ("remember that…", "记住…", "forget…", "忘掉…", "from now on…") and the common shapes of
lasting facts (allergies, diets, preferences, decisions, changes of plan) become typed items with an
importance. A change of mind ("we switched from MySQL to PostgreSQL", "use X, not Y", "改用X，不用Y了")
names what it replaces, so the older item can be superseded. The rules run in microseconds, so they sit
on the write path; an LLM extractor can add items in the background where one is good enough.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from voice_agent.conversation.constraints import parse_constraints
from voice_agent.conversation.injection import InstructionFinding, find_instruction
from voice_agent.conversation.likings import ENTHUSIASM, says_liking
from voice_agent.conversation.place_note import ranked_place
from voice_agent.conversation.revised_plans import REPLACED_BY, REVISES_PLAN
from voice_agent.memory.records import Kind
from voice_agent.text.apostrophes import with_apostrophes
from voice_agent.text.cjk import HAN_CLASS
from voice_agent.text.questions import only_asks
from voice_agent.text.sentences import join_spoken, sentences_of


@dataclass(frozen=True)
class ExtractedItem:
    kind: Kind
    text: str
    importance: float
    replaces: tuple[str, ...] = ()  # terms the item replaces: older items mentioning them are superseded
    subject: str | None = None


@dataclass(frozen=True)
class ForgetRequest:
    query: str


@dataclass
class Extraction:
    items: list[ExtractedItem] = field(default_factory=list)
    forget: list[ForgetRequest] = field(default_factory=list)
    # Set when the turn tries to instruct the assistant: nothing of it is pinned (see ``injection``).
    instruction: InstructionFinding | None = None


_I = re.IGNORECASE
_REMEMBER_EN = re.compile(
    r"^\s*(?:please\s+)?(?:remember|note|keep in mind|don't forget)(?:\s+that)?[,:]?\s+(?P<x>.+)", _I
)
_REMEMBER_ZH = re.compile(r"^\s*(?:请)?(?:记住|记得|记一下|别忘了)[，,:：]?\s*(?P<x>.+)")
_FORGET_EN = re.compile(
    r"^\s*(?:please\s+)?(?:forget|stop remembering|erase)(?:\s+(?:that|about))?\s+(?P<x>.+)", _I
)
_FORGET_ZH = re.compile(r"^\s*(?:请)?(?:忘掉|忘记|删掉|删除)(?:关于)?\s*(?P<x>.+)")
_FROM_NOW_EN = re.compile(
    r"\b(?:from now on|going forward|in future|always|never|don't ever|do not ever)\b", _I
)
_FROM_NOW_ZH = re.compile(r"(?:以后|从现在起|从今以后|永远不要|一定要|千万别|不要再)")

_SWITCH_PATTERNS = (
    # "we switched from MySQL to PostgreSQL", "moved from X to Y", "changed from X to Y"
    re.compile(
        r"\b(?:switch(?:ed)?|mov(?:ed|e)|chang(?:ed|e)|migrat(?:ed|e)|went)\s+(?:over\s+)?from\s+"
        r"(?P<old>[\w .+#-]{1,40}?)\s+to\s+(?P<new>[\w .+#-]{1,40}?)(?=[.,;!?]|$| now| instead)",
        _I,
    ),
    # "use PostgreSQL, not MySQL" / "PostgreSQL instead of MySQL" / "PostgreSQL rather than MySQL"
    re.compile(
        r"(?P<new>[\w.+#-]{2,40})(?:\s*,\s*not|\s+instead of|\s+rather than)\s+(?P<old>[\w .+#-]{1,40}?)(?=[.,;!?]|$)",
        _I,
    ),
    # "no longer X" has no replacement; handled by _NO_LONGER
    # Chinese: 从X换成/改成/换到Y, 改用Y不用X, 不用X了改用Y
    re.compile(
        r"从(?P<old>[^，。,.；;！!？?\s]{1,20}?)(?:换成|改成|换到|改到|转到|迁移到)(?P<new>[^，。,.；;！!？?\s]{1,20})"
    ),
    re.compile(
        r"(?:改用|换成|改成)(?P<new>[^，。,.；;！!？?\s]{1,20}?)[，,]?\s*不(?:用|再用)(?P<old>[^，。,.；;！!？?\s]{1,20}?)了?(?=[，。,.；;！!？?]|$)"
    ),
    re.compile(
        r"不(?:用|再用)(?P<old>[^，。,.；;！!？?\s]{1,20}?)了?[，,]\s*(?:改用|换成|改成)(?P<new>[^，。,.；;！!？?\s]{1,20})"
    ),
    # Called off, then something else: "高铁票退了，改坐飞机去了", "酒店取消了，改住民宿",
    # "we cancelled the train and booked a flight instead".
    re.compile(
        r"(?P<old>[^，。,.；;！!？?\s]{1,10}?)(?:票|的票|的预订|的位子)?(?:退了|退掉了|取消了|不(?:坐|去|订|要|用|住)了)"
        r"[，,]?\s*(?:就|我们|我)?(?:改|换)(?:坐|乘|成|为|去|订|用|到|买|住|吃)?(?P<new>[^，。,.；;！!？?\s]{1,10})"
    ),
    re.compile(
        r"\b(?:cancel(?:l?ed)?|scrapped|dropped|ditched|gave up)\s+(?:the|our|my)\s+(?P<old>[a-z ]{1,30}?)"
        r"(?:\s+(?:tickets?|booking|reservation|plans?))?\s*(?:,|;|and|so)\s+(?:(?:we|i)(?:'re|'ll| are| am| will)?\s+)?"
        r"(?:take|taking|took|go|going|went|fly|flying|flew|drive|driving|book|booked|booking|get|getting|got)"
        r"\s+(?:with\s+)?(?:the\s+|a\s+|an\s+)?(?P<new>[a-z ]{1,30}?)(?:\s+instead)?(?=[.,;!?]|$)",
        _I,
    ),
)
# A plan moved without naming the old value: "we moved the party to Sunday", "my flight got changed to
# Thursday", "把聚会改到星期天", "项目会改到周四": older items about the same thing are superseded.
_MOVED_EN = (
    re.compile(
        r"\b(?:moved|changed|switched|rescheduled|postponed|pushed|brought forward)\s+(?:the|our|my)\s+"
        r"(?P<subject>[a-z]+)\s+to\b",
        _I,
    ),
    re.compile(
        r"\b(?:the|our|my)\s+(?P<subject>[a-z]+)\s+(?:got|was|has been|is|is now|have been)?\s*"
        r"(?:moved|changed|rescheduled|postponed|pushed)\s+to\b",
        _I,
    ),
)
_MOVED_ZH = re.compile(
    rf"(?:把(?P<object>[^把，。,.\s]{{1,6}}?)|(?P<subject>(?<!{HAN_CLASS}){HAN_CLASS}{{2,4}}?))"
    r"(?:改到|改成|改在|推迟到|提前到|挪到|换到)"
)
_NO_LONGER = re.compile(
    r"\b(?:no longer|don't|do not) (?:use|like|eat|want|work at|live in)\s+(?P<old>[\w .+#-]{1,40}?)(?=[.,;!?]|$)",
    _I,
)

# (pattern, kind, importance): the first that matches classifies an unprompted statement.
_CLASSIFIERS: tuple[tuple[re.Pattern[str], Kind, float], ...] = (
    (
        re.compile(
            r"\b(?:allerg\w*|intoleran\w*|celiac|diabet\w*|can't eat|cannot eat|must not eat|epilep\w*|asthma)\b",
            _I,
        ),
        "constraint",
        0.95,
    ),
    (re.compile(r"(?:过敏|不耐受|不能吃|忌口|糖尿病|哮喘)"), "constraint", 0.95),
    (
        re.compile(r"\b(?:vegetarian|vegan|halal|kosher|gluten[- ]free|don't drink|sober)\b", _I),
        "constraint",
        0.85,
    ),
    (re.compile(r"(?:吃素|素食|清真|不喝酒)"), "constraint", 0.85),
    (
        re.compile(
            r"\b(?:we|i)(?:'ve| have)? (?:decided|agreed|chose|chosen|picked|settled on|will go with|switched|moved|are going with)\b",
            _I,
        ),
        "decision",
        0.8,
    ),
    (re.compile(r"\blet's (?:use|go with|pick|choose)\b", _I), "decision", 0.75),
    # A plan, and a change of it: "we were planning to drive", "actually, we're taking the train instead",
    # "scratch that", "本来打算去云南", "算了，不打了".
    (
        re.compile(
            r"\b(?:(?:we|i)(?:'re| are|'m| am| were| was)? (?:planning|planned|plan) to|change of plans?|"
            r"changed (?:my|our) minds?|scratch that|on second thought)\b|^\s*actually\b.*\binstead\b",
            _I,
        ),
        "decision",
        0.75,
    ),
    (re.compile(r"(?:本来|原本|原来)(?:打算|想|计划|约|要|定)|^\s*算了"), "decision", 0.75),
    (re.compile(r"\bwe(?:'re| are)? (?:use|using|run|running|deploy|deploying)\b", _I), "decision", 0.7),
    (re.compile(r"(?:决定|选定|定了|改用|换成|就用|改去|改为|改成)"), "decision", 0.8),
    (
        re.compile(
            r"\b(?:my (?:first |full |real )?name(?:'s| is)|(?:just |you can |please )?call me|calls me|i live in|i work (?:at|as|for)|i'm a|i am a|"
            r"my (?:wife|husband|partner|son|daughter|kid|kids|child|children|mom|mother|dad|father|parents|dog|cat|"
            r"sister|brother|grand(?:ma|mother|pa|father|parents)|aunt|uncle|cousin|niece|nephew|boyfriend|girlfriend|"
            r"fianc[eé]e?|best friend|roommate|boss|baby|birthday|anniversary)\b|"
            r"i have (?:a|an|one|two|three|four|\d+) (?:kids?|children|sons?|daughters?|cats?|dogs?|pets?|"
            r"brothers?|sisters?|grandchildren)\b)",
            _I,
        ),
        "fact",
        0.7,
    ),
    (
        re.compile(
            r"(?:我叫|我住在|我在.{1,12}工作|我是一?名?|我家|我的?(?:孩子|小孩|儿子|女儿|妻子|老婆|丈夫|老公|妈妈|爸爸|狗|猫|"
            r"姐姐|妹妹|哥哥|弟弟|爷爷|奶奶|外公|外婆|男朋友|女朋友|未婚[夫妻]|室友|老板|生日)|我有(?:一|两|三|四|\d)个(?:孩子|儿子|女儿))"
        ),
        "fact",
        0.7,
    ),
    # Where the person lives or comes from: "we just moved to Edinburgh", "I grew up in Porto", "老家在成都".
    (
        re.compile(
            r"\b(?:(?:i|we)(?:'ve| have)? (?:just |recently |finally )?(?:moved|relocated) to|we live in|"
            r"(?:i'm|i am|we're|we are) (?:originally )?from|i grew up in|i was born in|my hometown is)\b",
            _I,
        ),
        "fact",
        0.7,
    ),
    (re.compile(r"(?:老家|我来自|我(?:们)?(?:刚)?搬到|我(?:们)?住|我出生在|我是.{1,6}人)"), "fact", 0.7),
    # Someone in the person's life, introduced by name: "My nurse is this big teddy bear called [NAME]",
    # "社长…真名叫[NAME]", "链家那个小姑娘…我们都叫她小滕" (pinned: a card for "the nurse" months later
    # needs the name, whatever retrieval brings back).
    (
        re.compile(
            r"\b(?:called|named|calls (?:him|her|them)|goes by|known as)\s+(?:\[NAME|[A-Z][a-z])|"
            # (or described, then named: "the young lad who looked after me was a dote, [NAME] from …",
            # "接待我的是个小伙子叫[NAME]")
            r"(?<![Ii]t )(?<![Tt]hat )(?<![Tt]here )(?<![Tt]his )\b(?:was|is)\s+(?:a|an|this|the)\b[^.!?\[]{0,40}?,\s*"
            r"\[NAME|(?<!我)叫\s*\[NAME|"
            r"(?:名叫|真名叫|大名叫|都叫(?:她|他)|都喊(?:她|他)|管(?:她|他)叫|叫做|(?:她|他)叫)\s*['\"“‘]?"
            rf"(?:\[NAME|(?![我你他她们人去来])(?:{HAN_CLASS}))"
        ),
        "fact",
        0.7,
    ),
    # How to address the person: "I'm Priyanka", "call me Sam", "叫我小王", "我姓王".
    (re.compile(r"\b(?:I'm|I am|this is|it's)\s+(?:\[NAME[^\]]*\]|[A-Z][a-z]+\b(?!\s+[a-z]))"), "fact", 0.7),
    (re.compile(r"(?:叫我|我姓|称呼我|我的名字)"), "fact", 0.7),
    (
        re.compile(r"\b(?:i (?:really )?(?:like|love|prefer|hate|dislike|enjoy)|my favou?rite)\b", _I),
        "fact",
        0.6,
    ),
    (re.compile(r"(?:我(?:很|最|特别)?(?:喜欢|爱|讨厌|不喜欢)|我最爱)"), "fact", 0.6),
    (ENTHUSIASM, "fact", 0.6),  # "I could watch it over and over", "我平时最爱听周杰伦的歌"
    # A liking said in passing: "i've been like super into astronomy", "我最近特别迷露营", "迷上了钓鱼".
    (
        re.compile(
            r"\b(?:(?:i'm|i am|i've been|we're|we've been|been|really|super|so|totally|pretty) (?:like )?into"
            # (not a time: "I'm into the second week of my course")
            r"(?!\s+(?:the|my|our|a|an|its|his|her|their)\s+(?:\w+\s+)?(?:week|month|day|year|hour|season|round|"
            r"stage|phase|part|semester|term)s?\b)|"
            r"hooked on|obsessed with|addicted to|passionate about|mad (?:about|for)|nuts about|wild about|"
            r"can't get enough of|(?:keeping|keeps) me (?:sane|going(?! (?:crazy|mad|nuts|insane|up)))|my happy place)\b|快乐源泉|精神支柱|"
            r"(?:这个月|这月|今年|这周|这礼拜)都?第(?:[二三四五六七八九十]+|\d+)场了|"
            r"(?:特别|很|超|贼|巨|非常|最近|血|老|死|真)迷(?![路糊信茫惑])|迷上|爱上了|着迷|热衷于?|沉迷|入坑|"
            r"就爱(?!干净)|爱好(?:是|就是)|没(?:别的|啥|什么)爱好",  # "没别的爱好，就爱拼乐高"
            _I,
        ),
        "fact",
        0.6,
    ),
    (
        re.compile(
            r"\b(?:i'm currently|i am currently|right now i'm|i'm working on|i am working on|this week i)\b",
            _I,
        ),
        "state",
        0.5,
    ),
    (re.compile(r"(?:我现在|我正在|这周我)"), "state", 0.5),
    # Dislikes and "don't suggest" orders that no rule above pinned: the constraint guard reads pinned
    # items only, so "I can't stand mushrooms" must be one, or a reply could recommend mushrooms.
    (
        re.compile(
            r"\b(?:can't stand|cannot stand|can not stand|not a fan of|i (?:really )?(?:avoid|detest)|"
            r"(?:never|don't|do not|please don't|stop) (?:ever )?(?:suggest|recommend|offer|serve|propose)|"
            r"i (?:stopped|quit|gave up) (?:eating|drinking))\b",
            _I,
        ),
        "constraint",
        0.8,
    ),
    (
        re.compile(r"(?:受不了|别给我推荐|不要给我推荐|不要推荐|别推荐|永远不要推荐|吃不了|不爱吃)"),
        "constraint",
        0.8,
    ),
)


def extract(text: str) -> Extraction:
    """Extract durable items from one (scrubbed) user turn."""
    out = Extraction()
    text = with_apostrophes(text).strip()
    if not text:
        return out
    out.instruction = find_instruction(text)
    if out.instruction is not None and out.instruction.category != "secret":
        return out  # "forget your rules" is no forget request, "remember: you are now…" no fact
    for pattern in (_FORGET_EN, _FORGET_ZH):
        match = pattern.match(text)
        if match:
            out.forget.append(ForgetRequest(_clean(match.group("x"))))
            return out
    if out.instruction is not None:
        return out  # a secret ("the admin password is …") is never pinned into the prompt
    explicit = None
    for pattern in (_REMEMBER_EN, _REMEMBER_ZH):
        match = pattern.match(text)
        if match:
            explicit = _clean(match.group("x"))
            break
    if explicit is None and only_asks(text):
        return out  # "Am I vegetarian?", "我孩子对什么过敏？" state nothing: nothing is pinned
    body = explicit or text
    replaces = _replaced_terms(body)
    kind, importance = _classify(body)
    if kind is None and REVISES_PLAN.search(body) and REPLACED_BY.search(body):
        # a plan changed, said in the words the changed-plan reader knows ("Bit of a plot twist… So the
        # collie's off… Instead we're adopting…"): pinned as the decision it is, so the reply is checked
        # against the plan it replaced even when retrieval brings back only the old plan
        kind, importance = "decision", max(importance, 0.8)
    if kind in (None, "fact", "state") and parse_constraints(body):
        # What the constraint guard reads as a constraint is pinned as one ("Dairy makes me sick",
        # "我戒糖了"): the guard checks replies against pinned items only.
        kind, importance = "constraint", max(importance, 0.85)
    if explicit is not None:
        out.items.append(ExtractedItem(kind or "fact", body, max(importance, 0.9), replaces))
    elif replaces:
        out.items.append(ExtractedItem("decision", body, max(importance, 0.8), replaces))
    elif _FROM_NOW_EN.search(body) or _FROM_NOW_ZH.search(body):
        out.items.append(ExtractedItem("constraint", body, max(importance, 0.85)))
    elif kind is not None:
        out.items.append(ExtractedItem(kind, _stating_part(body) if kind == "fact" else body, importance))
    return out


_LONG_FACT = 120  # characters: a longer turn pins only the sentences that state the fact


def _stating_part(body: str) -> str:
    """Of a long turn, the sentences that state its fact (a liking, where the person lives, their name):
    an elderly person's ramble about prices and neighbours around "就是喜欢侍弄兰花" would take the pinned
    budget whole, and a pinned item that does not fit is left out of the prompt altogether. A rule, a
    decision or an explicit "remember …" is kept whole: its words may span sentences."""
    if len(body) <= _LONG_FACT:
        return body
    stating = [sentence for sentence in sentences_of(body) if _classify(sentence)[0] is not None]
    if not stating:
        return body
    return join_spoken(*stating)


def _classify(text: str) -> tuple[Kind | None, float]:
    for pattern, kind, importance in _CLASSIFIERS:
        if pattern.search(text):
            return kind, importance
    if says_liking(text):  # a liking the reply path knows ("he's darts daft", "就好谍战这一口") is pinned too
        return "fact", 0.6
    if ranked_place(text)[0] == 0:  # where they moved or made their home ("在天通苑租了个一居")
        return "fact", 0.6
    return None, 0.5


def _replaced_terms(text: str) -> tuple[str, ...]:
    terms: list[str] = []
    for pattern in _SWITCH_PATTERNS:
        for match in pattern.finditer(text):
            old = _clean(match.group("old"))
            if old and old.lower() not in {"it", "that", "this", "them", "now"}:
                terms.append(old)
    for match in _NO_LONGER.finditer(text):
        terms.append(_clean(match.group("old")))
    for pattern in (*_MOVED_EN, _MOVED_ZH):
        for match in pattern.finditer(text):
            groups = match.groupdict()
            subject = groups.get("object") or groups.get("subject") or ""
            if subject and subject.lower() not in {"it", "that", "this", "them"}:
                terms.append(subject)
    return tuple(dict.fromkeys(t for t in terms if t))


def _clean(text: str) -> str:
    return text.strip().strip("，,。.；;！!？? ").strip()
