"""English clauses from a spaCy dependency parse (en_core_web_sm labels).

A clause is headed by the sentence root or by a verb that holds a complete proposition of its own:
a finite coordinated verb ("... and played chess", which borrows the subject), a coordinated or
paratactic clause with its own subject, an adverbial clause with its own subject ("when I ...",
"because she ..."), or a complement clause set off by punctuation ("I ran a race – it was great").
Everything else (objects, prepositional phrases, numbers, negation, relative clauses, infinitives)
stays with its head, so a fact is never cut in half.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from voice_agent.memory.clauses.piece import Piece
from voice_agent.text.dates import MONTHS

SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"})
# A relative pronoun is not a subject of its own: "which refreshes me" needs its antecedent.
RELATIVE_TAGS = frozenset({"WDT", "WP", "WP$"})
FINITE_TAGS = frozenset({"VBD", "VBZ", "VBP", "MD"})
NON_FINITE_TAGS = frozenset({"VB", "VBG", "VBN"})
VERBAL_POS = frozenset({"VERB", "AUX"})
# Leading/trailing tokens that belong to no clause: "and", "but", commas, dashes.
EDGE_DEPS = frozenset({"cc", "punct"})
SOFT_PUNCT = frozenset({",", ";", ":", "-", "–", "—", "..."})
MIN_WORDS = 4
SEPARATE_MARKS = frozenset({"although", "though", "whereas"})


def _word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


# Words that carry no memory: greetings, thanks, agreement, exclamations. A clause made only of these
# (and the name of the person addressed) is small talk, and a name it drags into a fact's chunk
# ("Thanks, Caroline! This has been great for my mental health") pulls that chunk towards questions
# about Caroline.
DISCOURSE = _word_set(
    "thanks thank thx ty yeah yes yep yup yay no nope nah ok okay wow whoa hey hi hello bye goodbye "
    "sure cool great awesome amazing nice totally agreed agree right oh ah aw aww haha lol well oops "
    "hmm congrats congratulations indeed absolutely definitely exactly good luck dear man girl guys "
    "much so too lovely sweet please welcome"
)


def _subject(token: Any) -> Any | None:
    for child in token.children:
        if child.dep_ in SUBJECT_DEPS and child.tag_ not in RELATIVE_TAGS:
            return child
    return None


def _has_mark(token: Any) -> bool:
    return any(child.dep_ == "mark" for child in token.children)


def _punct_between(token: Any, head: Any) -> bool:
    doc = token.doc
    if token.i < head.i:
        between = range(token.right_edge.i + 1, head.i)
    else:
        between = range(head.i + 1, token.left_edge.i)
    return any(doc[i].is_punct for i in between)


def is_clause_head(token: Any) -> bool:
    """Does this token head a clause of its own (see the module docstring)?"""
    if token.pos_ not in VERBAL_POS or token.dep_ == "ROOT":
        return False
    own_subject = _subject(token) is not None
    dep = token.dep_
    if dep == "conj":
        # "to cherish" is no clause of its own: infinitival "to" does not make a verb finite
        finite = token.tag_ in FINITE_TAGS or any(
            c.dep_ in {"aux", "auxpass"} and c.tag_ != "TO" for c in token.children
        )
        return token.head.pos_ in VERBAL_POS and (own_subject or finite)
    if dep == "parataxis":
        return own_subject
    if dep == "advcl":
        # "although ..." is a proposition of its own; "when/if/after/because ..." dates, conditions
        # or explains the main clause, which is part of that fact.
        marks = {c.lower_ for c in token.children if c.dep_ == "mark"}
        return own_subject and bool(marks & SEPARATE_MARKS)
    if dep == "ccomp":
        return own_subject and not _has_mark(token) and _punct_between(token, token.head)
    return False


def _carried(head: Any, heads: set[int]) -> tuple[tuple[int, ...], int | None]:
    """Subject (and shared auxiliaries/negation) for a coordinated verb without its own subject."""
    if head.dep_ != "conj" or _subject(head) is not None:
        return (), None
    ancestor = head.head
    while ancestor.dep_ == "conj" and _subject(ancestor) is None and ancestor.head is not ancestor:
        ancestor = ancestor.head
    subject = _subject(ancestor)
    if subject is None:
        return (), None
    carried = list(range(subject.left_edge.i, subject.right_edge.i + 1))
    # "I don't smoke or drink" → "I don't drink"; but "I didn't go and stayed home" → "I stayed home".
    if head.tag_ in NON_FINITE_TAGS and not any(c.dep_ in {"aux", "auxpass"} for c in head.children):
        carried += [c.i for c in ancestor.children if c.dep_ in {"aux", "auxpass", "neg"}]
    if len(carried) > 12:  # a long subject phrase would swamp the clause; better none than a paragraph
        return (), None
    return tuple(sorted(set(carried))), None


def is_filler_token(token: Any) -> bool:
    if token.is_punct or token.is_space or token.pos_ == "INTJ" or token.lower_ in DISCOURSE:
        return True
    # an addressed person ("Thanks, Mel!"): a name the tagger calls PROPN and NER, if anything, PERSON
    return bool(token.pos_ == "PROPN" and token.ent_type_ in {"PERSON", ""})


def _trim_address(tokens: list[int], doc: Any) -> list[int]:
    """Drop a leading "Wow, Caroline," / "Thanks Mel," and a trailing ", Caroline" (before the end
    punctuation) when what is left is still a clause: the speaker is stored with the record, the
    addressee's name only misleads retrieval."""
    trimmed = True
    while trimmed:
        trimmed = False
        for position, index in enumerate(tokens[:6]):
            if doc[index].text in {",", "!", "."} and position > 0:
                if all(is_filler_token(doc[i]) for i in tokens[:position]) and len(tokens) - position > 3:
                    tokens, trimmed = tokens[position + 1 :], True
                break
    end = len(tokens)
    while end > 0 and doc[tokens[end - 1]].is_punct:
        end -= 1
    for position in range(end - 1, max(end - 5, 0), -1):
        if doc[tokens[position]].text == ",":
            tail = tokens[position + 1 : end]
            if (
                tail
                and all(is_filler_token(doc[i]) and doc[i].pos_ == "PROPN" for i in tail)
                and position > 3
            ):
                tokens = tokens[:position] + tokens[end:]
            break
    return tokens


