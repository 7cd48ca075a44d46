"""A question about what the person told us, answered from memory ("Do you remember my name?").

A small model often answers beside such a question ("Yes, I remember my name as Marisol", "Tuesday" for
a flight the person moved to Thursday). When the turn is a recall question (a short wh- or "do you
remember" question that asks for no recommendation) and one remembered statement of the person's is the
clear match for what it asks about, the reply is that statement said back in the second person ("You
told me your name is Marisol."), at once and without the LLM. The match must be unambiguous: the
statement shares a content word with the question, carries something the question does not (the
answer), and no other statement matches as well, unless the newer one says the plan changed. Anything
less clear goes to the LLM as usual. The engine traces each answer (``recall.answer``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from voice_agent.conversation.revised_plans import REVISES_PLAN, renamed_later
from voice_agent.memory.records import MemoryRecord
from voice_agent.metrics.trace import TurnTrace
from voice_agent.text.cjk import HAN_CLASS
from voice_agent.text.corrections import STRESSING_I_MEAN, after_correction
from voice_agent.text.dates import ASKS_DAY, HOLDS_DATE

_I = re.IGNORECASE
_QUESTION_EN = re.compile(
    r"^\s*(?:(?:and|so|ok|okay|hey|hi|well|um|uh|sorry|oh|also|quick question|by the way|remind me)[,\s]+)*"
    r"(?:what(?:'s| is| was| are|'re)?|which|"
    r"when(?:'s)?|where(?:'s)?|who(?:'s)?|how old|how many|how (?:are|am|is|was|were) (?:we|i|my|our)|"
    r"do you (?:still )?(?:remember|recall|know)|"
    r"can you (?:remember|recall|tell me)|did i (?:tell|mention)|remind me)\b",
    _I,
)
_ASKS_ADVICE_EN = re.compile(
    r"\b(?:should|could|would|shall|(?:can|may|might|must) (?:i|we)|recommend|suggest|ideas?|good|best|"
    r"better|tips?|how (?:do|can|to)|why|weather)\b",
    _I,
)
_QUESTION_ZH = re.compile(r"什么|哪|几|多少|谁|吗|记得|记不记得|是怎么")
# (…and a request for something of a kind: "准备点什么饮料？", "买些什么", "带点啥")
_ASKS_ADVICE_ZH = re.compile(
    r"推荐|建议|应该|好呢|好吗|什么好|好？|好\?|(?<!是)怎么|如何|为什么|适合|可以做|能做|(?:点|些)(?:什么|啥)|"
    r"啥好|"
    # a request to make something: "晚上想煮几个清热的菜，你帮我配一下？" (几个: how many, no question)
    r"(?:帮|给)(?:我|俺|咱)(?:配|列|写|排|出|想|挑|选|弄|整|搭|把)|"
    # (how a thing is done, asked of the world: "每项有么子要领和口诀，哪些地方最容易扣分?")
    r"要领|口诀|诀窍|窍门|技巧|注意事项|最容易"
)
_REMEMBER_YES_NO = re.compile(
    r"^\s*(?:do you (?:still )?(?:remember|recall|know)|can you (?:remember|recall))|记得|记不记得", _I
)
_IS_QUESTION = re.compile(r"[?？]\s*$|吗[。.]?\s*$|^\s*(?:what|which|when|where|who|do|did|can)\b", _I)
_CHANGE = re.compile(r"\b(?:actually|changed?|moved?|switched|rescheduled|postponed|now|instead|anymore|"
                     r"no longer)\b|改|换|推迟|提前|现在|不再", _I)  # fmt: skip
# A statement that revises the one before it: "Actually, we're taking the train instead", "Scratch that,
# …", "算了，…".
_REVISES = re.compile(
    r"^\s*(?:actually|scratch that|change of plans?|on second thought|wait|no)\b|\binstead\b|"
    r"\bchanged (?:my|our) minds?\b|^\s*(?:算了|不对|后来)|改成|改去|换成|改为|改到|改坐|改乘|改订|改住|改用|"
    r"退了|退掉了|取消了|不\w{0,3}了|\bcancel(?:l?ed)\b",
    _I,
)
# A plan said as the original one, so it was changed: "本来打算在家做", "we were planning to drive".
_ORIGINAL_PLAN = re.compile(
    r"本来|原本|原来(?:打算|想|计划|约|要)|\b(?:were|was) (?:planning|going|supposed) to\b|\boriginally\b", _I
)
_MAX_QUESTION_CHARS = 90
_MAX_FACT_CHARS = 160

_WORD_EN = re.compile(r"[a-z][a-z'-]+|\d+", _I)
_HAN_RUN = re.compile(rf"{HAN_CLASS}+")
_STOP_TEXT = (
    "a an the and or but so of to in on at for with from by about is are was were be been am do does did "
    "what what's which when when's where where's who who's how old many again still remember recall know "
    "tell told mention mentioned remind me you your yours my mine i i'm i've we we're our us can could "
    "please that this there it its it's day time ok okay hey well um"
)
_STOP_EN = frozenset(_STOP_TEXT.split())
_NAME_WORDS = frozenset(("called", "call", "named", "name"))  # "is called Biscuit" answers "dog's name"
# The person asking how they are called, and a statement that says it ("I'm Priyanka", "叫我小王").
_ASKS_NAME = re.compile(
    r"\b(?:my name|what i'm called|what i am called|what to call me|how (?:to|should you) address me)\b|"
    r"(?:怎么|如何)称呼我|我叫什么|我叫啥|我的名字|叫我什么",
    _I,
)
# The person asking their own name ("what did I tell you my name was", "我叫什么"), and a sentence in
# which they name themselves ("my name's Declan", "I'm Priyanka", "call me Sam", "我叫张伟", "叫我小王"),
# not someone else ("my daughter's name is Lily", "我女朋友叫林晓雨").
_ASKS_OWN_NAME = re.compile(
    r"\b(?:my (?:first |full |real )?name|what i'm called|what i am called|what to call me|"
    r"how (?:to|should you) address me)\b|(?:怎么|如何)称呼我|我叫什么|我的名字|叫我什么|我叫啥|我姓什么",
    _I,
)
_NAMES_SELF = re.compile(
    r"(?i:\bmy (?:first |full |real )?name(?:'s|\s+is|\s+was)\b|\bcalls? me\b)|"
    r"\b(?:I'm|I am)\s+(?:\[NAME|[A-Z])|(?:^|[，,。\s])我叫|叫我|我姓|称呼我|我的名字",
)
_NAME_IN = re.compile(r"\[NAME:[0-9a-f]{12}\]")
_MOVED_TO = re.compile(r"\b(?:moved|relocated) to\b", _I)
_GIVES_NAME = re.compile(r"\b(?:I'm|I am)\s+(?:\[NAME[^\]]*\]|[A-Z][a-z]+\b(?!\s+[a-z]))|叫我|我姓|称呼我")
# Question words and particles, taken out of Chinese text before it is cut into character pairs.
_ZH_FILLER = re.compile(
    r"你还记得|记不记得|还记得|记得|请问|告诉我|什么|哪个|哪一天|哪天|哪里|哪儿|哪|几号|几点|几|多少|谁|吗|呢|"
    r"来着|名字|是|的|了|你|还"
)
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|my|me|mine|we|our|us)\b|我|咱", _I)


@dataclass(frozen=True)
class RecallAnswer:
    text: str  # what is said
    record_id: str
    fact: str  # the remembered sentence it restates
    shared: tuple[str, ...]  # the words it shares with the question


def is_recall_question(text: str) -> bool:
    """A short question about something the person said (no request for advice or a suggestion)."""
    stripped = text.strip()
    if not stripped or len(stripped) > _MAX_QUESTION_CHARS or not _IS_QUESTION.search(stripped):
        return False
    if _ASKS_NAME.search(stripped):  # "该怎么称呼我？" asks for advice in form only
        return True
    if _HAN_RUN.search(stripped):
        return bool(_QUESTION_ZH.search(stripped)) and not _ASKS_ADVICE_ZH.search(stripped)
    return bool(_QUESTION_EN.search(stripped)) and not _ASKS_ADVICE_EN.search(stripped)


Match = tuple[int, float, MemoryRecord, str, frozenset[str]]  # shared count, time, record, sentence, shared


def answer_from_memory(
    question: str, candidates: Sequence[MemoryRecord], language: str, trace: TurnTrace | None = None
) -> RecallAnswer | None:
    """The remembered statement that answers ``question``, said back, or None when the turn is no recall
    question or no single statement clearly answers it (``trace``: marked ``recall.answer``)."""
    answer = _answer(question, candidates, language)
    if answer is not None and trace is not None:
        trace.mark("recall.answer", record=answer.record_id, shared=",".join(answer.shared))
    return answer


def _answer(question: str, candidates: Sequence[MemoryRecord], language: str) -> RecallAnswer | None:
    if not is_recall_question(question):
        return None
    asked = _content_words(question)
    about_me = bool(_FIRST_PERSON.search(question))
    matches: list[Match] = []
    said: list[tuple[float, MemoryRecord, str]] = []  # every statement of the person's, with its time
    seen: set[str] = set()
    for record in candidates:
        # The person's own current statements (a summary of turns restates them in other words).
        if record.role != "user" or record.status != "active" or record.kind == "summary":
            continue
        if record.id in seen:
            continue
        # A question not about the person ("When is the party?") is answered only from a plan they set.
        if not about_me and record.kind != "decision":
            continue
        seen.add(record.id)
        for sentence in _statements(record.text):
            said.append((record.created_at, record, sentence))
            if about_me and not _FIRST_PERSON.search(sentence) and record.kind != "decision":
                continue  # "Name a famous painter." says nothing about the person (a plan of theirs does)
            words = _content_words(sentence)
            shared = frozenset(asked & words)
            if shared and words - asked and len(sentence) <= _MAX_FACT_CHARS:
                matches.append((len(shared), record.created_at, record, sentence, shared))
    # a name the person changed since is not said back as it was
    matches = [m for m in matches if not renamed_later(m[2], candidates)]
    if _ASKS_OWN_NAME.search(question):  # their own name: only where they named themselves
        matches = [m for m in matches if _NAMES_SELF.search(m[3])]
    if ASKS_DAY.search(question):  # "那个晚会是哪天来着？": a clause without the day answers nothing
        # (with none, the person's dated words are looked for by ``dated_fallback``, then the model asked)
        matches = [m for m in matches if HOLDS_DATE.search(m[3])]
    best = _clear_best(matches)
    if best is None:
        return None
    best = _revised(best, said)
    if best is None:
        return None
    _, _, record, sentence, shared = best
    sentence = _only_the_change(sentence, question)
    if bool(_HAN_RUN.search(question)) != bool(
        _HAN_RUN.search(sentence)
    ):  # told in one language, asked in another
        text = _own_name_across(question, sentence)  # the name needs no translating; anything else does
    else:
        text = said_back(sentence, language, yes=bool(_REMEMBER_YES_NO.search(question)))
    return RecallAnswer(text, record.id, sentence, tuple(sorted(shared))) if text else None


_REASON = re.compile(r"\b(?:because|since|cause|cos|due to|as the)\b|因为|由于|说是|打电话说|通知说", _I)


def _only_the_change(sentence: str, question: str) -> str:
    """A changed plan told with its reasons, cut to what changed: "复查那事儿变了，医院打电话说那个主任
    周三临时被叫去会诊，给我改到周五下午了" → "复查那事儿变了，给我改到周五下午了" (the reason names the old
    day, and the answer is the new one). The clauses kept are those with a word of change and those with
    a word of the question, a day or a number that give no reason; a statement of one or two clauses, or
    one with no change, is said whole."""
    body = _LEAD_ZH.sub("", sentence.strip()).rstrip("。.！!")
    clauses = [c for c in re.split(r"\s*[，,;；]\s*", body) if c]
    if len(clauses) < 3 or not REVISES_PLAN.search(sentence):
        return sentence
    asked = _content_words(question)
    kept = [
        c
        for c in clauses
        if REVISES_PLAN.search(c)
        or (
            (asked & _content_words(c) or HOLDS_DATE.search(c) or re.search(r"\d", c))
            and not _REASON.search(c)
        )
    ]
    if not kept or len(kept) == len(clauses):
        return sentence
    joiner = "，" if _HAN_RUN.search(sentence) else ", "
    return joiner.join(kept) + ("。" if joiner == "，" else ".")


def _own_name_across(question: str, sentence: str) -> str:
    """ "Your name is 李娜." for an English question about a name told in Chinese (and the other way);
    "" for any other answer across languages (the LLM answers it in the question's language)."""
    name = _NAME_IN.search(sentence)
    if not _ASKS_OWN_NAME.search(question) or not _NAMES_SELF.search(sentence) or name is None:
        return ""
    return f"你叫{name.group()}。" if _HAN_RUN.search(question) else f"Your name is {name.group()}."


def _clear_best(matches: list[Match]) -> Match | None:
    """The best match when it is unambiguous. A newer statement that says the plan changed and is about
    the same thing ("my flight got changed to Thursday" after "my flight to Oslo is on Tuesday") wins over
    an older one; otherwise the best must be alone at its score."""
    if not matches:
        return None
    top = max(m[0] for m in matches)
    best = max((m for m in matches if m[0] == top), key=lambda m: m[1])
    # (about the same thing: a word besides "name", which any statement with a name in it shares)
    changes = [m for m in matches if m[1] > best[1] and _CHANGE.search(m[3]) and m[4] & best[4] - {"name"}]
    if changes:
        return max(changes, key=lambda m: m[1])
    rivals = {m[3] for m in matches if m[0] == top} - {best[3]}
    if not rivals:
        return best
    if _CHANGE.search(best[3]):  # tied, and the newest says the plan changed
        return best
    return None


def _revised(best: Match, said: list[tuple[float, MemoryRecord, str]]) -> Match | None:
    """The statement the person said next when it revises ``best`` ("We were planning to drive…" then
    "Actually, we're taking the train instead."), though it shares no word with the question, with any
    revising statements right after it (a change said in pieces: "羽毛球不打了" then "我们改成去游泳了").
    None when no revision follows a plan said as the original one ("本来打算…", "we were planning to…"):
    it was changed, and saying it back would give the old form.

    Only a plan is revised, and only by plans (both are pinned as decisions): the statements at hand are
    the recalled ones, not all the person said, so a change of another plan ("we're moving to York
    instead") may come next among them after a fact ("My daughter Asha is allergic to sesame")."""
    later = sorted((s for s in said if s[0] > best[1]), key=lambda s: s[0])
    chain: list[tuple[float, MemoryRecord, str]] = []
    # (a plan said as the original one is a plan, pinned or not: "这次去北京我本来订的是高铁")
    planned = best[2].kind == "decision" or _ORIGINAL_PLAN.search(best[3]) is not None
    for statement in later if planned else ():
        if statement[1].kind != "decision" and _clause_of_a_decision(statement, later):
            continue  # "羽毛球不打了" kept on its own beside "羽毛球不打了，我们改成去游泳了。"
        if statement[1].kind != "decision" or not _REVISES.search(statement[2]):
            break
        if len(statement[2]) > _MAX_FACT_CHARS:
            break
        chain.append(statement)
    if not chain:
        return None if _ORIGINAL_PLAN.search(best[3]) else best
    when, record, _ = chain[-1]
    joiner = "，" if _HAN_RUN.search(chain[0][2]) else " "
    pieces = list(dict.fromkeys(s[2].strip().rstrip("。.！!") for s in chain[:3]))
    # a piece that another one holds whole (a clause record beside its sentence's) is said once
    kept = [p for p in pieces if not any(p != other and p in other for other in pieces)]
    sentence = joiner.join(kept)
    return (best[0], when, record, sentence, best[4])


def _clause_of_a_decision(
    statement: tuple[float, MemoryRecord, str], later: list[tuple[float, MemoryRecord, str]]
) -> bool:
    """Whether ``statement`` is a clause of a later decision said whole (a record of one clause)."""
    clause = statement[2].strip().rstrip("。.！!")
    return bool(clause) and any(
        other[1].kind == "decision" and other is not statement and clause in other[2] for other in later
    )


def _statements(text: str) -> list[str]:
    """The sentences of a record that state something (questions are no answers)."""
    parts = re.split(r"(?<=[.!?。！？])\s*", text.strip())
    return [p.strip() for p in parts if p.strip() and not re.search(r"[?？]$|吗[。]?$", p.strip())]


def _content_words(text: str) -> set[str]:
    """Lower-case English content words (singular; "called" and "name" as one) and Chinese character
    pairs with the question words taken out ("我叫什么名字" → 我叫)."""
    words = {w.lower().strip("'") for w in _WORD_EN.findall(text)}
    words = {"name" if w in _NAME_WORDS else _singular(w) for w in words if w not in _STOP_EN and len(w) > 1}
    if _GIVES_NAME.search(text) or _ASKS_NAME.search(text) or _NAMES_SELF.search(text):
        words.add("name")
    if _MOVED_TO.search(text):  # "we moved to Porto" says where they live
        words.add(_singular("live"))
    for run in _HAN_RUN.findall(text):
        kept = _ZH_FILLER.sub("", run)
        words |= {kept[i : i + 2] for i in range(len(kept) - 1)}
        if "叫" in run or "名字" in run or "称呼" in run:
            words.add("name")
    return words


def _singular(word: str) -> str:
    if word.endswith("'s"):
        word = word[:-2]
    word = word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word
    # A crude stem, the same on both sides: "moved" and "move", "lived" and "live" meet.
    return re.sub(r"(?:ing|ed|e)$", "", word) if len(word) > 3 else word


# -- saying it back --------------------------------------------------------------------------------------
_LEAD_EN = re.compile(r"^(?:(?:actually|scratch that|oh|well|so|also|by the way|btw|and|just so you know|fyi|"
                      r"honestly|frankly|to be honest|tbh|basically|look|listen|okay|ok|right|anyway|um|uh|"
                      r"one thing|oh,? one thing|before i forget|"
                      r"(?:just )?(?:a )?heads[- ]up|quick note|for the record|please|"
                      r"(?:remember|note|keep in mind|don't forget|do not forget)(?: that)?|"
                      r"hey there|hi there|hello there|hey|hi|hello)[,:;\s]+)+",
                      _I)  # fmt: skip
_SWAP_EN = {
    "i": "you", "i'm": "you're", "i've": "you've", "i'll": "you'll", "i'd": "you'd", "me": "you",
    "my": "your", "mine": "yours", "myself": "yourself", "we": "you", "we're": "you're",
    "we've": "you've", "we'll": "you'll", "our": "your", "ours": "yours", "us": "you", "am": "are",
}  # fmt: skip
_LEAD_ZH = re.compile(
    r"^(?:算了|不对|对了|记住|记着|请记住|别忘了|提醒一下|哎呀|哎|唉|嗯|哦|诶|欸)[，,：:]?\s*"
)
_PRONOUN_START = re.compile(
    r"^(?:you|your|yours|the|a|an|it|its|there|this|that|he|his|she|her|they|their|these|those|we|all|"
    r"every|some|most|one|everybody|everyone|people|just|finally|still|since|after|before|when|so|and|but|"
    r"honestly|apparently|last|next|both|each)\b",
    _I,
)
# ("俺家那小子", northern speech: my)
_ZH_SWAP = (("咱们", "你们"), ("我们", "你们"), ("俺们", "你们"), ("俺", "你"), ("我", "你"))


def said_back(sentence: str, language: str, *, yes: bool = False) -> str:
    """``sentence`` (the person's words) in the second person, as something they told us."""
    body = second_person(sentence, language)
    if not body:
        return ""
    if language == "zh" or _HAN_RUN.search(sentence):
        return ("记得，" if yes else "") + f"你告诉过我，{body}。"
    return ("Yes, you" if yes else "You") + f" told me {body}."


def second_person(sentence: str, language: str) -> str:
    """The person's ``sentence`` turned to the second person, without its opening filler ("Actually, ",
    "算了，") or end mark: "my kid is allergic to nuts" → "your kid is allergic to nuts"."""
    corrected = after_correction(sentence)
    if corrected is not None:  # "the twelfth, no wait, the twenty-first": only what stands is said back
        sentence = corrected
    if language == "zh" or _HAN_RUN.search(sentence):
        body = _LEAD_ZH.sub("", sentence.strip().rstrip("。.！!，,、；; "))
        body = body.replace("你", "\0")  # "你叫我小王就行": the person's "you" is us, said back as "我"
        for mine, yours in _ZH_SWAP:
            body = body.replace(mine, yours)
        return body.replace("\0", "我")
    body = _LEAD_EN.sub("", sentence.strip()).rstrip(".!,;: ")  # (a clause: "…, English first,")
    body = STRESSING_I_MEAN.sub("", body)  # ("Jamie's Eurovision-mad, I mean properly": the stress goes)
    if not body:
        return ""
    swapped = re.sub(r"[A-Za-z']+", _swap_word, body)
    swapped = re.sub(r"^(?:please\s+)?call you\b", "to call you", swapped, flags=_I)  # "Call me Sam."
    swapped = re.sub(r"\b(you) was\b", r"\1 were", swapped, flags=_I)  # "since I was fifteen"
    if _PRONOUN_START.match(swapped):
        swapped = swapped[0].lower() + swapped[1:]
    if _NO_SUBJECT.match(swapped):  # "Retired from the post office in June…": the person did
        swapped = "you " + swapped[0].lower() + swapped[1:]
    return swapped


_AFTER_NUMBER = re.compile(r"[0-9] ?$")


def _swap_word(match: re.Match[str]) -> str:
    """One word of the person's said in the second person; a time's "am" stays ("at the airport at 5am")."""
    word = match.group(0)
    if word.lower() == "am" and _AFTER_NUMBER.search(match.string, 0, match.start()):
        return word
    return _swap_en(word)


_NO_SUBJECT = re.compile(
    r"^(?:retired|moved|started|spent|went|got|had|finished|quit|joined|bought|sold|booked|been)\b", _I
)


def _swap_en(word: str) -> str:
    swapped = _SWAP_EN.get(word.lower())
    if swapped is None:
        return word
    # "I'm" is capitalised because "I" is, not because it starts a sentence: "and you're", not "and You're".
    own_i = word.lower() == "i" or word.lower().startswith("i'")
    return swapped.capitalize() if word[0].isupper() and not own_i else swapped
