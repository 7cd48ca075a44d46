"""English person names that the words around them give away, whatever the name is.

The name lists know the names ranked in some country's top 500, and the small English NER misses a
single uncommon name (it took "Bronwen" for an organisation). People tell an assistant about others in a
few telling shapes, and in these a capitalised word is a person whether or not any list knows it:

- naming: "she's called Bronwen", "named Tamati", "her name's Dervla", "we call him Gaz", "goes by Raj"
  (not after a thing: "a café called Dishoom", "a film named Up");
- a relation next to it: "my neighbour Marguerite", "our new nanny Bronwen", "Marguerite, my neighbour,",
  "Chidi from work", "Caleb's parents", "Siobhan's birthday";
- speaking to or about someone: "Tell Aroha …", "ask Wojtek whether …", "thanks Yusuf", "hi Anh";
- company: "Kwame and I", "me and Tilly";
- a sentence that starts with someone doing what people do: "Dervla rang", "Bronwen starts on Monday",
  "Ottilie was born", "Imogen's just started" — here only a word that is no English word or place,
  since "Cairns is lovely" and "Aldi had a sale" start the same way.

Days, months, pronouns and sentence openers are never names here. Spans are character offsets of the
name (one or two capitalised words; a possessive 's is not part of it).
"""

from __future__ import annotations

import re
from collections.abc import Callable

Span = tuple[int, int]

_WORD = r"[A-Z][a-zà-öø-ÿ]+(?:['’-][A-Z]?[a-zà-öø-ÿ]+)*"  # one capitalised word ("O'Neill", "Min-jun")
_NAME = rf"(?P<name>{_WORD}(?:[ ]{_WORD})?)"  # one or two
_ONE_NAME = rf"(?P<name>{_WORD})"
_END = r"(?![\w])"

_ROLES = (
    "wife|husband|partner|fiancée?|fiance|boyfriend|girlfriend|ex|son|daughter|kid|child|baby|boy|girl|"
    "brother|sister|mum|mom|mother|dad|father|stepmum|stepmom|stepdad|stepson|stepdaughter|grandma|granny|"
    "nan|nana|grandad|grandpa|grandson|granddaughter|grandchild|niece|nephew|cousin|aunt|auntie|uncle|"
    "in-laws?|mother-in-law|father-in-law|sister-in-law|brother-in-law|friend|mate|pal|buddy|bestie|"
    "neighbou?r|colleague|co-worker|coworker|boss|manager|assistant|nanny|babysitter|childminder|au pair|"
    "teacher|tutor|coach|doctor|gp|dentist|nurse|midwife|therapist|physio|vet|landlord|landlady|flatmate|"
    "roommate|housemate|cleaner|carer|caregiver|gardener|builder|plumber|electrician|lodger|"
    "twins?|sons|daughters|kids|children|grandkids|brothers|sisters|cousins|friends|mates|neighbou?rs"
)
_ROLE_ADJECTIVES = "new|old|little|baby|big|best|eldest|oldest|youngest|middle|younger|older|lovely"
_ROLE_WORDS = rf"(?:(?:{_ROLE_ADJECTIVES})\s+)?(?:{_ROLES})"
_OWNER = r"(?:my|our|your|his|her|their)"
_THINGS = (
    r"film|movie|book|novel|song|album|band|show|series|programme|program|podcast|play|musical|game|app|"
    r"website|site|channel|place|restaurant|caf[eé]|shop|store|pub|bar|club|gym|hotel|street|road|town|"
    r"village|city|suburb|company|firm|brand|dish|drink|boat|horse|school|church|team|course|thing|one"
)
_KIN_AFTER = (
    r"mum|mom|mother|dad|father|parents|wife|husband|partner|boyfriend|girlfriend|son|daughter|kids|"
    r"children|baby|brother|sister|family|birthday|wedding|funeral|party|christening|graduation|friend|"
    r"friends|boss|teacher|nanny|school|nursery|class|house|place|flat|room|car|dog|cat|phone|number"
)
# What a person does at the start of a sentence. Saying, asking and being born give a person away even
# when the word is also an English word ("Precious texted"); the others only for unknown words.
_SAYING_VERBS = (
    r"said|says|told|tells|asked|asks|rang|rings|phoned|texted|texts|messaged|emailed|called me|reckons|"
    r"was born|got married|got engaged|passed away"
)
_DOING_VERBS = (
    r"thinks|thought|wants|wanted|loves|loved|hates|hated|likes|liked|misses|needs|hopes|"
    r"is coming|was coming|came|comes|starts|started|finishes|finished|turned|turns|is turning|died|"
    r"moved|is moving|has moved|left|joined|lives|lived|works|worked|is pregnant|had (?:a|her|his|the) baby|"
    r"can't|cannot|won't|isn't|wasn't|doesn't|didn't|has been|had been|is going|was going|will be|'ll|’ll|"
    r"'s been|’s been"
)
_SENTENCE_START = r"(?:^|(?<=[.!?\n])\s+|(?<=[.!?\n]))[\"“']?"

