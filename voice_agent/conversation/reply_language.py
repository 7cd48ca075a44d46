"""Whether a reply is in the person's language, and the note that asks for it."""

from __future__ import annotations

import re

from voice_agent.text.cjk import HAN_RE

_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
LANGUAGE_NOTES = {"zh": "请只用中文回答。", "en": "Answer in English only."}


def reply_language_ok(user_language: str, text: str) -> bool | None:
    """Whether ``text`` is in the user's language (zh or en); None when the text is too short to tell
    or the user's language is neither."""
    han = len(HAN_RE.findall(text))
    latin = len(_LATIN_WORD.findall(text))
    if user_language == "zh":
        if han >= 2:
            return True
        return False if latin >= 3 else None
    if user_language == "en":
        if latin >= 2 and han == 0:
            return True
        return False if han >= 3 and han >= latin else None
    return None
