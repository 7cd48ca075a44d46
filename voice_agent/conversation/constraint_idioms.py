"""Things kept off, said as idioms rather than rules: "mint is my enemy", "bottomless anything is dead to
me", "the feel of velvet is like nails on a chalkboard", "Jonno can't go near cherries", "can't be in the
same room as a cinnamon roll", "cinnamon gies me the boak", "I'm done with trial shifts", "I pick every
slice of cucumber out", "pick every wee raisin out", "anything smoky sets him off"; "从小就跟青霉素犯冲",
"就吃不了那个折耳根", "最怕的就是鸡爪", "巧克力就是导火索", "抹茶这玩意儿我是真整不明白",
"爬山这事儿我是真烦".
Each is read in the person's own words (the thing where the idiom puts it); the kind follows what the story
tells (a throat that closed makes it an allergy)."""

from __future__ import annotations

import re

from voice_agent.conversation.constraint_breakups import breakup_matches
from voice_agent.conversation.constraint_shapes import FOOD_TALK, SEVERE, SYMPTOM_ZH, has_symptom
from voice_agent.text.cjk import HAN_CLASS

_I = re.IGNORECASE
_START_EN = r"(?:^|[,;:.!?]\s*|\b(?:that|but|and|so)\s+)"
_END_EN = r"(?=\s*(?:[,.;:!?]|$|\s+(?:and|or|like|because|since|at all|either|anymore|any more|ever)\b))"
_ENEMY_EN = re.compile(
    # ("so groundnut and anything made with it is now my sworn enemy")
    _START_EN
    + r"(?P<x>[a-z]+(?:[ -][a-z]+)?)(?:\s+and (?:anything|everything) (?:made|cooked) with (?:it|them))?"
    r"\s+(?:is|are)\s+(?:now\s+|still\s+|officially\s+)?(?:my|his|her|our|their)\s+"
    r"(?:(?:worst|sworn|mortal|number one|biggest)\s+)?(?:enemy|enemies|nemesis|kryptonite|arch-?enemy)\b",
    _I,
)
_DEAD_TO_EN = re.compile(
    _START_EN
    + r"(?P<x>[a-z]+(?:[ -](?!anything|everything|stuff)[a-z]+)?)(?:\s+(?:anything|everything|stuff))?"
    r"\s+(?:is|are)\s+dead to (?:me|us|him|her|them)\b",
    _I,
)
_CHALKBOARD_EN = re.compile(
    _START_EN + r"(?P<x>[a-z]+(?:[ -][a-z]+){0,3}?)\s+(?:is|are)\s+(?:like\s+)?nails (?:on|down) a "
    r"(?:chalk|black)board\b",
    _I,
)
_NEAR_EN = re.compile(
    r"\b(?:can't|cannot|can not|won't|doesn't|don't|mustn't|shouldn't) (?:go|come|get) (?:anywhere )?near\s+"
    r"(?:a |an |the |any )?(?!(?:it|them|that|this|him|her|you|me|us|there|here)\b)"
    r"(?P<x>[a-z]+(?:[ -][a-z]+)?)" + _END_EN,
    _I,
)
_DONE_WITH_EN = re.compile(
    r"\b(?:i'm|i am|we're|we are)\s+(?:so\s+|totally\s+|completely\s+|well and truly\s+)?done with\s+"
    r"(?:the\s+)?(?!(?:it|that|this|him|her|them|you|work|today|school|uni|college|exams?|lunch|dinner|"
    r"breakfast)\b)(?P<x>[a-z]+(?: (?!for\b|today\b|now\b|tonight\b)[a-z]+){0,2}?)(?=\s*[.!;,]|\s*$)",
    _I,
)
_VOW_EN = re.compile(r"\b(?:never again|swore|swear|sworn|i mean it|for good|ever again|no more)\b", _I)
_PICK_OUT_EN = re.compile(
    r"\bpick(?:s|ed|ing)? (?:out )?(?:every (?:single |wee |little |last )?|all (?:the )?|each )?"
    r"(?:(?:slice|bit|piece|shred|scrap|lump)s? of )?(?!(?:everything|anything|it|them|that)\b)"
    r"(?P<x>[a-z]+(?: [a-z]+)?) out(?: (?:of|from)\b|(?= and\b|[,.;!]))",
    _I,
)
# A thing slipped past the person because they refuse it: "Me ma's been trying to sneak a mushroom into me
# since 1989" (not a present slipped into a bag: "sneak a card into her bag").
_SNUCK_IN_EN = re.compile(
    r"\b(?:try|tries|tried|trying) to (?:sneak|slip|smuggle|hide|get) (?:a |an |some |the )?"
    r"(?P<x>[a-z]+(?: [a-z]+)?) (?:into|in) (?:(?:me|him|her|us|them)(?=[,.;!?]|$|\s+(?:since|for|ever|every|"
    r"at|when|whenever|all|again|and)\b)|(?:my|his|her|their) (?:food|dinner|plate|meals?|sauce))",
    _I,
)
# Cannot bear its presence: "I cannae even be in the same room as a cinnamon roll".
_SAME_ROOM_EN = re.compile(
    r"\b(?:can't|cannot|can not|cannae|canny|won't|couldn't)\s+(?:even\s+)?(?:be|stay|sit|stand)\s+in the "
    r"same (?:room|house|kitchen|building) as\s+(?:a |an |the |any )?(?!(?:him|her|them|it|you|me|my|his)\b)"
    r"(?P<x>[a-z]+(?: [a-z]+)?)" + _END_EN,
    _I,
)
# Turns the stomach: "cinnamon gies me the boak" (Scots), "coriander gives me the ick".
_BOAK_EN = re.compile(
    _START_EN + r"(?P<x>[a-z]+(?: [a-z]+)?)\s+(?:gives|gies|gie|give)\s+(?:me|him|her|us)\s+the\s+"
    r"(?:boak|boke|dry boak|ick|dry heaves)\b",
    _I,
)
_SETS_OFF_EN = re.compile(
    r"\b(?:anything|everything)\s+(?P<x>[a-z]+(?:-y)?)\s+sets (?:me|him|her|them|it|my \w+) off\b", _I
)
_NO_MORE_AFTER_VOW_EN = re.compile(
    r"\bnever again[,.!]?\s+no more (?P<x>[a-z][\w-]*(?: [a-z][\w-]*)?)" + _END_EN, _I
)
_THING_ZH = rf"(?P<x>{HAN_CLASS}{{2,6}}?)"
_CLAUSE_ZH = r"(?:^|[，,。！!？?；;])"
_CLAUSE_END_ZH = r"(?=[，。,.！!？?；;]|$)"
# (not what is pointed at: "大夫说西柚跟俺这药犯冲" is the drug at odds with grapefruit)
_AT_ODDS_ZH = re.compile(rf"(?:跟|和|同)(?![这那俺我你他她])(?P<x>{HAN_CLASS}{{1,6}}?)犯冲")
# Born enemies with a thing: "俺这肚子跟牛奶那是天生的冤家", "我跟那个…像水沟混臭袜子的炸豆腐真的不共戴天"
# (read beside eating or the body only: "我跟老板是死对头" is no food).
_ENEMIES_ZH = re.compile(
    r"(?:跟|和|同|搭)(?:那种|这种|那个|这个|那些)?(?:[^，。！？；]{0,16}的)?"
    rf"(?P<x>(?![这那俺我你他她]){HAN_CLASS}{{1,6}}?)(?:真的|简直|就|那|真)*是?"
    r"(?:天生的?|前世的?|上辈子的?|八辈子的?)?(?:冤家|死对头|仇人|不共戴天)"
)
_CANT_EAT_ZH = re.compile(
    rf"(?:就|真|实在|死活|根本|压根)(?:是)?(?:吃|喝)不了(?:那个|这个|那种|这种)?(?!那么|这么|太|多|辣){_THING_ZH}"
    + _CLAUSE_END_ZH
)
_DREAD_ZH = re.compile(rf"最怕(?:的)?(?:就是|是){_THING_ZH}{_CLAUSE_END_ZH}")
_FUSE_ZH = re.compile(
    rf"{_CLAUSE_ZH}{_THING_ZH}(?:就|简直)?是(?:我的?|他的?|她的?)?(?:导火索|克星|死穴|天敌)"
)
_THIS_THING_ZH = re.compile(
    rf"{_CLAUSE_ZH}(?:我跟你说)?{_THING_ZH}(?:这玩意儿?|这东西|这事儿?)(?:我|俺)?(?:是)?(?:真|实在|压根)?"
    r"(?:整不明白|受不了|欣赏不来|接受不了|烦|不感冒|吃不惯|喝不惯|吃不来)"
)
# A style pointed at, then not to the person's taste: "小红书上火的那个奶油风，我是真欣赏不来".
_NOT_MY_TASTE_ZH = re.compile(
    rf"(?:{_CLAUSE_ZH}|的)(?:那个|这个|那种|这种)?{_THING_ZH}[，,](?:我|俺)(?:是)?(?:真|实在|压根|真的)?"
    r"(?:欣赏不来|看不惯|看不上|接受不了)"
)
# What was put in, then the person fed up with it: "次卧做了个榻榻米，我真是烦透了".
_FED_UP_WITH_ZH = re.compile(
    rf"(?:了个|了一个|了套|了张|了台){_THING_ZH}[，,](?:我|俺)(?:是|真是|真的)?真?(?:烦透了|烦死了|受够了|后悔死了|恨死了)"
)
# A food one cannot bring oneself to eat: "唯独活珠子，打死我都下不去嘴", "猪脑花我是真咽不下去".
_NO_STOMACH_ZH = re.compile(
    rf"{_CLAUSE_ZH}(?:唯独|就|只有|除了|可)?(?:那个|这个|那种|这种)?{_THING_ZH}[，,]?(?:我|俺)?(?:是)?"
    r"(?:打死(?:我)?|死活|实在|真的?|根本|压根)?(?:都|也)?(?:下不去嘴|下不了嘴|下不了口|咽不下去)"
)
# A food feared since childhood, told beside how it eats: "我这人打小就怕芋头，那口感粉粉糊糊的" (not
# "怕麻烦").
_FEARED_FOOD_ZH = re.compile(rf"(?:从小|打小|一直|最|就|特别)(?:就)?怕(?:吃)?{_THING_ZH}{_CLAUSE_END_ZH}")
_EATING_ZH = re.compile(r"口感|味道|吃|嚼|咽|噎|恶心")
_NOT_FOOD_ZH = re.compile(
    r"麻烦|吵|黑|热|冷|疼|痛|输|累|苦|晒|胖|打针|考试|生病|上火|花钱|迟到|坐车|晕|高|水"
)
_SEVERE_ZH = re.compile(r"过敏|皮试|喘不上|发紧|休克|急诊")


