"""A rule stated about "it" or "them" whose thing was named just before: "the GP finally thinks it's
tomatoes. I've got some sort of intolerance to them" is an intolerance to tomatoes. The pronoun is
replaced by the thing before the rule shapes read the sentence (the remembered source keeps the person's
own words)."""

from __future__ import annotations

import re
from collections import Counter

from voice_agent.text.cjk import HAN_CLASS

_I = re.IGNORECASE
# The thing a sentence names as the answer: "it's tomatoes", "turns out it was shellfish", "the culprit is
# gluten", "the trigger is onions". Up to three words, stopped by punctuation or a joining word.
_NAMED_EN = re.compile(
    r"\b(?:it's|it is|it was|it must be|it might be|it could be|the culprit is|the culprit was|"
    r"the trigger is|the trigger was|the problem is|the problem was|"
    # ("It's always been like that with rhubarb, my gut just can't cope with it")
    r"(?:always\s+)?(?:been\s+)?(?:like that|the same|same|same deal) with|"
    # a medicine given: "my OB put me on ferrous sulfate … my tummy just cannot handle that stuff"
    r"(?:put|started) (?:me|him|her|them) on|prescribed (?:me|him|her|them))\s+"
    r"(?:probably\s+|definitely\s+|actually\s+|just\s+)?"
    r"(?!(?:always|been|like|same|never|not|so|too|fine|all)\b)(?P<x>[a-z]+(?:[ -][a-z]+){0,2}?)"
    r"(?=\s*(?:[.!?;,]|$|\s+(?:and|but|so|which|that|after|because|then|when|while|since|during|for)\b))",
    _I,
)
# A rule about a pronoun: "intolerance to them", "allergic to it", "I react to them".
_RULE_ON_PRONOUN_EN = re.compile(
    r"\b(?P<rule>(?:allergic|allergy|allergies|intolerant|intolerance|sensitive|sensitivity|react|reacts)"
    r"\s+to|(?:can't|cannot|can not|couldn't) (?:handle|tolerate|process|take|clear|cope with)|"
    r"(?:don't|do not|doesn't|does not|didn't) (?:tolerate|handle|agree with))"
    r"\s+(?P<pronoun>them|it|(?:that|the) stuff)\b",
    _I,
)
# A dislike of "them" whose thing was eaten or drunk earlier in the same sentence: "every forum says eat
# bananas on the bike and honestly I can't stand them" (bananas).
_DISLIKE_ON_PRONOUN_EN = re.compile(
    # ("the stuff": what the sentences before kept naming, "beetroot salad, then beetroot in the burgers…")
    r"(?:\b(?:can't|cannot|can not|cannae|canny) (?:stand|abide|bear|stomach|stick)|"
    # ("I can't stand the bloody things, cactuses, succulents…": what the sentence kept naming)
    # ("I cannot stand the smell of the stuff": of what the sentence did things with)
    r"\bi (?:really |just |absolutely )?(?:hate|detest|loathe))\s+"
    r"(?P<sense>(?:the )?(?:smell|taste|stink|whiff|texture) of\s+)?(?P<pronoun>them|(?:the|that) stuff|"
    r"(?:that|this) (?:kind|sort|type) of (?:[\w-]+ )?(?:thing|stuff|things)|"
    r"(?:that|the) (?:smell|stink|pong)|"
    r"(?:the|those) (?:bloody |damn |damned |blasted |flipping |wretched |stupid |horrible )?things)\b",
    _I,
)
_EAT_OR_DRINK = r"eat|eating|ate|eats|drink|drinking|drank|drinks"
_EATEN_EN = re.compile(
    rf"\b(?:{_EAT_OR_DRINK}|serve|serving|serves|cook|cooking|cooks|"
    r"(?:hand|handing|hands|give|giving|gives|offer|offering|offers)\s+(?:me|us|him|her)|"
    # (or brought as a gift: "brought him a big bag of grapes and he near went through the roof")
    r"(?:bag|box|punnet|bunch|tin|packet|plate|bowl)\s+of|"
    # (or slipped into food: "my wife keeps trying to sneak raisins into things, but I can't stand them")
    r"(?:sneak|sneaks|sneaking|snuck|slip|slips|slipping|hide|hides|hiding|chuck|chucks|chucking)"
    r"(?=\s+(?:some\s+|the\s+)?[a-z]+s\s+(?:into|in)\b))\s+"
    r"(?:some\s+|any\s+|the\s+|those\s+|these\s+)?(?P<x>[a-z]+s)\b(?![.!?])",
    _I,
)
_EATEN_MASS_EN = re.compile(
    rf"\b(?:{_EAT_OR_DRINK})\s+(?:some\s+|the\s+)?"
    r"(?P<x>[a-z]{3,})\b(?![.!?])",
    _I,
)
# What was picked or scraped off the food: "pick every last speck of cilantro off mine".
_PICKED_OFF_EN = re.compile(
    r"\b(?:pick|picked|picking|picks|scrape|scraped|scraping|fish|fished|fishing|pull|pulled|pulling)\s+"
    r"(?:(?:every|each)\s+(?:last\s+|single\s+)?(?:speck|bit|piece|leaf|scrap|shred|sliver)\s+of\s+|"
    r"all\s+(?:of\s+)?(?:the\s+)?|the\s+)(?P<x>[a-z]{3,})\s+(?:off|out)\b",
    _I,
)
_NOT_A_THING = frozenset((
    "fine", "ok", "okay", "true", "over", "done", "time", "not", "nothing", "that", "out", "too", "well",
    "and", "with", "there", "something", "anything", "everything", "breakfast", "lunch", "dinner", "food",
    "it",
))  # fmt: skip


