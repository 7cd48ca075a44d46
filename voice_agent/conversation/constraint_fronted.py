"""Dislikes whose thing is said first and judged after:

- "Liquorice, though, honest to God, I'd sooner lick the bottom of a bin" (a topic, then a worse thing
  the person would rather put in their mouth);
- "I'd sooner drink bleach than eat another olive" (the worse thing, then the thing itself);
- "spiders, roaches, beetles, those crickets that jump at you, I just cannot abide 'em" (a list, then a
  pronoun for all of it);
- "Coconut, though, I cannot" (the thing, an aside, a bare refusal);
- "臭豆腐喔，拜托，那个味道我闻到就想吐" (the thing, then its smell retched at).

Each returns the things in the person's words; the caller reads them as kept off."""

from __future__ import annotations

import re

from voice_agent.conversation.constraint_topic_names import named_topics
from voice_agent.text.cjk import HAN_CLASS

_I = re.IGNORECASE
# What someone would sooner put in their mouth, or go through, than have the thing.
_WORSE = (
    r"(?:eat|lick|chew|drink|swallow|gargle|sip|gnaw|suck|kiss|munch|starve|go hungry|die|"
    r"sit through|sit on|walk on|wear)"
)
_ASIDE = (
    r"(?:(?:though|mind you|mind|now|see|honestly|honest to god|to be honest|god help me|god forgive me|"
    r"oh|ugh|well|i swear|i tell you|let me tell you|no word of a lie|seriously)[,!]?\s+)*"
)
# "Liquorice, though, I'd sooner lick the bottom of a bin", "Marmite? I'd sooner drink bleach."
_TOPIC_THEN_SOONER_EN = re.compile(
    r"(?:^|[.!?;]\s+|\bbut\s+)(?P<x>[A-Za-z]+(?:[ -][a-z]+)?)\s*(?:,|\?|:|!|\s[—–-])\s*"
    + _ASIDE
    + rf"I(?:'d| would) (?:sooner|rather|as soon)\s+(?:just\s+)?{_WORSE}\b(?![^.!?]*\bthan\b)",
    _I,
)
# The same judgement after a pointed thing and its faults: "but that cinema popcorn, the squeak of it, the
# fake butter stink, I'd honestly rather chew on a thong" (the first thing pointed at in the sentence).
_SOONER_WORSE_EN = re.compile(
    rf"\bI(?:'d| would) (?:honestly |really |just |much |far )?(?:sooner|rather|as soon)\s+(?:just\s+)?"
    rf"{_WORSE}\b(?![^.!?]*\bthan\b)",
    _I,
)
_POINTED_EN = re.compile(
    r"(?:^|(?<=[.!?])\s*|[,;:]\s*|\b(?:but|and|though)\s+)(?:but\s+|and\s+)?(?:that|those|this|these)\s+"
    r"(?P<x>[a-z]+(?:[ -][a-z]+)?)\s*,",
    _I,
)
# "I'd sooner drink bleach than eat another olive", "I'd rather chew glass than sit through ABBA".
_SOONER_THAN_EN = re.compile(
    rf"\bI(?:'d| would) (?:sooner|rather|as soon)\s+(?:just\s+)?{_WORSE}\b[^.!?]{{1,80}}?\bthan\s+"
    r"(?:(?:ever\s+)?(?:eat|touch|taste|drink|have|listen to|hear|sit through|watch|go near|go to|wear)\s+)"
    r"(?:another\s+|a single\s+|one more\s+|any\s+|the\s+|a\s+|an\s+|some\s+)?"
    r"(?P<x>[a-z]+(?:[ -][a-z]+)?)(?=\s*(?:[,.;:!?]|$|\s+(?:again|ever|and|or|because)\b))",
    _I,
)
# "Anything that tastes like black licorice, I'm out": a kind of taste or smell, then an opt-out.
_TASTES_LIKE_OUT_EN = re.compile(
    r"\b(?:anything|everything|whatever|owt|stuff)\s+(?:that\s+|which\s+)?(?:even\s+)?"
    r"(?:tastes?|smells?|reeks?)\s+(?:like|of)\s+(?:a\s+|an\s+|the\s+)?(?P<x>[a-z]+(?:[ -][a-z]+)?)"
    r"\s*[,:;—–-]\s*"
    r"(?:I'm|I am|count me|I'm straight|me, I'm)\s+(?:out|done|gone|off|not having it)\b",
    _I,
)
# "spiders, roaches, beetles, those crickets that jump at you, I just cannot abide 'em"
_LIST_THEN_PRONOUN_EN = re.compile(
    r"(?:^|[.!?;:]\s+)(?P<list>[^.!?;:]{3,240}?),\s*(?:and\s+)?(?:I|me, I)\s+"
    r"(?:just\s+|really\s+|simply\s+|honestly\s+|absolutely\s+)?"
    r"(?:can't|cannot|can not|couldn't) (?:stand|abide|bear|stomach|stick|thole)\s+"
    r"(?:them|'em|em|the lot|any of them|any of 'em|none of them)\b",
    _I,
)
_ITEM_EN = re.compile(
    r"^(?:and\s+|or\s+)?(?:those\s+|these\s+|the\s+|all\s+|any\s+|them\s+)?(?P<x>[a-z]+(?:[ -][a-z]+)?)"
    r"(?:\s+(?:that|who|which|with|when|what|on|in|crawling|flying|jumping)\b.*)?$",
    _I,
)
# A thing asked about and turned down at once: "Durian, though? Nah, son.", "Marzipan? Hell no."
_TOPIC_TURNED_DOWN_EN = re.compile(
    r"(?:^|[.!?;]\s+|\bbut\s+)(?P<x>[A-Za-z]+(?:[ -][a-z]+)?)"
    r"(?:,?\s+though\?\s+(?:nah|nope|no|never|no way|hell no|not a chance|no chance|not for me)|"
    r"\?\s+(?:hell no|no way|not a chance|no chance|never again|not in a million years|over my dead body))\b",
    _I,
)
# A thing asked about, then retched at: "but eggs? Fried, scrambled, boiled, the smell alone has me gagging".
_TOPIC_THEN_GAGGING_EN = re.compile(
    r"(?:^|[.!?;,]\s+|\bbut\s+)(?P<x>[A-Za-z]+(?:[ -][a-z]+)?)\?\s+[^.!?]{0,90}?"
    r"\b(?:has|have|gets?|got|makes?|sets?|had|leaves?) (?:me|him|her) "
    r"(?:gagging|retching|heaving|dry[- ]heaving|boaking)\b",
    _I,
)
# The thing, an aside, then a bare refusal: "Coconut, though, I cannot, it's like chewing toenail clippings",
# "Peanuts, honestly? I just can't." (not a verb left hanging: "I cannot wait", "I can't believe").
_TOPIC_THEN_CANNOT_EN = re.compile(
    rf"(?:^|[.!?;]\s+)(?P<x>[A-Za-z]+(?:[ -][a-z]+)?),\s+{_ASIDE.replace('[,!]', '[,!?]')}"
    r"(?:i|he|she|we)\s+(?:just\s+|really\s+|simply\s+)?(?:cannot|can't|can not|couldn't)"
    r"(?:\s+(?:do|stand|abide|stomach|face|handle)\s+(?:it|them|'em))?\s*(?=[,;.!]|$)",
    _I,
)
# Its names, one after another, then "whatever they call it", then cannot: "That purple fellow, brinjal,
# eggplant, whatever they call it here, I simply cannot".
_NAMES_THEN_CANNOT_EN = re.compile(
    r"(?:^|[.!?;,]\s+)(?P<list>[a-z]+(?:[ -][a-z]+)?(?:,\s+[a-z]+(?:[ -][a-z]+)?)*),\s+(?:or\s+)?"
    r"whatever (?:they|you|people|we|folks|the \w+) call (?:it|them|that|the thing)(?: [a-z]+){0,3},\s+"
    rf"{_ASIDE}(?:i|he|she|we)\s+(?:just\s+|really\s+|simply\s+)?(?:cannot|can't|can not|couldn't|hate|"
    r"won't touch|can't stand|can't abide)\b",
    _I,
)
_MOUTH_EN = re.compile(r"\b(?:tast\w*|chew\w*|mouth\w*|spit|spat|swallow\w*|bite|eat\w*|flavou?r\w*)\b", _I)
# Chinese: the thing, then its smell retched at: "臭豆腐喔，拜托，那个味道我闻到就想吐".
_SMELL_RETCHED_ZH = re.compile(
    # (a thing: no person, negation or verb in it, "韭菜不中，那个味儿一闻就犯恶心" is read as 韭菜 elsewhere)
    rf"(?:^|[，,。！？!?；;])(?P<x>(?:(?![我你他她俺不没是了受])(?:{HAN_CLASS})){{2,6}}?)(?:喔|哦|啊|呀|嘛|呢|哇|噢)?"
    r"[，,](?:(?:拜托|真的|讲真|说真的|老实说|天哪|我的天)[，,])?(?:那个|这个|那股|这股)?(?:味道|味儿|味|臭味)?"
    r"(?:我|俺)?(?:一|只要)?"
    r"闻(?:到|见)?(?:了)?就(?:想吐|反胃|恶心|想呕|犯恶心|头疼|头晕)"
)
# Chinese: the thing, pointed at, then refused whatever it costs: "香菜那个东西，在我这儿跟臭虫是一个档次
# 的，哪个敢在我碗里撒一颗，我宁愿整碗倒了都不得吃", or retched at: "就是姜这个东西，…我就想呕".
_POINTED_REFUSED_ZH = re.compile(
    rf"(?:^|[，,。！？!?；;])(?:就是|唯独|只有|偏偏)?(?P<x>(?:(?![我你他她俺不没是了])(?:{HAN_CLASS})){{1,5}}?)"
    r"(?:那个东西|这个东西|那东西|这东西|那玩意儿?|这玩意儿?)[，,]"
    r"(?=[^。！？!?]*?(?:(?:宁愿|宁可|情愿)[^。！？!?]{0,12}?(?:也|都)不(?:得|会|肯|要)?(?:吃|碰|喝|要|沾)|"
    # ("就是姜这个东西，…那股冲鼻子的味道一上来我就想呕")
    r"(?:我|俺)?就(?:想呕|想吐|反胃|恶心|犯恶心)))"
)
_NOT_A_THING = frozenset((
    "it", "that", "this", "them", "everything", "anything", "all", "food", "stuff", "me", "honestly",
    "well", "look", "listen", "no", "yes", "oh", "god", "mate", "love", "sure", "frankly", "personally",
    "seriously", "lord", "man", "ugh", "myself", "and", "so", "now", "though", "truthfully", "sometimes",
    "otherwise", "mind", "still", "again", "ok", "okay", "nah", "yeah", "hell", "christ", "jesus",
))  # fmt: skip
_MAX_ITEMS = 6