_CUES: tuple[re.Pattern[str], ...] = (
    # naming
    re.compile(
        rf"(?i:(?<![\w])(?:(?:is|was|are|were|'s|’s|be|been|being|gets|got)\s+)?(?:called|named|nicknamed)\s+){_NAME}{_END}"
    ),
    re.compile(
        rf"(?i:(?<![\w])(?:name(?:'s|’s|\s+is|\s+was)|goes\s+by|went\s+by|known\s+as|short\s+for|"
        rf"(?:we|they|i|you|everyone|everybody)\s+(?:just\s+|all\s+|always\s+)?calls?\s+(?:him|her|them|me)|"
        rf"calling\s+(?:him|her|them))\s+){_NAME}{_END}"
    ),
    # a relation before or after it
    re.compile(rf"(?i:(?<![\w]){_OWNER}\s+{_ROLE_WORDS},?\s+){_NAME}{_END}"),
    re.compile(rf"(?<![\w]){_NAME},\s+(?i:{_OWNER}\s+{_ROLE_WORDS})(?=\s*[,.;!?)]|$)"),
    re.compile(rf"(?<![\w]){_ONE_NAME}\s+(?i:and\s+{_OWNER}\s+{_ROLE_WORDS}){_END}"),
    re.compile(  # "Bronwen, lovely Welsh lady,": a person described right after the name
        rf"(?<![\w]){_NAME},\s+(?i:(?:(?:a|an|the|this|our|my|such\s+a)\s+)?(?:[\w-]+\s+){{0,2}}"
        rf"(?:lady|woman|man|girl|boy|guy|bloke|chap|fella|fellow|lad|lass|gentleman|gent|kid|sweetheart)),"
    ),
    re.compile(
        rf"(?<![\w]){_NAME}\s+(?i:from\s+(?:work|the\s+office|accounts|hr|next\s+door|down\s+the\s+road|across\s+the\s+road|school|uni|church|the\s+gym|book\s+club|my\s+class|our\s+team)){_END}"
    ),
    re.compile(rf"(?<![\w]){_NAME}['’]s\s+(?i:(?:new\s+|little\s+|big\s+)?(?:{_KIN_AFTER})){_END}"),
    # speaking to or about someone
    re.compile(
        rf"(?i:(?<![\w])(?:tell|ask|remind|text|message|thank|say\s+(?:hi|hello|thanks)\s+to)\s+)"
        rf"{_ONE_NAME}(?=\s|[,.!?]|$)"
    ),
    re.compile(
        rf"(?:^|(?<=[.!?;:\n])\s*)(?i:(?:hi|hey|hello|thanks|thank\s+you|cheers|morning|evening|bye|sorry)),?\s+{_ONE_NAME}(?=\s*[,.!?]|$)"
    ),
    # company
    re.compile(rf"(?<![\w]){_NAME}\s+(?i:and\s+(?:I|me|myself))(?![\w])"),
    re.compile(rf"(?i:(?<![\w])(?:me|myself)\s+and\s+){_NAME}{_END}"),
)
# A sentence that starts with someone (or two) doing what people do (see the module doc).
_SAYING = re.compile(rf"{_SENTENCE_START}{_ONE_NAME}\s+(?i:(?:{_SAYING_VERBS})){_END}")
# "Imogen's just started", "Marek's finally handed in his notice": 's is "has" before what a person
# does (not "got" or "been": "Kmart's got the shoes in").
_HAS_DONE = (
    r"['’]s\s+(?:just\s+|finally\s+|already\s+|only\s+|now\s+)?"
    r"(?:started|finished|moved|joined|left|passed|turned|qualified|graduated|arrived|landed|texted|rung|"
    r"rang|booked|decided|retired|resigned|handed)"
)
_DOING = re.compile(
    rf"{_SENTENCE_START}{_ONE_NAME}(?:\s+(?i:(?:{_DOING_VERBS}|{_SAYING_VERBS}))|(?i:{_HAS_DONE})){_END}"
)
_PAIR = re.compile(
    rf"{_SENTENCE_START}(?P<a>[A-Z][a-zà-öø-ÿ]+)\s+and\s+{_ONE_NAME}\s+"
    rf"(?i:(?:are|were|have|had|can't|cannot|won't|aren't|weren't|{_DOING_VERBS}|{_SAYING_VERBS})){_END}"
)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_NEVER = _words(
    """
    i i'm i've i'd i'll me my mine we us our you your he him his she her they them their it its this that
    these those there here what who where why how which when mon tue tues wed thu thur thurs fri sat sun
    monday tuesday wednesday thursday friday saturday sunday jan feb mar apr jun jul aug sep sept oct nov
    dec january february march april june july august september october november december christmas easter
    god mum mom dad mummy daddy mother father grandma grandpa granny nan nana grandad auntie uncle aunt sir
    madam miss mister doctor nurse teacher boss everyone everybody someone somebody anyone nobody so then
    and but also just well oh yes no yeah the a an one all both people someone everyone nobody
    mam mammy mammi ma pa papa mama amma appa ammi abbu nain taid gran gramps nanna dadi nani
    """
)
# Words that often follow "called" for a thing and start capitalised in speech transcripts.
_THING_BEFORE = re.compile(
    rf"(?i:\b(?:(?:{_THINGS})s?|it|this|that|one)(?:['’]s|\s+(?:is|was|are|were))?\s+$)"
)


