"""Things a person names as examples of what they must not, or will not, have.

People rarely stop at the rule: "blue cheese I cannot do. Stilton, gorgonzola, any of those mouldy-veined
ones…", "what he's not allowed now, anything hard or chewy or sticky, so popcorn, toffees, chewing gum,
nuts, the lot", "连兰花豆那种蚕豆做的零食也不行". Each example is a thing a reply must not suggest either.

An English list counts only right after words that state a constraint (``_ANCHOR_EN``, within
``_NEAR`` characters), and only when it reads as a list of examples: two or more short items (one to three
words) closed by a catch-all ("the lot", "whatever", "any of those", "that sort of thing", "etc.") or
opened by "so", "like", "such as", "e.g.", "including", ":", or three items or more. So "allergic to nuts,
so for his party we're doing pizza, chips, cake" names no example (the list neither follows the words
of the rule nor reads as examples of it), and "I'll eat pretty much anything, snails, black pudding,
tripe" is what the person does eat (no words of a rule before it).

A Chinese example is "连X也不行/都不能吃" ("not even X"), read only in a text that states a constraint
already, since "连周末也不行" is about time, not food.
"""

from __future__ import annotations

import re

from voice_agent.text.cjk import HAN_CLASS

_I = re.IGNORECASE
_ANCHOR_EN = re.compile(
    r"\b(?:allergic|allergy|allergies|intolerant|intolerance|(?:can't|cannot|can not|won't|will not)\s+"
    r"(?:do|stand|stomach|eat|drink|have|touch|tolerate|bear)|not allowed|isn't allowed|aren't allowed|"
    r"banned|"
    r"off[- ]limits|a no[- ]go|hates?|can't stand|avoid|stay away from|keep away from|steer clear of|"
    r"(?:is|are) (?:the worst|disgusting|vile|gross|revolting)|"
    r"(?:keep|keeps|stay|stays) off|"
    r"makes? (?:me|him|her) (?:gag|sick|ill)|no\s+[a-z]+[.,!]*\s+ever|(?:have\s+)?fallen out|fell out|"
    r"(?:don't|do not) (?:mix|get along|agree with))\b",
    _I,
)
_NEAR = 60  # characters from the end of the rule's words to the list
_CATCH_ALL = re.compile(
    r"^(?:and\s+|or\s+)?(?:the lot|whatever|you name it|etc\.?|and so on|that sort of thing|"
    r"that kind of thing|stuff like that|anything like that|all of (?:it|them|that)|everything|"
    r"(?:it )?(?:doesn't|does not|don't|do not) matter|no matter (?:which|what)|any kind|whichever|"
    r"(?:any|all) of (?:those|these|them|that)\b.*)$",
    _I,
)
# When the list holds, said after its last item: "bars, clubs and casinos these days".
_WHEN_AFTER = re.compile(r"\s+(?:these days|nowadays|any ?more|at all|now|either|for now|for good)$", _I)
_OPENER = re.compile(r"^(?:so|like|such as|e\.g\.?|eg|including|especially|even)\s+", _I)
_LEAD = re.compile(r"^(?:and|or|to|of|a|an|the|some|any|no)\s+", _I)
_DESCRIBES = re.compile(r"^(?:anything|something|everything|stuff|food|foods|things)\b", _I)
_ITEM = re.compile(r"^[a-z][a-z'-]*(?: [a-z][a-z'-]*){0,2}$", _I)
_NOT_ITEM_TEXT = (
    "i i'm i've me you he she it it's we they my his her our their your is are was were be been has have "
    "had do does did not can't won't don't just really honestly now then there here this that these those "
    "if when because or he'll she'll we'll anything something everything nothing stuff thing things "
    # (what the thing is like, not things of its own: "I can't bear coconut. The smell, the taste, …")
    "smell smells taste tastes texture look looks sight sound feel bits lot "
    # (a close or an aside, not things: "I just can't stand haggling, full stop. Oh, and…")
    "stop period oh ah anyway okay ok yeah"
)
_NOT_ITEM_WORDS = frozenset(_NOT_ITEM_TEXT.split())
_KINDS_BY_COLOUR = frozenset(["green", "black", "red", "white", "yellow", "brown", "purple", "pink", "blue"])
_SENTENCE_END = re.compile(r"(?<=[a-z)])[.!?](?=\s|$)|[;\n]", _I)

EVEN_ZH = re.compile(
    # (the thing runs to a "的" or "那种" that describes it, or to 也/都: "连荞麦壳做的枕头都不能睡" → 荞麦壳)
    rf"连(?P<x>{HAN_CLASS}{{1,6}}?)(?:(?:做的|的|那种|这种|那样|之类的?|这类|那类){HAN_CLASS}{{0,8}}?)?"
    r"(?:也|都)(?:不行|不能|不可以|不让|别|碰不得|吃不得)"
)


# Titles given as examples of what is refused: "我是真烦这种网红神曲，什么《小苹果》《套马杆》".
_TITLES_AFTER_ZH = re.compile(
    r"(?:什么|啥|像|比如|例如|诸如|譬如)(?P<x>(?:《[^》]{1,15}》[、，,和跟或]?){1,8})"
)


def titled_examples(text: str) -> list[str]:
    """The titles (in 《》) named as examples after 什么 / 像 / 比如, in order."""
    return [t for m in _TITLES_AFTER_ZH.finditer(text) for t in re.findall(r"《([^》]+)》", m.group("x"))]


# A list after a Chinese rule and a dash or a colon: "带激素的补品一律不许碰——蜂王浆、雪蛤、蜂胶、胎盘这些".
_RULE_THEN_LIST_ZH = re.compile(
    rf"(?:碰|吃|喝|用|沾|忌口|忌)(?:——|—|：|:)(?P<x>{HAN_CLASS}{{1,6}}(?:、{HAN_CLASS}{{1,6}})+)"
)


