"""A pet's name told once, said back when the turn is about that pet but does not name it.

"我屋头那个小柯基叫汤圆" and, a week later, "给我屋头狗儿订个生日蛋糕，写段留言，蛋糕面上的字也帮我想好":
the cake says 汤圆, yet a pet's name is no person's name, so the scrubber leaves it as said and
``name_note`` (which reads the scrubber's NAME placeholders) has none to give. The note after the turn
names the pet ("(The dog is called Biscuit.)" / "（狗狗的名字：汤圆。）").

The turn must name the kind of pet (a dog, 狗儿, 猫咪…) and not the name; the name is the one the person's
own statement gives a pet of that kind ("my lab's called Biscuit", "小柯基叫汤圆", "我家猫名字叫年糕",
"那只黑猫，…屋里都喊它“煤球”").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from voice_agent.memory.records import MemoryRecord
from voice_agent.text.cjk import HAN_CLASS

_DOGS_EN = (
    r"dog|doggo|pup|puppy|lab|labrador|retriever|spaniel|terrier|collie|corgi|pug|beagle|dachshund|whippet"
)
_CATS_EN = r"cat|kitten|kitty|moggy|tabby"
_DOGS_ZH = r"狗狗|狗儿|小狗|狗子|狗|柯基|泰迪|柴犬|金毛|二哈|哈士奇|比熊|拉布拉多|边牧|博美|雪纳瑞|法斗"
_CATS_ZH = r"猫咪|小猫|猫|橘猫|布偶|英短|美短|狸花"
_NAMED_EN = re.compile(
    rf"\b(?P<kind>{_DOGS_EN}|{_CATS_EN})(?:'s| is)?\s+(?:called|named)\s+"
    r"(?P<name>[A-Z][a-z]+(?: [A-Z][a-z]+)?)"
)
_NAMED_ZH = re.compile(
    rf"(?P<kind>{_DOGS_ZH}|{_CATS_ZH})(?:的名字|名字)?(?:叫做|就叫|叫|是)(?P<name>{HAN_CLASS}{{1,4}}?)"
    r"(?=[，,。.！!？?；;、～~]|$|儿?[，,。])"
)
# Called something by the household, said after the pet: "我屋里那只黑猫，…但是屋里从上到下都喊它“煤球”".
_CALLED_IT_ZH = re.compile(
    rf"(?P<kind>{_DOGS_ZH}|{_CATS_ZH})[^。！？!?]{{0,40}}?(?:喊|叫)(?:它|牠|佢)(?:做)?[“\"「『]?"
    rf"(?P<name>{HAN_CLASS}{{1,4}}?)(?=[”\"」』]|[，,。.！!？?；;、～~]|$)"
)
NOTE = {"en": "The {kind} is called {name}.", "zh": "{kind}的名字：{name}。"}
_NOT_NAMES_ZH = frozenset(("什么", "啥", "啥子", "这个", "那个", "谁", "哪个"))


@dataclass(frozen=True)
class _Words:
    named: tuple[re.Pattern[str], ...]  # a pet named in the person's statement
    cat: re.Pattern[str]  # the kind named is a cat (else a dog)
    in_turn: dict[str, re.Pattern[str]]  # each kind, as the turn names it
    shown: dict[str, str]  # each kind, as the note says it


_WORDS = {
    "zh": _Words((_NAMED_ZH, _CALLED_IT_ZH), re.compile(_CATS_ZH),
                 {"cat": re.compile(_CATS_ZH), "dog": re.compile(_DOGS_ZH)},
                 {"cat": "猫咪", "dog": "狗狗"}),
    "en": _Words((_NAMED_EN,), re.compile(_CATS_EN, re.I),
                 {"cat": re.compile(rf"\b(?:{_CATS_EN})s?\b", re.I),
                  "dog": re.compile(rf"\b(?:{_DOGS_EN})s?\b", re.I)},
                 {"cat": "cat", "dog": "dog"}),
}  # fmt: skip


def pet_note(user_text: str, records: Sequence[MemoryRecord], language: str) -> str:
    """The note naming the pet the turn speaks of, or "" (see the module's rules)."""
    words = _WORDS["zh" if language == "zh" else "en"]
    wanted = {kind for kind, pattern in words.in_turn.items() if pattern.search(user_text)}
    told = [
        ("cat" if words.cat.fullmatch(match.group("kind")) else "dog", match.group("name"))
        for record in records if record.role == "user"
        for named in words.named
        for match in named.finditer(record.text)
    ]  # fmt: skip
    # (none when the turn names one already: "a walk with Biscuit")
    if not wanted or any(name.lower() in user_text.lower() for _, name in told):
        return ""
    for kind, name in told:
        if kind in wanted and name not in _NOT_NAMES_ZH:
            return NOTE["zh" if language == "zh" else "en"].format(kind=words.shown[kind], name=name)
    return ""
