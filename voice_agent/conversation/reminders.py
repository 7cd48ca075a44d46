"""Which remembered facts are restated right before the turn ("Remember: my kid is allergic to nuts.").

Small models follow what sits next to the turn, not what sits in a long system prompt. The line carries
the person's constraints (they matter whenever food, drink or plans come up, and breaking one harms the
person) and the pinned facts that retrieval found relevant to this turn, in the person's own first-person
words, newest first, at most a few.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from voice_agent.conversation.clinical import (
    MEDICAL_KINDS,
    clinical_note,
    clinical_turn,
    keeps_medicine_off,
    medicine_note,
    medicine_turn,
)
from voice_agent.conversation.constraints import Constraint, ConstraintSet, parse_constraints
from voice_agent.conversation.food_requests import FOOD_WORDS_EN, FOOD_WORDS_ZH, keeps_food_off
from voice_agent.conversation.liking_sentences import liking_sentence, someone_elses
from voice_agent.conversation.likings import says_liking
from voice_agent.conversation.revised_plans import without_revised
from voice_agent.conversation.suggestions import FOR_EXAMPLE, concrete_option
from voice_agent.memory.records import MemoryRecord
from voice_agent.text.cjk import HAN_CLASS, is_han

# A turn where a constraint may matter even when retrieval did not bring it up: food, drink, outings,
# anything asked to be recommended.
CONSTRAINT_TOPICS = re.compile(
    rf"\b(?:{FOOD_WORDS_EN}|kitchen|grocer\w*|recommend|suggest|ideas?|plan)\b|{FOOD_WORDS_ZH}|推荐|建议|点什么|做什么",
    re.IGNORECASE,
)
# A turn asking what to do or where to go: a "never take me to …" constraint (kind "avoid") matters for
# it though it names no food ("Never suggest karaoke" … "what should we do this weekend?").
OUTING = re.compile(
    r"\b(?:weekend|holiday|vacation|trip|getaway|get away|days? off|week off|free (?:day|time|evening|"
    r"afternoon|saturday|sunday)|outing|go out|night out|things to do|what (?:should|could|can|shall) "
    r"(?:i|we) do|where (?:should|could|can|shall) (?:i|we) (?:go|look|shop))\b|"
    r"周末|假期|放假|旅游|旅行|出去|出门|去哪|干点啥|干点什么|干什么好|做点什么|玩|放松|有空|休息日|下班后",
    re.IGNORECASE,
)
MAX_CONSTRAINTS = 3
MAX_RELEVANT_FACTS = 2


def turn_reminders(
    pinned: Sequence[MemoryRecord],
    recalled: Sequence[MemoryRecord],
    constraints: ConstraintSet,
    user_text: str = "",
) -> list[str]:
    """The texts for the reminder line: constraint statements first (when retrieval found them, or the
    turn is about food, drink or a recommendation), then relevant pinned facts."""
    pinned_by_id = {r.id: r for r in pinned if r.status == "active"}
    recalled_ids = {r.id for r in recalled}
    # (a clause of the pinned statement recalled counts as the statement: "Perfume, scented candles, air
    # fresheners…" is of "My wife can't tolerate strong scents. …")
    recalled_turns = {r.source for r in recalled if r.source}
    topical = bool(CONSTRAINT_TOPICS.search(user_text))
    pinned_texts = {
        r.text for r in pinned_by_id.values() if topical or r.id in recalled_ids or r.source in recalled_turns
    }
    all_texts = {r.text for r in pinned_by_id.values()}
    stated = [
        c.source
        for c in constraints.constraints
        if c.source in pinned_texts or (c.source in all_texts and _beyond_food(c, user_text))
    ]
    newest = sorted(pinned_by_id.values(), key=lambda r: -r.created_at)
    ordered_constraints = [r.text for r in newest if r.text in stated][:MAX_CONSTRAINTS]
    found = [r for r in recalled if r.id in pinned_by_id and r.status == "active"]
    shared = [r for r in newest if r not in found and _shares_a_word(r.text, user_text)]
    # Asked for a recommendation, what the person likes shapes it even when no word is shared ("My
    # favourite music is jazz." for "What concert should I look for?").
    # (or a list or a plan asked for, as ``liked_fact`` reads it: "你帮我开个书单" after "看书就只认武侠")
    liked = [r for r in newest if says_liking(r.text)] if _asks_recommendation(user_text) else []
    # a pinned plan or name that a later statement changed is not restated as it was
    chosen = without_revised(list(dict.fromkeys([*found, *shared, *liked])), [*pinned, *recalled])
    relevant = [r.text for r in chosen if r.text not in stated][:MAX_RELEVANT_FACTS]
    return list(dict.fromkeys([*ordered_constraints, *relevant]))


def turn_guidance(
    constraints: ConstraintSet,
    reminders: Sequence[str],
    user_text: str,
    language: str,
    *,
    specific: bool = True,
    example: bool = True,
) -> list[str]:
    """What to suggest given the constraints the reminder line restates, when the turn is about food,
    drink or a recommendation ("Suggest one cake without nuts."); for a request for advice with what the
    person likes restated, one specific thing that fits it, with the liking said again ("Suggest one
    specific book that fits this: I'm a huge fan of science fiction novels."; ``specific``); for other
    advice with facts restated, to answer with them in mind. ``example``: under constraints, a specific
    thing of the kind asked for that keeps them all follows ("For example: a lemon olive-oil cake.")."""
    speaking = "zh" if language == "zh" else "en"
    chosen = guided_constraints(constraints, reminders, user_text)
    if chosen and clinical_turn(user_text) and not CONSTRAINT_TOPICS.search(user_text):
        note = clinical_note(chosen, speaking)  # "Tell them first that you're allergic to penicillin."
        return [note] if note else []
    if chosen and medicine_turn(user_text) and not CONSTRAINT_TOPICS.search(user_text):
        note = medicine_note(chosen, speaking)  # "Suggest a medicine that is not ibuprofen, …"
        return [note] if note else []
    if chosen:
        thing = requested_thing(user_text)
        notes = list(dict.fromkeys(c.guidance(speaking, thing) for c in chosen))
        option = concrete_option(constraints, thing, user_text, speaking) if example else ""
        return [*notes, FOR_EXAMPLE[speaking].format(option=option)] if option else notes
    liked = liked_fact(reminders, user_text)
    # (for a plan or a list asked for, the liking is said back after the reply, not made its one thing)
    if specific and liked and (ASKS_ADVICE.search(user_text) or asks_for_suggestion(user_text)):
        thing = requested_thing(user_text) or FITS_ANY[speaking]
        return [FITS[speaking].format(thing=thing, liked=liked.rstrip())]
    if reminders and ASKS_ADVICE.search(user_text):
        return [MIND_WHAT_I_SAID[speaking]]
    return []


def _asks_recommendation(user_text: str) -> bool:
    """Whether the turn asks for advice, a suggestion, a plan or a list: what the person likes shapes it."""
    return bool(ASKS_ADVICE.search(user_text) or asks_for_suggestion(user_text) or asks_plan(user_text))


def liked_fact(reminders: Sequence[str], user_text: str) -> str:
    """The restated fact saying what the person likes, when the turn asks for a recommendation ("My
    favourite music is jazz." for "What concert should I look for?"), or ""."""
    if not _asks_recommendation(user_text):
        return ""
    # (not a statement that keeps the person off something: "木耳我吃不来…我老伴儿偏爱吃"; only the
    # sentence that says the liking, and not someone else's liking when the turn is not about them)
    for text in reminders:
        if says_liking(text) and not parse_constraints(text):
            sentence = liking_sentence(text)
            if not someone_elses(sentence, user_text):
                return sentence
    return ""


FITS = {
    "en": "Suggest one specific {thing} that fits this: {liked}",
    "zh": "推荐一个具体的{thing}，要符合这一点：{liked}",
}
FITS_ANY = {"en": "thing", "zh": "选择"}


def guided_constraints(
    constraints: ConstraintSet, reminders: Sequence[str], user_text: str
) -> list[Constraint]:
    """The remembered constraints that shape this turn's answer: those the reminder line restates, when
    the turn is about food, drink or a recommendation (at most a few)."""
    topical = bool(CONSTRAINT_TOPICS.search(user_text))
    order = {text: i for i, text in enumerate(reminders)}  # the reminder line's order: newest first
    # (a thing kept off, restated for a request for advice: "How can I make the living room feel cosy?"
    # after "she can't tolerate strong scents")
    advice = ASKS_ADVICE.search(user_text) is not None
    # (and a thing kept off that is no food, for a plan, a routine or a list asked for: an ice bath for a
    # recovery routine, eucalyptus oil for a spa day)
    plan = asks_plan(user_text)
    # (an allergy to no food or medicine shapes the advice too: feathers for "what should I look for in a
    # duvet, pillows…", latex, wool)
    shaping = [
        c for c in constraints.constraints
        if topical or _beyond_food(c, user_text) or (advice and c.kind == "avoid")
        or ((plan or (advice and c.kind in MEDICAL_KINDS)) and not keeps_food_off(c)
            and not keeps_medicine_off(c))
    ]  # fmt: skip
    chosen = sorted((c for c in shaping if c.source in order), key=lambda c: order[c.source])
    return chosen[:MAX_CONSTRAINTS]


def _beyond_food(constraint: Constraint, user_text: str) -> bool:
    """A "never …" constraint (kind "avoid") and a turn asking what to do or where to go; an allergy or
    an intolerance and a turn about a doctor, a dentist or a medicine, or asking which medicine to take
    (``clinical``)."""
    if constraint.kind in MEDICAL_KINDS:
        return clinical_turn(user_text) or medicine_turn(user_text)
    outing = bool(OUTING.search(user_text)) and bool(ASKS_ADVICE.search(user_text))
    return constraint.kind == "avoid" and outing


# A turn asking for advice or a suggestion (the facts restated for it should shape the answer).
ASKS_ADVICE = re.compile(
    r"\b(?:should (?:i|we)|could (?:i|we)|can (?:i|we)|shall (?:i|we)|recommend|suggest|ideas?|what kind of|"
    r"what (?:should|could|shall) (?:the (?:two|three|four) of us|both of us|the kids|the family) do|"
    r"where to|what to look (?:out )?for|when (?:choosing|picking) (?:a|an|the)|"
    # a plan asked for: "Can you make a plan for us?", "plan our trip", "给安排安排行程呗"
    r"(?:make|draw up|put together|work out) (?:(?:us|me) )?(?:a |an )?(?:plan|itinerary|schedule)|"
    r"plan (?:our|my|the|a) (?:trip|day|days|week|weekend|holiday|visit|stay)|"
    # "sketch out an itinerary", "Help me sort a gift", "Give me a couple of spots", "Pick me three plates",
    # "What are my options", "put together a week of outfits"
    r"itinerar(?:y|ies)|help (?:me|us) (?:sort|pick|choose|plan|find|figure out|work out|decide|"
    r"put together|come up with|think (?:of|up))|"
    r"(?:give|send|get) (?:me|us) (?:a |some |a few |a couple of |two |three )?(?:ideas?|"
    r"options|spots|places|plans?|suggestions|recommendations|picks)|pick (?:me|us)|"
    r"what are (?:my|our|the|his|her) options|"
    r"put together (?:a|an|some|the)|give (?:me|us) a plan)\b|行程|攻略|策划|"
    # ("啥时候拔最合适", "合不合适", "哪家合适呢"; not "提醒她穿合适的衣服")
    rf"(?:什么|啥|哪|几){HAN_CLASS}{{0,8}}合适|合不合适|合适(?:吗|嘛|么|呢|不)|"
    r"(?:帮|给)(?:我|俺|咱)(?:们)?(?:配|排|搭|挑|选|想|看看|安排|弄|整|张罗)|"
    rf"推荐|建议|(?:什么|啥){HAN_CLASS}{{0,6}}好|好呢|哪个好|应该|哪(?:儿|里)?(?:比较|最)?好|干点啥|(?:点|些)(?:什么|啥)|"
    # "你给出出主意？", "支个招"; Cantonese "你话我叫乜嘢好？", "去边度好"
    rf"出(?:个|出|点)?主意|支(?:个|支)?招|(?:乜嘢|乜|咩){HAN_CLASS}{{0,6}}好|边(?:度|个|间|样)好|点(?:算|揀|拣)好|"
    # "你给参谋参谋？", "帮我拿个主意", "想送他件像样的礼物" (a gift to choose)
    # "我一个人可以去干嘛比较好？", "那天下午玩啥好"
    r"(?:干嘛|干啥|做啥|做什么|干什么|玩什么|玩啥)(?:比较|最)?好|可以去?(?:干嘛|干啥|做啥|做什么|干什么|玩什么|玩啥)|"
    r"参谋|拿(?:个)?主意|(?:送|买|挑)(?:他|她|它|他们|她们|点|个|件|份|些)?[^，。！？!?]{0,6}?礼",
    re.IGNORECASE,
)
# A plan, a routine, a list or a way asked for, beyond ``ASKS_ADVICE``: "What should my recovery routine
# look like?", "What's the best way to do that commute?", "Make me a shopping list", "帮我列个计划",
# "有什么办法？", "咋解决最省事？". A thing the person keeps off that is no food matters for it (an ice
# bath for a recovery routine, glitter for nail designs, an e-scooter for the last mile).
_ASKS_PLAN = re.compile(
    r"\b(?:what (?:should|could|would) (?:my|our|the|his|her) \w+(?: \w+)? (?:look like|be)|"
    r"(?:the )?best way|what to do|what can (?:i|we) (?:do|ask for|take|use|try)|"
    r"what should (?:i|we) (?:put|pack|bring|book|ask for|wear|take)|"
    r"how (?:do|can|should) (?:i|we) (?:cope|survive|deal|manage|get through|prepare|handle)|routine|"
    r"shortlist|short list|plan (?:the|our|my|a|an|me a|us a) |"
    r"(?:plan|map|lay) (?:it|this|that|everything|things|the whole thing|the trip|the day) out|plan out|"
    r"(?:make|draw up|put together|give|sketch out|write) (?:me |us )?(?:a |an |some )?(?:[\w-]+ ){0,3}"
    r"(?:list|plan|routine|schedule|countdown|circuit|programme|program|workout|playlist|menu)|"
    r"design ideas|design (?:me |us )?(?:a|an|some|my|our)\b|"
    r"(?:帮|给)(?:我|俺|咱)(?:们)?(?:设计|搭配|搭一?套|配一?套)|"
    # a walk-through asked for: "give me a run-down of how to do the visit", "talk me through the day"
    r"run-?down|(?:walk|talk|take) (?:me|us) through|step[- ]by[- ]step|game plan|"
    # meals to cook and what to buy: "a week of easy galley dinners and a shopping list"
    r"(?:a|the|my|our) (?:shopping|grocery|packing) list|"
    r"(?:a|one) week(?:'s)? (?:worth )?of (?:[\w-]+ ){0,3}"
    r"(?:dinners|meals|lunches|breakfasts|suppers|recipes))|"
    # (the running order of a day: "从头到尾排个流程", "寿宴上都安排点儿什么环节")
    r"\brunning order|\border of (?:the day|events|service)|"
    # a list of what to have ready: "a checklist for the night before", "需要准备点嘛东西", "得备点儿什么"
    r"\bcheck-?list|\bwhat (?:do|will|would) (?:i|we) need\b|"
    r"(?:准备|备|带)(?:点|些|点儿)?(?:啥|什么|嘛|么子|咩)|"
    r"流程|环节|日程|议程|办法|计划|规划|怎么(?:办|解决|弄|整)|咋(?:办|解决|弄|整)|省事|(?:帮|给)(?:我|俺|咱)(?:们)?(?:列|定|规划|订|出)|"
    # a list to draw up: "你帮我开个书单", "拉个歌单", "排个片单"
    r"(?:开|列|拉|整|弄|排|写)(?:个|一个|张|一张|份|一份)?[^，。！？!?]{0,4}?(?:书单|歌单|片单|清单|菜单|单子)",
    re.IGNORECASE,
)


def asks_plan(user_text: str) -> bool:
    """Whether the turn asks for a plan, a routine, a list or a way of doing something (what a thing the
    person keeps off matters for, though it names no food; not any request for a suggestion: "Suggest
    a board game" gets no "With no horror movies")."""
    return _ASKS_PLAN.search(user_text) is not None


# A yes/no question ("Can I eat this?", "Should we leave now?"): "Yes." answers it.
_YES_NO = re.compile(
    r"^\s*(?:can|could|should|shall|may|is|are|do|does|will|would)\s+(?:i|we|you|it)\b", re.I
)
# (and a plan or a pick asked for: "Can you sketch out an itinerary", "Can you put together a week of
# outfits")
_NAMES_REQUEST = re.compile(
    r"\b(?:recommend|suggest|ideas?|itinerar(?:y|ies)|put together|help (?:me|us)|pick (?:me|us)|options)\b|"
    r"推荐|建议|策划|行程",
    re.I,
)
# An order to choose something: "Pick a movie for us", "Give me an idea for …", "帮我挑一部电影".
_CHOOSE_FOR_ME = re.compile(
    r"^\W*(?:(?:please|ok|okay|so|hey|now)[,\s]+)?(?:pick|choose|find|give me|name|think of|come up with|"
    r"plan)\b|(?:帮我|给我)(?:挑|选|找|想|推荐|安排|出个主意)",
    re.I,
)


def asks_for_suggestion(user_text: str) -> bool:
    """A turn asking for something to be suggested ("What should we do this weekend?", "去哪儿好？"),
    not a yes/no question: a bare word or a refusal is no answer to it."""
    if _CHOOSE_FOR_ME.search(user_text):
        return True
    if not ASKS_ADVICE.search(user_text):
        return False
    return not _YES_NO.search(user_text) or bool(_NAMES_REQUEST.search(user_text))


MIND_WHAT_I_SAID = {"en": "Answer with what I told you in mind.", "zh": "请结合我告诉你的情况回答。"}


_THING_EN = (
    re.compile(
        r"\b(?:recommend|suggest|pick|choose|find)\s+(?:me\s+|us\s+)?(?:a|an|some|one|any)\s+"
        r"(?P<x>[a-z]+(?:\s+[a-z]+)?)",
        re.I,
    ),
    re.compile(r"\b(?:what|which)\s+(?P<x>[a-z]+)\s+(?:should|could|can|shall|would)\b", re.I),
    re.compile(
        r"\b(?:for|make|cook|bake|order|have|prep)\s+(?:a\s+|an\s+|my\s+|our\s+|the\s+)?"
        r"(?:(?:work|school|packed|weekday|office|family|kids'?)\s+){0,2}(?P<x>dinner|lunch|"
        r"breakfast|brunch|dessert|snack|cake|meal|drink|supper)(?:e?s)?\b",
        re.I,
    ),
)
# "What should I drink?": the verb names the kind of thing asked for.
_THING_BY_VERB_EN = re.compile(
    r"\b(?:what|which)\s+(?:all\s+)?(?:should|could|can|shall)\s+(?:i|we)\s+(?P<x>drink|eat|cook)\b", re.I
)
_VERB_THINGS = {"drink": "drink", "eat": "dish", "cook": "dish"}
# ("我点点啥好": 点 to order; 麼个, 乜嘢, 咩: what, in Hakka and Cantonese)
_THING_BY_VERB_ZH = re.compile(
    r"(?P<x>吃|喝|做|食|(?<=[我俺咱们该要来])点)(?:点|些|个|下)?(?:什么|啥|麼个|么个|乜嘢|咩)"
)
_VERB_THINGS_ZH = {"吃": "菜", "喝": "饮品", "做": "菜", "食": "菜", "点": "菜"}
# What "什么…好" catches that names no thing: a purpose ("喝点什么提神好") or a degree ("比较好").
_NOT_A_THING_ZH = re.compile(
    r"^(?:提?提神|解渴|解腻|比较|最|更|合适|适合|好吃|好喝|好看|好玩|暖和|养生|减肥|推荐|建议|可以)"
)
_THING_STOP_EN = re.compile(r"\s+(?:for|to|that|which|with|at|on|in|i|we|tonight|today)\b.*$", re.I)
_THING_ZH = (
    re.compile(
        rf"(?:推荐|建议)(?:[一几两]?(?:个|款|种|道|份|部|本|首|杯|家|场|套|件|款)|点|些)?"
        rf"(?P<x>{HAN_CLASS}{{1,4}}?)(?:吧|吗|呢|给|$|[。？！?!，,])"
    ),
    re.compile(rf"什么(?P<x>{HAN_CLASS}{{1,3}}?)(?:(?:比较|最|更)?好|呢|吧|$|[。？！?!，,])"),
)
_VAGUE = frozenset(
    ("kind", "sort", "type", "thing", "things", "good", "nice", "time", "day", "what", "all", "else", "好",
     "we", "i", "you", "they", "he", "she", "us", "it",  # ("what we should taste": no thing named)
     "东西",
     "好吃", "的", "一下", "下", "一点", "点", "点儿", "些", "一些", "个", "几个", "啥", "什么", "呗", "嘛")
)  # fmt: skip
# A cup ordered names a drink: "楼下奶茶店点杯什么好？", "来杯啥".
_CUP_ZH = re.compile(r"(?:点|来|喝|要|买)(?:一|两|个)?杯|奶茶店|咖啡店|咖啡馆|茶馆|饮品店")


def requested_thing(user_text: str) -> str:
    """What the person asked to be suggested, from their words ("recommend a cake" → cake, "什么甜点好"
    → 甜点), or "" when the turn names nothing."""
    by_verb = _THING_BY_VERB_EN.search(user_text)
    if by_verb:
        return _VERB_THINGS[by_verb.group("x").lower()]
    drink_zh = _THING_BY_VERB_ZH.search(user_text)
    if (drink_zh and drink_zh.group("x") == "喝") or _CUP_ZH.search(user_text):
        return _VERB_THINGS_ZH["喝"]  # "喝点什么配包子？" asks for a drink, whatever follows
    for pattern in (*_THING_EN, *_THING_ZH):
        match = pattern.search(user_text)
        if match:
            thing = _THING_STOP_EN.sub("", match.group("x").strip()).lower()
            if (
                thing
                and thing not in _VAGUE
                and thing.split()[0] not in _VAGUE
                and not _NOT_A_THING_ZH.search(thing)
            ):
                return thing
    by_verb_zh = _THING_BY_VERB_ZH.search(user_text)  # "晚上吃什么好？" asks for a dish, "喝点什么" a drink
    if by_verb_zh and by_verb_zh.group("x") == "做" and not _COOKING_ZH.search(user_text):
        return ""  # (做 of a treatment: "做个头皮护理…做什么项目", no dish)
    return _VERB_THINGS_ZH[by_verb_zh.group("x")] if by_verb_zh else ""


_COOKING_ZH = re.compile(r"饭|菜|吃|厨|煮|炒|炖|蒸|烤|汤|点心|早餐|早点|宵夜|便当|零食|小食|餸")


_WORD = re.compile(rf"[a-z]{{3,}}|{HAN_CLASS}{{2}}", re.IGNORECASE)
_COMMON = frozenset(
    [
        "the",
        "and",
        "you",
        "your",
        "what",
        "when",
        "where",
        "which",
        "who",
        "how",
        "does",
        "did",
        "can",
        "could",
        "would",
        "should",
        "will",
        "this",
        "that",
        "with",
        "for",
        "from",
        "are",
        "was",
        "were",
        "have",
        "has",
        "had",
        "any",
        "some",
        "about",
        "again",
        "remember",
        "tell",
        "know",
        "like",
        "want",
        "need",
        "just",
        "please",
        "today",
        "tonight",
    ]
)


def _shares_a_word(record: str, turn: str) -> bool:
    """A pinned fact that names what the turn asks about ("my name", "the party", "我女儿")."""
    if not turn:
        return False
    record_words = {w.lower() for w in _WORD.findall(record)} | _bigrams(record)
    turn_words = {w.lower() for w in _WORD.findall(turn)} | _bigrams(turn)
    return bool((record_words & turn_words) - _COMMON)


@functools.lru_cache(maxsize=8192)
def _bigrams(text: str) -> frozenset[str]:
    han = "".join(ch for ch in text if is_han(ch))
    return frozenset(han[i : i + 2] for i in range(len(han) - 1))