def with_antecedents(text: str) -> str:
    """``text`` with "to them"/"to it" after an allergy or intolerance word replaced by the thing the
    sentence before named ("it's tomatoes"), and "them" after a dislike by what the same sentence ate
    ("eat bananas … I can't stand them"); unchanged when no thing was named."""
    out: list[str] = []
    last = 0
    for rule in _RULE_ON_PRONOUN_EN.finditer(text):
        thing = _named_before(text[: rule.start()])
        if not thing:
            continue
        out += [text[last : rule.start("pronoun")], thing]
        last = rule.end("pronoun")
    for rule in _DISLIKE_ON_PRONOUN_EN.finditer(text):
        if rule.start() < last:
            continue
        # (the sentence of the rule, or the one just before: "…keep handing me bananas? I can't stand them")
        sentence = " ".join(re.split(r"[.!?]\s+", text[: rule.start()])[-2:])
        thing = ""
        if rule.group("pronoun").lower().endswith("stuff"):
            # (picked off the food, before what the sentences kept naming: "…pick every last speck of
            # cilantro off mine — I can't stand the stuff", beside the street named twice)
            picked = [
                m.group("x") for m in _PICKED_OFF_EN.finditer(sentence) if m.group("x").lower() not in _COMMON
            ]
            thing = picked[-1] if picked else ""
        if not thing and rule.group("pronoun").lower().endswith(("stuff", "things")):
            # (with the rest of its sentence too: "finding glitter in my bra … I cannot stand the stuff,
            # anything sparkly or glittery makes my skin crawl")
            rest = re.split(r"[.!?](?:\s|$)", text[rule.end() :])[0]
            thing = _repeated(f"{sentence} {rest}")
        if not thing and rule.group("pronoun").lower().endswith("stuff"):
            # (the stuff a thing was made of, just before: "every second sofa was velvet, and I can't stand
            # the stuff")
            made = _MADE_OF_EN.search(text[: rule.start()])
            thing = made.group("x") if made and made.group("x").lower() not in _COMMON else ""
        if not thing and rule.group("pronoun").lower().endswith("stuff"):
            # (or pointed at in the sentence: "I get hit with that lavender they spray everywhere and
            # honestly, I can't stand the stuff")
            pointed = [
                m.group("x") for m in _POINTED_EN.finditer(sentence) if m.group("x").lower() not in _COMMON
            ]
            thing = pointed[-1] if pointed else ""
        if not thing and rule.group("sense") and rule.group("pronoun").lower().endswith("stuff"):
            # ("…did every window with vinegar and newspaper, and to this day I cannot stand the smell of the
            # stuff": what the sentence used)
            used = [m.group("x") for m in _USED_EN.finditer(sentence) if m.group("x").lower() not in _COMMON]
            thing = used[-1] if used else ""
        if not thing and rule.group("pronoun").lower() == "them":
            # (or what someone keeps bringing in: "Mam's got the house full of lilies again … I can't stand
            # them")
            got = [m.group("x") for m in _GOT_EN.finditer(sentence) if m.group("x").lower() not in _COMMON]
            thing = got[-1] if got else ""
        if not thing and rule.group("pronoun").lower().endswith(("smell", "stink", "pong")):
            # (what was burnt or sprayed just before: "burning his incense sticks all over the flat, and I'm
            # telling you, I cannot stand that smell")
            burnt = [
                m.group("x") for m in _BURNT_EN.finditer(sentence) if m.group("x").lower() not in _COMMON
            ]
            if not burnt:
                continue
            thing = burnt[-1]
        if not thing and re.match(r"th(?:at|is) (?:kind|sort|type)", rule.group("pronoun"), _I):
            # (what was tried on or worn just before: "pushing me to try the Lycra jersey and bib shorts, wah
            # I really cannot stand that kind of skin-tight thing")
            worn = [m.group("x") for m in _WORN_EN.finditer(sentence) if m.group("x").lower() not in _COMMON]
            if not worn:
                continue
            thing = worn[-1]
        if not thing:
            # ("Mum made me eat porridge every single morning… I can't stand the stuff": a mass noun)
            stuff = rule.group("pronoun").lower().endswith("stuff")
            eaten = list((_EATEN_MASS_EN if stuff else _EATEN_EN).finditer(sentence))
            if not eaten or eaten[-1].group("x").lower() in _NOT_A_THING:
                continue
            thing = eaten[-1].group("x")
        out += [text[last : rule.start("pronoun")], thing]
        last = rule.end("pronoun")
    for rule in _DISLIKE_OF_WORK_EN.finditer(text):
        if rule.start() < last:
            continue
        # ("everyone's mad about Sally Rooney, but honest to God I can't stand her books": Sally Rooney)
        sentence = re.split(r"[.!?]\s+", text[: rule.start()])[-1]
        names = [m.group(0) for m in _NAME_EN.finditer(sentence) if m.group(0).split()[0] not in _NOT_A_NAME]
        # (or the one played, in the sentence before: "Our Aoife has Ed Sheeran on a loop in the car, every
        # journey to Galway … I can't stand the man's music")
        before = " ".join(re.split(r"[.!?]\s+", text[: rule.start()])[-2:])
        played = [m.group("x") for m in (*_PLAYED_EN.finditer(before), *_ON_REPEAT_EN.finditer(before))]
        names = [x for x in played if x.split()[0] not in _NOT_A_NAME] or names
        if names:
            out += [text[last : rule.start("work")], names[-1]]
            last = rule.end("work")
    for rule in _DISLIKE_OF_TITLE_EN.finditer(text):
        if rule.start() < last:
            continue
        # ("put 'Hallelujah' on the programme again — I can't stand that song": Hallelujah)
        before = " ".join(re.split(r"[.!?]\s+", text[: rule.start()])[-2:])
        titles = [m.group("x") for m in _QUOTED_EN.finditer(before)]
        if not titles and rule.group("work").split()[-1].lower() in _WORKS_PLAYED:
            # (or a name that something played: "the crèche plays Baby Shark on repeat … I cannot stand that
            # song")
            played = [m.group("x") for m in _PLAYED_EN.finditer(before)]
            titles = [x for x in played if x.split()[0] not in _NOT_A_NAME]
        if titles:
            out += [text[last : rule.start("work")], titles[-1]]
            last = rule.end("work")
    return _with_things_got_zh("".join(out) + text[last:] if out else text)


