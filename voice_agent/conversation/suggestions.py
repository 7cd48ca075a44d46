"""Concrete suggestions that keep the person's constraints, for when the model's own words fail.

"I'd suggest something without caffeine." names the constraint but gives the person nothing to try.
When a reply is regenerated, or replaced by the safe sentence, a specific thing of the kind the person
asked for ("a cup of chamomile tea", "黄瓜条和小番茄") is named instead: the first option of that kind
that passes every constraint. An option is checked by its words and by what it is made of (``contains``:
a sponge cake has eggs and flour, so it is never offered to someone allergic to eggs or off gluten),
with the same constraint check the reply guard uses, so a suggestion never breaks what the person said.

The kinds are everyday requests (several dishes for guests, juice, a salad, what to take at a buffet, how to
get somewhere, a venue, a cake, a snack, a soup, a drink, breakfast, a dish for dinner, a sauce, fruit,
something for the grill, a side dish, lunch on the go, a hot pot, a film, a book, an outing, a pizza, a
curry, pasta or noodles, something to bake, a trip, a filling); a request of another kind gets no option,
and the caller falls back to naming the constraint.
"""

from __future__ import annotations

import re

from voice_agent.conversation.constraint_diets import DIET_FITS, DIET_SUGGESTION
from voice_agent.conversation.constraints import ConstraintSet
from voice_agent.conversation.place_names_zh import CITY_PATTERN
from voice_agent.conversation.suggestion_cuisines import cuisine_kind
from voice_agent.conversation.suggestion_kinds import KINDS, Option, RequestKind
from voice_agent.conversation.suggestion_pastimes import EVENING, PASTIMES
from voice_agent.conversation.writing import WRITES_TO
from voice_agent.text.cjk import HAN_CLASS

__all__ = [
    "EXAMPLE",
    "FOR_EXAMPLE",
    "KINDS",
    "SUGGEST",
    "Option",
    "RequestKind",
    "concrete_option",
    "request_kind",
]

_I = re.IGNORECASE


# Asking where to go or what to do ("去哪儿好？", "what should we do on Saturday?"): a trip or an outing,
# whatever else the turn mentions ("跟同事" names no bar here).
_WHERE_TO_GO = re.compile(
    r"\bwhere (?:should|could|can|shall) (?:i|we) (?:go|take)\b|"
    r"\bwhat (?:should|could|can|shall) (?:i|we) (?:do|get up to)\b|"
    # (Cantonese 边度, south-western 哪点: where; 克, 切: go; 耍: have fun)
    r"去边度|边度好|周边玩|玩(?:两|几)(?:日|天)|(?:去|克|切)哪点|哪点耍|耍(?:两|几)天|"
    r"去哪|干点啥|干点什么|干什么好|做点什么好|玩什么|玩点啥|玩点什么|(?:整|搞|弄)点(?:啥|什么)热闹|热闹热闹|"
    r"(?:啥|什么)(?:活动|节目)",
    _I,
)


_COURSES = frozenset(("starter", "side", "dessert"))  # one course of a meal, narrower than "dinner"


_BY_NAME = {kind.name: kind for kind in KINDS}
_BABY_FOOD = _BY_NAME["baby food"]


# Growing things: "what can I plant in with the tomatoes?", "自留地想多种几样瓜", "弄个小菜园…种点啥好活?"
# (菜 of 菜园 is no dish: none of ours is suggested).
GROWING = re.compile(
    r"\b(?:plant|planting|grow|growing|sow|sowing|seedlings?|allotment|plot|greenhouse|veg patch|hedge|"
    r"shrubs?|in the ground)\b|"
    r"种(?:点|啥|什么|几|上|一排|些)|栽|播种|菜园|菜地|自留地|花园|院子里",
    _I,
)
# Food to make or bring, whatever else the turn names ("What should I make for the book club potluck?").
_MAKES_FOOD = re.compile(
    r"\bwhat (?:should|could|can|shall) (?:i|we) (?:make|cook|bake|bring)\b|\bpot-?luck\b|"
    r"做(?:什么|啥|点啥|点什么)(?:菜|吃的)?|带(?:什么|啥|点啥)吃的",
    _I,
)


# A trip to a place the person names: "去黄山玩两天", "going to Japan for two weeks".
# ("来趟新疆毕业旅行", "从厦门飞台北玩三天", "想去普陀山烧香": the trip is there)
_NAMED_PLACE = re.compile(
    rf"(?:去|来趟|飞)(?!哪|边|哪儿|哪里|外地|外面|旅游|玩){HAN_CLASS}{{2,4}}?"
    r"(?:玩|旅游|旅行|毕业旅行|逛|住|待|看看|走走|烧香|过年)|"
    rf"(?:去|来趟|飞|到|在)(?:{CITY_PATTERN})|"
    r"\b(?:to|in|into|around|round|through|across|visit|visiting|on|at|out of|off)\s+(?!the\b|I\b|"
    r"(?:January|February|March|April|May|June|July|August|September|"
    r"October|November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Easter|Christmas)\b)"
    r"[A-Z][a-z]+"
)


# Where to go asked, or a trip to be suggested: "where should we go?", "any ideas for a getaway?", "去哪玩".
_ASKS_WHERE = re.compile(
    r"\bwhere\b|\bsomewhere\b|\bdestinations?\b|\b(?:suggest|recommend|ideas? for|pick|plan|plan me|plan us) "
    r"(?:a |an |some |our |my )?(?:[\w-]+ ){0,2}(?:trip|holiday|getaway|break|vacation)s?\b|"
    r"去哪|哪里|哪儿|哪达|什么地方|啥地方|边度|哪点",
    re.IGNORECASE,
)


