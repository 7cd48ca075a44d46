"""A cause found after a reaction, told as a story: "Had a bit of guac … my lips had blown up", "Doc
reckons it's the hops, a proper allergy", "she reckons it's the SLS … my mouth just can't handle it",
"turns out it wasn't the heat at all, it was the masoor dal"; "查过敏原，说是油菜花粉". The thing is what
was eaten before the reaction, or what the diagnosis names ("it's the X", "说是X"); ``constraints`` reads a
diagnosis only where the person's words tell of a reaction (a symptom, an allergy, "can't handle it"), so
"turns out it's the weekend" names nothing, and a condition ("oral allergy syndrome", "耳石症") is no thing
to keep off."""

from __future__ import annotations

import re

from voice_agent.text.cjk import HAN_CLASS

_I = re.IGNORECASE
# Who found the cause and how they said it, then "it's (the) X" / "it was (the) X".
DIAGNOSED_EN = re.compile(
    r"\b(?:reckons?|reckoned|says?|said|thinks?|confirmed|turns out|turned out|sussed out|worked out|"
    r"figured out|found out|reckon|tells? me|told (?:me|us)|looked (?:it )?up(?: after(?:wards)?)?|"
    # (or the person's own sure conclusion: "Same thing happened with sugar-free mints, so it's defo the
    # sweeteners"; not "so it's showers at the gym all week")
    r"so(?=\s+it(?:'s|\s+is|\s+was)\s+(?:defo|deffo|def|definitely|obviously|clearly|probably|totally)\b))"
    r"(?:\s+that)?,?\s+"
    r"(?:it's|it is|it was|it were|'tis)\s+(?:(?:defo|deffo|def|definitely|obviously|clearly|probably|"
    r"totally)\s+)?(?:the\s+|that\s+|this\s+|(?:her|his|my|our|their)\s+)?"
    # (no verdict on how things are: "the kids reckon it's heaps better", "she says it's grand")
    r"(?!(?:heaps|much|way|loads|miles|so|far|a lot|a bit)?\s*"
    r"(?:better|worse|fine|grand|great|okay|ok|good)\b)"
    # (nor a word that only says it is certain: "it's official, I'm allergic to tree nuts")
    r"(?!(?:official|confirmed|definite|final|true|real|serious|settled|certain)\b)"
    # (nor what the person's choice is called: "my gran still thinks it's a phase", "a fad", "all in my head")
    r"(?!(?:(?:just|only|all)\s+)?(?:a\s+)?(?:phase|fad|trend|joke|habit|myth|excuse|nonsense|rubbish|"
    r"in my head)\b)"
    r"(?P<x>[a-z][a-z'-]*(?:\s+(?!itself\b|in\b|that\b|and\b|or\b|he\b|she\b|i\b|they\b|you\b)[a-z][a-z'-]*){0,2})",
    _I,
)
# A condition named by its substance in the results of a test: "I finally got answers from the gastro
# after that breath test: it's fructose malabsorption" (not "…: it's fructans, so onion and garlic are the
# big villains", where the foods named are what is kept off).
RESULTS_CONDITION_EN = re.compile(
    r"\b(?:got|get|had|have) (?:the |my |some |an? )?(?:answers?|results?|diagnosis|verdict)\b[^.!?:]{0,60}:"
    r"\s+it(?:'s| is| was)\s+(?P<x>[a-z]+\s+(?:malabsorption|intolerance|sensitivity))\b",
    _I,
)
# The person reacting the same way to one more thing: "turns out I'm the same with camomile".
SAME_WITH_EN = re.compile(
    r"\b(?:i'm|i am|he's|he is|she's|she is|we're|we are)\s+(?:just\s+|exactly\s+)?the same with\s+"
    r"(?P<x>[a-z][a-z'-]*(?:\s+(?!and\b|but\b|too\b|as\b)[a-z][a-z'-]*)?)",
    _I,
)
# Something eaten, then a reaction in the same sentence: "They gave the kids strawberries at nursery and by
# pick-up her whole face had come up in big red welts", "Had a bit of guac … my lips had blown up". What
# is had that is no food ("had a cold", "had a fall", "had an injection") names nothing.
ATE_THEN_REACTED_EN = re.compile(
    # (not a likeness: "my lips blew up like I'd had filler"; "after one mango lassi … my face swelled")
    r"(?<!like i'd )(?<!like i had )(?<!as if i'd )(?<!as if i had )"
    r"\b(?:(?:ate|eaten|eating|had|tried|gave|given|fed)\s+"
    r"(?:(?:him|her|them|the kids|the children|the baby|my \w+|his \w+|our \w+|a bit of|a little|a few|"
    r"some|a|an|one|two)\s+){0,2}|after (?:one|a|an|two|some|a bit of|a few|a little|half an?|a single)\s+)"
    r"(?!(?:(?:a|an|the|some|my|his|her)\s+)?(?:cold|colds|flu|virus|fever|bug|infection|fall|accident|injection|jab|vaccine|shot|operation|"
    r"surgery|sting|bite|bath|shower|walk|run|look|go|baby|chat|time|day|week|night|drink|reaction|"
    # (a falling-out told as a marriage: "my guts and wheat had a messy divorce")
    r"flare|attack|test|row|fight|argument|haircut|massage|cream|messy|nasty|bitter|ugly|divorce|"
    r"falling[- ]out|break[- ]?up|bust[- ]up|laugh|blast|ball|word)\b)"
    r"(?P<x>[a-z]+(?:[ -][a-z]+)?)\b[^.!?]{0,140}?\b(?:welts|hives|rash|swell\w*|swollen|puffy|puffed up|"
    r"blew up|blown up|came up|come up|itch\w*|wheez\w*|throat|anaphyla\w*|epi-?pen)",
    _I,
)
# The least of it, then the reaction: "One whiff of mothballs and I get a thumping headache", "a single sip of
# cola and he's bouncing off the walls" (read with a symptom in the text; "those things" names nothing).
ONE_WHIFF_EN = re.compile(
    r"\b(?:one|a single|a|the (?:slightest|faintest|smallest|tiniest))\s+(?:whiff|sniff|bite|sip|mouthful|"
    r"spoonful|forkful|taste|drop|lick|crumb|puff)\s+of\s+(?:those\s+|that\s+|the\s+|any\s+|an?\s+|some\s+)?"
    # (a dish, then what was in it: "one forkful of a salad with that tahini dressing and my throat…")
    r"(?:(?!(?:it|them|that|this|those|these)\b)[a-z]+\s+(?:with|in|on)\s+(?:that\s+|the\s+|some\s+|an?\s+)?)?"
    r"(?!(?:(?:those|that|the|any)\s+)?(?:things?|stuff|it|them)\b)"
    r"(?!(?:my|his|her|our|their|your)\b)"  # ("a drop of milk in my coffee": the milk, not the coffee)
    r"(?P<x>[a-z]+(?:[ -][a-z]+)?)\b(?:(?:\s+(?:now|even))?\s*,?\s+and\b|"
    # (two of them: "one crumb of bread or a sip of a normal beer and I'm doubled over")
    r"(?=\s+or\s+(?:one|a|an)\s+(?:whiff|sniff|bite|sip|mouthful|spoonful|forkful|taste|drop|lick|crumb|puff)\s+of\b))",
    _I,
)
# One of a thing, then what it does to the person: "one flat white and I'm blown up like a puffer fish", "a
# single latte and my guts are gone" (read for known topics only, with a symptom in the text).
ONE_THEN_EN = re.compile(
    r"\b(?:one|a single|just one|even one|two)\s+(?P<x>[a-z]+(?:[ -][a-z]+)?)\s*,?\s+and\s+"
    r"(?:I'm|I am|I'll be|I get|I was|I end up|I've|my|me)\b",
    _I,
)


