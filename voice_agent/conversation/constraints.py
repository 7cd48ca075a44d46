"""The person's constraints as checks on reply sentences (English and Chinese).

:func:`constraints_from_texts` reads what the person pinned ("my kid is allergic to nuts", "我吃素",
"never suggest sushi", "I hate cilantro") into :class:`Constraint` objects, each with the words that would
break it. :meth:`ConstraintSet.check` finds those words in a reply sentence and lets a mention pass when
it is negated or names the constraint itself: "nut-free", "without peanuts", "since your kid is allergic
to nuts", "不含坚果", "对花生过敏" are fine; "peanut butter cake" and "花生酱蛋糕" are not. Plain regular
expressions: microseconds per sentence, so the check never delays speech.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from voice_agent.conversation.avoid_said import avoid_explanation
from voice_agent.conversation.condition_said import condition_holds
from voice_agent.conversation.constraint_aversions import (
    ALL_BUT_ONE_ZH,
    DIET_TALK_ZH,
    EVEN_KEPT_OFF_ZH,
    HABIT_REFUSED_ZH,
    LIST_ALL_OFF_ZH,
    LIST_KEPT_OFF_ZH,
    SIGHT_AVERSION_ZH,
    TASTE_ZH,
    TOPIC_FIRST_ZH,
)
from voice_agent.conversation.constraint_body import body_matches
from voice_agent.conversation.constraint_described_kinds import described_kinds
from voice_agent.conversation.constraint_diagnosis import (
    ONE_THEN_EN,
    diagnosed,
    reaction_kind,
    reactions_after,
)
from voice_agent.conversation.constraint_diets import (
    DIET_ADVICE,
    DIET_FITS,
    DIET_SUGGESTION,
    DIETS,
    DRINKS_SOMETHING_ELSE,
    mentions_diet,
    negated_statement,
    something_without,
)
from voice_agent.conversation.constraint_disgust import as_dislikes
from voice_agent.conversation.constraint_examples import EVEN_ZH, listed_examples, titled_examples
from voice_agent.conversation.constraint_free_only import free_only_topics
from voice_agent.conversation.constraint_gave_up_zh import GAVE_UP_ZH
from voice_agent.conversation.constraint_gripes import gripes
from voice_agent.conversation.constraint_hyperbole import exaggerated_dislikes
from voice_agent.conversation.constraint_idioms import idiom_matches
from voice_agent.conversation.constraint_keys import one_per_key
from voice_agent.conversation.constraint_never_again import never_again
from voice_agent.conversation.constraint_no_items import NOT_A_THING_EN, refused_items
from voice_agent.conversation.constraint_objects import (
    LIST_TAIL_ZH,
    STRETCH_END,
    clean_object,
    head_of,
    list_parts,
    names_one_kind,
    narrower,
    phrase_terms,
    phrase_terms_zh,
    thing_of_flavour,
)
from voice_agent.conversation.constraint_outing_mentions import NOT_EATEN
from voice_agent.conversation.constraint_pronouns import with_antecedents
from voice_agent.conversation.constraint_reaction_sources import reaction_sources, triggers
from voice_agent.conversation.constraint_rules import (
    ALLERGY_BEFORE_EN,
    ALLERGY_BEFORE_ZH,
    ALLERGY_EN,
    ALLERGY_ZH,
    AVOID_EN,
    AVOID_HAVE_EN,
    AVOID_ZH,
    DESCRIBED_AFTER_ZH,
    DISLIKE_EN,
    NEVER_EN,
    described_head_zh,
    says_milder,
)
from voice_agent.conversation.constraint_severity import immune_reaction, severe_as_allergies
from voice_agent.conversation.constraint_shapes import (
    AND_ME_EN,
    AVOIDING_EN,
    AVOIDING_ZH,
    CANT_ABIDE_EN,
    DISGUSTS_EN,
    DROPPED_ZH,
    EXCEPT_ZH,
    FEUD_ZH,
    FINISHED_FOR_EN,
    FOOD_CONTEXT_EN,
    FOOD_TALK,
    GAVE_UP_EN,
    GAVE_UP_FOR_EN,
    KEEP_OFF_ZH,
    LIST_NOT_OK_ZH,
    LIST_REFUSED_ZH,
    NO_EVER_EN,
    NO_FOR_ME_EN,
    NOT_LIKE_EN,
    NOT_LIKE_REFUSES_EN,
    OUT_TOO_EN,
    SEVERE,
    TASTES_FOUL_EN,
    THING_CANT_EN,
    THING_FIRST_EN,
    THING_FIRST_ZH,
    THING_THEN_PRONOUN_EN,
    at_odds_topics,
    has_symptom,
    named_topics,
    symptom_matches,
)
from voice_agent.conversation.constraint_spoilt import SPOILT_EN
from voice_agent.conversation.constraint_term_match import excluded, terms_pattern
from voice_agent.conversation.constraint_terms import CONDITIONS, TOPICS, Topic, ZhTerm
from voice_agent.conversation.constraint_vow_pointed_zh import pointed_vows_zh
from voice_agent.conversation.negation import is_negated
from voice_agent.conversation.not_refusing import not_refusing_zh, without_non_causes
from voice_agent.text.apostrophes import plain_apostrophes, with_apostrophes
from voice_agent.text.cjk import has_han
from voice_agent.text.colour_names import names_a_look
from voice_agent.text.dialect_zh import mandarin_verbs
from voice_agent.text.plurals import singular

_I = re.IGNORECASE


@dataclass(frozen=True)
class Constraint:
    key: str  # "nuts", "diet:vegetarian", "avoid:horror movies"
    kind: str  # "allergy" | "intolerance" | "diet" | "avoid"
    noun_en: str
    noun_zh: str
    terms_en: tuple[str, ...]
    terms_zh: tuple[ZhTerm, ...]
    diet_en: str = ""  # "vegetarian" (diets only)
    diet_zh: str = ""
    source: str = ""  # the remembered sentence it came from

    def reminder(self, language: str) -> str:
        """One short first-person line for the prompt ("Remember: I am vegetarian.")."""
        return self.source

    def explanation(self, language: str) -> str:
        """The safe sentence said instead of a reply that would break it."""
        if self.kind not in ("allergy", "intolerance", "diet"):  # a dislike or a vow, in its own words
            return avoid_explanation(self.noun_en, self.noun_zh, self.source, language)
        if language == "zh":
            if self.kind in ("allergy", "intolerance"):
                word = "过敏" if self.kind == "allergy" else "不耐受"
                return f"你说过对{self.noun_zh}{word}，所以我会避免{self.noun_zh}。"
            return f"你说过你{self.diet_zh}，所以我会避免{self.noun_zh}。"
        if self.kind in ("allergy", "intolerance"):
            return f"You told me about the {self.kind} to {self.noun_en}, so no {self.noun_en}."
        return f"You told me you're {self.diet_en}, so no {self.noun_en}."

    def guidance(self, language: str, thing: str = "") -> str:
        """What to suggest, stated after a turn about food, drink or a recommendation: positive, and with
        what the person asked for when their words name it ("Suggest one cake without nuts."), so a
        small model answers the question and keeps the constraint."""
        if self.key in DIET_ADVICE:  # a fast: what fits it, not "without …"
            return DIET_ADVICE[self.key][language == "zh"]
        if thing:
            if language == "zh":
                return f"推荐一个不含{self.noun_zh.removesuffix('的')}的{thing}。"
            return f"Suggest one {thing} without {self.noun_en}."
        if language == "zh":
            if self.kind == "avoid":
                return f"推荐{self.noun_zh}以外的选择。"
            return f"只推荐不含{self.noun_zh.removesuffix('的')}的选择。"
        if self.kind == "avoid":
            return f"Suggest something other than {self.noun_en}."
        return f"Suggest only options without {self.noun_en}."

    def alternative(self, thing: str, language: str) -> str:
        """A suggestion that keeps the constraint, for the safe sentence: "I'd suggest a cake without
        nuts." (``thing``: what the person asked for, from their words, or "")."""
        if self.key in DIET_SUGGESTION:
            return DIET_SUGGESTION[self.key][language == "zh"]
        if self.key in DIET_FITS:
            fits = DIET_FITS[self.key][language == "zh"]
            if language == "zh":
                return f"我建议选{fits}{thing or '吃的'}，不含{self.noun_zh.removesuffix('的')}。"
            said = f"{'an' if fits[0] in 'aeiou' else 'a'} {fits} {thing}" if thing else f"something {fits}"
            return f"I'd suggest {said}, without {self.noun_en.replace(' and ', ' or ')}."
        if language == "zh":
            if self.kind == "avoid":  # a place, a pastime, an animal: not "不含狗的选择"
                return f"我建议避开{self.noun_zh}，换个别的{thing or '选择'}。"
            return f"我建议选不含{self.noun_zh.removesuffix('的')}的{thing or '选择'}。"
        if not thing:
            return f"I'd suggest {something_without(self.kind, self.noun_en)}."
        article = "an" if thing[0].lower() in "aeiou" else "a"
        return f"I'd suggest {article} {thing} without {self.noun_en}."

    def instruction(self, language: str) -> str:
        """The rule stated next to the turn when a reply is regenerated."""
        if language == "zh":
            return f"不要推荐任何含{self.noun_zh.removesuffix('的')}的东西。"
        return f"Do not suggest anything containing {self.noun_en}."