# A dislike of "那玩意儿" whose thing was bought or given just before: "闺女给我买了个挺贵的电动牙刷,…,我是真
# 受不了那玩意儿" (电动牙刷).
_DISLIKE_ON_POINTER_ZH = re.compile(
    r"(?:受不了|用不惯|用不来|烦死|讨厌|接受不了|(?:真的?|最|特别|好)烦)"
    r"(?P<pronoun>那(?:个)?玩意儿?|那(?:个)?东西|这(?:个)?玩意儿?|那个(?=[，。,.！？!?；;]|$))"
)
# A pastime someone does or asks the person to do, just before the dislike: "天天喊我去打麻将,我是真的受不了
# 那个东西" (打麻将), "楼下每天晚上七点准时开跳广场舞，…，我是真的烦那个" (跳广场舞).
_DONE_ZH = re.compile(
    rf"(?P<x>(?:打|跳|唱|下|搓|斗|钓|爬|踢|练|玩){HAN_CLASS}{{1,4}}?)(?=[，。,.！？!?；;]|$)"
)
_GOT_ZH = re.compile(
    r"(?:买|送|给|弄|整|换|装)了?(?:我|他|她|俺)?一?(?:个|台|部|只|把|支|套|款|件)(?:[^，。,.！？!?；;的]{0,4}的)?"
    rf"(?P<x>{HAN_CLASS}{{2,5}}?)(?=[，。,.！？!?；;]|$)"
)


