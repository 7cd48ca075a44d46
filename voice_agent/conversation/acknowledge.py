"""The reply's first clause names the constraint it keeps: "Since your kid is allergic to nuts, …".

Measured with the 0.5B default model: told a constraint ten turns earlier, it often answers beside the
question, says the question back or copies the note after the turn. The person who told us about the
allergy wants to hear first that we remembered it. So when a remembered constraint matters for this turn
(the same condition that puts "(Suggest one cake without nuts.)" after the turn), the engine says a short
clause built from the person's own statement, in the second person, before the LLM's words: at once, with
no LLM in between (it is also the reply's first audio), and through the same checks as every piece (the
constraint check here, the loopback check in the reply guard). The model then continues with the
suggestion.

Only this conversation's pinned records are used (the engine reads them for this conversation only), so a
kiosk never says another person's constraint. A statement that does not read well said back (an order
such as "never suggest sushi to me", a long or question-like sentence) gives a sentence from the
constraint's kind instead ("With no sushi, as you told me, ").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from voice_agent.conversation.clinical import (
    MEDICAL_KINDS,
    clinical_turn,
    keeps_medicine_off,
    medical,
    medicine_turn,
    tell_them,
)
from voice_agent.conversation.constraint_reasons import Reason, reason_for
from voice_agent.conversation.constraint_shapes import FOOD_TALK
from voice_agent.conversation.constraints import Constraint, ConstraintSet, parse_constraints
from voice_agent.conversation.food_requests import keeps_food_off, names_food
from voice_agent.conversation.refusals_zh import eaten_zh, none_of_it_zh, not_doing_zh
from voice_agent.conversation.reminders import ASKS_ADVICE, asks_plan
from voice_agent.conversation.scents import scent_matters
from voice_agent.conversation.suggestions import GROWING
from voice_agent.conversation.vow_said import vow_said
from voice_agent.text.cjk import HAN_RE
from voice_agent.text.placeholders import spoken_length
from voice_agent.text.sentences import join_spoken, sentences_of

_I = re.IGNORECASE
_MAX_CLAUSE_CHARS = {"en": 70, "zh": 24}
# Where a statement's clauses part: "My wife has celiac disease, so she can't eat gluten."
# (not the colon of a name's placeholder: "[NAME:4870…]")
_CLAUSE_CUT = re.compile(
    r"\s*(?:[,，;；。.!！?？：]|:(?![0-9a-f]+\])|\s(?:so|but|and so|because|which)\s)\s*", _I
)
# A statement that is an order to us, not a fact about the person: said back it would not read well.
_ORDER = re.compile(
    r"^\s*(?:please\s+)?(?:never|don't|do not|stop|avoid|no more|from now on)\b|^\s*(?:以后|今后|千万|请)?"
    r"(?:别|不要|永远不要|不许)",
    _I,
)
# A sentence with a second thought ("…, so she can't eat gluten"): only its constraint's clause is said.
_CONNECTIVE = re.compile(
    r"\b(?:so|but|because|although|though|since|which|who)\b|所以|但是|但|因为|不过|虽然", _I
)
_AFFECTS_ME_EN = re.compile(
    r"^[A-Za-z][a-z -]{1,30}\s+(?:makes?|keeps?|gives?|upsets?|triggers?)\s+(?:me|my)\b"
)
_FIRST_PERSON_EN = re.compile(r"^\s*(?:i|i'm|i've|my|we|we're|our)\b", _I)
_LEAD_EN = re.compile(r"^\s*(?:(?:actually|oh|well|so|also|by the way|btw|and|just so you know|fyi|"
                      r"(?:it )?turns out(?: that)?|apparently|guess what)[,\s]+)+",
                      _I)  # fmt: skip
_SWAP_EN = {
    "i": "you", "i'm": "you're", "i've": "you've", "i'll": "you'll", "i'd": "you'd", "me": "you",
    "my": "your", "mine": "yours", "myself": "yourself", "we": "you", "we're": "you're",
    "we've": "you've", "our": "your", "ours": "yours", "us": "you", "am": "are", "ourselves": "yourselves",
}  # fmt: skip
_ZH_SWAP = (("咱们", "你们"), ("我们", "你们"), ("我", "你"))
_HAN = HAN_RE


@dataclass(frozen=True)
class Acknowledgement:
    # said first, ending with a comma and a space ("Since you're vegan, "), or a sentence of its own
    # ("Tell them first that you're allergic to penicillin. ")
    text: str
    constraint: Constraint  # the constraint it names
    said_back: bool  # True: built from the person's own words; False: from the constraint's kind
    # the person's words as a clause ("Since your kid is allergic to nuts, "), when ``text`` says more
    # ("You told me …, so no nuts. "): the model saying that clause again is not said twice either
    clause: str = ""


def acknowledgement(
    guided: Sequence[Constraint], constraints: ConstraintSet, language: str, user_text: str
) -> Acknowledgement | None:
    """The clause that opens the reply for the constraints guiding this turn (``guided``: those of this
    conversation that the turn guidance names, newest first), or None when there are none, the turn is
    not the person asking about something the constraint is about (:func:`concerns`), or no clause would
    pass the constraint check."""
    speaking = "zh" if language == "zh" else "en"
    if clinical_turn(user_text) and not names_food(user_text):
        told = medical(guided)  # a visit to a doctor or a dentist: a sentence of what to tell them
        text = tell_them(told, speaking)
        if text and constraints.check(text) is None:
            return Acknowledgement(text, told[0], False)
        return None
    # (a condition is named before a diet, and a diet before what it rules out: "Since you told me about
    # the gestational diabetes", not "Since you're pregnant"; "Since Gerald's on a soft diet", not
    # "With no nuts"; but an allergy before all: "I'm allergic to groundnuts … and my blood pressure's up"
    # is acknowledged by the allergy)
    # (and for a turn about no food, a thing kept off that is no food before one that is: for a trip
    # plan, "这辈子我再跟团…", not "我妈那血糖…得盯着她少吃点甜的")
    food_turn = names_food(user_text)

    def off_topic(c: Constraint) -> bool:
        # (a vegan's rule is on what is worn too: "a winter coat" is on topic)
        return not food_turn and keeps_food_off(c) and not _on_animal_stuff(c, user_text)

    concerned = sorted(
        (c for c in guided if concerns(c, user_text)),
        key=lambda c: (
            off_topic(c),
            c.kind != "allergy",
            condition_named(c, speaking) is None,
            c.kind != "diet",
            # (the kind before the things it covers: "no caffeine", not "no coffee", of "no coffee, no tea")
            not any(o is not c and o.source == c.source and _inside(o, c, speaking) for o in guided),
        ),
    )
    for constraint in concerned[:1]:
        clause = own_words(constraint, speaking)
        said = clause
        if said and constraint.kind in ("avoid", "allergy", "intolerance") and speaking == "en":
            said = _none_of_it(said, constraint)
        elif said and constraint.kind == "avoid":  # (a Chinese allergy's words say it: "对坚果过敏，")
            said = none_of_it_zh(said, constraint)
        if said and constraints.check(said) is None:
            return Acknowledgement(said, constraint, True, clause if said != clause else "")
        vow = vow_said(constraint) if speaking == "zh" and not said else ""  # "你说过这辈子再也不骑车了，"
        if vow and constraints.check(vow) is None:
            return Acknowledgement(vow, constraint, True)
        if not said:
            # (with the known things kept off beside it, not the examples that go on naming it: "hates
            # olives. Green, black, kalamata, doesn't matter")
            beside = [
                c
                for c in concerned
                if c.source == constraint.source and ":" not in c.key and not off_topic(c)
            ]
            listed = leaving_out([constraint, *(c for c in beside if c is not constraint)], speaking)
            if listed and constraints.check(listed) is None:
                return Acknowledgement(listed, constraint, False)
        for make in (from_kind, _without_reason):  # (the latter when naming the reason would break a rule)
            text = make(constraint, speaking)
            if text and constraints.check(text) is None:
                return Acknowledgement(text, constraint, False)
    return None


_THE = re.compile(r"^the\s+", _I)
_YOU_WAS = re.compile(r"\byou was(n't)?\b")
_NOT_A_NOUN = re.compile(r"(?:got|have|has|had|be|been|get|do|did|eat|make|one|some|any)\b", _I)


def _known_kind(constraint: Constraint) -> bool:
    """Whether ``constraint`` is of a known topic ("nuts", "dairy"), not a phrase read from the person's
    words ("allergy:latex", "avoid:thai massage")."""
    return ":" not in constraint.key


def _none_of_it(said: str, constraint: Constraint) -> str:
    """A dislike, a vow or an allergy of a known kind said back with what it keeps off ("You told me you
    can't stand okra, so no okra. "): the person hears the thing left out, not only their words; ``said``
    as it was when it names the thing with "no" or "without" already, or the thing is no plain noun."""
    noun = constraint.noun_en
    if constraint.kind != "avoid" and not _known_kind(constraint):  # (an allergy of no known kind: its words)
        return said
    if not noun or _HAN.search(noun) or _NOT_A_NOUN.match(noun):
        return said
    if re.search(rf"\b(?:no|without)\b[^,]*\b{re.escape(noun)}\b", said, _I):
        return said
    return f"You told me {said.removeprefix('Since ').rstrip(', ')}, so no {_THE.sub('', noun)}. "


def _without_reason(constraint: Constraint, language: str) -> str:
    return from_kind(constraint, language, reason=False)


# What a constraint on food or drink is about, and a turn that is the person asking (not "How do plants
# drink water?"): the acknowledgement is said only then. Narrower than the turn guidance's topics on
# purpose ("Suggest a board game" gets no "Since you're vegan").
_ASKING_EN = re.compile(r"\b(?:i|me|my|we|us|our|you|your|recommend|suggest)\b", _I)
_ASKING_ZH = re.compile(r"推荐|建议|什么|啥|么子|乜|咩|哪|我|咱|俺|帮|给")
_NOUN_WORD = re.compile(r"[a-z]{3,}", _I)
_WHAT_TO_DO = re.compile(
    r"\bwhat (?:should|could|can|shall) (?:i|we) do\b|\bthings to do\b|"
    r"\bwhere (?:should|could|can|shall) (?:i|we) (?:go|look|shop|take)\b|"
    # getting a room or a day ready: "How can I make the living room feel cosy for them?"
    r"\bhow (?:should|could|can|shall|do) (?:i|we) (?:make|decorate|set up|get|prepare|dress up|do up)\b|"
    # a job done by hand: "How do I clear it and get it ready to plant?"
    r"\bhow (?:should|could|can|shall|do) (?:i|we) (?:clear|tidy|tackle|sort out|dig|prune|trim|clean|build|"
    r"fix|repair|strip|sand|lay)\b|"
    # a plan asked for: "Can you help me plan the evening?", "How would you route it?", "怎么安排比较好"
    r"\b(?:help (?:me|us) )?plan (?:the|our|my|a|an|this|me)\b|\bhow (?:should|would|could) (?:you|i|we) "
    r"(?:route|plan|organi[sz]e|arrange)\b|\b(?:days away|weekend away|week away|short break|getaway)\b|"
    r"做点什么|干点啥|干什么好|玩什么|去哪|行程|怎么布置|怎么装饰|怎么安排|帮我安排|给(?:我)?安排",
    _I,
)


# One thing of a named kind asked for ("Suggest a board game for a rainy day", "推荐一部电影"): a thing kept
# off of another kind (horror movies, kayaks) is not what it is about.
_ONE_THING = re.compile(
    r"^\W*(?:(?:can|could|would) you\s+|please\s+)?(?:suggest|recommend|name|pick)\s+(?:me\s+|us\s+)?"
    r"(?:a|an|one|some|a good|a fun)\s+[\w-]+(?:\s+[\w-]+)?(?:\s+(?:for|to|that|i|we)\b[^.?!]*)?[.?!]?\s*$|"
    r"^\W*(?:推荐|介绍|说)(?:一|几)(?:个|部|本|款|首|种)",
    _I,
)


def _open_advice(user_text: str) -> bool:
    """A turn asking for advice that is not one thing of a named kind (``_ONE_THING``): "…long weekend
    in Noosa, what should we get up to?", "Where should we stay?", "Any ideas?"."""
    return ASKS_ADVICE.search(user_text) is not None and not _ONE_THING.search(user_text)


# What comes off an animal that clothes and furniture are made of, and a turn about such things.
_ANIMAL_STUFF = re.compile(
    r"\b(?:leather|wool|woollen|woolen|silk|fur|down|suede|cashmere|feathers?)\b|皮革|真皮|羊毛|真丝|羽绒|皮草",
    re.I,
)
_MADE_THINGS = re.compile(
    r"\b(?:coat|jacket|shoes|boots|trainers|sneakers|handbag|belt|wallet|sofa|couch|fabric|lining|jumper|"
    r"sweater|scarf|gloves|duvet|pillows?|upholstery|suit|blazer)\b|外套|大衣|面料|皮鞋|皮包|沙发|被子|围巾|西装",
    re.I,
)


def _on_animal_stuff(constraint: Constraint, user_text: str) -> bool:
    """Whether a vegan's rule, or animal stuff kept off, meets a turn about what to wear or sit on."""
    animal = constraint.key == "diet:vegan" or _ANIMAL_STUFF.search(constraint.noun_en) is not None
    return animal and _MADE_THINGS.search(user_text) is not None


def concerns(constraint: Constraint, user_text: str) -> bool:
    """Whether this turn asks about what ``constraint`` is about: a question or request of the person's
    about food or drink, or for a constraint on something else ("never suggest horror movies"), a turn
    naming it ("recommend a movie")."""
    if not (_ASKING_EN.search(user_text) or _ASKING_ZH.search(user_text)):
        return False
    if constraint.key.startswith("avoid:") and not _HAN.search(constraint.noun_en):
        words = {w.lower().rstrip("s") for w in _NOUN_WORD.findall(constraint.noun_en)}
        turn = {w.lower().rstrip("s") for w in _NOUN_WORD.findall(user_text)}
        if words & turn:
            return True
    if constraint.kind in MEDICAL_KINDS and medicine_turn(user_text):  # "What can I take for the pain?"
        return True
    # a "never …" about no food, and a turn asking what to do ("…charity challenge. What should I do?")
    if (
        constraint.kind == "avoid"
        and _WHAT_TO_DO.search(user_text)
        and not FOOD_TALK.search(constraint.source)
    ):
        return True
    # a thing kept off that is no food (an ice bath, glitter, eucalyptus oil), and a turn asking for a
    # plan, a routine, a list or a way: "What should my recovery routine look like?"
    # (the turn first: the statement's sentences are read only for a turn that asks for a plan)
    # (or for advice on no food: "…long weekend in Noosa, what should we get up to?" after a vow never to
    # get in a kayak again, "Where should we stay?" after one about caravans)
    if (
        (asks_plan(user_text) or (_open_advice(user_text) and not names_food(user_text)))
        and not keeps_food_off(constraint)
        and not keeps_medicine_off(constraint)
        and not FOOD_TALK.search(stating_clauses(constraint))
    ):
        return True
    # a vegan's rule, or animal stuff kept off, and a turn about what to wear or sit on: a winter coat's
    # fabric and lining after "I went vegan … no leather shoes, no wool jerseys"
    if _on_animal_stuff(constraint, user_text):
        return True
    # a food kept off, and a turn about what to grow: "What should I plant?" after "I can't stand zucchini"
    if keeps_food_off(constraint) and GROWING.search(user_text):
        return True
    # a smell the person cannot bear, and a turn about things put on or burnt: hair products after "cannot
    # tahan the smell of coconut", candles after "the smell of lavender makes me gag"
    if scent_matters(stating_clauses(constraint), user_text):
        return True
    return names_food(user_text)


def stating_sentences(constraint: Constraint) -> str:
    """The sentences of the person's statement that state ``constraint`` ("一喝绿茶就胃疼…" without the
    story after it, "上回客户送了两盒明前龙井…"); the whole statement when no one sentence states it."""
    source = constraint.source.strip()
    sentences = sentences_of(source)
    stating = [s for s in sentences if constraint.key in {c.key for c in parse_constraints(s)}]
    return join_spoken(*stating) if stating and len(stating) < len(sentences) else source


_GOES_ON = re.compile(r"^(?:especially|particularly|mainly|mostly|including|even|尤其|特别是|包括|连)", _I)


def stating_clauses(constraint: Constraint) -> str:
    """Of the sentences that state ``constraint``, only the clauses that do, when some clause does
    ("我对羊毛过敏，" without "穿上羊毛衫没一会儿脖子就起一片红疹子…": said back, the story names the thing
    as worn)."""
    sentences = stating_sentences(constraint)
    clauses = [c.strip() for c in re.split(r"[，,；;]", sentences) if c.strip()]
    stating = [
        c
        for i, c in enumerate(clauses)
        if constraint.key in {p.key for p in parse_constraints(c)}
        # (and what goes on naming it: "…allergic to nuts, especially peanuts")
        or (i and _GOES_ON.match(c) and constraint.key in {p.key for p in parse_constraints(clauses[i - 1])})
    ]
    if not stating or len(stating) == len(clauses):
        return sentences
    joined = ("，" if _HAN.search(sentences) else ", ").join(stating)
    return joined.rstrip("。.！!") + ("。" if _HAN.search(sentences) else ".")


def own_words(constraint: Constraint, language: str) -> str:
    """The clause of the person's statement that states ``constraint``, said back ("Since your kid is
    allergic to nuts, " / "因为你家小孩对坚果过敏，"), or "" when it would not read well."""
    source = constraint.source.strip()
    if not source or bool(_HAN.search(source)) != (language == "zh"):
        return ""
    whole = _LEAD_EN.sub("", source.rstrip("。.！!"))  # ("So it turns out my youngest … ": no "so" clause)
    if not _CONNECTIVE.search(whole) and not re.search(r"[。.！!?？]", whole):  # one plain sentence
        said = _second_person(whole, language)  # "Since you like tea and never drink coffee, "
        if said:
            return said
    for clause in (c for c in _CLAUSE_CUT.split(source) if c.strip()):
        if constraint.key not in {c.key for c in parse_constraints(clause)}:
            continue
        if language == "zh" and "我" not in clause and source.startswith("我"):
            # "我喜欢喝茶，不喝咖啡。": the person is the subject here too; "我爸今年刚退休，单位体检查出来
            # 二型糖尿病": and here their father
            clause = _SUBJECT_ZH.match(source).group(0) + clause.strip()  # type: ignore[union-attr]
        return _second_person(clause, language)
    return ""


# Someone of the person's, after "我": "我爸", "我家老大", "我老伴儿".
_KIN_ZH = (
    r"(?:爸|妈|老公|老婆|婆婆|公公|岳父|岳母|老伴儿?|儿子|女儿|闺女|爷爷|奶奶|姥姥|姥爷|外公|外婆|哥|姐|弟|妹|"
    r"家(?:老大|老二|小孩|孩子|宝宝|闺女|儿子|那口子))"
)
# Who the first clause is about: the person, or someone of theirs.
_SUBJECT_ZH = re.compile(rf"我{_KIN_ZH}?")


def _second_person(text: str, language: str) -> str:
    """``text`` (the person's first-person words) as the opening clause, or "" when it is an order, too
    long, or not about the person."""
    body = text.strip()
    # (a name's placeholder is as long as a name when said: "My husband [NAME:…] has IBS and …")
    if _ORDER.search(body) or spoken_length(body) > _MAX_CLAUSE_CHARS[language]:
        return ""
    if language == "zh":
        if not body.startswith(("我", "咱")):
            return ""
        for mine, yours in _ZH_SWAP:
            body = body.replace(mine, yours)
        return f"因为{body}，"
    body = _LEAD_EN.sub("", body)
    if not _FIRST_PERSON_EN.search(body) and not _AFFECTS_ME_EN.search(body):
        return ""
    if _AFFECTS_ME_EN.search(body) and not body.startswith("I"):
        body = body[0].lower() + body[1:]  # "Dairy makes me sick" → "Since dairy makes you sick, "
    swapped = re.sub(r"[A-Za-z']+", lambda m: _SWAP_EN.get(m.group(0).lower(), m.group(0)), body)
    swapped = _YOU_WAS.sub(lambda m: "you were" + (m.group(1) or ""), swapped)  # ("since I was small")
    return f"Since {swapped}, "


def condition_named(constraint: Constraint, language: str = "en") -> Reason | None:
    """The reason the person named for the constraint (a condition, a fast, a family's rule:
    ``constraint_reasons``), or None when they named none."""
    words = (constraint.noun_en, constraint.noun_zh, *constraint.terms_en[:12])
    # (an allergy told before a condition is its own reason: "allergic to groundnuts … that team wants to
    # kill me with high blood pressure")
    return reason_for(constraint.source, words, language, after=constraint.kind != "allergy")


def from_kind(constraint: Constraint, language: str, *, reason: bool = True) -> str:
    """A clause naming the constraint from its kind, when the person's words cannot be said back: the
    reason they named for it first, when there is one (``reason``)."""
    named = condition_named(constraint, language) if reason else None
    if named is not None and not (named.rule and constraint.kind == "diet" and constraint.diet_en):
        return named.clause(language)  # (a fast kept by a diet's name: "Since you're fasting for Ramadan")
    # (someone else's diet is not said as the person's: "Since they're keeping Ital", of a friend's)
    own_diet = constraint.kind == "diet" and not _someone_elses(constraint, language)
    if language == "zh":
        if constraint.kind in ("allergy", "intolerance"):
            word = "过敏" if constraint.kind == "allergy" else "不耐受"
            said = "乳糖" if (constraint.key, word) == ("dairy", "不耐受") else said_noun(constraint, "zh")
            return f"因为你说过对{said}{word}，"
        if own_diet and constraint.diet_zh:
            return f"因为你{constraint.diet_zh}，"
        diet = constraint.kind == "diet" and constraint.diet_zh
        kin = re.search(rf"我({_KIN_ZH})", stating_sentences(constraint)) if diet else None
        if kin:  # (someone else's diet, said as whose: "因为你妈吃素，")
            return f"因为你{kin.group(1)}{constraint.diet_zh}，"
        if not eaten_zh(constraint):  # (a thing to do or to use: "不用网盘", not "避开网盘")
            return f"按你说的，{not_doing_zh(constraint.noun_zh, constraint.source)}，"
        return f"按你说的，避开{constraint.noun_zh}，"
    if constraint.kind in ("allergy", "intolerance"):
        noun = said_noun(constraint, language)
        if _known_kind(constraint):  # (what it keeps off said plainly)
            return f"You told me about the {constraint.kind} to {noun}, so no {constraint.noun_en}. "
        return f"Since you told me about the {constraint.kind} to {noun}, "
    if constraint.kind == "diet" and constraint.diet_en:
        return f"Since {'you' if own_diet else 'they'}'re {constraint.diet_en}, "
    return f"With no {_THE.sub('', constraint.noun_en)}, as you told me, "  # (not "With no the cinema")


def said_noun(constraint: Constraint, language: str) -> str:
    """The person's own word for what a known topic's allergy keeps off, when they named one of its terms
    with the allergy ("医生说是虾过敏" is 虾, not 海鲜; "allergic to prawns" is prawns), else its noun."""
    source = constraint.source
    if language == "zh":
        for zh in constraint.terms_zh:
            if re.search(rf"{re.escape(zh.text)}(?:严重|特别|很)?(?:过敏|不耐受)", source):
                return zh.text
        return constraint.noun_zh
    for term in constraint.terms_en:
        said = re.search(
            rf"\b(?:allergic|allergy|intolerant|intolerance)\s+to\s+(?:\w+\s+)?({re.escape(term)}(?:e?s)?)\b|"
            rf"\b({re.escape(term)})\s+(?:allergy|intolerance)\b",  # ("I've a wheat intolerance")
            source,
            re.IGNORECASE,
        )
        if said:
            return (said.group(1) or said.group(2)).lower()
    return constraint.noun_en


_THIRD_PERSON_EN = re.compile(
    r"\b(?:he|she|he's|she's|his|her|hers|they|they're|their|my (?:husband|wife|partner|boyfriend|girlfriend|"
    r"son|daughter|kid|kids|mum|mom|mother|dad|father|sister|brother|friend|mate|flatmate|roommate|nan|gran|"
    r"grandma|grandad|grandpa|aunt|auntie|uncle|cousin|boss|colleague|neighbou?r|in-laws?|mother-in-law|"
    r"father-in-law))\b",
    _I,
)
_FIRST_PERSON_ANY_EN = re.compile(r"\b(?:i|i'm|i've|i'd|we|we're|we've)\b", _I)
_THIRD_PERSON_ZH = re.compile(rf"他|她|^我{_KIN_ZH}")


def _someone_elses(constraint: Constraint, language: str) -> bool:
    """Whether the statement of ``constraint`` is about someone else: "My flatmate's gone full Hare
    Krishna … she's just taken initiation", "我婆婆吃长素"."""
    stating = stating_sentences(constraint)
    if language == "zh":
        return _THIRD_PERSON_ZH.search(stating) is not None
    return _THIRD_PERSON_EN.search(stating) is not None and _FIRST_PERSON_ANY_EN.search(stating) is None


def leaving_out(constraints: Sequence[Constraint], language: str) -> str:
    """One clause for the things a statement keeps off together ("no meat, no eggs, no onion or garlic":
    "With no meat, no eggs and no onion, as you told me, "), or "" for fewer than two, or when a reason named
    for them says it better ("Since you're fasting for Ramadan")."""
    kept_off = [c for c in constraints if c.kind == "avoid" and condition_named(c, language) is None]
    if len(kept_off) < len(constraints):
        return ""
    # (one named inside another is said once: "olives", not "olives and kalamata")
    named = [c for c in kept_off if not any(o is not c and _inside(c, o, language) for o in kept_off)]
    nouns = list(dict.fromkeys(c.noun_zh if language == "zh" else c.noun_en for c in named))[:4]
    if len(nouns) < 2:
        return ""
    if language == "zh":
        return f"按你说的，不推荐{'、'.join(nouns)}，"
    return f"With no {', no '.join(nouns[:-1])} and no {nouns[-1]}, as you told me, "


def _inside(narrow: Constraint, wide: Constraint, language: str) -> bool:
    if language != "zh":
        noun = narrow.noun_en.lower()
        return any(re.search(rf"\b{re.escape(t)}", noun) for t in wide.terms_en)
    # (not a word that only starts like it: "鸡蛋" is no "鸡")
    return any(
        t.text in narrow.noun_zh and not any(t.text + after in narrow.noun_zh for after in t.not_after)
        for t in wide.terms_zh
    )


# A first piece from the model that adds nothing after the acknowledgement ("Sure!", "好的！").
_INTERJECTION = re.compile(
    r"^\s*(?:sure|of course|certainly|okay|ok|absolutely|great|yes|no problem|got it|"
    r"好的|当然|没问题|可以|好)\s*[!！.。,，]?\s*$",
    _I,
)
_KEEP_CAPITAL = re.compile(r"^(?:I\b|I'|[A-Z]{2,}\b)")


def continues(piece: str, *, mid_sentence: bool = True) -> str:
    """The model's first piece as it follows the acknowledgement: "" when it only says "Sure!", else
    with its first letter lowered, as it no longer starts the sentence ("A chocolate cake" → "a…"; "I"
    and acronyms keep theirs), unless the acknowledgement was a sentence of its own (``mid_sentence``)."""
    if _INTERJECTION.match(piece):
        return ""
    if mid_sentence and piece[:1].isupper() and not _KEEP_CAPITAL.match(piece):
        return piece[0].lower() + piece[1:]
    return piece
