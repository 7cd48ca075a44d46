"""What counts as no answer from the model, and what the second attempt is told after one.

A refusal of an ordinary request ("I'm sorry, but I can't assist with that.", "抱歉，我无法协助完成这个
请求。"), a bare word ("Chocolate.", "去上海。") for a request for a suggestion, the question or the prompt
said back: the reply check regenerates once, with a note that asks for one whole sentence naming one
specific thing of the kind asked for (and, when what the person likes shapes the request, fitting it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from voice_agent.text.cjk import HAN_RE
from voice_agent.text.questions import is_question

_HAN = HAN_RE
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")

NO_ANSWER_REASONS = frozenset(
    (
        "fragment",
        "repeats the prompt",
        "repeats the question",
        "said nothing",
        "refusal",
        "answers an earlier turn",
    )
)
# A small model declining an ordinary request ("抱歉，我无法协助完成这个请求。"): no answer either.
REFUSAL = re.compile(
    r"\bI(?:'m| am)? (?:sorry,? (?:but )?I )?(?:can't|cannot|can not|am unable to|'m unable to|won't) "
    r"(?:help|assist|provide|fulfil|fulfill|answer|do that)|"
    r"^\s*(?:(?:很|非常|真)?(?:抱歉|对不起))?[，,]?\s*我(?:无法|不能|没法)(?:协助|帮|回答|提供|完成)",
    re.IGNORECASE,
)
# What says nothing yet: "Sure!", "Of course.", "Here's a reply to the team:", "好的。".
LEAD_IN = re.compile(
    r"^\s*(?:(?:sure|of course|certainly|absolutely|okay|ok|alright|great|here(?:'s| is)[^.!?]{0,60}:|"
    r"(?:i can|i'd be (?:happy|glad) to|i'll|let me) help(?: you)?(?: with (?:that|this|it))?|"
    # (or says it understood: "好的，我明白了。", "Got it.")
    r"got it|understood|i understand|noted|"
    r"好的|当然|没问题|可以|我(?:可以|来)帮你(?:写|想)?一?下?|(?:我)?(?:明白|知道|了解|收到)了?)[\s!.,:：！。，]*)+$",
    re.IGNORECASE,
)


def only_lead_in(said: Sequence[str], *, written: bool = False) -> bool:
    """Whether every piece said so far only leads in ("Sure!", "Here's a reply to the team:"); for a
    request for something written (``written``), or asks back instead of writing it ("Sure, I can help
    you with that. Could you let me know when you're available?")."""
    return all(
        LEAD_IN.match(piece) or (written and (is_question(piece) or ASKS_BACK.match(piece))) for piece in said
    )


# Asking the person for what a message needs instead of writing it: "Please let me know your daughter's
# name and the date.", "请告诉我具体时间。"
ASKS_BACK = re.compile(
    r"^\s*(?:please\s+|kindly\s+)?(?:let me know|tell me|provide|send me|share)\b|"
    r"^\s*(?:could|can|would) you (?:please )?(?:let me know|tell me|provide|give me|share|send me)\b|"
    r"^\s*(?:请|麻烦)?(?:你)?(?:告诉我|提供一下|说一下|发给我)",
    re.IGNORECASE,
)


WHOLE_SENTENCE = {
    "en": "Answer with one whole sentence that names one specific {thing}.",
    "zh": "请用一句完整的话回答，说出一个具体的{thing}。",
}
WHOLE_SENTENCE_THING = {"en": "thing to try", "zh": "推荐"}
FITS_THIS = {"en": "It should fit this: {liked}", "zh": "要符合这一点：{liked}"}
_WORDISH = re.compile(r"[A-Za-z0-9']+")


# Words that say nothing on their own: a whole reply of them ("That.", "Okay.", "嗯。") answers no request.
_EMPTY_EN = frozenset(
    ("that", "this", "it", "so", "sure", "okay", "ok", "yes", "yeah", "well", "hmm", "um", "right")
)
_EMPTY_ZH = re.compile(r"[嗯哦噢好的那个这是呃啊吧我知道了明白。，！…\s]+")


def says_nothing(text: str) -> bool:
    """Whether ``text`` is only words that say nothing ("That.", "Okay.", "嗯。", "好的。")."""
    if _HAN.search(text):
        return _EMPTY_ZH.fullmatch(text.strip()) is not None
    words = _WORDISH.findall(text.lower())
    return bool(words) and all(word in _EMPTY_EN for word in words)


def is_bare(text: str) -> bool:
    """A piece of one or two words ("Chocolate.", "Tea.", "茶。"): no suggestion on its own."""
    han = len(_HAN.findall(text))
    if han:
        return han <= 3 and not _LATIN_WORD.search(text)
    return len(_WORDISH.findall(text)) <= 2


def answer_note(requested: str, liked: str, language: str) -> str:
    """The note after no answer (a refusal, a bare word, the question said back): one whole sentence
    naming one specific thing of the kind asked for, fitting what the person likes when that shapes it
    ("Answer with one whole sentence that names one specific song. It should fit this: I love …")."""
    note = WHOLE_SENTENCE[language].format(thing=requested or WHOLE_SENTENCE_THING[language])
    liked = liked.strip()
    if liked and len(liked) <= 160 and bool(_HAN.search(liked)) == (language == "zh"):
        stop = "。" if language == "zh" else "."
        note += " " + FITS_THIS[language].format(liked=liked.rstrip("。.") + stop)
    return note
