"""Chinese clauses from the UD-Chinese (UDPipe) parse and the punctuation.

Written Chinese marks clause boundaries with ，；。！？ (ASR output sometimes with spaces instead), but a
comma also sets off elaborations that are no clause of their own ("我家小孩对坚果过敏，尤其是花生"):
those, and segments too short to stand alone, are merged back. A segment whose subject is dropped
("我昨天去了公园，然后和朋友下了棋") borrows the subject of the clause before it, placed after its leading
connective ("然后我和朋友下了棋" reads and retrieves on its own). The parse is mediocre (it splits some
words in two), so it is used for what it gets right: pronouns, subjects and verbs; and only a bare
pronoun is ever borrowed, since a wrong subject would state a false fact.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from voice_agent.memory.clauses.piece import Piece
from voice_agent.memory.language import is_cjk

CLAUSE_END = frozenset("，,；;。！？!?…")
SENTENCE_END = frozenset("。！？!?；;…")
CLOSERS = frozenset("”’」』）)》】\"'")


def _word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


# A segment opening with one of these elaborates on the clause before it.
ELABORATION = tuple(_word_set("尤其 特别是 比如 例如 包括 像是 就是 主要是 除了 等等 还有就是 以及 或者"))
CONNECTIVES = _word_set(
    "然后 但是 可是 不过 而且 所以 因为 如果 虽然 还有 并且 后来 接着 于是 因此 另外 同时 其实 当然 "
    "就 也 还 又 都 再 才 却 便 并 而 但 可"
)
PRONOUNS = _word_set("我 你 您 他 她 它 我们 你们 他们 她们 它们 咱们 大家")
# Characters that continue a pronoun into a noun phrase: 我女儿, 我家, 他妈妈, 我们公司, 我的.
NOMINAL_NEXT = frozenset("的家女儿子妈爸老妹姐哥弟朋同孩先太丈妻爷奶外公婆亲宝男室领们俩单校班")
FILLER_RE = re.compile(
    r"(?:(?:好的|好|谢谢你|谢谢您|谢谢|多谢|嗯|哦|噢|啊|哇|呀|对的|对|是的|没错|哈哈|呵呵|你好|您好|再见|拜拜|"
    r"行|可以|太好了|真棒|不客气|没关系|加油|好吧|当然)[啊呀吧呢啦哈嘛]?)+"
)
PREPOSITIONS = _word_set("和 跟 与 在 给 对 把 被 从 向 往 为 替 比 离 到")
TIME_RE = re.compile(
    r"(?:今天|明天|昨天|前天|后天|现在|刚才|以前|以后|每天|每周|每年|每个月|每个周末|上个月|下个月|这个月|上周|下周|这周|"
    r"今年|去年|明年|早上|晚上|中午|下午|上午|周[一二三四五六日末]|星期[一二三四五六日天]|平时|有时候|最近|后来|当时|"
    r"那时候|之前|之后|今晚|明早)+"
)
MIN_CHARS = 6  # a clause of fewer content characters (Han, Latin words, placeholders) is a fragment


@dataclass(frozen=True)
class ZhToken:
    text: str
    start: int
    end: int
    pos: str
    dep: str


def align(words: Sequence[tuple[str, str, str]], source: str) -> list[ZhToken] | None:
    """Place the parser's tokens (text, pos, dep) on the source text: UDPipe's own offsets drift
    (it adds a space after each sentence). None when the tokens do not spell the source."""
    tokens: list[ZhToken] = []
    cursor = 0
    for text, pos, dep in words:
        if not text.strip():
            continue
        found = source.find(text, cursor)
        if found < 0 or source[cursor:found].strip():
            return None
        tokens.append(ZhToken(text, found, found + len(text), pos, dep))
        cursor = found + len(text)
    return tokens if not source[cursor:].strip() else None


def _content_chars(tokens: Sequence[ZhToken], indices: Sequence[int]) -> int:
    count = 0
    for i in indices:
        text = tokens[i].text
        han = sum(1 for ch in text if is_cjk(ch) and ch.isalnum())
        count += han if han else (2 if any(ch.isalnum() for ch in text) else 0)
    return count


def _ends_clause(token: ZhToken) -> bool:
    text = token.text.rstrip("".join(CLOSERS))
    return bool(text) and text[-1] in CLAUSE_END and not any(ch.isalnum() for ch in token.text)


def _segments(tokens: Sequence[ZhToken], source: str) -> list[tuple[list[int], bool]]:
    """Token groups between clause punctuation (or spaces between Han characters); the flag says
    whether the group ends a sentence."""
    groups: list[tuple[list[int], bool]] = []
    current: list[int] = []
    for index, token in enumerate(tokens):
        if token.text in CLOSERS and not current and groups:
            # a closing quote right after the end punctuation belongs to the clause it closes
            groups[-1] = ([*groups[-1][0], index], groups[-1][1])
            continue
        previous_end = tokens[index - 1].end if index else token.start
        if (
            current
            and previous_end < token.start
            and is_cjk(source[token.start])
            and is_cjk(source[previous_end - 1])
        ):
            groups.append((current, False))
            current = []
        current.append(index)
        if _ends_clause(token):
            groups.append((current, token.text.rstrip("".join(CLOSERS))[-1] in SENTENCE_END))
            current = []
    if current:
        groups.append((current, True))
    return groups


def _lead(tokens: Sequence[ZhToken], indices: Sequence[int]) -> int:
    """How many leading tokens are connectives/punctuation ("然后", "但是", "，")."""
    count = 0
    for i in indices:
        token = tokens[i]
        if token.text in CONNECTIVES or token.pos in {"CCONJ", "SCONJ", "PUNCT"} or token.dep == "mark":
            count += 1
        else:
            break
    return count


def _subject(tokens: Sequence[ZhToken], indices: Sequence[int]) -> list[int]:
    """The clause's subject when it can be trusted: a bare personal pronoun ("我", "她们") that the
    parse calls a subject and that does not start a longer noun phrase ("我女儿", "我家"). The parser
    is too weak for more, and a wrong subject would state a false fact ("我在实验小学读三年级")."""
    body = list(indices[_lead(tokens, indices) :])
    if len(body) < 2:
        return []
    first, after = tokens[body[0]], tokens[body[1]]
    if first.text not in PRONOUNS or first.dep != "nsubj" or after.text[0] in NOMINAL_NEXT:
        return []
    return [body[0]]


def _has_subject(tokens: Sequence[ZhToken], indices: Sequence[int]) -> bool:
    """Does the clause name who does it? Anything nominal before its first predicate, except time
    words ("现在在一家公司上班" has none, "孩子们也想去" has one)."""
    span: list[int] = []
    for i in indices[_lead(tokens, indices) :]:
        token = tokens[i]
        if token.pos in {"VERB", "AUX", "ADJ", "ADV", "PUNCT"} or token.text in PREPOSITIONS:
            break
        span.append(i)
    text = "".join(tokens[i].text for i in span)
    if not text or TIME_RE.fullmatch(text):
        return False
    return any(tokens[i].pos in {"PRON", "NOUN", "PROPN", "X", "NUM"} for i in span)


def _is_elaboration(tokens: Sequence[ZhToken], indices: Sequence[int]) -> bool:
    text = "".join(tokens[i].text for i in indices[_lead(tokens, indices) :])
    return text.startswith(ELABORATION)


def segment_pieces(tokens: Sequence[ZhToken], source: str) -> list[Piece]:
    pieces: list[Piece] = []
    sentence = 0
    previous: Piece | None = None
    previous_subject: list[int] = []
    for indices, ends_sentence in _segments(tokens, source):
        if not any(tokens[i].pos != "PUNCT" for i in indices):
            if pieces:  # stray punctuation: keep it with the clause before
                pieces[-1] = replace(pieces[-1], tokens=tuple(sorted(pieces[-1].tokens + tuple(indices))))
            continue
        same_sentence = previous is not None and previous.sentence == sentence
        subject = _subject(tokens, indices)
        carry: tuple[int, ...] = ()
        carry_before = None
        own = _has_subject(tokens, indices)
        if not own and previous_subject and same_sentence and not _is_elaboration(tokens, indices):
            lead = _lead(tokens, indices)
            if lead < len(indices):
                carry, carry_before = tuple(previous_subject), indices[lead]
        piece = Piece(
            tokens=tuple(indices),
            sentence=sentence,
            head=indices[0],
            parent_head=previous.tokens[0] if previous is not None and same_sentence else None,
            carry=carry,
            carry_before=carry_before,
        )
        pieces.append(piece)
        previous = piece
        previous_subject = subject if own else previous_subject
        if ends_sentence:
            sentence += 1
    return pieces


def fragment_test(tokens: Sequence[ZhToken]) -> Callable[[Piece], bool]:
    """Too short to stand alone, or an elaboration of the clause before ("尤其是花生")."""

    def is_fragment(piece: Piece) -> bool:
        if piece.parent_head is not None and _is_elaboration(tokens, piece.tokens):
            return True
        # Only its own words count: a borrowed subject does not make "请记住" a clause.
        return _content_chars(tokens, piece.tokens) < MIN_CHARS

    return is_fragment


def filler_test(tokens: Sequence[ZhToken]) -> Callable[[Piece], bool]:
    """Small talk only: "好的，谢谢！", "嗯嗯", "哇，太好了"."""

    def is_filler(piece: Piece) -> bool:
        text = "".join(tokens[i].text for i in piece.tokens if tokens[i].pos != "PUNCT")
        return bool(FILLER_RE.fullmatch(re.sub(r"[\s，。！？、,.!?~～]", "", text)))

    return is_filler


def break_test(tokens: Sequence[ZhToken], source: str) -> Callable[[int], bool]:
    """Where a run-on clause may be cut: after punctuation, before a connective ("然后") or a pronoun
    subject. The tokenizer splits words, so connectives are matched on the text."""
    starters = tuple(sorted((c for c in CONNECTIVES if len(c) > 1), key=len, reverse=True))

    def breaks_before(index: int) -> bool:
        if index == 0:
            return False
        token = tokens[index]
        if tokens[index - 1].pos == "PUNCT" or source.startswith(starters, token.start):
            return True
        return token.text in PRONOUNS and token.dep == "nsubj"

    return breaks_before
