"""PII placeholders, defined once: what the scrubber writes, and what any placeholder looks like.

The scrubber replaces a personal value by ``[KIND:<12 hex>]`` (``memory/scrub.py``). Two patterns::

    PLACEHOLDER_RE        exactly what the scrubber writes: a known kind and 12 hex digits
    PLACEHOLDER_SHAPE_RE  anything shaped like one: an upper-case kind and 4 to 64 lower-case hex digits

Code that decides about a value (the vault, forgetting, rendering a reply for its owner) uses the exact
pattern; code that must only keep a placeholder whole (clause splitting, language guessing, keyword
terms, the text an embedder sees) uses the shape, so text from an older export or a hand-edited file is
treated the same way. Both capture (kind, hash).
"""

from __future__ import annotations

import re

KINDS: tuple[str, ...] = ("PHONE", "ID", "CARD", "EMAIL", "ADDRESS", "NAME")
PLACEHOLDER_HEX_CHARS = 12

PLACEHOLDER_RE = re.compile(rf"\[({'|'.join(KINDS)}):([0-9a-f]{{{PLACEHOLDER_HEX_CHARS}}})\]")
PLACEHOLDER_SHAPE_RE = re.compile(r"\[([A-Z][A-Z_]*):([0-9a-f]{4,64})\]")


def spoken_length(text: str) -> int:
    """The length of ``text`` as it is spoken: a placeholder ("[NAME:0639e05ed9d5]") counts as the short
    name it stands for ("Name"), not its 19 characters."""
    return len(PLACEHOLDER_RE.sub("Name", text))


def placeholder(kind: str, digest: str) -> str:
    """The placeholder of a value of ``kind`` whose keyed hash is ``digest`` (hex, at least 12 digits)."""
    return f"[{kind}:{digest[:PLACEHOLDER_HEX_CHARS]}]"
