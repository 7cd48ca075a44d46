"""Whether a mention of a constrained thing is negated rather than recommended, English and Chinese:
"nut-free", "without peanuts or almonds", "allergic to nuts", "不含坚果", "对坚果过敏". The constraint
guard and the adoption benchmark's scorer both read a mention this way."""

from __future__ import annotations

import re

from voice_agent.conversation.constraint_shapes import SYMPTOM_ZH
from voice_agent.text.cjk import HAN_CLASS

_I = re.IGNORECASE

_STRONG_EN = (
    r"without|free of|free from|avoid|avoids|avoiding|skip|skipping|instead of|rather than|in place of|"
    r"replace|replacing|swap out|exclude|excluding|leave out|leaving out|hold the|minus|none of|nothing with|"
    r"allergic to|allergy to|allergies to|intolerant to|intolerance to|sensitive to|stay away from|"
    r"steer clear of|keep away from|away from|contains no|contain no|don't|doesn't|do not|does not|won't|"
    r"will not|can't|cannot|can not|shouldn't|should not|must not|mustn't|never|not|isn't|aren't|no longer|"
    r"dislike|dislikes|hate|hates|not a fan of|moved from|changed from|switched from|cancelled|canceled|"
    r"instead|substitute for|alternative to|safe from|apart from|except|other than|check for|watch out for|"
    r"look out for|careful with|careful about"
)
_WEAK_EN = (
    # ("little sugar" is less of it; "a little puppy" is a small one)
    r"no|non|zero|low|less|reduced|lower|(?<!(?<![a-z])a )little|oat|soy|almond|coconut|rice|plant|"
    r"plant-based|plant based|"
    r"vegan|veggie|vegetarian|meatless|meat-free|mock|faux|fake|imitation|dairy-free|lactose-free|nut-free|"
    r"gluten-free|sugar-free|alcohol-free|non-alcoholic|virgin|decaf|egg-free"
)
_STRONG_EN_RE = re.compile(rf"(?<![a-z])(?:{_STRONG_EN})(?![a-z])", _I)
_WEAK_EN_RE = re.compile(rf"(?<![a-z])(?:{_WEAK_EN})(?![a-z])", _I)
_RESET_EN = re.compile(
    r"(?<![a-z])(?:but|however|though|although|yet|use|using|add|adding|try|include|including|serve|top|"
    r"sprinkle|enjoy|make|have|get|go for|pick|choose|recommend|suggest|order|plus|then)(?![a-z])",
    _I,
)
_LEAD_EN = re.compile(
    r"^\s*(?:be\s+|ever\s+|even\s+)?(?:have|having|eat|eating|use|using|add|adding|include|including|contain|"
    r"containing|put|drink|drinking|touch|want|need|like|suggest|suggesting|recommend|recommending|serve|"
    r"serving|get|any|with|offer|mention|book)(?![a-z])",
    _I,
)
_FILLER_TEXT = (
    "or and nor any other the a an even trace traces of kind kinds type types such as like added extra "
    "real regular ordinary all sorts food foods products product ingredients ingredient"
)
_FILLER_EN = frozenset(_FILLER_TEXT.split(" "))
_AFTER_OK_EN = re.compile(
    r"^(?:[\s-]*(?:free|less)\b|\s+(?:allerg|intoleran|sensitiv|substitute|alternative|replacement|"
    r"-?based substitute)|\s+or\s+\w+[\s-]+free\b|-?free\b|"
    # what it does to the person, said back: "coffee keeps you awake", "dairy makes you sick"
    r"\s+(?:makes?|keeps?|gives?|upsets?|triggers?)\s+(?:you|your|me|my|him|her|them|us)\b|"
    # named as what sets it off: "onions are his big trigger"
    r"(?:\s+(?:is|are|was|were)|'s)\s+(?:your|his|her|their|my|me|the)\s+(?:\w+\s+)?triggers?\b|"
    # called off: "the badminton is off", "the barbecue was cancelled"
    r"(?:\s+(?:is|was|got|has been)|'s)\s+(?:off|out|over|history|cancell?ed|called off|scrapped|dropped)\b|"
    # a plan that did not hold: "the biltong didn't last", "Cornwall fell through"
    r"\s+(?:didn't|did not|never)\s+(?:last|work out|happen|stick)\b|\s+fell\s+through\b)",
    _I,
)
_STRONG_ZH = (
    "不含", "不加", "不放", "不要", "不用", "不吃", "不喝", "不能吃", "不能喝", "别吃", "别喝", "别放",
    "别加", "无", "没有", "避免", "远离", "去掉", "去除", "代替", "替代", "替换", "而不是", "忌", "禁止",
    "拒绝", "不能有", "不带", "免", "零", "少", "不碰", "不建议", "不推荐", "不适合", "不喜欢", "讨厌",
    "避开", "不会", "不再", "取消", "改掉", "除了",
    "不是", "换掉", "不想要", "不想吃", "不想",
    "受不了", "吃不了", "喝不了", "碰不了", "碰不得", "吃不惯", "吃不来", "不爱吃", "不爱喝",  # said back
    "吃不得", "喝不得",  # ("因为你这个人喝不得咖啡，")
    "过敏", "不耐受",  # "对坚果过敏，尤其是花生": the list after an allergy names what it covers
    "唔吃", "唔饮", "唔好", "唔掂", "唔要", "冇",  # Cantonese (食 is read as 吃): "你唔食得芒果"
    # a vow said back, or the thing refused by its verb: "再也不骑车", "打死也不坐红眼航班", "别再去八达岭"
    "再也不", "再不", "绝不", "决不", "不坐", "不去", "不骑", "不买", "不玩", "不漂", "不烫", "不染", "不让",
    "不进", "不报", "不找", "不约", "别再", "别去", "别坐", "别用", "别碰", "别买", "别让", "别骑", "甭",
)  # fmt: skip
_RESET_ZH = re.compile(r"但|可以|加上|加入|用|放|推荐|试试|来点|配上|搭配|或者来")
_LEAD_ZH = re.compile(r"^(?:推荐|建议|使用|用|加入|加|放|吃|喝|含有|含|给你|给)")
_FILLER_ZH = re.compile(
    r"以及|[、，,和或与及跟任何的等一点丝毫类其他还有也\s]"
)  # (以 alone: 以外 stays whole)
# ... or called off, as the topic of what follows: "羽毛球不打了", "火锅就不吃了", "KTV取消了", "烧烤改成…".
_AFTER_OK_ZH = re.compile(
    rf"^(?:{HAN_CLASS}{{0,2}}?(?:过敏|不耐受)|的替代|替代品|以外|除外|(?:就|会|都会|便|(?:会)?让你){HAN_CLASS}{{0,3}}?(?:{SYMPTOM_ZH})|"
    # (sworn off after it: "八达岭你是再也不去了", "红眼航班打死也不坐了")
    r"(?:[我你他她俺]?(?:是|可|真)?(?:这辈子|以后|往后)?(?:再也?|打死[我你俺]?也?|死活|说什么也?)?)?"
    rf"(?:就|也|都)?(?:不再?|没)(?:去|打|吃|喝|做|看|玩|买|订|办|要|约|点|用|听|唱|开|坐|骑|碰|住|进){HAN_CLASS}?了|"
    r"(?:计划|行程|安排|打算|之行)?(?:就|也)?(?:取消|作罢|泡汤|黄了|吹了|没戏)了?|(?:就|也)?(?:改成|改为|换成|改去|改到)|"
    # a list the person must keep off, said back: "香菇、蘑菇、木耳这些菌类以后一概都别碰"
    rf"(?:{HAN_CLASS}{{0,4}}?(?:这些|那些|这类|这种|之类){HAN_CLASS}{{0,5}}?|{HAN_CLASS}{{0,3}}?(?:以后|往后|从此|概|统统|律)|(?=都|也))"
    r"(?:概|统统|律)?(?:都|也)?(?:得|要)?"
    r"(?:忌口|忌|别碰|别吃|别喝|不能碰|不能吃|不能喝|碰不得|吃不得|不许碰|不许吃|不让吃|不碰|不吃|不沾))"
)
_CLAUSE_END = re.compile(r"[.!?;。！？；\n]")
# Verbs a thing kept off is done with, in Chinese (放鞭炮, 坐网约车, 吹蜡烛, 打领带, 跳广场舞): a mention
# that starts with one is an activity, and a bare 不 before it refuses it ("不吹蜡烛", "别再打领带").
DOING_ZH = "放坐买用穿戴玩住骑开抽打吹唱点送养请找租跳钓爬踢搓练"
_BARE_NO_ZH = re.compile(r"(?:不|别|甭|没)再?$")
# Things done that a bare 不 refuses ("不采耳", "不熬夜"), whatever their first character.
# (a treatment had done is one: "医生喊我以后莫再采耳了" swears it off, "不采耳" refuses it)
TREATMENTS_ZH = r"采耳|掏耳朵?|刮痧|拔罐|针灸|文眉|纹眉|做美甲|美甲|(?:嫁)?接睫毛|汗蒸|泡温泉"
ACTIVITY_ZH = re.compile(
    TREATMENTS_ZH + r"|熬夜|蹦极|潜水|滑雪|露营|爬山|抽烟|喝酒|开车|自驾|纹身|唱K|K歌|蹦迪|跑步|游泳"
)