def _trim(tokens: list[int], doc: Any) -> list[int]:
    """Drop joining tokens at the edges: leading "and"/commas, trailing commas and dashes (a final
    "." "!" "?" stays with its clause)."""
    while tokens and (doc[tokens[0]].dep_ in EDGE_DEPS or doc[tokens[0]].is_space) and len(tokens) > 1:
        tokens = tokens[1:]
    while tokens and (doc[tokens[-1]].text in SOFT_PUNCT or doc[tokens[-1]].is_space) and len(tokens) > 1:
        tokens = tokens[:-1]
    return tokens


def sentence_pieces(sent: Any, sentence: int) -> list[Piece]:
    """One piece per clause of a spaCy sentence span."""
    doc = sent.doc
    heads = {sent.root.i} | {t.i for t in sent if is_clause_head(t)}
    owner = {token.i: _clause_of(token, heads) for token in sent}
    _attach_joiners(sent, owner)
    members: dict[int, list[int]] = {h: [] for h in heads}
    for index, head_index in owner.items():
        members[head_index if head_index in heads else sent.root.i].append(index)
    pieces = []
    for head_index, tokens in members.items():
        tokens = _trim_address(_trim(sorted(tokens), doc), doc)
        if not tokens:
            continue
        head = doc[head_index]
        parent = _clause_of(head.head, heads) if head_index != sent.root.i else None
        carry, carry_before = _carried(head, heads)
        pieces.append(
            Piece(
                tokens=tuple(tokens),
                sentence=sentence,
                head=head_index,
                parent_head=parent,
                carry=carry,
                carry_before=carry_before,
            )
        )
    return pieces