def _with_things_got_zh(text: str) -> str:
    """``text`` with "那玩意儿" after a dislike replaced by what was bought or given just before it, or
    else by the pastime done just before it."""
    for rule in _DISLIKE_ON_POINTER_ZH.finditer(text):
        before = text[max(0, rule.start() - 80) : rule.start()]
        got = list(_GOT_ZH.finditer(before)) or list(_DONE_ZH.finditer(before))
        if got:
            return text[: rule.start("pronoun")] + got[-1].group("x") + text[rule.end("pronoun") :]
    return text


# A thing pointed at, then what someone does with it: "that lavender they spray", "this perfume she wears".
_POINTED_EN = re.compile(
    r"\b(?:that|this|the same)\s+(?P<x>[a-z]{4,})\s+(?=(?:they|she|he|you|people|everyone|the \w+)\s+"
    r"(?:\w+ )?(?:spray|sprays|sprayed|use|uses|used|wear|wears|wore|put|puts|burn|burns|burned|pump|pumps|"
    r"serve|serves|served|play|plays|played|cook|cooks|cooked)\b)",
    _I,
)
# A thing burnt or sprayed: "burning his incense sticks", "spraying that air freshener".
_BURNT_EN = re.compile(
    r"\b(?:burn|burns|burning|burnt|burned|light|lights|lighting|lit|spray|sprays|spraying|sprayed)\s+"
    r"(?:his|her|their|the|those|these|some|all|my|that|them)?\s*"
    r"(?P<x>[a-z]{3,}(?:\s+(?:sticks?|candles?|oils?|cones?|freshener|spray))?)\b",
    _I,
)
# A thing tried on or worn: "to try the Lycra jersey", "wearing those platform heels".
_WORN_EN = re.compile(
    r"\b(?:try|trying|tried|wear|wearing|wore|put on|putting on)\s+(?:on\s+)?"
    r"(?:the|a|an|some|those|these|that)\s+"
    r"(?P<x>[A-Za-z][\w-]*(?:\s+(?!and\b|or\b)[a-z][\w-]*)?)",
    _I,
)
# What something was done with: "with vinegar and newspaper", "using bleach".
_USED_EN = re.compile(r"\b(?:with|using|in)\s+(?:the\s+|some\s+|a\s+bit\s+of\s+)?(?P<x>[a-z]{4,})\b", _I)
# What a thing was made of or full of, ending the clause before a dislike of "the stuff".
_MADE_OF_EN = re.compile(
    r"\b(?:was|were|is|are|made of|full of|covered in|all)\s+(?P<x>[a-z]{4,})\s*[,;]?\s*"
    r"(?:(?:and|but|so)\s+)?(?:i\s+)?$",
    _I,
)
# A dislike of a person's work said with "her"/"his": "I can't stand her books", "I hate his music".
_DISLIKE_OF_WORK_EN = re.compile(
    r"(?:\b(?:can't|cannot|can not) (?:stand|abide|bear|stomach)|\bi (?:really |just |absolutely )?"
    r"(?:hate|detest|loathe))\s+(?P<work>(?:her|his|their|the (?:man|woman|guy|fella|lad|girl|band|lot)'s) "
    r"(?:books|novels|music|songs|films|movies|shows|"
    r"albums|stuff|writing|voice))\b",
    _I,
)
# A dislike of a work pointed at: "I can't stand that song", "I hate that film".
_DISLIKE_OF_TITLE_EN = re.compile(
    r"(?:\b(?:can't|cannot|can not) (?:stand|abide|bear|stomach)|\bi (?:really |just |absolutely )?"
    r"(?:hate|detest|loathe))\s+(?P<work>(?:that|this) (?:song|hymn|tune|track|carol|film|movie|show|book|"
    r"play|musical|album|piece))\b",
    _I,
)
# A title something plays or sings: "plays Baby Shark on repeat", "keeps singing Let It Go".
_PLAYED_EN = re.compile(
    r"\b(?:play|plays|played|playing|sing|sings|sang|singing|blast|blasts|blasting|put on|puts on)\s+"
    r"(?P<x>[A-Z][\w'\u2019]*(?:\s+(?:[A-Z][\w'\u2019]*|the|of|a|on|in|it)){0,4}?)"
    r"(?=\s+(?!(?:[A-Z]\w*|the|of|a|on|in|it)\b)|[,.;!?]|$)"
)
# A name had on repeat: "has Ed Sheeran on a loop", "puts Abba on full blast".
_ON_REPEAT_EN = re.compile(
    r"\b(?:has|had|have|got|gets|put|puts|keeps?|kept)\s+(?P<x>[A-Z][\w'\u2019]*(?:\s+[A-Z][\w'\u2019]*){0,2})\s+"
    r"on\s+(?:a\s+)?(?:loop|repeat|full blast|blast|shuffle)\b"
)
_WORKS_PLAYED = frozenset(("song", "hymn", "tune", "track", "carol", "album", "piece"))
# What someone keeps bringing in or growing, plural: "the house full of lilies", "brings me bunches of
# carnations", "planted marigolds".
_GOT_EN = re.compile(
    r"\b(?:full of|bunch(?:es)? of|vases? of|buckets? of|loads of|lots of|buys?|bought|brings?|brought|"
    r"sends?|sent|grows?|grew|plants?|planted)\s+(?:me\s+|us\s+|some\s+|the\s+|those\s+|more\s+)?"
    r"(?P<x>[a-z]{3,}s)\b",
    _I,
)
# A title in quotes: 'Hallelujah', "Mr Brightside", ‘Danny Boy’.
_QUOTED_EN = re.compile(
    r"(?:(?<![\w])'|\"|\u2018|\u201c)(?P<x>[A-Z][^'\"\u2019\u201d]{1,40}?)(?:'(?!\w)|\"|\u2019|\u201d)"
)
# A person's name mid-sentence: "Sally Rooney", "Ed Sheeran" (not "God" in "honest to God").
_NAME_EN = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z'\u2019]+(?:\s+[A-Z][a-z'\u2019]+){0,2}\b")
_NOT_A_NAME_TEXT = (
    "I God Jesus Christ Lord Christmas Easter Monday Tuesday Wednesday Thursday Friday Saturday Sunday Mum "
    "Dad Mom Mam Nan Gran"
)
_NOT_A_NAME = frozenset(_NOT_A_NAME_TEXT.split())