def is_negated(text: str, start: int, end: int, terms: re.Pattern[str] | None = None) -> bool:
    """Whether the mention ``text[start:end]`` is negated or names a constraint rather than
    recommending the thing: "nut-free", "without peanuts or almonds", "allergic to nuts", "不含坚果",
    "对坚果过敏". ``terms`` (the constraint's pattern) lets a list continue a negation: "no nuts,
    peanuts or almonds"."""
    after = text[end : end + 24]
    if _AFTER_OK_EN.search(after):
        return True
    after_zh = terms.sub("", after) if terms is not None else after
    if _AFTER_OK_ZH.search(_FILLER_ZH.sub("", after_zh)[:16]):
        return True
    clause_start = 0
    for found in _CLAUSE_END.finditer(text, 0, start):
        clause_start = found.end()
    before = text[clause_start:start]
    mention = text[start:end]
    doing = (mention[:1] in DOING_ZH and len(mention) >= 3) or ACTIVITY_ZH.fullmatch(mention)
    if doing and _BARE_NO_ZH.search(before):
        return True
    return _negated_en(before, terms) or _negated_zh(before, terms)


def _negated_en(before: str, terms: re.Pattern[str] | None) -> bool:
    candidates = [(m, 6) for m in _STRONG_EN_RE.finditer(before)] + [
        (m, 1) for m in _WEAK_EN_RE.finditer(before)
    ]
    for negator, reach in candidates:
        between = before[negator.end() :]
        if not between.strip(" -"):
            return True
        between = _LEAD_EN.sub(" ", between, count=1)
        if _RESET_EN.search(between):
            continue
        remaining = terms.sub(" ", between) if terms is not None else between
        words = re.findall(r"[a-z']+", remaining.lower())
        content = [w for w in words if w not in _FILLER_EN]
        if not content or len(words) < reach:
            return True
    return False


# Words that hold a negator's character without negating: 零食 (a snack), 免费 (free of charge), 不少 (many).
_NOT_NEGATION_ZH = re.compile(r"零食|零钱|零件|零下|不少|少年|少女|多少|至少|免费|无论|无聊|无限")


def _negated_zh(before: str, terms: re.Pattern[str] | None) -> bool:
    tail = _NOT_NEGATION_ZH.sub(lambda word: "·" * len(word.group(0)), before[-16:])
    for negator in _STRONG_ZH:
        index = tail.rfind(negator)
        if index < 0:
            continue
        between = _LEAD_ZH.sub("", tail[index + len(negator) :], count=1)
        if _RESET_ZH.search(between):
            continue
        remaining = terms.sub("", between) if terms is not None else between
        remaining = _FILLER_ZH.sub("", remaining)
        if len(remaining) <= 3:
            return True
    return False
