"""Kinds of food named by what they are, not by a word for them: "nothing that ever had a life" (meat),
"nothing pulled up from under the soil" (root vegetables), "anything that came out of a hen" (eggs),
"anything with a buzz in it" (caffeine), "带眼睛的一口不吃" (meat), "土里长的都不碰" (root vegetables),
"红彤彤那种东西沾一点点，成个胃就好似着火" (spicy), and what a missing enzyme cannot break down:
"大夫说俺天生缺那个解酒的酶" (alcohol), "缺分解乳糖的酶" (dairy).

Read only when refused ("nothing", "never eat anything", "不吃", "都不碰") or when the same sentence tells
of a reaction to it ("anything that came out of a hen makes my lips swell"); a description alone ("the
calf had a face like a saint") rules nothing out. Each is a known topic key (``constraint_terms.TOPICS``).
"""

from __future__ import annotations

import re

from voice_agent.conversation.constraint_symptoms_en import SYMPTOM_EN
from voice_agent.conversation.constraint_symptoms_zh import SYMPTOM_ZH

__all__ = ["described_kinds"]

_I = re.IGNORECASE

# What a person refuses in English, right before the description.
_REFUSED_EN = (
    r"(?:\bnothing|\bno\s+(?:food|meals?|dishes)|\bnot\s+(?:even\s+)?anything|"
    r"\b(?:never|won't|wouldn't|don't|doesn't|didn't|can't|cannot|mustn't|will\s+not|do\s+not|does\s+not)\s+"
    r"(?:ever\s+)?(?:eat|eats|touch|touches|have|has|take|cook|buy|serve|go\s+near)\s+anything|"
    r"\b(?:off|clear\s+of|away\s+from|without)\s+anything|"
    # ("I haven't let a single thing that ever had a face pass my lips")
    r"\b(?:haven't|have\s+not|never|won't|don't|wouldn't)\s+(?:let|allow|allowed|put)\s+"
    r"(?:a\s+(?:single\s+)?thing|anything)|"
    # (a body that refuses it: "my guts have gone on strike against anything that came out of a cow")
    r"\b(?:on\s+strike|at\s+war|declared\s+war)\s+(?:against|with|on)\s+anything)"
)
# The thing said by what it is, each with the topics it stands for.
_KINDS_EN: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (
        re.compile(
            r"\s+(?:that|which|who)?\s*(?:ever\s+|once\s+)?(?:had|has|have|with|had\s+got)\s+(?:a\s+|an\s+)?"
            r"(?:life|face|faces|mother|mum|mom|mammy|mammies|heartbeat|heart\s+beat|pulse|soul|eyes|blood)\b",
            _I,
        ),
        ("meat", "fish"),
    ),
    (
        re.compile(
            r"\s+(?:that|which)\s+(?:ever\s+|once\s+)?(?:lived|breathed|walked|bled|drew\s+breath|"
            r"was\s+(?:ever\s+)?alive|had\s+been\s+alive|could\s+(?:walk|breathe|run|look\s+at\s+you))\b",
            _I,
        ),
        ("meat", "fish"),
    ),
    (
        re.compile(
            r"\s+(?:that\s+|which\s+)?(?:ever\s+)?(?:grows?|grew|grown|growing|pulled|dug|comes?|came)\s+"
            r"(?:up\s+)?(?:from\s+|out\s+of\s+)?(?:under|below|beneath|underneath|in|out\s+of)\s+"
            r"(?:the\s+)?(?:soil|ground|earth|dirt)\b",
            _I,
        ),
        ("roots",),
    ),
    (
        re.compile(
            r"\s+(?:that\s+|which\s+)?(?:ever\s+)?(?:came|comes?|come)\s+out\s+of\s+(?:a\s+|the\s+)?"
            r"(?:hens?|chickens?)\b|\s+(?:that\s+)?(?:a\s+)?(?:hen|chicken)\s+(?:laid|lays)\b|"
            r"\s+laid\s+by\s+(?:a\s+)?(?:hens?|chickens?)\b|\s+(?:that\s+)?(?:ever\s+)?laid\s+an?\s+eggs?\b",
            _I,
        ),
        ("eggs",),
    ),
    (
        re.compile(
            r"\s+(?:that\s+|which\s+)?(?:ever\s+)?(?:came|comes?|come)\s+(?:out\s+of|from)\s+"
            r"(?:an?\s+|the\s+)?(?:udders?|cow's\s+udder)\b|\s+(?:that\s+)?(?:ever\s+)?(?:gave|gives)\s+milk\b",
            _I,
        ),
        ("dairy",),
    ),
    (
        re.compile(
            r"\s+(?:that\s+|which\s+)?(?:ever\s+)?(?:came|comes?|grew|grows?)\s+(?:out\s+of|from|in)\s+"
            r"(?:an?\s+|the\s+)?(?:wheat|barley|rye)(?:\s*fields?)?\b",
            _I,
        ),
        ("gluten",),
    ),
    (
        re.compile(r"\s+(?:with|that\s+has|that's\s+got)\s+(?:a\s+|any\s+)?(?:buzz|caffeine|jolt)\b", _I),
        ("caffeine",),
    ),
    (
        re.compile(
            r"\s+(?:that\s+)?(?:from|off|of|out\s+of)\s+(?:the\s+|a\s+)?(?:pigs?|hogs?|swine)\b"
            r"(?![ -](?:farm|pen|sty|shed|yard|show|market|racing))",  # (a pig farm is a place)
            _I,
        ),
        ("pork",),
    ),
)
# "anything from the pig or cooked in its fat cannot" (Singlish): a refusal after the description.
_REFUSED_AFTER_EN = re.compile(
    r"^[^.!?;:]{0,50}?\b(?:cannot|can't|can not|no way|(?:is|are) out|off limits|not allowed|forbidden|haram|"
    r"(?:is|are) a no)\b",
    _I,
)
# "anything that came out of a hen makes my lips swell": what a reaction follows.
_ANY_EN = r"\b(?:anything|everything|whatever|something)"
# (the symptom words, and the few they do not hold: "swollen", "threw up", "the runs")
# ("…pass my lips": the way in, no swollen lips)
_PASS_LIPS = re.compile(r"\bpass(?:ed|es)?\s+(?:my|his|her|their|our)\s+lips\b", _I)
_REACTION_EN = re.compile(rf"\b(?:swollen|threw\s+up|throw\s+up|runs|{SYMPTOM_EN})", _I)