@dataclass(frozen=True)
class Violation:
    constraint: Constraint
    term: str  # the words that broke it, as written in the sentence
    sentence: str

    def to_json(self) -> dict[str, str]:
        return {"constraint": self.constraint.key, "kind": self.constraint.kind, "term": self.term}


@dataclass
class ConstraintSet:
    constraints: list[Constraint] = field(default_factory=list)
    _patterns: list[tuple[Constraint, re.Pattern[str]]] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self._patterns = [(c, _pattern(c)) for c in self.constraints]

    def __bool__(self) -> bool:
        return bool(self.constraints)

    def __len__(self) -> int:
        return len(self.constraints)

    def keys(self) -> list[str]:
        return [c.key for c in self.constraints]

    def check(self, sentence: str, context: str = "") -> Violation | None:
        """The first constraint ``sentence`` breaks, or None. ``context`` is what the reply already said
        before it in the same sentence (a first clause), so "without nuts, almonds or walnuts" split at a
        comma stays negated."""
        if not self._patterns or not sentence:
            return None
        sentence, context = plain_apostrophes(sentence), plain_apostrophes(context)
        joined = f"{context} {sentence}" if context else sentence
        offset = len(joined) - len(sentence)
        read = mandarin_verbs(joined)  # "硬是不恰鱼" is negated as "不吃鱼" is (same length, same offsets)
        for constraint, pattern in self._patterns:
            for match in pattern.finditer(joined, offset):
                if excluded(joined, match, constraint.terms_zh):
                    continue
                if not is_negated(read, match.start(), match.end(), pattern):
                    return Violation(constraint, match.group(0), sentence)
        return None


