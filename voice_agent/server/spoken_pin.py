"""A PIN said aloud, as the recogniser wrote it down: "2 4 6 8", "2468", "two four six eight",
"my PIN is 2, 4, 6, 8", "我的密码是二四六八".

Only an utterance that is nothing but a PIN counts (digits, digit words, and a few words such as "my PIN
is"): "I was born in 1984" is conversation, not a PIN attempt, so chatting never locks a badge out.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from voice_agent.server.credentials import valid_pin
from voice_agent.server.identity import IdentityGate, Verdict
from voice_agent.server.protocol import ClientMessage
from voice_agent.text.cjk import HAN, char_class

_EN_DIGITS = {
    "zero": "0", "oh": "0", "o": "0", "one": "1", "two": "2", "to": "2", "too": "2", "three": "3",
    "four": "4", "for": "4", "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9",
}  # fmt: skip
# What the recogniser writes for a digit said on its own, with no sentence around it to steer it: on
# some CPUs the int8 Whisper hears "two four six eight" as "Two, Far. Six, Eight." These count only in
# an utterance that is nothing but a PIN, so "I won" or "far away" are never read as digits.
_EN_HEARD_AS = {
    "won": "1", "tu": "2", "tree": "3", "free": "3", "far": "4", "fore": "4", "fo": "4", "sicks": "6",
    "ate": "8", "nein": "9", "niner": "9",
}  # fmt: skip
_ZH_DIGITS = {
    "零": "0", "〇": "0", "一": "1", "幺": "1", "二": "2", "两": "2", "三": "3", "四": "4", "五": "5",
    "六": "6", "七": "7", "八": "8", "九": "9",
}  # fmt: skip
_EN_FILLER = frozenset((
    "my", "the", "pin", "code", "number", "is", "it's", "its", "it", "pin's", "passcode", "okay", "ok",
    "um", "uh", "er",
))  # fmt: skip
_ZH_FILLER = ("我的", "密码", "是", "号码", "嗯", "PIN", "pin")
_WORD = re.compile(r"[0-9]+|[^\W\d_]+(?:'[a-z]+)?", re.UNICODE)
_HAN = re.compile(char_class(HAN, "〇"))


def pin_from_speech(text: str) -> str | None:
    """The PIN an utterance consists of, or None when it is anything else."""
    if _HAN.search(text):
        return _chinese(text)
    digits: list[str] = []
    for token in _WORD.findall(text.lower()):
        if token.isdigit():
            digits.append(token)
        elif token in _EN_DIGITS or token in _EN_HEARD_AS:
            digits.append(_EN_DIGITS.get(token) or _EN_HEARD_AS[token])
        elif token not in _EN_FILLER:
            return None
    pin = "".join(digits)
    return pin if valid_pin(pin) else None


def _chinese(text: str) -> str | None:
    rest = re.sub(r"[\s,，。.、!！?？:：]", "", text)
    for filler in _ZH_FILLER:
        rest = rest.replace(filler, "")
    pin = "".join(_ZH_DIGITS.get(ch, ch) for ch in rest)
    return pin if valid_pin(pin) else None


_MASK = re.compile(
    r"[0-9零〇一幺二两三四五六七八九]|\b(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)\b",
    re.IGNORECASE,
)
_ANY_DIGIT_WORD = re.compile(r"[0-9]|[^\W\d_]+(?:'[a-z]+)?", re.UNICODE)


def _masked_word(match: re.Match[str]) -> str:
    word = match.group(0)
    return "•" if word.isdigit() or word.lower() in _EN_DIGITS or word.lower() in _EN_HEARD_AS else word


REPLIES = {
    "ok": ("Thank you, welcome back.", "谢谢，欢迎回来。"),
    "identity_refused": ("Sorry, that PIN does not match.", "抱歉，密码不对。"),
    "identity_locked": ("Too many wrong PINs. Please try again later.", "错误次数太多，请稍后再试。"),
}


class SpokenPin:
    """A badge id waiting for its PIN; the utterance that is one is answered here (never stored, never
    sent to the language model), and its digits are masked in the live transcript."""

    def __init__(self, gate: IdentityGate, peer: str, on_verdict: Callable[[Verdict], None]) -> None:
        self.gate = gate
        self.peer = peer
        self.on_verdict = on_verdict
        self.waiting_for: str | None = None

    def expect(self, user: str | None, verdict: Verdict) -> None:
        """After a ``hello``: wait for this badge's PIN when it was asked for (or was wrong)."""
        asked = verdict.problem in ("pin_required", "identity_refused")
        self.waiting_for = user if user and asked else None

    def clear(self) -> None:
        self.waiting_for = None

    def mask(self, text: str) -> str:
        """The live transcript while a PIN is awaited: every digit hidden, and, when the utterance is a
        PIN, every word of it that stood for a digit too ("Two, Far." shows as "•, •.")."""
        if self.waiting_for is None:
            return text
        if pin_from_speech(text) is not None and not _HAN.search(text):
            return _ANY_DIGIT_WORD.sub(_masked_word, text)
        return _MASK.sub("•", text)

    async def answer(self, text: str) -> str | None:
        user = self.waiting_for
        pin = None if user is None else pin_from_speech(text)
        if user is None or pin is None:
            return None
        verdict = await self.gate.resolve(ClientMessage("hello", user=user, pin=pin), peer=self.peer)
        self.expect(user, verdict)  # wrong: they may say it again; locked out: no more
        self.on_verdict(verdict)
        english, chinese = REPLIES.get(verdict.problem or "ok", REPLIES["identity_refused"])
        return chinese if _HAN.search(text) else english