# Chinese: the description, then (or before it) a refusal.
_KINDS_ZH: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        r"(?:有命的|带命的|有脸的|带眼睛的|有眼睛的|长眼睛的|会喘气的|喘气的|有血有肉的|带血的|会叫的|有妈生的|"
        r"有妈妈的|有妈的)",
        ("meat", "fish"),
    ),
    (
        r"(?:土里长的|土里头长的|长在土里的|埋在土里的|土里刨出来的|地底下长的|土底下长的|地下长的|埋在地下的|"
        r"从土里(?:挖|刨|拔)出来的)",
        ("roots",),
    ),
    (r"(?:母鸡下的|鸡下的|鸡生的|鸡屁股里出来的)", ("eggs",)),
    (r"(?:红彤彤|红通通|红艳艳|红油油|红红)的?(?:那种|这种|那些|这些)(?:东西|玩意儿?|嘢)", ("spicy",)),
    (r"(?:会跑会游的|会跑会飞的|会游会跑的|会跑的|会游的|会飞的)", ("meat", "fish")),
    # an animal by its call: "哼哼叫的那东西的肉从来上不了我们家的桌", "烤那种咩咩叫的东西，我闻到都想吐"
    (r"(?:哼哼|哼哼唧唧|嗷嗷)叫的", ("pork",)),
    (r"咩咩叫的", ("lamb",)),
    (r"哞哞叫的", ("beef",)),
    (r"(?:咯咯哒?|喔喔)叫的", ("chicken",)),
)
_REFUSE_AFTER_ZH = (
    r"(?:(?:那种|那个|那|这种)?(?:东西|玩意儿?)(?:的肉)?)?(?:[我他她俺]们?)?"
    r"(?:一口|一点|一概|一律|统统|全都|通通|从来|都|也|坚决|压根儿?)*"
    r"(?:不吃|不沾|不碰|不能吃|吃不得|不敢吃|没(?:吃|沾|碰)过|不进嘴|上不了(?:[我俺咱]们?家的?)?饭?桌)"
)
# The enzyme a doctor said is missing, named by what it breaks down.
_ENZYME_ZH = re.compile(
    r"(?:缺|少|没有)(?:少|乏)?了?(?:那个|这个|一种|那种)?(?:能)?(?:分解|消化|代谢|解)(?P<x>乳糖|牛奶|奶|酒精|乙醇|酒)的?酶"
)
_ENZYME_TOPICS_ZH = {"乳糖": "dairy", "牛奶": "dairy", "奶": "dairy", "酒精": "alcohol", "乙醇": "alcohol",
                     "酒": "alcohol"}  # fmt: skip
