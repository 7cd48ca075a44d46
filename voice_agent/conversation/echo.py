"""Whether a piece of a reply only restates something the person said: no answer.

A small model often says the question back, reworded just enough to slip past a word-for-word test:
"I suggest a board game for a rainy day." for an earlier "Suggest a board game for a rainy day.", "We're
firing up the grill on Saturday." as the first sentence of a two-sentence turn, "下午有点饿，" for
"下午有点饿，吃点什么零食好？". :func:`restates` says whether every content word of the piece (English
words, or Chinese characters) comes from the line, once pronouns, articles and modal verbs are set
aside: a piece that adds one thing of its own ("…, I'd have a mocktail", "我喝点咖啡") is an answer.
"""

from __future__ import annotations

import functools
import re

from voice_agent.conversation.writing import WRITES_TO
from voice_agent.text.cjk import HAN_RE
from voice_agent.text.questions import is_question
from voice_agent.text.sentences import sentences_of

_HAN = HAN_RE
_EN_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
# Words that turn a question into a statement without adding anything: pronouns, articles, auxiliaries.
_FRAME_TEXT = (
    "i i'm i'd i'll i've me my mine you you're you'd you'll your yours we we're we'd we'll us our it it's "
    "its they them their he she his her a an the some any one this that these those is are am be was were "
    "do does did can could would should will shall may might must to of for so just really yes no sure ok "
    "okay well then there here what which how let let's"
)
_FRAME_EN = frozenset(_FRAME_TEXT.split(" "))
# Chinese characters of the same kind: pronouns, particles, measure words, "want"/"can".
_FRAME_ZH = frozenset("我你他她它们的了吗呢吧啊呀是在有就也都一个点些好要想能可以会这那么哦嗯")
# An open request: what it asks for is not in its own words, so a reply made only of them is no answer.
_WH_WORDS_EN = "what|which|where|when|who|whom|how|why"
_WH_EN = r"(?:" + _WH_WORDS_EN + r")"
_ASKING_VERB = r"(?:recommend|suggest|tell|name|give|find|pick|choose|help|list|share|describe|explain)"
# An English sentence that asks for something: a question with a question word or an asking verb ("Can you
# recommend a cake?"), an imperative ("Name a famous painter.", "Please pick a film for us."), or a request
# said as a statement ("I need ideas for …", "I don't know what to cook."). Not: a question word inside a
# statement ("I know where you live.", "… to consider how much there might be …"), "my name is …", or a
# request never to make ("Never suggest sushi to me." is a constraint, said as a statement).
_OPENER_EN = r"^\s*(?:(?:please|ok|okay|so|and|now|well|hey|hi|oh|um|uh|alright|then|also|just)[,\s]+)*"
_IMPERATIVE_EN = re.compile(
    _OPENER_EN + r"(?:" + _ASKING_VERB + r"|think of|come up with|give me|show me)\b", re.IGNORECASE
)
_ASKED_FOR_EN = re.compile(
    r"\b(?:ideas?|suggestions?|recommendations?|advice|tips)\b(?! (?:is|are|was|were)\b)|"
    r"\b(?:know|sure|decide|idea|wonder|wondering|figure out|help me)\b[^.!?]{0,20}?\b"
    + _WH_EN
    + r"\b(?:\s+\w+){0,2}?\s+(?:to|should)\b",
    re.IGNORECASE,
)
_ASKING_WORD_EN = re.compile(
    r"\b(?:" + _WH_WORDS_EN + r"|recommend|suggest|ideas?|tell|give|find|pick|name)\b|"
    # ("Can you write the acknowledgements page…?": what is to be written is not in the words)
    r"\b(?:can|could|would|will) you (?:please )?(?:write|draft|compose|list|plan)\b",
    re.IGNORECASE,
)
_NEVER_EN = re.compile(
    r"\b(?:never|don't|do not|stop|no more)\b[^.!?]{0,30}\b(?:recommend|suggest)", re.IGNORECASE
)
# Chinese: a question word or an asking verb, unless the question word is indefinite ("什么都不吃",
# "哪儿都不想去") or the request is one never to make ("别给我推荐火锅").
_ASKING_ZH = re.compile(
    r"什么|啥|哪|怎么|咋|谁|几|多少|多长|多远|多久|多大|多高|推荐|建议|主意|帮我想|想一个|讲一?点|讲讲|讲个|说一[个种首部本]|说个|介绍"
)
_INDEFINITE_ZH = re.compile(r"(?:什么|啥|哪儿?|哪里|谁|怎么)[^，。！？,.!?]{0,2}?[都也]")
_NEVER_ZH = re.compile(r"(?:别|不要|不用|不许|别再|不准)[^，。！？,.!?]{0,4}(?:推荐|建议)")
_SENTENCE_END = re.compile(r"(?<=[.!?;。！？；])\s*")
_CHOICE = re.compile(r"\bor\b|还是|或者", re.IGNORECASE)


