"""What a story names without naming a thing the person keeps off, taken out before its topics are read
(``constraint_shapes.at_odds_topics``): a likeness ("sick as a dog", "blown up like a puffer fish",
"耳朵就像坐飞机降落那样闷"), a lift ("Dev had to drive me to the LRI"), the labels read ("the back of every
soy sauce bottle"), what is said to be fine ("salt water doesn't touch him"), and, in Chinese, the dishes
named as an aside to where the thing is found ("像卤肉饭、羹汤那种": they count only when nothing else is
named)."""

from __future__ import annotations

import re

__all__ = ["may_borrow_cause", "without_asides_zh", "without_passing_mentions"]

_TAKEN_TO_EN = re.compile(
    r"\b(?:drive|drives|drove|driven|driving|rush|rushed|take|took|taken|ferry|ferried)\s+(?:me|us|him|her|them)\s+"
    r"(?:to|into|up to|down to)\b",
    re.IGNORECASE,
)
# ("blown up like a puffer fish": the likeness of two words too)
_SIMILE_EN = re.compile(
    r"\b(?:as|like) an? (?:[a-z]+ (?!(?:and|or|but|the|in|on|at|for|to|after|when|with|of|i|he|she|it|my|"
    r"so|then|all|every)\b))?[a-z]+\b(?! (?:of|with)\b)",
    re.IGNORECASE,
)
# The labels read for it: "squinting at the back of every soy sauce bottle" (the wheat in it, not soy).
_LABELS_READ_EN = re.compile(
    r"\b(?:back|label|labels|ingredients|small print)(?: list)? (?:of|on) (?:every|each|the|a|any|all)\s+"
    r"(?:[a-z]+ ){0,3}?(?:bottles?|packets?|jars?|tins?|box(?:es)?|cans?|wrappers?|packs?)\b",
    re.IGNORECASE,
)
_SIMILE_ZH = re.compile(r"(?:就像|好像|像是|像|跟)[^，。！？,!?]{1,12}?(?:那样|一样|似的)")
_UNHARMED = re.compile(
    r"\b[a-z]+(?: [a-z]+)? (?:doesn't|does not|don't|never) (?:touch|bother|affect|hurt) "
    r"(?:him|her|me|them)\b",
    re.IGNORECASE,
)
_ASIDE_ZH = re.compile(r"像[^，。！？；]{1,20}?(?:那种|那类|之类|那样|这种|这些|那些)")


def without_passing_mentions(text: str) -> str:
    """``text`` without its likenesses, lifts and things said to be fine."""
    text = _LABELS_READ_EN.sub(" ", text)
    return _TAKEN_TO_EN.sub(" ", _SIMILE_EN.sub(" ", _UNHARMED.sub(" ", _SIMILE_ZH.sub("", text))))


def without_asides_zh(text: str) -> str:
    """``text`` without the dishes it names as an aside ("像卤肉饭、羹汤那种")."""
    return _ASIDE_ZH.sub("", text)


# A reaction whose cause its own sentence names ("我在公司空调底下吹得头疼", "被装修吵得头疼"):
# a food in the next sentence did not cause it. (吃得/喝得 name food: "吃得胃疼" is read as usual.)
# (or someone pushing them to do a thing: "我阿妈又话要我去相亲，真系顶唔顺" is of the pushing)
_CAUSE_NAMED_ZH = re.compile(
    r"(?:吹|晒|冻|热|吵|气|累|熬|挤|堵|颠|爬|站|忙|急|愁|烦|闷|晃|震|熏|呛)得|(?:要|叫|催|逼|让|喊)(?:我|俺)去"
)
# A sentence after the reaction that moves on to something else: "我们院坝头那只鸭子下了个双黄蛋",
# "对了，…", "Anyway, the grandson's starting at uni" names no cause of it.
_MOVED_ON = re.compile(
    r"\s*(?:对了|还有|另外|话说|顺便|我们|阿拉|俺们|咱们|(?:anyway|anyhow|also|oh,? and|by the way|btw|"
    r"in other news|other than that|meanwhile|speaking of)\b)",
    re.IGNORECASE,
)


def may_borrow_cause(sentences: list[str], reaction: int, near: int) -> bool:
    """Whether the thing a reaction's sentence does not name may be read in the sentence ``near`` it."""
    if _CAUSE_NAMED_ZH.search(sentences[reaction]):
        return False
    return not (near > reaction and _MOVED_ON.match(sentences[near]))