def _items(listed: str) -> list[str]:
    """The things of a fronted list: one or two words each, a trailing description dropped."""
    parts = [p.strip() for p in re.split(r",|\s+(?:and|or)\s+", listed) if p.strip()]
    found = [m.group("x") for p in parts if (m := _ITEM_EN.match(p))]
    return found if 1 < len(found) <= _MAX_ITEMS else []


def fronted_dislikes(text: str) -> list[str]:
    """The things ``text`` names first and then says the person would sooner do anything than have."""
    found = [m.group("x") for m in _TOPIC_THEN_SOONER_EN.finditer(text)]
    found += [m.group("x") for m in _SOONER_THAN_EN.finditer(text)]
    found += [m.group("x") for m in _TASTES_LIKE_OUT_EN.finditer(text)]
    found += [m.group("x") for m in _SMELL_RETCHED_ZH.finditer(text)]
    found += [m.group("x") for m in _POINTED_REFUSED_ZH.finditer(text)]
    found += [m.group("x") for m in _TOPIC_TURNED_DOWN_EN.finditer(text)]
    found += [m.group("x") for m in _TOPIC_THEN_GAGGING_EN.finditer(text)]
    # (a food, known or told of as one: not "Friday, though, I can't, I'm working")
    found += [
        m.group("x")
        for m in _TOPIC_THEN_CANNOT_EN.finditer(text)
        if named_topics(m.group("x").lower()) or _MOUTH_EN.search(text, m.end(), m.end() + 120)
    ]
    for worse in _SOONER_WORSE_EN.finditer(text):
        start = max(text.rfind(end, 0, worse.start()) for end in ".!?")
        pointed = _POINTED_EN.search(text, start + 1, worse.start())
        if pointed:
            found.append(pointed.group("x"))
    for named in _NAMES_THEN_CANNOT_EN.finditer(text):
        found += [m.group("x") for p in named.group("list").split(",") if (m := _ITEM_EN.match(p.strip()))]
    for listed in _LIST_THEN_PRONOUN_EN.finditer(text):
        found += _items(listed.group("list"))
    return list(dict.fromkeys(thing for thing in found if thing.lower() not in _NOT_A_THING))
