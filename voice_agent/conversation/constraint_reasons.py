"""The reason a remembered rule comes from, as the person named it: a condition ("gestational diabetes",
"PKU", "diverticulitis", "查出来苯丙酮尿症", "食管静脉曲张"), a fast or an observance ("her Ekadashi", "the
Daniel Fast", "Lent"), a family's rule ("我对象家是满族，老辈儿传下来的规矩").

The opening that names a constraint says it when the person's own sentence is too long to say back:
"Since you told me about the PKU, " is what the parent of a child with PKU wants to hear, where "Leaving
out meat, as you told me, " names one of its consequences. Of several reasons in one statement, the last
one named before the rule's own words is its reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from voice_agent.text.cjk import HAN_CLASS, has_han

_I = re.IGNORECASE
_CONDITION_EN = re.compile(
    r"\b(?:(?:gestational|type (?:1|2|one|two)) )?diabetes\b|\bgout\b|\bhigh blood pressure\b|"
    r"\bhypertension\b|\b(?:coeliac|celiac|crohn['’]s) disease\b|\bcoeliac\b|\bceliac\b|"
    # conditions by their ending ("diverticulitis", "cirrhosis", "phenylketonuria", "anaemia")
    r"\b(?!(?:diagnosis|prognosis|hypnosis|osmosis|academia|bohemia)\b)[a-z]{4,}(?:itis|osis|uria|aemia|emia)\b|"
    r"\bkidney stones\b|\bacid reflux\b|\bheartburn\b|\bfatty liver\b|\bepilepsy\b|\bmigraines?\b|"
    # an intolerance named by what the body cannot clear, not by a food ("it's histamine intolerance: red
    # wine, aged cheese, salami": its foods are the rules, the intolerance their reason)
    r"\b(?:histamine|salicylate|sulph?ite|sulfite|oxalate|fructose|sorbitol) (?:intolerance|sensitivity)\b",
    _I,
)
# Conditions known by their letters (case as written: "PKU", not "pku" in a word)
_CONDITION_LETTERS = re.compile(r"\b(?:PKU|IBS|IBD|GERD|GORD|PCOS|CKD|COPD|EoE|G6PD|MCAS|FODMAP)\b")
_OBSERVANCE_EN = re.compile(
    r"\b(?:Daniel Fast|Ekadashi|Lent|Ramadan|Navratri|Navaratri|Yom Kippur|Paryushana?|Shravan|Sawan|"
    r"Karva Chauth|Karwa Chauth|Whole30|Passover)\b"
)
# "查出来苯丙酮尿症", "确诊了痛风", "得了胆结石": a condition after the words that tell of finding it
_CONDITION_ZH = re.compile(
    rf"(?:查出来?|查出了|确诊(?:了|为|是)?|诊断(?:为|是|出)?|得了|患有)(?:了)?(?:是|为)?(?:那个|个)?"
    rf"(?P<c>{HAN_CLASS}{{1,8}}?(?:症|病|炎|曲张|硬化|结石))"
)
_KNOWN_ZH = re.compile(r"糖尿病|痛风|高血压|高尿酸|乳糜泻|肝硬化|肾结石|胆结石|胃溃疡|甲亢|贫血")
_NOT_CONDITION_ZH = re.compile(r"^(?:生|看|毛|犯|发|得|治|小|大|老|心|怪|职业)?病$|毛病|老毛病")
_RULE_ZH = re.compile(rf"(?P<c>(?![是家个的]|民族|家族|上班族){HAN_CLASS}{{1,2}}族)[^。！？]{{0,16}}规矩")


@dataclass(frozen=True)
class Reason:
    text: str  # as said: "PKU", "Ekadashi", "苯丙酮尿症", "满族"
    rule: bool  # a fast, an observance or a family's rule (not a condition)

    def clause(self, language: str) -> str:
        """The opening that names it ("Since you told me about the PKU, ", "Since you told me about
        Lent, ", "因为你说过有苯丙酮尿症，", "因为你说过满族的规矩，")."""
        if language == "zh":
            return f"因为你说过{self.text}的规矩，" if self.rule else f"因为你说过有{self.text}，"
        named = _SAID_AS.get(self.text.casefold(), self.text)
        article = "" if self.rule and not named.startswith("Daniel") else "the "
        return f"Since you told me about {article}{named}, "


# How a reason reads after "about the" ("the coeliac" is said "the coeliac disease")
_SAID_AS = {"coeliac": "coeliac disease", "celiac": "celiac disease", "fodmap": "low-FODMAP diet"}


def reason_for(source: str, terms: tuple[str, ...], language: str, *, after: bool = True) -> Reason | None:
    """The reason named in ``source`` for the rule whose own words are ``terms`` (its nouns or terms as
    found there): the last one named before the first of them, else the first one named (only one named
    before them when not ``after``); None: none. An English reply names no Chinese reason ("PKU" may
    open a Chinese one)."""
    found = [(at, r) for at, r in _reasons(source) if language == "zh" or not has_han(r.text)]
    if not found:
        return None
    lowered = source.lower()
    at = min((i for i in (lowered.find(t.lower()) for t in terms if t) if i >= 0), default=-1)
    before = [reason for start, reason in found if start < at] if at >= 0 else []
    return before[-1] if before else (found[0][1] if after or at < 0 else None)


# A condition said not to be the cause: "it's not coeliac, thank God", "they ruled out Crohn's", "不是糖尿病".
_RULED_OUT = re.compile(
    r"(?:\b(?:not|isn't|wasn't|ruled out|rule out|negative for|no sign of|no)\s+(?:\w+\s+)?|不是|排除了?)$",
    _I,
)


@lru_cache(maxsize=256)  # (the constraints of one statement share its source: read once)
def _reasons(source: str) -> tuple[tuple[int, Reason], ...]:
    found: list[tuple[int, Reason]] = []
    for pattern in (_CONDITION_EN, _CONDITION_LETTERS, _KNOWN_ZH):
        found += [
            (m.start(), Reason(m.group(0), False))
            for m in pattern.finditer(source)
            if not _RULED_OUT.search(source, max(0, m.start() - 24), m.start())  # ("it's not coeliac")
        ]
    found += [(m.start(), Reason(m.group(0), True)) for m in _OBSERVANCE_EN.finditer(source)]
    for m in _CONDITION_ZH.finditer(source):
        if not _NOT_CONDITION_ZH.search(m.group("c")):
            found.append((m.start("c"), Reason(m.group("c"), False)))
    found += [(m.start(), Reason(m.group("c"), True)) for m in _RULE_ZH.finditer(source)]
    seen: set[str] = set()
    unique = []
    for start, reason in sorted(found, key=lambda pair: (pair[0], -len(pair[1].text))):
        if not any(reason.text in other or other in reason.text for other in seen):
            seen.add(reason.text)
            unique.append((start, reason))
    return tuple(unique)