def _attach_joiners(sent: Any, owner: dict[int, int]) -> None:
    """Punctuation belongs to the clause it follows, a conjunction to the clause it introduces
    (the parser hangs both on the first clause's verb, which would leave "I went home and ." behind)."""
    words = [t.i for t in sent if not (t.is_punct or t.dep_ == "cc" or t.is_space)]
    if not words:
        return
    for token in sent:
        if token.is_punct or token.is_space:
            before = [i for i in words if i < token.i]
            owner[token.i] = owner[before[-1]] if before else owner[words[0]]
        elif token.dep_ == "cc":
            after = [i for i in words if i > token.i]
            owner[token.i] = owner[after[0]] if after else owner[words[-1]]


def _clause_of(token: Any, heads: set[int]) -> int:
    node = token
    while node.i not in heads and node.head is not node:
        node = node.head
    return int(node.i)


def doc_pieces(doc: Any) -> list[Piece]:
    pieces: list[Piece] = []
    for number, sent in enumerate(doc.sents):
        pieces.extend(sentence_pieces(sent, number))
    return _dates_kept_whole(doc, pieces)


_MONTH = re.compile(rf"(?:{MONTHS})\.?$", re.IGNORECASE)
_DAY = re.compile(r"(?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?$", re.IGNORECASE)


def _dates_kept_whole(doc: Any, pieces: list[Piece]) -> list[Piece]:
    """The pieces with a day and its month in one clause: the parser may hang "November" of "Right eye
    first, 19th November, she has to…" on the next clause, and "19th" alone is no date to recall."""
    for i in range(len(doc) - 1):
        first, second = doc[i].text, doc[i + 1].text
        day_month = _DAY.match(first) and _MONTH.match(second)
        month_day = _MONTH.match(first) and _DAY.match(second)
        if not (day_month or month_day):
            continue
        holder = next((p for p in pieces if i in p.tokens), None)
        other = next((p for p in pieces if i + 1 in p.tokens), None)
        if holder is None or other is None or holder is other:
            continue
        moved, into, out_of = (i + 1, holder, other) if other.head != i + 1 else (i, other, holder)
        if out_of.head == moved:
            continue  # each is the head of its clause: leave the parse as it is
        taken = {moved}
        if moved == i + 1 and i + 2 < len(doc) and doc[i + 2].is_punct and i + 2 in out_of.tokens:
            taken.add(i + 2)  # (its comma goes with it: the next clause does not start with one)
        rest = tuple(t for t in out_of.tokens if t not in taken)
        grown = replace(into, tokens=tuple(sorted({*into.tokens, *taken})))
        pieces = [
            grown if p is into else replace(p, tokens=rest) if p is out_of else p
            for p in pieces
            if p is not out_of or rest
        ]
    return pieces


def fragment_test(doc: Any, is_placeholder: Callable[[int], bool]) -> Callable[[Piece], bool]:
    """A fragment is too short to stand alone: under three words, or under four without a subject
    ("Thanks, Melanie!", "Totally agree", "Hey Mel!"); "I played chess" is a clause, not a fragment."""

    def is_fragment(piece: Piece) -> bool:
        order = piece.order()
        # whitespace words: "it's" is one word, as a listener counts it
        words = [
            i
            for i in order
            if not (doc[i].is_punct or doc[i].is_space) and (i == order[0] or doc[i - 1].whitespace_)
        ]
        if len(words) >= MIN_WORDS:
            return False
        has_subject = any(doc[i].dep_ in SUBJECT_DEPS and doc[i].tag_ not in RELATIVE_TAGS for i in order)
        has_verb = any(doc[i].pos_ in VERBAL_POS for i in order)
        if any(is_placeholder(i) for i in order) and has_verb:
            return False
        return len(words) < MIN_WORDS - 1 or not (has_subject and has_verb)

    return is_fragment


def filler_test(doc: Any) -> Callable[[Piece], bool]:
    """Small talk only: "Wow!", "Thanks, Melanie!", "Yeah, totally!"."""

    def is_filler(piece: Piece) -> bool:
        return all(is_filler_token(doc[i]) for i in piece.tokens)

    return is_filler


def break_test(doc: Any) -> Callable[[int], bool]:
    """Good places to start a window when a clause is over the limit: after punctuation, before a
    conjunction or a subordinator."""

    def breaks_before(index: int) -> bool:
        token = doc[index]
        return token.dep_ in {"cc", "mark"} or (index > 0 and doc[index - 1].is_punct)

    return breaks_before