def constraints_from_texts(texts: Iterable[str]) -> ConstraintSet:
    """Every constraint stated in ``texts`` (remembered records, or the turn itself), deduplicated."""
    found: dict[str, Constraint] = {}
    for text in texts:
        for constraint in parse_constraints(text):
            found.setdefault(constraint.key, constraint)
    return ConstraintSet(list(found.values()))


def parse_constraints(text: str) -> list[Constraint]:
    """The constraints one remembered sentence states (none for an ordinary sentence)."""
    return list(_parsed(text))


@functools.lru_cache(maxsize=4096)
def _parsed(text: str) -> tuple[Constraint, ...]:
    """Read once per text: pinned records are read again every turn (constraints are frozen: shared)."""
    return tuple(_read(text))


def _read(text: str) -> list[Constraint]:
    out: list[Constraint] = []
    said, text = text, with_antecedents(mandarin_verbs(with_apostrophes(text)))
    lowered = text.lower()
    for_diets = DRINKS_SOMETHING_ELSE.sub(" ", lowered)  # "I don't drink coffee" is not "I don't drink"
    for key, (keys, diet_en, diet_zh, topics, noun_en, noun_zh) in DIETS.items():
        if any(mentions_diet(for_diets, k) for k in keys) and not negated_statement(for_diets, keys):
            out.append(_diet(key, (diet_en, diet_zh), topics, (noun_en, noun_zh), text))
    for condition, (topic, kind) in CONDITIONS.items():
        if condition_holds(lowered, condition):  # (not "他不恐高", nor "nearly gave me hypertension")
            out.append(_topic_constraint(TOPICS[topic], kind, text))
    read_zh: list[tuple[int, int]] = []  # ("对酸枝、紫檀那一类红木过敏": 紫檀 read whole, not 檀 before 过敏)
    for pattern, kind in (
        (ALLERGY_EN, "allergy"), (ALLERGY_BEFORE_EN, "allergy"), (ALLERGY_ZH, "allergy"),
        (ALLERGY_BEFORE_ZH, "allergy"), (AVOID_EN, "avoid"), (DISLIKE_EN, "avoid"), (NEVER_EN, "avoid"),
        (AVOID_ZH, "avoid"),
    ):  # fmt: skip
        for match in pattern.finditer(text):
            x_at = match.start("x")
            if (pattern is AVOID_ZH and not_refusing_zh(match)) or any(s < x_at < e for s, e in read_zh):
                continue
            read_zh += [match.span("x")] if pattern is ALLERGY_ZH else []
            stated = match.group(0)
            kind_here = "intolerance" if kind == "allergy" and says_milder(stated) else kind
            # "never take me camping": an activity, named by its -ing form; "吃不消就是普罗旺斯漫山遍野的那种
            # 紫颜色一串串的小花": a thing described, not named (a known topic in it only)
            described = DESCRIBED_AFTER_ZH.match(text, match.end("x")) if pattern is AVOID_ZH else None
            activity = pattern in (NEVER_EN, DISLIKE_EN)
            made = _object_constraints(match, kind_here, text, activity=activity, topics_only=bool(described))
            head = described_head_zh(described) if described and not made else None
            out.extend(made + ([_phrase_constraint(head, kind_here, text)] if head else []))
    out += _more_shapes(text)
    if not out:  # said another way, for a known topic only: "Dairy and me really don't get along"
        kind = "allergy" if SEVERE.search(text) else "intolerance"
        unwell = without_non_causes(text)  # ("不吃两回冷面都难受", "头痛到要吃芬必得")
        out += [
            _topic_constraint(topic, "avoid" if topic.key in NOT_EATEN else kind, text)
            for topic in at_odds_topics(unwell)
        ]
    read = {c.key for c in out}  # a known food named first and kept off, unless read: "猪肉一口不沾"
    for match in TOPIC_FIRST_ZH.finditer(text):
        more = _object_constraints(match, "avoid", text, own_words=True, topics_only=True)
        out += [c for c in more if c.key not in read]
    # (one rule read by two shapes is one: "I can't bear loud music"; an allergy, not also kept off)
    found = severe_as_allergies(as_dislikes(one_per_key(out + _examples(text, out)), text), text)
    # the source stays the person's own words (the reminder line and the pinned record match on it)
    return found if said == text else [replace(c, source=said) if c.source == text else c for c in found]