_REFUSE_BEFORE_ZH = r"(?:不吃|不沾|不碰|不能吃|不敢吃|忌|没再?(?:碰|吃|沾|出现)过)(?:任何|一切|所有)?"
# Or a reaction in the same sentence: "红彤彤那种东西沾一点点，成个胃就好似着火咁烧".
_REACTION_ZH = re.compile(f"{SYMPTOM_ZH}|着火|火烧|冒火")


# Compiled once: what comes right before an English description, and each Chinese description refused.
_REFUSED_BEFORE_EN = re.compile(_REFUSED_EN + r"$", _I)
_ANY_BEFORE_EN = re.compile(_ANY_EN + r"$", _I)
_REFUSED_ZH = tuple(
    (re.compile(f"{described}{_REFUSE_AFTER_ZH}|{_REFUSE_BEFORE_ZH}{described}"), topics)
    for described, topics in _KINDS_ZH
)
_DESCRIBED_ZH = tuple((re.compile(described), topics) for described, topics in _KINDS_ZH)
_SENTENCE_END = re.compile(r"(?<=[.!?。！？；;])\s*")


_CHAINED_EN = re.compile(r",?\s*(?:or|nor|and)\s*$", _I)


def _refused_en(sentence: str) -> set[tuple[int, int]]:
    """The spans of the English descriptions ``sentence`` refuses: right after a refusal, or chained after
    one refused ("a thing that ever had a mammy, or laid an egg, or gave milk")."""
    described = [m.span() for pattern, _ in _KINDS_EN for m in pattern.finditer(sentence)]
    refused = {
        (start, end) for start, end in described
        if _REFUSED_BEFORE_EN.search(sentence[max(0, start - 60) : start])
    }  # fmt: skip
    while True:
        chained = {
            (start, end) for start, end in described
            if _CHAINED_EN.search(sentence[max(0, start - 60) : start])
            and any(0 <= start - before <= 20 for _, before in refused)
        } - refused  # fmt: skip
        if not chained:
            return refused
        refused |= chained


def described_kinds(text: str) -> list[tuple[str, bool]]:
    """The topics a description in ``text`` names, each with whether a reaction (not a refusal) told it."""
    out: list[tuple[str, bool]] = []
    for sentence in _SENTENCE_END.split(text):
        refused = _refused_en(sentence)
        for pattern, topics in _KINDS_EN:
            for match in pattern.finditer(sentence):
                before = sentence[max(0, match.start() - 60) : match.start()]
                if match.span() in refused:  # (a reaction told after it too: the body refuses it)
                    reacted = _REACTION_EN.search(_PASS_LIPS.sub("", sentence[match.end() :])) is not None
                    out += [(t, reacted) for t in topics]
                elif _ANY_BEFORE_EN.search(before) and _REACTION_EN.search(sentence, match.end()):
                    out += [(t, True) for t in topics]
                elif _ANY_BEFORE_EN.search(before) and _REFUSED_AFTER_EN.search(sentence[match.end() :]):
                    out += [(t, False) for t in topics]
        out += [(t, False) for refused, topics in _REFUSED_ZH if refused.search(sentence) for t in topics]
        if _REACTION_ZH.search(sentence):
            out += [
                (t, True) for described, topics in _DESCRIBED_ZH if described.search(sentence) for t in topics
            ]
        out += [(_ENZYME_TOPICS_ZH[m.group("x")], True) for m in _ENZYME_ZH.finditer(sentence)]
    first: dict[str, bool] = {}
    for topic, reacted in out:
        first.setdefault(topic, reacted)
    return list(first.items())