def content_words(text: str) -> list[str]:
    """The words (English) or characters (Chinese) of ``text`` that carry its content."""
    han = _HAN.findall(text)
    if han:
        return [ch for ch in han if ch not in _FRAME_ZH]
    return [w for w in _EN_WORD.findall(text.lower()) if w not in _FRAME_EN]


def restates(piece: str, line: str, *, min_content: int = 2) -> bool:
    """Whether every content word of ``piece`` is taken from ``line`` (at least ``min_content`` of them):
    the line said back, reworded or in part, with nothing of the piece's own."""
    said = content_words(piece)
    if len(said) < min_content:
        return False
    source = set(content_words(line)) | set(_plain_words(line))
    return all(word in source or word.rstrip("s") in source for word in said)


def _plain_words(line: str) -> list[str]:
    return _EN_WORD.findall(line.lower()) if not _HAN.search(line) else _HAN.findall(line)


def open_request(text: str) -> bool:
    """Whether ``text`` asks for something its words do not contain ("What should I drink?", "推荐一个
    蛋糕"), so that its words said back answer nothing; a choice ("tea or coffee?") or a yes/no question
    can be answered with its own words."""
    return any(_asks_for_something(part) for part in _SENTENCE_END.split(text) if part.strip())


def _asks_for_something(sentence: str) -> bool:
    # "帮我写个请假的消息吧": the message is not in the words asking for it ("我刚发了条消息" asks nothing)
    if WRITES_TO.search(sentence) and _ASKS_OF_YOU.search(sentence):
        return True
    if _CHOICE.search(sentence):
        return False
    if _HAN.search(sentence):
        if _NEVER_ZH.search(sentence):
            return False
        return bool(_ASKING_ZH.search(_INDEFINITE_ZH.sub("", sentence)))
    if _NEVER_EN.search(sentence):
        return False
    if is_question(sentence) and _ASKING_WORD_EN.search(sentence):
        return True
    return bool(_IMPERATIVE_EN.search(sentence) or _ASKED_FOR_EN.search(sentence))


def asks_of_you(text: str) -> bool:
    """Whether ``text`` asks us to do something, question or not ("帮我在合租群里发个提醒", "Can you
    plan…", "Help me furnish…"): a reply starting with its own words is no answer to it."""
    return _REQUEST.search(text) is not None


_REQUEST = re.compile(
    r"\b(?:can|could|would|will) you\b|\bplease\b|\bhelp me\b|\bi (?:need|want|'d like) you to\b|"
    r"帮我|帮忙|你帮|替我|你给我|你来|麻烦你|请你|给我(?:写|发|列|排|想|出|做|设计|安排|推荐|挑|选|弄|整)",
    re.IGNORECASE,
)
# An imperative opening a sentence or a clause: "Plan our meals…", "…, so build me a schedule".
_ORDER_EN = re.compile(
    r"(?:^|[.!?:;]\s+|,\s+|\b(?:so|and|then|now|just)\s+)(?:please\s+)?(?:plan|build|make|give|tell|"
    r"suggest|recommend|list|write|draft|find|sort out|map out|lay out|work out|put together|come up with|"
    r"pick|choose|"
    r"book|organi[sz]e|arrange|schedule|show|walk me through|talk me through|figure out|draw up|whip up|"
    r"sketch out|get me)\s+(?:me|us|our|my|a|an|the|some|what|which|how|where|when|who|out|together|up|"
    r"everything|two|three|four|five|ten|\d+)\b"
    # (not a liking said as an offer: "give me a trail and a pair of boots and I'm happy")
    r"(?![^.!?]*\band (?:I'm|I am|I'll|I will|I'd|I could)\b)",
    re.IGNORECASE,
)


def orders(text: str) -> bool:
    """Whether ``text`` tells us to do something in the imperative ("Plan our meals from Friday", "so build
    me a schedule"): a request, never a statement to note with "Got it."."""
    return _ORDER_EN.search(text) is not None


