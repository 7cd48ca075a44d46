"""The name of the person a message is for, named next to a turn that asks to write to them.

"Our childminder's been a lifesaver this year. Bronwen, lovely Welsh lady…" and, months later, "could you
help me write a thank-you card for the woman who's looked after him?": the name is in the memory block
(as the scrubber's placeholder, filled back in for a local model), yet a small model writes "Dear [Name],".
The note after the turn names them ("(Address it to Bronwen.)" / "（称呼对方：邓国强。）").

The turn must ask for something written (a card, an e-mail, a message, 几句话, 微信…). The name is a
person's name the person told us (a NAME placeholder) in their own statements among the recalled
records: the one in a statement that shares a word with the turn, else the only one there is; nothing
when several names and none is tied to the turn.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from voice_agent.conversation.echo import content_keys
from voice_agent.conversation.writing import TO_A_ROLE_ANYWHERE, WRITES_TO, owned_names, told_of_names
from voice_agent.memory.names_zh import SINGLE_SURNAMES
from voice_agent.memory.records import MemoryRecord
from voice_agent.text.cjk import HAN_CLASS
from voice_agent.text.corrections import SELF_CORRECTION
from voice_agent.text.placeholders import PLACEHOLDER_RE

NOTE = {"en": "Address it to {name}.", "zh": "称呼对方：{name}。"}
# The person naming themselves ("my name is …", "call me …", "我叫…"): that name is not the addressee's.
OWN_NAME_BEFORE = re.compile(
    r"(?:\bmy name(?:'s| is)|\bi'm|\bi am|\bcall me|我叫|叫我|我是)\s*$", re.IGNORECASE
)
_MAX_LOOKED_AT = 16


def name_note(user_text: str, records: Sequence[MemoryRecord], language: str) -> str:
    """The note naming who the message is for, or "" (see the module's rules)."""
    chosen = addressee(user_text, records)
    if not chosen or chosen in user_text:
        return ""
    return NOTE["zh" if language == "zh" else "en"].format(name=chosen)


# A message to a group chat (not a post that thanks or welcomes someone in it): "a message for the house
# group chat", "a WhatsApp for the cousins' group", "发到诗班群里".
_TO_A_GROUP = re.compile(
    r"\b(?:for|to|in|on|into) the (?:[\w']+ ){0,2}(?:group(?: ?chat)?|chat)\b"
    r"(?![^.?!]{0,60}\b(?:thank|congratulat|welcome|introduc|nominat|shout))|发到[^，。？！]{0,8}群|群里通知|群通知",
    re.IGNORECASE,
)


def addressee(user_text: str, records: Sequence[MemoryRecord]) -> str:
    """The NAME placeholder of the person a message asked for is written to, or "" (the module's rules:
    a turn asking for something written, one name tied to it or the only name there is)."""
    return _addressee(user_text, records)[0]


def tied_addressee(user_text: str, records: Sequence[MemoryRecord]) -> str:
    """The addressee only when the turn itself points at them: the one name in a statement that shares a
    word with the turn ("a message to my new manager" and "the new manager at the depot is called …"),
    or a surname with the title of the calling the turn writes to ("符老师" for "班主任"); not the only
    name there is, which may be someone else in the story."""
    name, tied = _addressee(user_text, records)
    return name if tied else ""


def _addressee(user_text: str, records: Sequence[MemoryRecord]) -> tuple[str, bool]:
    """The addressee (see ``addressee``) and whether the turn's own words point at them."""
    # (a message written to a group chat is to no one named: "a message for the house group chat")
    if not WRITES_TO.search(user_text) or _TO_A_GROUP.search(user_text):
        return "", False
    owned = owned_names(user_text)  # ("an e-mail to my manager for [NAME]'s parents' evening")
    owned |= told_of_names(user_text)  # ("[NAME] got a H2… a card to the teacher who did his grinds")
    owned |= taken_back_names(records)  # ("…a lovely girl, [NAME:a]. Ah no wait, [NAME:a]'s her sister")
    asked = _keys(user_text)
    tied: list[str] = []
    named: list[str] = []
    nicknames: set[str] = set()  # ("…叫[NAME:a]…家里人都管她叫[NAME:b]": one person, two names)
    for record in list(records)[:_MAX_LOOKED_AT]:
        if record.role == "assistant":
            continue
        names = [
            name
            for name, start, end in _name_runs(record.text)
            if not OWN_NAME_BEFORE.search(record.text[:start])
            and not _SPELLS_WITH.match(record.text, end)
            and not _BUSINESS_AFTER.match(record.text, end)
            and not _POINTED_AT_ZH.search(record.text, 0, start)
            and name not in owned
        ]
        if not names:
            continue
        nicknames |= {
            m.group(0)
            for m in PLACEHOLDER_RE.finditer(record.text)
            if _NICKNAME_BEFORE.search(record.text[max(0, m.start() - 24) : m.start()])
            or _NICKNAME_AFTER.match(record.text, m.end())
        }
        named += [n for n in names if n not in named]
        if asked & _keys(record.text):
            tied += [n for n in names if n not in tied]
    tied = [n for i, n in enumerate(tied) if not i or n not in nicknames]
    named = [n for i, n in enumerate(named) if not i or n not in nicknames]
    if len(tied) > 1:  # ("…a new childminder… Her name's [NAME:a]… on [NAME:b]": the one told as a name)
        told = introduced_names(records)
        tied = [n for n in tied if n in told] if len([n for n in tied if n in told]) == 1 else tied
    if len(tied) == 1:
        return tied[0], True
    # (the only name recalled, unless the turn writes to someone it names by role and the name is not
    # tied to that role: "我老板…帮我回他条微信" is not to the son named in the parents' evening)
    if not tied and len(named) == 1 and not TO_A_ROLE_ANYWHERE.search(user_text):
        return named[0], False
    titled = titled_name(user_text, records)
    return titled, bool(titled)


def _name_runs(text: str) -> list[tuple[str, int, int]]:
    """The NAME placeholders of ``text`` with their spans, those side by side joined as one person's
    ("覃建邦覃伯伯" hashed as a name and the name with its title: "[NAME:a][NAME:b]")."""
    runs: list[tuple[str, int, int]] = []
    for m in PLACEHOLDER_RE.finditer(text):
        if m.group(1) != "NAME":
            continue
        if runs and runs[-1][2] == m.start():
            name, start, _ = runs.pop()
            runs.append((name + m.group(0), start, m.end()))
        else:
            runs.append((m.group(0), m.start(), m.end()))
    return runs


# A surname with the title people use for the person ("大家都叫她符老师", "一条街都喊他苟师傅"), for a turn
# that writes to someone of that calling ("给她班主任写条微信"): the scrubber keeps no such name.
_TITLED_ZH = re.compile(rf"(?P<name>{HAN_CLASS}(?P<title>老师|医生|大夫|师傅|教练|护士|阿姨|叔叔))")
_CALLING_ZH = {
    "老师": ("老师", "班主任", "园长", "教"), "医生": ("医生", "大夫", "主任", "牙医", "复诊", "门诊"),
    "大夫": ("医生", "大夫", "牙医", "复诊", "门诊"),
    "师傅": ("师傅", "修车", "装修", "司机"), "教练": ("教练",), "护士": ("护士",),
    "阿姨": ("阿姨", "保姆", "钟点工"), "叔叔": ("叔叔",),
}  # fmt: skip


# A date's shape ("11月17号" and "11月18号" share 月号): no tie between a turn and a statement.
_DATE_BITS = re.compile(r"\d+\s*(?:月|号|日|点|年|周)")


def _keys(text: str) -> set[str]:
    return content_keys(_DATE_BITS.sub(" ", PLACEHOLDER_RE.sub(" ", text)))


# A famous name that spells a character ("姓佘，就是佘太君那个佘"): no one in the person's story.
_SPELLS_WITH = re.compile(rf"(?:的)?那个{HAN_CLASS}(?:字)?(?=[，,。.！!；;]|$)")
# The calling, then the surname: "我闺女新换的钢琴老师姓佘" (a message to her is to 佘老师).
_SURNAME_TOLD_ZH = re.compile(
    # ("是个女大夫，姓禤")
    rf"(?P<title>老师|医生|大夫|师傅|教练|护士|阿姨|叔叔)(?:是)?[，,]?(?:她|他)?姓(?P<surname>{HAN_CLASS})"
)


def titled_name(user_text: str, records: Sequence[MemoryRecord]) -> str:
    """A surname and title the person told us ("符老师", "老师姓佘") for a message to someone of that
    calling."""
    for record in list(records)[:_MAX_LOOKED_AT]:
        if record.role == "assistant":
            continue
        told = [(m.group("name"), m.group("title")) for m in _TITLED_ZH.finditer(record.text)]
        told += [
            (m.group("surname") + m.group("title"), m.group("title"))
            for m in _SURNAME_TOLD_ZH.finditer(record.text)
        ]
        for name, title in told:
            if name[0] not in SINGLE_SURNAMES:  # "孩子的老师": no surname
                continue
            if any(word in user_text for word in _CALLING_ZH[title]) and name not in user_text:
                return name
    return ""


# What another name of someone already named follows: "家里人都管她叫", "goes by", "we call her".
_NICKNAME_BEFORE = re.compile(
    r"(?:管(?:她|他)叫|[叫喊](?:她|他)|小名|昵称|外号|乳名)[^，。]{0,3}$|"
    r"\b(?:goes by|call(?:s|ed|ing)? (?:her|him|them)(?: (?:miss|mrs|mr|ms|aunty|auntie|uncle|mama|papa|baba|"
    r"ma|pa|big|old|little|lil|doc|coach))?|nickname(?:d)?|known as|"
    r"(?:you )?(?:say|said|pronounce) it(?: like)?|pronounced(?: like)?|sounds like)\s*$",
    re.IGNORECASE,
)


# A name that names a business ("she runs [NAME]'s Kitchen in Yaba"): its owner is named elsewhere.
_BUSINESS_AFTER = re.compile(
    r"(?:'s|\u2019s)\s+(?:kitchen|bakery|cafe|café|caf|catering|diner|deli|salon|barbers?|garage|shop|store|"
    r"bar|pub|restaurant|takeaway|grill|bistro|boutique|studio|academy|gym|nursery|daycare|farm|stall)\b",
    re.IGNORECASE,
)


# A thing pointed at, not a person: "我家那[NAME]昨天把沙发咬了个大窟窿" (the scrubber's name for 小狗).
_POINTED_AT_ZH = re.compile(r"[那这][只条头]?$")


# What another name of someone just named precedes: "[NAME:a], [NAME:b] to everyone", "[NAME:b] for short".
_NICKNAME_AFTER = re.compile(
    r"\s+(?:to (?:everyone|everybody|all|her friends|his friends|the kids|us|them)|for short)\b",
    re.IGNORECASE,
)


# What a name told as someone's name follows: "Her name's", "he's called", "叫", "全名" (not the person's own:
# ``OWN_NAME_BEFORE``).
_INTRODUCED_BEFORE = re.compile(
    r"(?:\b(?:her|his|their) name(?:'s| is)|\bcalled|\bnamed|\bgoes by|(?<!我)叫|名叫|全名|名字是)\s*$",
    re.IGNORECASE,
)


def introduced_names(records: Sequence[MemoryRecord]) -> set[str]:
    """The NAME placeholders told as someone's name ("Her name's [NAME:a]", "项目经理叫[NAME:b]")."""
    return {
        m.group(0)
        for record in records
        for m in PLACEHOLDER_RE.finditer(record.text)
        if m.group(1) == "NAME" and _INTRODUCED_BEFORE.search(record.text[max(0, m.start() - 16) : m.start()])
    }


def taken_back_names(records: Sequence[MemoryRecord]) -> set[str]:
    """The NAME placeholders said before a self-correction in the same words ("a lovely girl from Ennis,
    [NAME:a]. Ah no wait, what am I saying, [NAME:a]'s her sister"): whom a message is for, they are not."""
    out: set[str] = set()
    for record in records:
        marker = SELF_CORRECTION.search(record.text)
        if marker is not None:
            out |= {
                m.group(0)
                for m in PLACEHOLDER_RE.finditer(record.text, 0, marker.start())
                if m.group(1) == "NAME"
            }
    return out
