"""A turn that asks for something written: a card, an e-mail, a message, a toast, 几句话, 一条微信 …

Its own words said back are never the thing asked for (``echo.open_request``), and the person it is for
may be named next to it (``name_note``).
"""

from __future__ import annotations

import re

from voice_agent.text.placeholders import PLACEHOLDER_RE

WRITES_TO = re.compile(
    r"\b(?:write|draft|compose|word|put together|send)\b[^.?!]{0,60}\b(?:card|e-?mail|message|msg|note|"
    r"letter|text|txt|dm|speech|toast|invitation|poem|caption|vows|reply|response|whatsapp|wechat|sms|compliment|"
    r"tribute|eulogy|review|blurb|post|piece|newsletter|nomination|reference|testimonial|shout-?out)s?\b|"
    # the thing named first, the writing asked for after it: "I want to bring a card for the nurse… Can you
    # write something heartfelt?", "a Google review for the movers… Can you write it?"
    r"\b(?:card|review|letter|note|newsletter|speech|toast|piece|post|blurb|tribute|message)s?\b[\s\S]{0,160}?"
    r"\b(?:write|draft)\s+(?:it|something|one|that|a few|me|us)\b|"
    # ("Can you write something for me about the carer who does Mum's nights?")
    r"\b(?:write|draft)\s+(?:something|a few (?:words|lines))\s+(?:(?:for|from) (?:me|us)\s+)?"
    r"(?:about|for|to)\s+(?:the|my|our|his|her)\b|"
    r"\b(?:stitch(?:ed)?|embroider(?:ed)?|engrave[d]?|monogram(?:med)?|personali[sz]ed?|print(?:ed)? on|"
    r"(?:put|write|pipe[d]?) on (?:the|a|her|his|their) "
    r"(?:cake|blanket|mug|card|banner|shirt|t-shirt|bracelet))\b|"
    r"(?:写|拟|发|回)[^。？！?!]{0,12}(?:几句|两句|一段|段话|小作文|贺卡|卡片|信|微信|短信|消息|讯息|信息|邮件|"
    r"通知|感谢|祝福|情话|文案|朋友圈|帖子|一版|稿子|致辞|发言稿|推荐理由|推荐信|推荐语|颁奖词|评语|表扬信)|"
    r"(?:绣|刻|印|写)[^。？！?!]{0,6}(?:名字|字)|(?:想|写|编)[一两几]句",
    re.IGNORECASE,
)
# The message goes to someone named by role ("an email to my manager", "给我老公发个微信"): a name the turn
# only owns something of ("for Oscar's parents' evening", "小宝的家长会") is not whom it is written to.
_ROLES = (
    r"(?:manager|boss|supervisor|teacher|mum|mom|dad|parents|landlord|landlady|neighbours?|neighbors?|"
    r"colleagues?|team|husband|wife|partner|doctor|gp|school|class|childminder|nanny|carer|caregiver|nurse|"
    r"physio|coach|tutor|cleaner|builder|vet|dentist|driver|sitter|secretary|celebrant|company|garage|"
    r"son|daughter|brother|sister|nan|gran|grandma|grandad|cousin|aunt|uncle|friend|mate|boyfriend|"
    r"girlfriend|step(?:dad|mum|mom|father|mother|son|daughter|brother|sister)|(?:father|mother|brother|sister|"
    r"son|daughter)-in-law|in-laws|grandpa|granny|grandmother|grandfather|nana|fianc(?:e|é|ee|ée)|flatmate|"
    r"roommate|housemate|family|folks|niece|nephew|godmother|godfather|guide|instructor|trainer|mentor|midwife|"
    r"guru|vicar|pastor|priest|imam|rabbi)"
)
_TO_A_ROLE = re.compile(
    rf"\b(?:to|for|about)\s+(?:my|our|the|his|her|\[NAME:[0-9a-f]+\](?:'s|\u2019s))\s+(?:\w+\s+)?{_ROLES}\b|"
    # (the role as the verb's object: "send my violin teacher a message", "a review praising the guide who…")
    rf"\b(?:send|write|text|e-?mail|message|thank|prais(?:e|ing)|nominat(?:e|ing))\s+(?:my|our|the)\s+"
    rf"(?:\w+\s+)?{_ROLES}\b|"
    # (or by what they did: "a card for the woman who's looked after him", "book the woman who did the small
    # chops at [NAME]'s wedding", "a message to someone who really knows these records")
    r"\b(?:to|for|thank|book|hire|ask|invite|contact)\s+(?:the|that|this)\s+(?:\w+\s+)?(?:woman|man|lady|"
    r"gentleman|person|people|girl|boy|lad|guy|bloke|chap|fella|one|folks?)\s+(?:who|that|at|from)\b|"
    r"\b(?:to|for|ask)\s+(?:someone|somebody|anyone|anybody)\s+(?:who|that)\b|"
    # (any calling, said with who: "to thank the stallholder who helped me out with that trunk")
    r"\b(?:to|for|thank|about|prais(?:e|ing))\s+(?:the|that|this)\s+(?:\w+\s+)?\w+\s+who\b|"
    # (someone by what they did, then thanked: "her floor fellow checked in on her every single evening. Can
    # you write a short, heartfelt thank-you note")
    r"\b(?:her|his|their|my|our|the)\s+(?:\w+\s+)?\w+\s+(?:checked|helped|looked|drove|stayed|sat|took|"
    r"picked|fed|walked|stepped|kept)\b(?=[\s\S]*\bthank)|"
    # (or a place by what it did: "a review for the place that catered [NAME]'s party")
    r"\b(?:to|for)\s+(?:the|that|this)\s+(?:\w+\s+)?(?:place|restaurant|caf[eé]|shop|bakery|company|business|"
    r"branch|team|staff|venue|caterers?|hotel)\s+(?:who|that|which|at|where)\b|"
    r"给(?:我|我们)?(?:的)?(?:老公|老婆|领导|老板|经理|老师|爸|妈|爸妈|房东|邻居|同事|主任)",
    re.I,
)
# A recipient named by role anywhere in the turn ("我老板刚说…帮我回他条微信", "reply to my landlord").
TO_A_ROLE_ANYWHERE = re.compile(
    r"\b(?:my|our)\s+(?:new\s+)?(?:manager|boss|supervisor|landlord|landlady|colleagues?|team leader|"
    r"client|customer|doctor|gp|son|daughter|brother|sister|husband|wife|partner|mum|mom|dad)\b"
    # (not one the turn only tells of: "My mum turns seventy in March … a message to the caterer")
    r"(?!'s|\u2019s|\s+(?:turns|turned|is|was|got|has|had|passed|died|came|went)\b)|"
    r"(?:我|我们|我家)(?:的)?(?:老板|领导|主管|经理|组长|上司|同事|房东|客户)",
    re.I,
)
_OWNS_AFTER = re.compile(r"^(?:'s|\u2019s|s'|的)")
# A name the turn tells something of ("[NAME] got a H2 in Higher Maths", "[NAME] is coming up and I want
# to send my violin teacher a message"): the subject of a clause of its own, not whom it is written to.
_TELLS_OF_AFTER = re.compile(
    r"^\s+(?:\w+\s+)?(?:is|was|are|were|got|gets|has|had|did|passed|finished|came|comes|turned|turns|"
    r"started|starts|went|won|scored|made|wants|wanted|needs|needed|asked|asks|loves|plans|planned|"
    r"moved|lives|works)\b",
    re.I,
)


def owned_names(user_words: str) -> set[str]:
    """The NAME placeholders the turn only owns something of, when the message is for someone it names by
    role ("an email to my manager … for [NAME]'s parents' evening"): none of them is whom it is to."""
    return _names_before(_OWNS_AFTER, user_words)


def told_of_names(user_words: str) -> set[str]:
    """The NAME placeholders the turn tells something of, when the message is for someone it names by role
    ("[NAME] got a H2… a thank-you card to the teacher who did his grinds"): whom it is to, they are
    likely not (``_TELLS_OF_AFTER``)."""
    return _names_before(_TELLS_OF_AFTER, user_words)


def _names_before(after: re.Pattern[str], user_words: str) -> set[str]:
    """The NAME placeholders ``after`` follows, in a turn that writes to someone it names by role."""
    if not _TO_A_ROLE.search(user_words):
        return set()
    return {
        m.group(0) for m in PLACEHOLDER_RE.finditer(user_words)
        if m.group(1) == "NAME" and after.match(user_words[m.end() :])
    }  # fmt: skip