_ASKS_OF_YOU = re.compile(
    r"\b(?:can|could|would|will) you\b|\bplease\b|\bhelp\b|\bi (?:need|want|'d like) you to\b|"
    r"^\s*(?:write|draft)\b|"
    r"帮|替我|你给|你来|麻烦|一下|吧|好不好|行不行|可以吗|好吗",
    re.IGNORECASE,
)
_QUESTION_ZH = frozenset("什怎哪谁几多少为何")


def shares_content(text: str, other: str) -> bool:
    """Whether two texts share a content word (English) or a pair of content characters (Chinese)."""
    mine, theirs = content_keys(text), content_keys(other)
    return bool(mine & theirs)


_POSSESSIVE = re.compile(r"['’]s?$")


# Words a question shares with a story without being about it: who it is about ("Mum's 75th is coming up…"
# and "Mum's settling into the bungalow nicely") and everyday verbs and times. Sharing only these, a
# statement is no answer: said back, it is an unrelated clause of the story.
WEAK_KEYS = frozenset((
    "mum", "mom", "dad", "nan", "gran", "grandma", "grandad", "grandpa", "wife", "husband", "son",
    "daughter", "kid", "kids", "sister", "brother", "aunt", "uncle", "she", "he", "they", "her", "his",
    "new", "get", "make", "love", "next", "month", "week", "year", "day", "time", "thing", "someth", "idea",
    "good", "nice", "com", "go", "going", "want", "like", "need", "really", "just", "still",
    "奶奶", "爷爷", "妈妈", "爸爸", "老婆", "老公", "儿子", "女儿", "孩子", "姥姥", "姥爷", "外婆", "外公",
    "老伴", "下月", "这周", "周末",
    # (a day's name alone: "师傅说下礼拜才能上门修" is no answer to "约了礼拜六上午十点…几点出门")
    "礼拜", "星期", "下礼", "上礼", "这礼", "拜六", "拜天", "拜日", "期六", "期天", "期日", "下周", "上周",
))  # fmt: skip


def content_keys(text: str) -> set[str]:
    """The content of ``text`` as keys to compare: English content words without a plural or possessive
    "s" (three letters or more: "physio's" is "physio"), or pairs of Chinese content characters."""
    return set(_content_keys(text))


@functools.lru_cache(maxsize=8192)
def _content_keys(text: str) -> frozenset[str]:
    """``content_keys``, read once per text (remembered texts are compared again on every turn)."""
    if not _HAN.search(text):
        return _english_keys(content_words(text))
    kept = "".join(ch for ch in content_words(text) if ch not in _QUESTION_ZH)
    pairs = frozenset(kept[i : i + 2] for i in range(len(kept) - 1))
    # (and the English words of a mixed turn: "…about her Chinese tuition this week, … finish her 作文")
    english = [w for w in _EN_WORD.findall(_HAN.sub(" ", text).lower()) if w not in _FRAME_EN]
    return pairs | _english_keys(english) if english else pairs


def _english_keys(words: list[str]) -> frozenset[str]:
    """English content words as keys: no plural or possessive "s", three letters or more."""
    keys = (_POSSESSIVE.sub("", w).rstrip("s") for w in words)
    return frozenset(k for k in keys if len(k) > 2)


def only_questions(text: str) -> bool:
    """Whether every sentence of ``text`` asks something (it states nothing about the person)."""
    parts = sentences_of(text)
    return bool(parts) and all(is_question(p) for p in parts)


def answers_other_turn(piece: str, turn: str, exchanges: list[str]) -> bool:
    """Whether ``piece`` answers an earlier exchange instead of ``turn``: of its content words that the
    turn does not use (at least two), half or more come from one earlier question and its reply ("A bee
    makes honey." for a dinner question, after "What does a bee make?"); or, for a short reply, all that a
    short earlier question asked."""
    own = content_keys(piece) - content_keys(turn)
    if len(own) < 2:
        return False
    turn_keys = content_keys(turn)
    for exchange in exchanges:
        asked = content_keys(exchange) - turn_keys
        shared = own & asked
        if len(shared) >= 2 and 2 * len(shared) >= len(own):
            return True
        # (a short reply that takes up all a short earlier question asked: "A bee makes honey." after
        # "What does a bee make?", when the turn itself also says "make")
        if shared and shared == asked and len(own) <= 3 and 2 * len(shared) >= len(own):
            return True
    return False