def idiom_matches(text: str) -> list[tuple[re.Match[str], str]]:
    """Each thing kept off by an idiom, as (match with the thing in group ``x``, kind)."""
    severe = SEVERE.search(text) is not None or _SEVERE_ZH.search(text) is not None
    body = "allergy" if severe else "intolerance"
    found: list[tuple[re.Match[str], str]] = []
    # (an enemy that put the person in hospital is an allergy: "…my face swell … groundnut is my sworn enemy")
    found += [(m, "allergy" if severe else "avoid") for m in _ENEMY_EN.finditer(text)]
    for pattern in (_DEAD_TO_EN, _CHALKBOARD_EN, _PICK_OUT_EN, _SAME_ROOM_EN, _BOAK_EN,
                    _NO_MORE_AFTER_VOW_EN, _SNUCK_IN_EN, _CANT_EAT_ZH,
                    _DREAD_ZH, _THIS_THING_ZH, _FED_UP_WITH_ZH, _NOT_MY_TASTE_ZH):  # fmt: skip
        found += [(m, "avoid") for m in pattern.finditer(text)]
    # (done with it for good, not finished: "We are done with the kitchen, finally!")
    if _VOW_EN.search(text):
        found += [(m, "avoid") for m in _DONE_WITH_EN.finditer(text)]
    found += [(m, "avoid") for m in _NO_STOMACH_ZH.finditer(text)]
    if _EATING_ZH.search(text):
        found += [
            (m, "avoid") for m in _FEARED_FOOD_ZH.finditer(text) if not _NOT_FOOD_ZH.search(m.group("x"))
        ]
    # (fallen out with it: an allergy after a throat that closed, else a reaction, else kept off)
    unwell = has_symptom(text) or re.search(SYMPTOM_ZH, text) is not None
    fell_out = "allergy" if severe else "intolerance" if unwell else "avoid"
    found += [(m, fell_out) for m in breakup_matches(text)]
    if unwell or _EATING_ZH.search(text):
        found += [(m, fell_out) for m in _ENEMIES_ZH.finditer(text)]
    for pattern in (_SETS_OFF_EN, _AT_ODDS_ZH, _FUSE_ZH):
        found += [(m, body) for m in pattern.finditer(text)]
    if severe or has_symptom(text) or FOOD_TALK.search(text):  # (not "can't go near the office today")
        found += [(m, "allergy" if severe else "avoid") for m in _NEAR_EN.finditer(text)]
    return found
