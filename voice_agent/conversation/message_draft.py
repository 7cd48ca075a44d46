"""A short message of our own, addressed by name, for when the model writes nothing usable.

"她下个礼拜天办婚礼……想在贺卡上写几句祝福的话，你帮我写一写？" with the bride's name remembered: if the
model gives no answer twice, "抱歉，这个我一时答不上来。" leaves the person with nothing, though we know
whom the card is for and what it is for. Instead they hear a few plain lines for the occasion, addressed
to that person ("迪丽努尔，新婚快乐！祝你们百年好合……"), which they can send as they are or build on.

The occasion comes from the turn's words (a wedding, a birthday, thanks, a recovery, a loss …; the first
that matches, in this order); anything else gets a warm general note. The name is the NAME placeholder
of the person the message is for (``name_note.addressee``); it is rendered for the owner, as every reply
is, before it is spoken.

A request that names the person ("write a card for Luz", "写张卡片给笪老师") opens the reply with that
name (``salutation``): "Dear Luz," / "笪老师：" is said before the model's words, whose own greeting and
preamble ("Sure! Here's the card:") are then left out (``without_salutation``). A small model writes
"Dear [Name]," or no name at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from voice_agent.conversation.name_note import OWN_NAME_BEFORE
from voice_agent.conversation.writing import WRITES_TO, owned_names, told_of_names
from voice_agent.text.cjk import has_han
from voice_agent.text.placeholders import PLACEHOLDER_RE, PLACEHOLDER_SHAPE_RE


@dataclass(frozen=True)
class Occasion:
    name: str
    asked: re.Pattern[str]
    en: str  # the body after "Dear <name>, " (lower-case start; capitalised when there is no name)
    zh: str  # the body after "<name>，"


def _r(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


OCCASIONS: tuple[Occasion, ...] = (
    Occasion(
        "sympathy",
        _r(
            r"\b(?:condolences?|sympathy|passed away|funeral|bereave\w*)\b|\blost (?:her|his|their|a) "
            r"(?:mum|mom|mother|dad|father|husband|wife|partner|son|daughter|brother|sister|baby|gran\w*)\b|"
            r"节哀|去世|过世|离世|丧事|吊唁|悼念"
        ),
        "I'm so sorry for your loss. I'm thinking of you, and I'm here whenever you need me.",
        "听到这个消息我很难过，请节哀顺变。有什么需要，随时跟我说。",
    ),
    Occasion(
        "wedding",
        _r(r"\b(?:wedding|newlyweds?|bride|groom|getting married|marriage)\b|婚礼|结婚|新婚|喜酒|出嫁|大婚"),
        "congratulations on your wedding! Wishing you both a lifetime of love and happiness together.",
        "新婚快乐！祝你们百年好合，白头偕老，日子越过越甜。",
    ),
    Occasion(
        "anniversary",
        _r(
            r"\banniversary\b|\b(?:1|one|\d+) (?:month|year)s?\b[^.?!]{0,20}\b(?:together|dating|married)\b|"
            r"纪念日|周年"
        ),
        "happy anniversary! Thank you for every day together; here's to many more.",
        "纪念日快乐！谢谢你一路的陪伴，以后的日子我们也一起走。",
    ),
    Occasion(
        "birthday",
        _r(r"\b(?:birthdays?|b-?day|bday)\b|\bturning \d+\b|生日|大寿|寿辰"),
        "happy birthday! Wishing you a wonderful day and a brilliant year ahead.",
        "生日快乐！祝你新的一岁平安喜乐，万事顺意。",
    ),
    Occasion(
        "baby",
        _r(r"\b(?:new ?born|new baby|christening|baptism|baby shower)\b|宝宝|满月|百日宴|喜得|添丁"),
        "congratulations on your little one! Wishing your family lots of love and happy days together.",
        "恭喜喜得宝宝！祝宝宝健康平安，全家幸福美满。",
    ),
    Occasion(
        "recovery",
        _r(r"\b(?:get well|recover\w*|surgery|operation|in hospital|illness)\b|康复|住院|手术|生病|病好"),
        "sending you warm wishes for a speedy recovery. Rest up and take good care of yourself.",
        "祝你早日康复！好好休息，照顾好自己，等你好起来我们再聚。",
    ),
    Occasion(
        "congratulations",
        _r(
            r"\b(?:congrat\w*|graduat\w*|promot\w*|new job|retir\w*|passed (?:her|his|their|the) \w+)\b|"
            r"恭喜|祝贺|毕业|升职|考上|录取|退休|乔迁|开业"
        ),
        "congratulations! You worked so hard for this and you truly deserve it.",
        "恭喜恭喜！这是你努力应得的，祝你以后越来越好。",
    ),
    Occasion(
        "thanks",
        _r(r"\b(?:thank\w*|grateful|gratitude|appreciat\w*)\b|感谢|谢谢|多谢|谢意|答谢"),
        "thank you so much for everything you've done for us. We're truly grateful.",
        "真心感谢你一直以来的照顾和帮助，我们全家都很感激。",
    ),
    Occasion(
        "apology",
        _r(r"\b(?:sorry|apologi[sz]e|apology)\b|道歉|对不起|赔不是"),
        "I'm sorry about what happened. I hope you can forgive me, and I'd love to make it up to you.",
        "这件事是我不对，跟你说声对不起，希望你能原谅我。",
    ),
    Occasion(
        "invitation",
        _r(r"\binvit\w*\b|邀请|请帖|请柬"),
        "we'd love you to join us. Please let us know if you can make it.",
        "诚挚邀请你来参加，盼你赏光，能来的话告诉我一声。",
    ),
)
_GENERAL = Occasion(
    "general",
    _r(r"$^"),
    "just a quick note to say I'm thinking of you. I hope all is well.",
    "想跟你说一声，一直记挂着你，祝你一切都好。",
)


def occasion_of(user_words: str) -> Occasion:
    """The occasion the turn asks a message for (the general one when no occasion is named)."""
    return next((o for o in OCCASIONS if o.asked.search(user_words)), _GENERAL)


def message_draft(user_words: str, name: str, language: str) -> str:
    """A few lines for the occasion the turn names, addressed to ``name`` (a placeholder or a name;
    "" for none: then unaddressed)."""
    occasion = occasion_of(user_words)
    if language == "zh":
        return f"{name}，{occasion.zh}" if name else occasion.zh
    body = occasion.en
    return f"Dear {name}, {body}" if name else body[:1].upper() + body[1:]


# A title said right after a Chinese name in the turn ("给[NAME]老师写张卡片"): part of the greeting.
_TITLE_ZH = re.compile(
    r"^(?:老师|阿姨|叔叔|伯伯|奶奶|爷爷|姐姐|姐|哥哥|哥|医生|大夫|师傅|先生|女士|小姐|护士|同学|经理|总)"
)
_CASUAL_EN = re.compile(r"\b(?:text|txt|msg|message|dm|whatsapp|chat)\b", re.I)
_FORMAL_EN = re.compile(r"\b(?:card|letter|e-?mail)\b", re.I)


def salutation(user_words: str, language: str, remembered: str = "") -> str:
    """The greeting that opens a reply to a request for something written to the person the turn names
    ("Dear Luz," / "Hi Anika," for a text / "[NAME]老师："), or "" (no such request, or not one name in
    the turn besides the speaker's own). A turn that names no one is greeted with ``remembered``: the name
    the turn's own words tie to a statement of the person's (``name_note.tied_addressee``: "a card for my
    physio" and "my physio's called Ruairí"), never merely the only name recalled (on held-out speech that
    was a name corrected since, "Aoife, no wait, Aoife's her sister", or someone else in the story)."""
    if not WRITES_TO.search(user_words):
        return ""
    owned = owned_names(user_words)
    in_turn = [
        m for m in PLACEHOLDER_RE.finditer(user_words)
        if m.group(1) == "NAME" and not OWN_NAME_BEFORE.search(user_words[: m.start()])
        and m.group(0) not in owned and not _AT_PLACE_EN.search(user_words[: m.start()])
        and (language != "zh" or _written_to_zh(user_words, m.start(), m.end()))
    ]  # fmt: skip
    told_of = told_of_names(user_words)  # ("[NAME] got a H2… a card to my teacher"): likely not whom it is to
    # (unless the turn says who they are: "[NAME] is my new manager… an email to my manager")
    told_of -= {m.group(0) for m in in_turn if _IS_THE_ROLE.match(user_words, m.end())}
    in_turn = [m for m in in_turn if m.group(0) not in told_of]
    if remembered:  # (the role the turn writes to is tied to a name: only a name written to is another)
        # ("a message to my niece's fiancé" tied to Tavita: not the [NAME] of "the Abel Tasman Coast Track")
        in_turn = [m for m in in_turn if _WRITTEN_TO.search(user_words[: m.start()])]
    if not in_turn and remembered:
        name = remembered
    elif len({m.group(0) for m in in_turn}) != 1:  # none in the turn, or which one is not clear
        return ""
    else:
        name = in_turn[0].group(0)
        title = _TITLE_ZH.match(user_words[in_turn[0].end() :]) if language == "zh" else None
        name += title.group(0) if title else ""
    if language == "zh":
        return f"{name}："
    casual = _CASUAL_EN.search(user_words) and not _FORMAL_EN.search(user_words)  # ("a card message")
    return f"Hi {name}," if casual else f"Dear {name},"


# A name said to be the one of the role written to: "[NAME] is my new manager", "[NAME]'s our coach".
_IS_THE_ROLE = re.compile(r"(?:\s+is|\s+was|'s)\s+(?:my|our|the|his|her|their)\b", re.IGNORECASE)
# Whom a Chinese turn writes to, before the name: "给[NAME]老师写张卡片", "跟[NAME]说一声", "致[NAME]".
_TO_ZH = re.compile(r"(?:给|跟|向|对|致|和)[^，。！？,]{0,4}$")


def _written_to_zh(user_words: str, start: int, end: int) -> bool:
    """Whether the name at ``start``-``end`` of a Chinese turn is whom it writes to (said after 给, 跟 …, or
    with a title after it), not a word the scrubber took for a name ("帮我老娘办[NAME]医保的事", 慢病)."""
    return bool(_TO_ZH.search(user_words[max(0, start - 8) : start]) or _TITLE_ZH.match(user_words[end:]))


# A name written to: "a message to [NAME]", "给[NAME]发个微信".
_WRITTEN_TO = re.compile(
    r"\b(?:to|dear|send|text|tell|ask|thank|email|e-mail)\s+$|"
    r"\b(?:card|message|msg|note|text|letter|e-?mail|whatsapp|poem|speech)\s+(?:\w+\s+)?for\s+$|给$",
    re.IGNORECASE,
)
# A name the scrubber took where a place is said ("ferry from [NAME]", "a week in [NAME]"): not whom it is to.
# (nor one gone to: "Twelve of us want to go out to [NAME] on the Saturday")
_AT_PLACE_EN = re.compile(
    r"\b(?:from|in|at|on|near|via|around|across)\s+$|\b(?:go|going|goes|went|get|getting|come|coming|fly|"
    r"flying|drive|driving|sail|sailing|travel\w*|head\w*|mov(?:e|ed|es|ing)|trip|day|ferry|boat|way)\s+"
    r"(?:out|over|up|down|across|back|home|off|on)?\s*to\s+$",
    re.IGNORECASE,
)
_NAME_PART = rf"(?:{PLACEHOLDER_SHAPE_RE.pattern}|[^,.!?:\n\[])"  # a placeholder counts as one part of a name
_GREETING_EN = re.compile(rf"^\s*(?:dear|hi|hello|hey|to)\b{_NAME_PART}{{0,40}}[,!:]\s*", re.IGNORECASE)
_NAME_PART_ZH = rf"(?:{PLACEHOLDER_SHAPE_RE.pattern}|[^，。！？：:,\n\[])"
_GREETING_ZH = re.compile(
    rf"^\s*(?:亲爱的)?{_NAME_PART_ZH}{{1,12}}[：:]\s*|^\s*亲爱的{_NAME_PART_ZH}{{1,12}}[，,！!]\s*"
)


_PREAMBLES = (
    re.compile(
        r"^\s*(?:(?:sure|of course|certainly|okay|ok|absolutely)[!,.]\s*)?"
        r"(?:here(?:'s| is) (?:a |an |the |your )?[^:.!?\n]{0,60}:\s*(?:-{2,}\s*)?)?",
        re.IGNORECASE,
    ),
    re.compile(
        r"^\s*(?:(?:好的|当然|没问题|可以)[，,！!。])?(?:(?:这是|下面是|以下是)[^：:。\n]{0,24}[：:]\s*)?"
    ),
)


def without_salutation(text: str) -> str:
    """``text`` without a greeting of its own at its start ("Dear Luz, thank you…" → "thank you…"), or
    a preamble before it ("Sure! Here's a cute message: Hi Anika, …"), once the reply was opened with
    ours."""
    for pattern in _PREAMBLES:
        preamble = pattern.match(text)
        if preamble and 0 < preamble.end() < len(text):
            text = text[preamble.end() :]
            break
    for greeting in (_GREETING_EN, _GREETING_ZH):
        match = greeting.match(text)
        if greeting is _GREETING_ZH and match and not has_han(match.group(0)):
            continue  # ("Thank you: all of it." opens with no greeting)
        if match and match.end() < len(text):
            rest = text[match.end() :]
            return rest[:1].upper() + rest[1:] if greeting is _GREETING_EN else rest
    return text


def after_salutation(draft: str, greeting: str) -> str:
    """A drafted message (``message_draft``) for a reply already opened by ``greeting``: its own
    greeting left out."""
    if not greeting:
        return draft
    stripped = without_salutation(draft)
    if stripped != draft:
        return stripped
    name = greeting.rstrip("：:,").removeprefix("Dear ").removeprefix("Hi ")
    for lead in (f"{name}，", f"{name},"):
        if draft.startswith(lead):
            return draft[len(lead) :]
    return draft
