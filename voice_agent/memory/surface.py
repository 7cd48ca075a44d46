"""The text an embedder sees for a scrubbed record or query.

Placeholders such as ``[NAME:3f0c9a12b4de]`` are opaque hex to a sentence encoder: it splits them into
meaningless sub-words, and a question about a person no longer resembles what that person said. So,
for embedding only, each NAME placeholder becomes a pseudonym picked by its hash (the same person always
gets the same ordinary first name; nothing about the real name is recoverable) and the other kinds become
what they are ("phone number"). The stored text keeps the placeholders; queries get the same treatment,
so both sides meet in the same space.
"""

from __future__ import annotations

import re

from voice_agent.text.placeholders import PLACEHOLDER_SHAPE_RE as _PLACEHOLDER

_KIND_WORDS = {
    "PHONE": "phone number",
    "ID": "ID number",
    "CARD": "bank card",
    "EMAIL": "email address",
    "ADDRESS": "home address",
}
# Common, short, unambiguous first names of several origins (one sub-word each in most vocabularies).
_PSEUDONYM_TEXT = """
    Anna Ben Clara David Emma Frank Grace Henry Iris Jack Kate Leo Maria Nick Olivia Peter Rosa Sam
    Tina Victor Wendy Adam Bella Carl Diana Eric Fiona George Helen Ivan Julia Karl Laura Mark Nina
    Oscar Paula Ruth Simon Tom Vera Alice Bruno Chloe Daniel Elena Felix Hannah Igor Jane Kevin Lisa
    Martin Nora Omar Philip Rita Sofia Tony Ursula Walter Yvonne Zoe Alan Betty Chris Dora Edward Flora
    Gina Hugo Irene James Kim Lucy Max Nadia Otto Pia Ray Sara Ted Una Vince Will Yuri Zack"""
PSEUDONYMS: tuple[str, ...] = tuple(_PSEUDONYM_TEXT.split())


def pseudonym(hex_hash: str) -> str:
    return PSEUDONYMS[int(hex_hash[:8], 16) % len(PSEUDONYMS)]


def _replace(match: re.Match[str]) -> str:
    kind, digest = match.group(1), match.group(2)
    if kind == "NAME":
        return pseudonym(digest)
    return _KIND_WORDS.get(kind, kind.lower())


def embedding_text(text: str, speaker: str | None = None) -> str:
    """``"[NAME:…]: I moved to [ADDRESS:…]"`` → ``"Grace: I moved to home address"``."""
    surface = _PLACEHOLDER.sub(_replace, text)
    if speaker:
        return f"{_PLACEHOLDER.sub(_replace, speaker)}: {surface}"
    return surface