def reactions_after(text: str) -> list[re.Match[str]]:
    """Things had, then a reaction (``ATE_THEN_REACTED_EN``, ``ONE_WHIFF_EN``)."""
    return [*ATE_THEN_REACTED_EN.finditer(text), *ONE_WHIFF_EN.finditer(text)]


# "it wasn't the heat at all, it was the masoor dal": the cause said after what it was not.
NOT_THIS_BUT_EN = re.compile(
    r"\bit (?:wasn't|was not|isn't|is not) (?:the\s+)?[a-z' -]{2,30}?(?:\s+at all)?,\s+"
    r"it(?:'s|\s+is|\s+was)\s+"
    r"(?:the\s+|that\s+)?(?P<x>[a-z][a-z'-]*(?:\s+[a-z][a-z'-]*){0,2})",
    _I,
)
# The person's words for a reaction, besides a named symptom: "can't handle it", "don't get on with it".
REACTION_EN = re.compile(
    r"\b(?:can't|cannot|can not|couldn't|just don't|doesn't|don't) (?:handle|tolerate|take|stomach|"
    r"get on with|agree with|cope with)\b|\breact(?:s|ed|ion)?\b|\bA&E\b|\bEpiPen\b|\bblisters?\b|\bwelts?\b|"
    r"\bulcers?\b",
    _I,
)
# "查过敏原，说是油菜花粉", "医生说我就是艾蒿过敏", "查了一下说是魔芋里那个…": what the finding named.
DIAGNOSED_ZH = re.compile(
    rf"(?:(?:查[^。！？!?；;]{{0,8}}?|医生|大夫)[^。！？!?；;]{{0,6}}?(?:说|讲)(?:我|他|她|孩子|俺)?(?:就)?是"
    # (or the test's own finding: "后来验出来就是那个荞麦")
    r"|(?:验|查|测|化验)出来(?:了)?(?:就|原来|竟然)?是(?:那个|这个|那种)?)"
    rf"(?P<x>{HAN_CLASS}{{2,10}}?)(?=过敏|[，。,.！？!?；;]|$)"
)
# Where the person's words tell of an allergy or a body that cannot take something (Chinese).
REACTION_ZH = re.compile(
    r"过敏|不耐受|受不了|拉肚子|胀气|反酸|烧心|犯恶心|想吐|喘不过气|起红疹|起疹子|送急诊"
)