def cued_name_spans(text: str, is_common: Callable[[str], bool]) -> list[Span]:
    """Spans of person names given away by the words around them. ``is_common(word)``: the word is an
    English word, a place or a common word (only the sentence-start rule asks)."""
    spans: list[Span] = []
    for number, pattern in enumerate(_CUES):
        for m in pattern.finditer(text):
            span = _accepted(text, m)
            if span is None:
                continue
            if number == 0 and _THING_BEFORE.search(text[max(0, m.start() - 40) : m.start()] + " "):
                continue  # "a café called Dishoom"
            spans.append(span)
    for m in _SAYING.finditer(text):
        span = _accepted(text, m)
        if span is not None:
            spans.append(span)
    for m in _DOING.finditer(text):
        span = _accepted(text, m)
        if span is not None and _unknown(text[span[0] : span[1]], is_common):
            spans.append(span)
    for m in _PAIR.finditer(text):
        first, second = m.group("a"), m.group("name")
        if _unknown(first, is_common) and _unknown(second, is_common):
            spans += [m.span("a"), m.span("name")]
    return spans


def _unknown(word: str, is_common: Callable[[str], bool]) -> bool:
    """No English word, place or common word, and not shaped like one ("Transitioning")."""
    return _bare(word) not in _NEVER and not is_common(word) and not word.endswith("ing")


_CONTRACTION = re.compile(r"['’](?:s|re|ve|d|ll|m)$")


def _bare(word: str) -> str:
    """The word without its contraction, case-folded ("She's" → "she")."""
    return _CONTRACTION.sub("", word.casefold())


def _accepted(text: str, m: re.Match[str]) -> Span | None:
    start, end = m.span("name")
    words = text[start:end].split(" ")
    while words and _bare(words[-1]) in _NEVER:  # "Tilly Monday": the day is not part of it
        end -= len(words.pop()) + 1
    if not words or _bare(words[0]) in _NEVER:
        return None
    return start, end
