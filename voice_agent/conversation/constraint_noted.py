"""A turn that tells a constraint, and asks nothing, is answered by saying that it is remembered.

"My daughter Asha is allergic to sesame." is the moment the person needs to know the assistant took it
in; a small model answers it beside the point ("We have a very sensitive allergy to sesame…"), and a
second request would cost time. When the turn's own words state an allergy, an intolerance, a diet or a
"never …", and the turn is no question or request, the reply is the statement said back in the second
person ("Got it, I'll remember that your daughter Asha is allergic to sesame."), at once and without the
LLM. A request never to be made ("Never suggest sushi to me") is answered with what will not happen
("Got it, I won't suggest sushi."). The engine traces it (``reply.constraint_noted``).
"""

from __future__ import annotations

import re

from voice_agent.conversation.constraints import Constraint, parse_constraints
from voice_agent.conversation.echo import open_request
from voice_agent.conversation.recall_answer import second_person
from voice_agent.text.cjk import HAN_RE
from voice_agent.text.questions import is_question
from voice_agent.text.sentences import sentences_of

# A sentence that asks for something not to be done: said back as it is, it would be an order to us.
_NOT_TO_DO = re.compile(
    r"^\s*(?:(?:please|and|oh|also|so)[,\s]+)*(?:never|don't|do not|stop|no more)\b(?!\s+forget)|"
    r"别(?!忘)|不要(?!忘)|不许|不准",
    re.IGNORECASE,
)
_MAX_SAID_BACK = 160


def constraint_noted(turn: str, language: str) -> str | None:
    """What to say to a turn that only tells a constraint, or None (a question, a request, no
    constraint: the LLM answers as usual)."""
    text = turn.strip()
    if not text or is_question(text) or open_request(text):
        return None
    sentences = sentences_of(text)
    stating = [(s, found) for s in sentences if (found := parse_constraints(s))]
    if not stating:
        return None
    chinese = language == "zh" or bool(HAN_RE.search(text))
    sentence, found = stating[0]
    if _NOT_TO_DO.search(sentence) or len(sentence) > _MAX_SAID_BACK:
        return _will_avoid(_named_first(sentence, found), chinese)
    body = second_person(sentence, "zh" if chinese else "en")
    if not body:
        return None
    return f"好的，我记住了：{body}。" if chinese else f"Got it, I'll remember that {body}."


def _named_first(sentence: str, found: list[Constraint]) -> Constraint:
    """The constraint whose thing the sentence names first ("Never suggest sushi to me, I don't like
    raw fish": sushi)."""
    lowered = sentence.lower()

    def position(constraint: Constraint) -> int:
        spots = [lowered.find(noun.lower()) for noun in (constraint.noun_en, constraint.noun_zh)]
        return min((spot for spot in spots if spot >= 0), default=len(lowered))

    return min(found, key=position)


def _will_avoid(constraint: Constraint, chinese: bool) -> str:
    if chinese:
        return f"好的，以后我不会再推荐{constraint.noun_zh}了。"
    return f"Got it, I won't suggest {constraint.noun_en}."
