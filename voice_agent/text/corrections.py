"""A speaker correcting themselves mid-sentence: "the twelfth of May, no wait, the twenty-first",
"下礼拜二早上八点来，呃不对不对，是礼拜四". What stands is what follows the last correction; what
precedes it was taken back. Said back whole, such a sentence would tell the person the wrong value.
"""

from __future__ import annotations

import re

from voice_agent.text.cjk import HAN_RE

SELF_CORRECTION = re.compile(
    r"\b(?:no,? wait|wait,? no|no,? sorry|sorry,? no|sorry,? (?:that's|that is) wrong|"
    r"(?:oh,? )?scratch that|i mean(?=[,\s])|actually no|no no)\b"
    r"|不对不对|不对，|不是不是|说错了|口误|我是说|哦不[，,]|啊不[，,]",
    re.IGNORECASE,
)


def after_correction(text: str) -> str | None:
    """What stands of ``text``: the words after its last self-correction (None: it has none); "" when
    too little follows to say anything (a sentence cut off after "不对不对，是礼")."""
    found = list(SELF_CORRECTION.finditer(text))
    if not found:
        return None
    last = found[-1]
    rest = text[last.end() :].strip(" ,，、:：;；-—")
    enough = len(HAN_RE.findall(rest)) >= 4 if HAN_RE.search(rest) else len(rest.split()) >= 3
    return rest if enough else ""