# A thing asked for, the holiday only when it is for: "staying with us over the long weekend … Which board
# games should I buy for it?" asks for no trip.
_THING_FOR_THE_TIME = re.compile(
    r"\b(?:which|what)\s+(?:[\w-]+\s+){0,3}(?:should|could|can|do|shall)\s+(?:i|we)\s+"
    r"(?:buy|get|play|order|pick up|bring|pack|cook|make|wear)\b|\b(?:board|card|video) games?\b",
    re.IGNORECASE,
)


def request_kind(requested: str, user_words: str) -> RequestKind | None:
    """The kind of thing the person asked for: from what their words name ("cake"; a thing of no known
    kind, "pizza", is None), or, when they name none, from the whole turn ("something warm to drink");
    a turn asking where to go or what to do asks for a trip or an outing."""
    if WRITES_TO.search(user_words):  # words for a cake or a card: no cake to suggest
        return None
    by_name = _BY_NAME
    if by_name["fundraiser"].asked.search(user_words):  # "… to get sponsored for. What should I do?"
        return by_name["fundraiser"]
    if by_name["restaurant"].asked.search(user_words):  # "去哪种馆子？": where to eat, not an outing
        return by_name["restaurant"]
    if not requested and _WHERE_TO_GO.search(user_words):
        if _NAMED_PLACE.search(user_words):  # what to do there: no outing of ours
            return None
        if by_name["trip"].asked.search(user_words):
            return by_name["trip"]
        return EVENING if EVENING.asked.search(user_words) else by_name["outing"]
    if GROWING.search(user_words) and not _MAKES_FOOD.search(user_words):
        return None  # something to grow: no dish, drink or outing of ours
    if _BABY_FOOD.asked.search(user_words):  # whatever word asked ("做点啥好" asks for 菜): no grown-up dish
        return _BABY_FOOD
    text = requested or user_words
    found = next((kind for kind in KINDS if kind.asked.search(text)), None) if text else None
    if found in PASTIMES and _MAKES_FOOD.search(user_words):  # ("make for the book club potluck": food)
        found = next((kind for kind in KINDS if kind not in PASTIMES and kind.asked.search(text)), None)
    if (
        found is not None
        and found.name == "trip"
        and (
            _NAMED_PLACE.search(user_words)
            or _THING_FOR_THE_TIME.search(user_words)
            or (user_words and not _ASKS_WHERE.search(user_words))
        )
    ):
        # "去黄山玩两天…排个行程": a trip elsewhere is no answer; nor to a packing list for a camping trip
        # or a fishing trip out of Weymouth: only where to go asks for a trip
        return None
    if found is not None and found.name == "dinner" and _PLANS_DAYS.search(user_words):
        return None  # (meals on a trip's plan: "排个路线…晚上吃顿涮肉" asks for no dish of ours)
    if found is not None and found.name == "dinner":  # "for dinner…, what should I do for a starter?"
        narrower = next((k for k in KINDS if k.name in _COURSES and k.asked.search(user_words)), None)
        # a dish at a restaurant of a named cuisine: one of its dishes ("客家菜" → 盐焗鸡)
        return narrower or cuisine_kind(user_words) or found
    return found


# A plan of days out or a trip, whose meals are one part of it: "你帮我安排下行程，特别是每顿吃啥子".
_PLANS_DAYS = re.compile(
    r"行程|路线|攻略|\bitinerar(?:y|ies)\b|\bplan (?:the|my|our) (?:day|days|trip)\b", re.IGNORECASE
)


# The kinds that are no food or drink (a fast leaves their options alone).
_NOT_FOOD = frozenset(("route", "venue", "medicine", "trip", "energy", *(kind.name for kind in PASTIMES)))


def concrete_option(constraints: ConstraintSet, requested: str, user_words: str, language: str) -> str:
    """A specific thing of the kind asked for that keeps every constraint ("a cup of chamomile tea"),
    or "" when the request is of no known kind or every option would break a constraint."""
    kind = request_kind(requested, user_words)
    if kind is None:
        return ""
    if kind.name not in _NOT_FOOD and any(c.key in DIET_SUGGESTION for c in constraints.constraints):
        return ""  # a fast or a soft diet: no dish of ours is sure to fit it
    for option in kind.zh if language == "zh" else kind.en:
        if _keeps(constraints, option):
            return option.text if kind.name in _NOT_FOOD else _in_diet(option.text, constraints, language)
    return ""


def _in_diet(text: str, constraints: ConstraintSet, language: str) -> str:
    """The option with the diet it keeps named, when the person keeps one that has a name ("清真的番茄炒蛋
    配米饭", "a vegetable stir-fry with rice, keeping it halal"): the word a cook or a menu goes by."""
    fits = next((DIET_FITS[c.key] for c in constraints.constraints if c.key in DIET_FITS), None)
    if fits is None:
        return text
    return f"{fits[1]}{text}" if language == "zh" else f"{text}, keeping it {fits[0]}"


def _keeps(constraints: ConstraintSet, option: Option) -> bool:
    """Whether neither the option's words nor anything it is made of breaks a constraint."""
    return all(constraints.check(words) is None for words in (option.text, *option.contains))


SUGGEST = {"en": "I'd suggest {option}.", "zh": "我建议试试{option}。"}
EXAMPLE = {
    "en": "Name one specific thing, for example {option}.",
    "zh": "请说出一个具体的推荐，比如{option}。",
}
FOR_EXAMPLE = {"en": "For example: {option}.", "zh": "比如：{option}。"}
