"""Late chunking: an utterance's clause vectors from ONE pass of the encoder over the whole utterance.

Today each clause is embedded alone (one e5 pass each) and the utterance once more (its loopback
fingerprint). Here the utterance is embedded once; each clause's vector is the mean of the last layer's
token states over that clause's tokens, plus tokens every clause shares (``SHARED``): the sentence start
and end and the ``passage:`` prefix. The clause's tokens have then attended to the whole utterance
("5 years already!" carries what was said before it). The utterance's own vector is the pass's pooled
output, bit for bit what embedding it alone gives (its loopback fingerprint).

Spans are found by tokenising each piece alone: e5's tokenizer splits on spaces before its Unigram model,
so the utterance's tokens are the pieces' tokens one after another. That is checked on every utterance;
where it does not hold, or the utterance is longer than the model's window, there is no late chunking
(None) and the caller embeds the clauses one by one, as before — never a wrong span.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

# Which tokens every clause's mean includes besides its own: "specials" (<s>, </s>), "prefix" (those and
# the "passage:" prefix's). On LoCoMo dev the three choices were within one question of each other.
Shared = Literal["none", "specials", "prefix"]
SHARED: Shared = "prefix"


@dataclass(frozen=True)
class LateVectors:
    whole: np.ndarray  # the text embedded whole (L2-normalised): exactly its ``embed_passages`` row
    pieces: np.ndarray  # one L2-normalised row per piece, [pieces, dim]


@dataclass(frozen=True)
class Layout:
    """Where the prefix and each piece sit in the model's ids (``<s>`` at 0, ``</s>`` last)."""

    ids: list[int]
    prefix: tuple[int, int]
    pieces: list[tuple[int, int]]


def layout(
    tokenize: Callable[[str], list[int]],
    prefix: str,
    pieces: Sequence[str],
    *,
    bos: int,
    eos: int,
    max_tokens: int,
) -> Layout | None:
    """The model ids of ``prefix + " ".join(pieces)`` and each part's span, or None where the pieces'
    own tokens do not make up the whole's, a piece has none, or the whole exceeds ``max_tokens``.
    ``tokenize`` maps a text to its content ids (no ``<s>``/``</s>``)."""
    parts = [prefix.strip(), *(piece.strip() for piece in pieces)]
    if not all(parts[1:]):
        return None
    whole = tokenize(prefix + " ".join(parts[1:]))
    if len(whole) + 2 > max_tokens:
        return None
    spans: list[tuple[int, int]] = []
    cursor, joined = 1, []  # position 0 is <s>
    for part in parts:
        ids = tokenize(part) if part else []
        spans.append((cursor, cursor + len(ids)))
        cursor += len(ids)
        joined += ids
    if joined != whole or any(begin == end for begin, end in spans[1:]):
        return None
    return Layout([bos, *whole, eos], spans[0], spans[1:])


def pool_pieces(states: np.ndarray, where: Layout, shared: Shared = SHARED) -> np.ndarray:
    """One L2-normalised row per piece: the mean of its token states and the shared ones."""
    last = len(where.ids) - 1
    common: list[int] = []
    if shared != "none":
        common += [0, last]
    if shared == "prefix":
        common += list(range(*where.prefix))
    rows = np.empty((len(where.pieces), states.shape[1]), dtype=np.float32)
    for row, (begin, end) in enumerate(where.pieces):
        total = states[begin:end].sum(axis=0) + states[common].sum(axis=0)
        mean = total / (end - begin + len(common))
        rows[row] = mean / max(float(np.linalg.norm(mean)), 1e-12)
    return rows