def _examples(text: str, stated: list[Constraint]) -> list[Constraint]:
    """The things named as examples of a rule ("…popcorn, toffees, the lot"), each of its kind."""
    kind = stated[0].kind if stated else "avoid"
    out: list[Constraint] = []
    for item in listed_examples(text):
        if any(_pattern(c).search(item) for c in stated):  # ruled out already ("sesame. Seeds, tahini")
            continue
        topics = named_topics(item.lower())
        if topics and not narrower(item, topics):
            out += [_topic_constraint(t, kind, text) for t in topics]
        else:
            key = f"{kind}:{singular(item.lower())}"
            out.append(Constraint(key, kind, item, item, phrase_terms(item.lower()), (), source=text))
    if stated:  # "连X也不行" is an example only beside a rule ("连周末也不行" is about time)
        for match in EVEN_ZH.finditer(text):  # (not one read already: "荞麦…连荞麦壳做的枕头都不能睡")
            if not any(_pattern(c).search(match.group("x")) for c in stated):
                out += _object_constraints(match, kind, text, own_words=True)
        for title in titled_examples(text):  # "…网红神曲，什么《小苹果》《套马杆》"
            out.append(Constraint(f"{kind}:{title}", kind, title, title, (), (ZhTerm(title),), source=text))
    return out