# Words that repeat in any story and name no thing ("then beetroot, then…", "this", "they").
_COMMON_TEXT = (
    "then this that there they them their with what when were have just really like some about from "
    "last night still even much very also into over again every thing things stuff year years month months "
    "week weeks days hour hours your yours ours mine would could should been being onto "
    "three four five seven eight nine twenty thirty forty fifty sixty hundred"
)
_COMMON = frozenset(_COMMON_TEXT.split())


def _repeated(sentences: str) -> str:
    """The one word the sentences name at least twice (four letters or more, no common word): "this
    beetroot salad, then beetroot in the burgers, then … a chocolate beetroot cake" → "beetroot"."""
    words = [w for w in re.findall(r"[a-z]{4,}", sentences.lower()) if w not in _COMMON]
    # (a word's -y or -s form counts as the word: "glitter … glittery", "lash … lashes")
    said = set(words)
    counts = Counter(w[:-1] if w[-1] in "ys" and w[:-1] in said else w for w in words)
    top = counts.most_common(2)
    if not top or top[0][1] < 2 or (len(top) > 1 and top[1][1] == top[0][1]):
        return ""
    return top[0][0]


def _named_before(before: str) -> str:
    named = list(_NAMED_EN.finditer(before))
    if not named:
        return ""
    thing = named[-1].group("x")
    # only the sentence just before counts: a thing named three sentences ago is too far to be meant
    between = before[named[-1].end() :]
    if len(re.findall(r"[.!?]", between)) > 1 or thing.lower().split()[0] in _NOT_A_THING:
        return ""
    return thing