_INSIDE_ZH = re.compile(r"(.{2,6}?)(?:里|中)(?:的|那个|这个|那种)")


def zh_cause(found: str) -> str:
    """The thing in a finding: "魔芋里那个葡甘露聚糖" is 魔芋 (what it is in is what is eaten)."""
    found = _CANNOT_TAKE_ZH.sub("", found)  # ("说我就是扛不住高海拔": 高海拔)
    inside = _INSIDE_ZH.match(found)
    return inside.group(1) if inside else found


_CANNOT_TAKE_ZH = re.compile(r"^(?:扛不住|受不了|吃不消|耐不住|适应不了)(?=..)")


# A finding that names a condition, not a thing to keep off: "it's oral allergy syndrome", "a virus",
# "a very common trigger".
_CONDITION = re.compile(
    r"allerg|syndrome|intoleran|disease|disorder|condition|infection|virus|bug\b|fever|itis\b|stress|"
    r"\bibs\b|\bibd\b|\bgerd\b|reflux|eczema|asthma|coeliac|celiac|crohn|migraine|"
    r"anxiety|nothing|normal|fine\b|(?:very |quite |really )?(?:common|rare)\b|症|病|炎|综合征",
    _I,
)


_NOT_ALLERGY = re.compile(r"\bnot (?:an? )?(?:real |true |proper )?allerg|不是过敏|不算过敏", _I)


def told_allergy(text: str) -> bool:
    """Whether ``text`` says the reaction is an allergy ("a proper allergy", "艾蒿过敏"; not "Not an allergy
    apparently")."""
    return ("allerg" in text.lower() or "过敏" in text) and _NOT_ALLERGY.search(text) is None


def reaction_kind(stated: str) -> str:
    """The kind of a reaction's rule: an allergy when the words say one ("碰不得芒果，一碰就过敏"), else an
    intolerance."""
    return "allergy" if told_allergy(stated) else "intolerance"


def diagnosed(text: str, reaction: bool) -> list[str]:
    """The causes ``text`` names after a reaction (``reaction``: a symptom or allergy found by the caller,
    English; Chinese reactions are read here), in the person's words."""
    out: list[str] = []
    if reaction or REACTION_EN.search(text):
        found = (*DIAGNOSED_EN.finditer(text), *NOT_THIS_BUT_EN.finditer(text), *SAME_WITH_EN.finditer(text),
                 *RESULTS_CONDITION_EN.finditer(text))  # fmt: skip
        out += [m.group("x") for m in found]
    if REACTION_ZH.search(text):
        out += [zh_cause(m.group("x")) for m in DIAGNOSED_ZH.finditer(text)]
    return [thing for thing in out if not _CONDITION.search(thing)]