def _more_shapes(text: str) -> list[Constraint]:
    """Constraints stated by a symptom, by avoiding, with the thing first, or by giving a topic up."""
    out: list[Constraint] = []
    for match in [*symptom_matches(text), *triggers(text)]:
        out += _object_constraints(match, reaction_kind(match.group(0)), text, own_words=True)
    for pattern in (AVOIDING_EN, AVOIDING_ZH, CANT_ABIDE_EN):
        for match in pattern.finditer(text):
            out += _object_constraints(match, "avoid", text)
    even = EVEN_KEPT_OFF_ZH.finditer(text) if DIET_TALK_ZH.search(text) else ()
    out += [
        c for m in TASTE_ZH.finditer(text) for c in _part_constraints(m.group("taste") + "的", "avoid", text)
    ]
    for match in [*SIGHT_AVERSION_ZH.finditer(text), *LIST_KEPT_OFF_ZH.finditer(text), *even,
                  *LIST_ALL_OFF_ZH.finditer(text), *ALL_BUT_ONE_ZH.finditer(text)]:  # fmt: skip
        out += _object_constraints(match, "avoid", text, own_words=True)
    for match in refused_items(text):
        out += _object_constraints(match, "avoid", text, own_words=True)
    out += [_topic_constraint(t, "avoid", text) for t in pointed_vows_zh(text)]  # "那玩意儿我一滴都不碰了"
    for match, kind, known in body_matches(text):  # "his eczema just can't handle chlorine"
        out += _object_constraints(match, kind, text, own_words=True, topics_only=known)
    for match, kind in idiom_matches(text):  # "mint is my enemy", "跟青霉素犯冲", "done with crowdfunding"
        out += _object_constraints(match, kind, text, own_words=True, activity=True)
    kept_off = [*never_again(text), *exaggerated_dislikes(text)]  # "I'd sooner eat the tin"
    out += [c for thing in kept_off for c in _part_constraints(thing, "avoid", text, activity=True)]
    severe = SEVERE.search(text) is not None or reaction_kind(text) == "allergy"
    for key, reacted in described_kinds(text):  # "nothing that ever had a life", "土里长的都不碰"
        kind = ("allergy" if severe else "intolerance") if reacted else "avoid"
        out.append(_topic_constraint(TOPICS[key], kind, text))
    named = {c.key.split(":")[-1] for c in out}  # (a thing read already keeps the kind it was read with)
    for thing in diagnosed(text, reaction=severe or has_symptom(text)):  # "Doc reckons it's the hops"
        more = _part_constraints(thing, "allergy" if severe else "intolerance", text)
        out += [c for c in more if c.key.split(":")[-1] not in named]
    if has_symptom(text) or SEVERE.search(text):
        kind = "allergy" if SEVERE.search(text) else "intolerance"
        for match in [*AND_ME_EN.finditer(text), *reactions_after(text), *reaction_sources(text)]:
            out += _object_constraints(match, kind, text, own_words=True)
        for match in ONE_THEN_EN.finditer(text):  # ("one flat white and I'm blown up": a known thing only)
            out += _object_constraints(match, kind, text, own_words=True, topics_only=True)
    out += [
        _topic_constraint(TOPICS[key], "avoid", text) for key in free_only_topics(text)
    ]  # "decaf or nowt"
    for match in SPOILT_EN.finditer(text):  # "one rubbery bite of mushroom and my whole mood is spoilt"
        out += _object_constraints(match, "avoid", text, own_words=True)
    food_talk = FOOD_TALK.search(text) is not None
    cant = [
        m
        for m in THING_CANT_EN.finditer(text)
        if food_talk or m.group("verb").lower() not in ("do", "handle")
    ]
    no_for = [m for m in NO_FOR_ME_EN.finditer(text) if m.group("x").strip().lower() not in NOT_A_THING_EN]
    for match in [*cant, *no_for, *NO_EVER_EN.finditer(text), *GAVE_UP_FOR_EN.finditer(text),
                  *THING_FIRST_EN.finditer(text), *THING_THEN_PRONOUN_EN.finditer(text),
                  *TASTES_FOUL_EN.finditer(text), *THING_FIRST_ZH.finditer(text), *OUT_TOO_EN.finditer(text),
                  *KEEP_OFF_ZH.finditer(text), *LIST_REFUSED_ZH.finditer(text),
                  *LIST_NOT_OK_ZH.finditer(text), *FEUD_ZH.finditer(text), *gripes(text),
                  *HABIT_REFUSED_ZH.finditer(text), *EXCEPT_ZH.finditer(text)]:  # fmt: skip
        allergy = match.re is FEUD_ZH and immune_reaction(text)  # ("跟芒果八字相冲…嘴巴周围肿得像腊肠")
        out += _object_constraints(match, "allergy" if allergy else "avoid", text, own_words=True)
    if food_talk or NOT_LIKE_REFUSES_EN.search(text):
        for match in NOT_LIKE_EN.finditer(text):
            out += _object_constraints(match, "avoid", text, own_words=True)
    # a thing dropped from a plan is that thing, not what it is made of ("蛋糕就不买了" is no egg rule)
    out += [_phrase_constraint(m.group("x"), "avoid", text) for m in DROPPED_ZH.finditer(text)]
    food_context = FOOD_CONTEXT_EN.search(text) is not None
    for match in DISGUSTS_EN.finditer(text):
        out += _object_constraints(match, "avoid", text, own_words=True, topics_only=not food_context)
    topic_only = [*GAVE_UP_EN.finditer(text), *AVOID_HAVE_EN.finditer(text), *FINISHED_FOR_EN.finditer(text),
                  *GAVE_UP_ZH.finditer(text)]  # fmt: skip
    for match in topic_only:
        out += _object_constraints(match, "avoid", text, topics_only=True)
    return out


