"""Pieces: clauses as sets of token indices, and the language-independent steps on them (merge short
fragments into a neighbour, cut over-long pieces into windows, render to text with source offsets).

Tokens are given as character spans into the source text, so the same code serves a spaCy ``Doc``, a
UDPipe parse and the parser-free fallback.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

_NO_SPACE_BEFORE = frozenset(".,!?;:)]}'\"")
Spans = Sequence[tuple[int, int]]  # token index -> (start_char, end_char) in the source text


@dataclass(frozen=True)
class Piece:
    """One clause: body tokens (sorted), plus tokens carried over from another clause (its subject,
    and auxiliaries/negation where they are shared) so the clause reads on its own."""

    tokens: tuple[int, ...]
    sentence: int = 0
    head: int = -1  # the clause's head token, -1 when it has none (fallback, windows)
    parent_head: int | None = None  # head token of the clause this one was split from
    carry: tuple[int, ...] = ()
    carry_before: int | None = None  # body token the carried tokens go before; None: at the start
    stuck: bool = field(default=False, compare=False)  # a fragment that no neighbour could take

    @property
    def first(self) -> int:
        return self.tokens[0]

    def order(self) -> list[int]:
        """Token indices in reading order: the carried tokens inserted into the body."""
        body = set(self.tokens)
        carry = [i for i in self.carry if i not in body]
        if not carry:
            return list(self.tokens)
        at = 0 if self.carry_before is None else self.tokens.index(self.carry_before)
        return [*self.tokens[:at], *carry, *self.tokens[at:]]


@dataclass(frozen=True)
class Rendered:
    text: str
    start_char: int  # source span of the body, end exclusive
    end_char: int
    segments: tuple[tuple[int, int, int], ...]  # (offset in text, source start, source end)

    def map_spans(self, source_spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
        """Source character spans → spans within ``text`` (a span crossing a join is cut in parts)."""
        out: list[tuple[int, int]] = []
        for start, end in source_spans:
            for offset, seg_start, seg_end in self.segments:
                lo, hi = max(start, seg_start), min(end, seg_end)
                if lo < hi:
                    out.append((offset + lo - seg_start, offset + hi - seg_start))
        return sorted(set(out))


def _runs(order: list[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for index in order:
        if runs and index == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], index)
        else:
            runs.append((index, index))
    return runs


def render(piece: Piece, spans: Spans, source: str, joiner: str) -> Rendered:
    """The piece's text: each run of adjacent tokens is sliced from the source (keeping its own
    spacing), runs are joined with ``joiner`` (" " for English, "" for Chinese)."""
    parts: list[str] = []
    segments: list[tuple[int, int, int]] = []
    position = 0
    for number, (first, last) in enumerate(_runs(piece.order())):
        start, end = spans[first][0], spans[last][1]
        if number and source[start:end][:1] not in _NO_SPACE_BEFORE:
            parts.append(joiner)
            position += len(joiner)
        parts.append(source[start:end])
        segments.append((position, start, end))
        position += end - start
    return Rendered(
        text="".join(parts),
        start_char=spans[piece.tokens[0]][0],
        end_char=spans[piece.tokens[-1]][1],
        segments=tuple(segments),
    )


def union(fragment: Piece, target: Piece) -> Piece:
    """The target clause absorbing a fragment: the target keeps its head and carried tokens (a
    fragment's borrowed subject would land in the middle of the merged text)."""
    tokens = tuple(sorted(set(fragment.tokens) | set(target.tokens)))
    carry, carry_before = target.carry, target.carry_before
    if carry and set(carry) <= set(tokens):
        carry, carry_before = (), None
    return replace(target, tokens=tokens, carry=carry, carry_before=carry_before, stuck=False)


def _targets(pieces: list[Piece], index: int) -> list[int]:
    """Neighbours to merge a fragment into, best first: the clause it was split from, the clauses
    beside it in its sentence, then the next sentence (greetings lead into what follows), then the
    previous one."""
    piece = pieces[index]
    order: list[int] = []
    if piece.parent_head is not None:
        order += [i for i, p in enumerate(pieces) if i != index and piece.parent_head in p.tokens]
    same = [i for i, p in enumerate(pieces) if i != index and p.sentence == piece.sentence]
    order += sorted(same, key=lambda i: abs(i - index))
    if index + 1 < len(pieces):
        order.append(index + 1)
    if index > 0:
        order.append(index - 1)
    return list(dict.fromkeys(order))


def _fill_gaps(piece: Piece, pieces: list[Piece], fillable: Callable[[int], bool]) -> Piece:
    """Put back the joiners ("but", commas) that were trimmed between two clauses now merged."""
    owned = {i for p in pieces for i in p.tokens}
    gaps = [i for i in range(piece.tokens[0], piece.tokens[-1]) if i not in piece.tokens and i not in owned]
    extra = [i for i in gaps if fillable(i)]
    return replace(piece, tokens=tuple(sorted(piece.tokens + tuple(extra)))) if extra else piece


def merge_fragments(
    pieces: list[Piece],
    is_fragment: Callable[[Piece], bool],
    fits: Callable[[Piece], bool],
    fillable: Callable[[int], bool] = lambda index: False,
) -> list[Piece]:
    """Fold every fragment into a neighbour while the result still fits the token limit."""
    pieces = sorted(pieces, key=lambda p: p.first)
    while len(pieces) > 1:
        index = next((i for i, p in enumerate(pieces) if not p.stuck and is_fragment(p)), None)
        if index is None:
            break
        for target in _targets(pieces, index):
            others = [p for i, p in enumerate(pieces) if i not in (index, target)]
            merged = _fill_gaps(union(pieces[index], pieces[target]), others, fillable)
            if fits(merged):
                pieces[target] = merged
                del pieces[index]
                break
        else:
            pieces[index] = replace(pieces[index], stuck=True)
        pieces.sort(key=lambda p: p.first)
    return pieces


def split_long(
    piece: Piece,
    token_cost: Callable[[int], int],
    fits: Callable[[Piece], bool],
    max_tokens: int,
    breaks_before: Callable[[int], bool],
) -> list[Piece]:
    """Cut a piece that is over the limit into consecutive windows, each at a clause-like boundary
    (after punctuation, before a conjunction) in its second half when there is one. Only the first
    window keeps the carried tokens."""
    if fits(piece):
        return [piece]
    windows: list[list[int]] = [[]]
    cost = 0
    for token in piece.tokens:
        step = token_cost(token)
        if windows[-1] and cost + step > max_tokens:
            current = windows[-1]
            cut = _best_cut(current, breaks_before)
            windows[-1], rest = current[:cut], current[cut:]
            windows.append(rest)
            cost = sum(token_cost(t) for t in rest)
        windows[-1].append(token)
        cost += step
    out: list[Piece] = []
    for number, window in enumerate(w for w in windows if w):
        part = replace(piece, tokens=tuple(window), parent_head=None, stuck=True)
        if number or (part.carry_before is not None and part.carry_before not in window):
            part = replace(part, carry=(), carry_before=None)
        out.extend(_halve_until_fits(part, fits))
    return out


def _best_cut(window: list[int], breaks_before: Callable[[int], bool]) -> int:
    """Where the next window starts: the latest good break in the window's second half, else the
    window's end (the token that did not fit starts the next window)."""
    for position in range(len(window) - 1, len(window) // 2, -1):
        if breaks_before(window[position]):
            return position
    return len(window)


def _halve_until_fits(piece: Piece, fits: Callable[[Piece], bool]) -> list[Piece]:
    """Guards the per-token estimate: a window whose rendered text still counts too many tokens is
    halved until it fits (a single token always stays whole)."""
    if fits(piece) or len(piece.tokens) == 1:
        return [piece]
    middle = len(piece.tokens) // 2
    head = replace(piece, tokens=piece.tokens[:middle])
    tail = replace(piece, tokens=piece.tokens[middle:], carry=(), carry_before=None)
    if head.carry_before is not None and head.carry_before not in head.tokens:
        head = replace(head, carry=(), carry_before=None)
    return _halve_until_fits(head, fits) + _halve_until_fits(tail, fits)