def listed_examples(text: str) -> list[str]:
    """The things listed as examples right after the words of a rule (English, or Chinese after a dash),
    or listed and then refused ("Raw apples, pears, cherries, that whole family, nee chance."), in order,
    deduplicated."""
    found: list[str] = []
    runs = [_first_list(text[anchor.end() :]) for anchor in _ANCHOR_EN.finditer(text)]
    runs += [
        [re.sub(r"(?:这些|那些|之类|等等|等|什么的)$", "", item) for item in m.group("x").split("、")]
        for m in _RULE_THEN_LIST_ZH.finditer(text)
    ]
    for items in [*runs, *_refused_lists(text)]:
        items = [_VERSION.sub("", item) or item for item in items]  # ("the Handel one": Handel)
        items = [item for item in items if not _NO_EXAMPLE.match(item)]  # ("any shade, mustard, lemon, all")
        found += [item for item in items if item.lower() not in (f.lower() for f in found)]
    return found


_VERSION = re.compile(r"\s+ones?$", _I)
_NO_EXAMPLE = re.compile(
    r"^(?:any |every |all )?(?:all|everything|the lot|shades?|colou?rs?|kinds?|types?|sorts?|brands?)$", _I
)
# A list the person closes by refusing all of it: "…, nee chance", "…, no way", "…, all off limits".
_REFUSAL_END = re.compile(
    r"^(?:(?:nee|no|not a|nae) chance|no way|(?:all )?off[- ]limits|(?:all )?a no[- ]go|out of the question|"
    r"(?:all )?banned|none of (?:them|it|those))\b(?!\s+(?:i|i'm|we|you|he|she|they|that|it)\b)",
    _I,
)
_FAMILY = re.compile(
    r"^(?:that|the|their) (?:whole )?(?:family|lot|lot of them|kind|sort)$|^all of them$", _I
)
_STATE = re.compile(r"^(?:raw|fresh|uncooked|any|all)\s+", _I)


def _refused_lists(text: str) -> list[list[str]]:
    """Each list of two items or more that makes a whole sentence up to a refusal of it
    (``_REFUSAL_END``): "Raw apples, pears, cherries, that whole family, nee chance." ("We went to
    Paris, Rome, Berlin, no way…" starts with no item, so it lists nothing refused)."""
    out: list[list[str]] = []
    for sentence in re.split(r"(?<=[.!?])\s+|;", text):
        pieces = [p.strip() for p in re.split(r"\s*,\s*", sentence.strip().rstrip(".!?"))]
        end = next((i for i, p in enumerate(pieces) if i >= 2 and _REFUSAL_END.match(p)), None)
        if end is None:
            continue
        items: list[str] = []
        for piece in (p for p in pieces[:end] if not _FAMILY.match(p)):
            parts = [_STATE.sub("", _LEAD.sub("", part)) for part in re.split(r"\s+(?:and|or)\s+", piece)]
            if not all(_is_item(part) for part in parts):
                items = []
                break
            items += parts
        if len(items) >= 2:
            out.append(items)
    return out


def _first_list(after: str) -> list[str]:
    """The first run of list items that starts within ``_NEAR`` characters, across at most one sentence
    end ("blue cheese I cannot do. Stilton, gorgonzola, any of those…")."""
    stripped = after.lstrip(" .,;:!?")
    colon = ":" in after[: len(after) - len(stripped)]
    after = stripped
    ends = [m.start() for m in _SENTENCE_END.finditer(after)]
    stop = ends[1] if len(ends) > 1 else len(after)
    parts = re.split(r"(\s*,\s*|\s*:\s*|(?<=[a-z])\.\s+)", after[:stop], flags=_I)
    pieces, between = parts[0::2], parts[1::2]
    new_sentence = {i + 1 for i, sep in enumerate(between) if "." in sep}
    offset = 0
    for index, piece in enumerate(pieces):
        if offset > _NEAR:
            break
        offset += len(piece) + 2
        # A list starts the stretch or a sentence ("… ever invented. Gherkins, dill pickles, …"), after an
        # opener ("so popcorn, …"), or after a description of the kind ("anything fried, chips,
        # doughnuts"); not in the middle of another clause.
        starts = (
            index == 0 or index in new_sentence or _OPENER.match(piece.strip())
            or _DESCRIBES.match(pieces[index - 1].strip())
        )  # fmt: skip
        if not starts:
            continue
        items, closed = _run(pieces[index:])
        opened = _OPENER.match(piece.strip()) is not None or (colon and index == 0)
        if len(items) >= 2 and (closed or opened or len(items) >= 3):
            return items
    return []


def _run(pieces: list[str]) -> tuple[list[str], bool]:
    """The items at the head of ``pieces``, and whether a catch-all closed them."""
    items: list[str] = []
    for position, raw in enumerate(pieces):
        piece = _WHEN_AFTER.sub("", raw.strip().rstrip(".!?"))
        if position > 0 and _OPENER.match(piece):  # "…, so popcorn, toffees": a new list starts
            return items, False
        piece = _OPENER.sub("", piece)
        if items and _CATCH_ALL.match(piece):
            return items, True
        if piece.lower() in _KINDS_BY_COLOUR:  # "Green, black, kalamata": kinds of the thing, not things
            continue
        tail = re.split(r"\s+(?:and|or)\s+", piece)  # "chewing gum and nuts"
        parts = [_LEAD.sub("", part.strip()) for part in tail]
        if not all(_is_item(part) for part in parts):
            return items, False
        items += parts
    return items, False


def _is_item(part: str) -> bool:
    if not _ITEM.match(part):
        return False
    return not any(word.lower() in _NOT_ITEM_WORDS for word in part.split())