def _diet(
    key: str, names: tuple[str, str], topics: tuple[str, ...], nouns: tuple[str, str], source: str
) -> Constraint:
    parts = [TOPICS[t] for t in topics]
    return Constraint(
        f"diet:{key}", "diet", nouns[0], nouns[1],
        tuple(t for p in parts for t in p.terms_en), tuple(t for p in parts for t in p.terms_zh),
        names[0], names[1], source,
    )  # fmt: skip


def _object_constraints(
    match: re.Match[str],
    kind: str,
    text: str,
    *,
    own_words: bool = False,
    topics_only: bool = False,
    activity: bool = False,
) -> list[Constraint]:
    """The constraint(s) on what follows the verb: every known topic named in that stretch of the
    sentence ("nuts, especially peanuts" → nuts), else the phrase itself ("horror movies").
    ``own_words``: only the matched thing counts (it stands before the verb: "Dairy makes me sick");
    ``topics_only``: a phrase that names no known topic is no constraint ("I gave up my job")."""
    rest = text[match.start("x") :]
    end = STRETCH_END.search(rest)
    stretch = match.group("x") if own_words else (rest[: end.start()] if end else rest)
    if own_words and not topics_only and len(list_parts(match.group("x"))) > 1:
        # a list named first ("海鲜、羊肉、鹅肉、辣的都得忌"): each item its own topic, or its own words
        # (an item said with 的: "庙里的线香" is 线香, not the temple)
        parts = [head_of(part) for part in list_parts(match.group("x"))]
        return [c for part in parts for c in _part_constraints(part, kind, text)]
    topics = named_topics(stretch.lower()) or named_topics(thing_of_flavour(stretch.strip()).lower())
    narrow = names_one_kind(stretch if own_words else match.group("x"), topics, kind, own_words)
    if topics and kind == "avoid" and (narrow or names_a_look(stretch)):
        topics = []  # "blue cheese I cannot do": not every cheese; "奶乎乎的风格": a look, no milk
    phrase = clean_object(match.group("x"), activity=activity)
    if topics and (topics_only or "、" not in (phrase or match.group("x"))):  # (a list: each item below)
        return [_topic_constraint(t, kind, text) for t in topics]
    if topics_only:
        return []
    # "不能吃蚕蛹、蚂蚱这些虫子", "别给我安排什么看日出、赶早的行程": a list after the verb, each item its own
    # thing (the list as one phrase would match no reply)
    if not phrase or "、" in phrase:
        items = [
            _LIST_ITEM_LEAD_ZH.sub("", item)
            for item in list_parts(LIST_TAIL_ZH.sub("", phrase or match.group("x")))
        ]
        if len(items) > 1:
            return [c for part in items for c in _part_constraints(part, kind, text)]
    return [_phrase_constraint(phrase, kind, text)] if phrase else []


# Before an item of a list: "什么看日出" → 日出 (看, 去: the seeing, the going; the thing is what counts).
_LIST_ITEM_LEAD_ZH = re.compile(r"^(?:什么|啥|任何|那些|这些|那种|这种)?(?:[看去](?=..))?")


def _part_constraints(part: str, kind: str, text: str, activity: bool = False) -> list[Constraint]:
    topics = named_topics(part.lower()) or named_topics(thing_of_flavour(part.strip()).lower())
    if topics and not (kind == "avoid" and narrower(clean_object(part), topics)):
        return [_topic_constraint(t, kind, text) for t in topics]
    phrase = clean_object(part, activity=activity)
    return [_phrase_constraint(phrase, kind, text)] if phrase else []


def _phrase_constraint(phrase: str, kind: str, text: str) -> Constraint:
    zh = has_han(phrase)
    terms_en = () if zh else phrase_terms(phrase.lower())
    terms_zh = tuple(ZhTerm(term) for term in phrase_terms_zh(phrase)) if zh else ()
    return Constraint(f"{kind}:{phrase.lower()}", kind, phrase, phrase, terms_en, terms_zh, source=text)


def _topic_constraint(topic: Topic, kind: str, text: str) -> Constraint:
    return Constraint(topic.key, kind, topic.noun_en, topic.noun_zh, topic.terms_en, topic.terms_zh,
                      source=text)  # fmt: skip


def _pattern(constraint: Constraint) -> re.Pattern[str]:
    return terms_pattern(constraint.terms_en, constraint.terms_zh)
