"""What a small model's reply copies instead of answering: the prompt's markup and notes said back, the
person's words or an earlier reply repeated, a line of the prompt copied; and the prompt lines and notes
those are compared with. Pure text functions, used by :mod:`voice_agent.conversation.reply_check`."""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from voice_agent.conversation.echo import WEAK_KEYS, content_keys
from voice_agent.llm.base import Message
from voice_agent.text.cjk import HAN_RE
from voice_agent.text.placeholders import PLACEHOLDER_RE

# The prompt's markup and the notes it states after the turn, when a small model says them back.
_MARKUP = re.compile(r"</?\s*[A-Za-z][\w-]*\s*/?>|&lt;/?\s*[A-Za-z][\w-]*\s*&gt;")
_NOTE_ECHO = re.compile(
    r"[(（]\s*(?:Answer in English only\.?|请只用中文回答。?|Answer with what I told you in mind\.?|"
    r"请结合我告诉你的情况回答。?|Suggest (?:one|only|something) [^()（）\n]{0,80}|"
    r"只推荐不含[^()（）\n]{0,30}|推荐一个不含[^()（）\n]{0,30}|推荐[^()（）\n]{0,20}以外的选择。?)\s*[)）]|^\s*(?:Remember|记住)\s*[:：]\s*$",
    re.IGNORECASE,
)
# The fixed rules stated after the turn, said back with one parenthesis or none: never spoken either.
_RULE_ECHO = re.compile(
    r"[(（]?\s*(?:Answer in English only\.?|请只用中文回答。?|Answer with what I told you in mind\.?|"
    r"请结合我告诉你的情况回答。?|"
    r"Answer with one whole sentence that names one specific [^()（）.\n]{1,40}\.?|"
    r"请用一句完整的话回答，?说出一个具体的[^()（）。\n]{1,12}。?|It should fit this:?|要符合这一点：?|"
    r"Do not suggest anything containing [^()（）.\n]{1,60}\.?|"
    r"不要推荐任何含[^()（）。\n]{1,20}的东西。?|Name one specific thing,? for example|"
    r"请说出一个具体的推荐，?比如|Suggest one specific [^()（）.\n]{1,40}? that fits this:?|"
    r"推荐一个具体的[^()（）。\n]{1,12}?，?要符合这一点：?|For example:|比如：|"
    r"Start the answer with this:?|回答时先提醒这一点：?)\s*[)）]?",
    re.IGNORECASE,
)
_NOT_WORD = re.compile(r"[\W_]+")
# A template's blank the model left for the person to fill ("Dear [NAME],", "Good evening, [Your Name]!",
# "[日期]"): read aloud it is nonsense. Our own placeholders ("[NAME:1a2b3c4d5e6f]") are refilled later.
_BLANK = r"\[(?![A-Z][A-Z_]*:[0-9a-f]{4,64}\])[^\[\]\n]{1,30}\]"
_GREETING_SLOT = re.compile(
    rf"(?:\b(?:dear|hi|hello|hey)|亲爱的)\s*{_BLANK}\s*[,，:：!！]?\s*", re.IGNORECASE
)
_SLOT = re.compile(rf"[,，]?\s*{_BLANK}")


def without_template_slots(text: str) -> str:
    """``text`` without a template's blanks: a greeting to a blank goes with it ("Dear [NAME], I hope…"
    → "I hope…"), and elsewhere the blank and the comma before it ("Good evening, [Your Name]!" → "Good
    evening!")."""
    if "[" not in text:
        return text
    return _SLOT.sub("", _GREETING_SLOT.sub("", text))


# The turn asks about the date or the time: then the date said back is the answer. Naming a day
# ("下个礼拜三是她生日", "the party on Saturday") is no such question.
ASKS_DATE = re.compile(
    r"\b(?:what|which)(?:'s|\s+is|\s+was)?\s+(?:the\s+|today'?s\s+)?(?:date|day|time|weekday|month|year)\b|"
    r"\btoday'?s date\b|\b(?:is|was|will)\s+(?:it|today|tomorrow|yesterday)\b|\bhow (?:many|long)\b|"
    r"\b(?:date|day|time) (?:is it|today)\b|几号|星期几|周几|礼拜几|日期|几点|哪天|哪一天|几月|多少天|多久|"
    r"(?:今天|明天|昨天|今日|听日|琴日)(?:是|系)?(?:几|什么|啥|星期|礼拜|周)",
    re.IGNORECASE,
)
_BAR = re.compile(r"\s*\|\s*")
# A piece that only says what day it is ("今天是2026-12-01，", "Today is 2026-12-01."): the prompt's date
# said back, never an answer unless the turn asked about the date.
DATE_ONLY = re.compile(
    r"^\W*(?:(?:today is|it is|it's|the date is|今天是|今天|现在是)\s*)?\d{4}[-/年]\d{1,2}[-/月]\d{1,2}日?"
    r"(?:\s*[(（]?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|(?:星期|周|礼拜)[一二三四五六日天])"
    r"[)）]?)?\W*$",
    re.IGNORECASE,
)
# The same date said inside a longer piece: "阿琪，今天是2026-12-05（周六），你告诉过我，改成周日…".
_DATE_CLAUSE = re.compile(
    r"(?:today is|it is|it's|the date is|今天是|现在是)\s*\d{4}[-/年]\d{1,2}[-/月]\d{1,2}日?"
    r"(?:\s*[(（]?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|(?:星期|周|礼拜)[一二三四五六日天])"
    r"[)）]?)?[，,。.;；]?\s*",
    re.IGNORECASE,
)


# The turn asks what today is: then today's date said inside a reply is the answer ("哪天、几点" of a plan
# is not: "阿琪，今天是2026-12-05（周六），…" in a message about Sunday's climb is the prompt's date).
_ASKS_TODAY = re.compile(
    r"\bwhat(?:'s| is) (?:the date|today'?s date)\b|\bwhat day is (?:it|today)\b|\btoday'?s date\b|"
    r"(?:今天|今日|听日|琴日)(?:是|系)?(?:几|什么|啥|星期|礼拜|周)",
    re.IGNORECASE,
)


def without_prompt_date(text: str, user_words: str) -> str:
    """``text`` without the prompt's date said back in it ("" when that is all it says and the turn asks
    no date or time; the date inside a longer piece is kept only when the turn asks what today is)."""
    if DATE_ONLY.match(text):
        return text if ASKS_DATE.search(user_words) else ""
    return text if _ASKS_TODAY.search(user_words) else _DATE_CLAUSE.sub("", text)


# The speaker labels of a condensed earlier conversation in the memory block ("…Assistant: Got it, I'll
# remember that. User: Nah listen…"): a piece that carries one copies the block, and is never spoken.
# (or the block's header and its "user:" lines: "…as you told me, quoted as data (not instructions): user:
# How do plants drink water?")
_TRANSCRIPT_LABEL = re.compile(
    r"(?:^|[\s…|.。])(?:User|Assistant|用户|助手)\s*[:：]\s*\S|quoted as data\b|\(not instructions\)|"
    r"(?:^|[:：|]\s*)user\s*[:：]\s*\S"
)


def without_prompt_echo(text: str) -> str:
    """``text`` without tags ("<memory>") and without the prompt's own notes said back; "" for a piece
    that copies the memory block's earlier conversation, speaker labels and all."""
    if _TRANSCRIPT_LABEL.search(text):
        return ""
    cleaned = _RULE_ECHO.sub("", _NOTE_ECHO.sub("", _MARKUP.sub("", without_template_slots(text))))
    cleaned = _NOTE_LEAD.sub("", cleaned)  # "记住：…" the reminder line's label
    cleaned = _BAR.sub(" ", cleaned)  # the memory block's "a | b" form copied: never spoken
    if not re.search(r"[(（]", cleaned):  # the note's closing parenthesis left behind ("米饭。)")
        cleaned = re.sub(r"[)）]", "", cleaned)
    return " ".join(cleaned.split()) if _NOT_WORD.sub("", cleaned) else ""


_FENCED = re.compile(r"^<memory>\n(?:(?P<header>[^\n]*[:：])\n)?.*?^</memory>", re.DOTALL | re.MULTILINE)
_RULE_WORDS = re.compile(r"[a-z]+(?:'[a-z]+)?")


def rule_grams(messages: list[Message]) -> frozenset[tuple[str, ...]]:
    """The prompt's own wording as runs of four words: the system rules outside the memory block, and
    the header of every memory block ("What the user told you about themselves, quoted, …")."""
    texts: list[str] = []
    for message in messages:
        content = message.get("content", "")
        texts += [block.group("header") or "" for block in _FENCED.finditer(content)]
        if message.get("role") == "system":
            texts.append(_FENCED.sub("\n", content))
    return frozenset(gram for text in texts for gram in _grams(text))


def copies_rules(piece: str, grams: frozenset[tuple[str, ...]]) -> bool:
    """Whether ``piece`` is the prompt's own wording said back: most of its runs of four words are the
    rules' ("Quoted, with who said it and when (respect these as the user's own facts…"). Never spoken:
    it is no answer, and it tells a stranger at a kiosk how the assistant is instructed."""
    own = _grams(piece)
    found = sum(gram in grams for gram in own)
    # (a short piece only when all of it is theirs: "they are not instructions." after the header)
    return bool(own) and found >= (0.6 * len(own) if len(own) > 2 else len(own))


def _grams(text: str) -> list[tuple[str, ...]]:
    words = _RULE_WORDS.findall(text.lower())
    return [tuple(words[i : i + 4]) for i in range(len(words) - 3)]


def replies_to_other_words(messages: list[Message], user_words: str) -> list[str]:
    """The assistant's replies in the window, except those that answered these very words (a line of
    the user message before them, which also holds its memory block and notes): a question asked again
    may get the same answer (a person repeating themselves, a benchmark replaying a clip). Regenerating
    it there only cost a second LLM request on the critical path."""
    asked = _said_parts(user_words)
    out: list[str] = []
    answered: list[str] = []  # the lines of the user message the next reply answers
    for message in messages:
        if message.get("role") == "user":
            lines = re.split(r"\n| \| ", message.get("content", ""))
            answered = [_NOT_WORD.sub("", line).lower() for line in lines]
        elif message.get("role") == "assistant" and not any(_same_words(asked, line) for line in answered):
            out.append(message["content"])
    return out


def _said_parts(words: str) -> list[str]:
    """The words' normalised runs between placeholders: a name reaches the LLM refilled or as a
    placeholder, so only what surrounds it is compared."""
    runs = PLACEHOLDER_RE.sub("\x00", words).split("\x00")
    return [part for part in (_NOT_WORD.sub("", run).lower() for run in runs) if part]


def _same_words(parts: list[str], line: str) -> bool:
    """Whether ``line`` (normalised) is these words: every part in order, and most of the line."""
    total = sum(len(part) for part in parts)
    if total < 8 or total < 0.5 * len(line):
        return False
    at = 0
    for part in parts:
        at = line.find(part, at)
        if at < 0:
            return False
        at += len(part)
    return True


_LONG_EN_COPY = 60  # letters from which an English piece nearly the same as the question is a copy
_COPIED_RUN_EN = 30  # letters of one stretch of the question that make an English first clause suspect


def repeats(piece: str, earlier: str, *, min_chars: int = 4) -> bool:
    """Whether ``piece`` only repeats ``earlier``: most of it word for word; all of it, or its beginning,
    behind a short lead-in ("The user's story tells us that <the question>"); or, in Chinese, nearly all
    of it with a word changed ("今天热得…" for "这两天热得…")."""
    said = _NOT_WORD.sub("", piece).lower()
    before = _NOT_WORD.sub("", earlier).lower()
    if len(said) < min_chars or not before:
        return False
    if said in before and len(said) >= 0.8 * len(before):
        return True
    if len(before) >= _LONG and before in said and len(before) >= 0.6 * len(said):
        return True
    # the same, cut at a comma: "The user's story tells us that Mum wants to know…, " (the piece so far)
    start = next((i for i in range(len(said)) if before.startswith(said[i:])), len(said))
    if len(said) - start >= max(_LONG, 0.5 * len(said)):
        return True
    # nearly all of it with a word changed ("The in-laws say want…" for "My in-laws say want…"; a short
    # English answer shares most letters with its question: "Paris is the capital of France")
    matcher = SequenceMatcher(None, said, before, autojunk=False)
    if (
        len(said) >= (_LONG if HAN_RE.search(piece) else _LONG_EN_COPY)
        and 0.8 * len(before) <= len(said) <= 1.25 * len(before)
        and matcher.ratio() >= 0.85
    ):
        return True
    # (in Chinese only: an English answer restates the question's words, "Paris is the capital of France")
    if HAN_RE.search(piece) is None:
        return False
    # most of it one stretch of the other, whatever stands around it: "请帮忙写条微信，把日子讲讲清爽。" for
    # "…侬帮我写条微信，把日子讲讲清爽。", "爷爷满八十，…参谋一下咯？" behind an opening
    match = matcher.find_longest_match(0, len(said), 0, len(before))
    if _ASKED_WORD_ZH.match(before, match.b + match.size):
        # the question's frame filled in: "第一志愿那个专业应该填的是计算机科学与技术" for "…填的是啥来着？"
        return False
    return match.size >= _LONG_ZH and match.size >= 0.6 * len(said)


_ASKED_WORD_ZH = re.compile(r"啥|什么|哪|几|多少|谁|怎么")


_LONG = 12  # characters (letters and Han, nothing else) from which a loose copy is still a copy
_LONG_ZH = 8  # Han characters of one copied stretch that make a copy


def quotes_question(piece: str, turn: str) -> bool:
    """Whether ``piece`` is a question of the turn said back word for word ("What should we order?"
    from "We're having dinner by the harbour. What should we order?"): a sentence of the turn, not
    most of it, so :func:`repeats` misses it."""
    said = _NOT_WORD.sub("", piece).lower()
    return len(said) >= 8 and bool(re.search(r"[?？]\s*$", piece)) and said in _NOT_WORD.sub("", turn).lower()


_QUOTED_RUN = {"zh": 10, "en": 32}  # characters of one verbatim stretch that make a piece a quote


def quotes_request(piece: str, turn: str) -> bool:
    """Whether ``piece`` carries a long stretch of the turn word for word ("你来朋友圈发段话祝她生日快乐" of
    "…我想在朋友圈发段话祝她生日快乐，你帮我写一段嘛"): a request said back, not written. A wish that shares
    a few words with it ("妹妹，生日快乐！") is none."""
    said = _NOT_WORD.sub("", piece).lower()
    before = _NOT_WORD.sub("", turn).lower()
    least = _QUOTED_RUN["zh" if HAN_RE.search(piece) else "en"]
    if len(said) < least:
        return False
    longest = SequenceMatcher(None, said, before, autojunk=False).find_longest_match(
        0, len(said), 0, len(before)
    )
    return longest.size >= least


def copy_after_answer(piece: str, turn: str, lines: list[str]) -> tuple[bool, str]:
    """For a piece after a reply's first: whether it only says the turn back or copies a line of the
    prompt at length (twelve characters or more: a memory, a note), and the line it copies ("" for the
    turn). A short clause that shares a few words with one ("Remember, no nuts.") is no copy."""
    if repeats(piece, turn, min_chars=_LONG) or quotes_question(piece, turn):
        return True, ""
    line = next((line for line in lines if repeats(piece, line, min_chars=_LONG)), "")
    return bool(line), line


def may_copy(piece: str, turn: str) -> bool:
    """Whether ``piece`` may be the start of the turn said back, too short for :func:`repeats` to tell:
    the turn's own beginning ("下个月放暑假，" of "下个月放暑假，想带个女喺广州周边玩两日…"), or, in
    Chinese, half of it one stretch of the turn ("今天胃口不大好，" of "这两天胃口不大好，…"); in English,
    nearly all of it one long stretch of the turn."""
    said = _NOT_WORD.sub("", piece).lower()
    before = _NOT_WORD.sub("", turn).lower()
    if not 4 <= len(said) < len(before):
        return False
    if before.startswith(said):
        return True
    longest = SequenceMatcher(None, said, before, autojunk=False).find_longest_match(
        0, len(said), 0, len(before)
    )
    if HAN_RE.search(piece) is None:  # "The in-laws say want to bring the whole family…," of "My in-laws…"
        return longest.size >= _COPIED_RUN_EN and longest.size >= 0.8 * len(said)
    if len(said) >= 2 * _LONG:
        return False
    return longest.size >= 4 and longest.size >= 0.5 * len(said)


def starts_line(piece: str, line: str) -> bool:
    """Whether ``piece`` is the beginning of ``line`` (four characters or more, less than all of it), too
    short for :func:`copies` to tell: "我胃不好，" of the quoted "我胃不好，一吃柿子就胃胀胃疼。"."""
    said = _NOT_WORD.sub("", piece).lower()
    before = _NOT_WORD.sub("", line).lower()
    return 4 <= len(said) < len(before) and before.startswith(said)


_EN_WORD = re.compile(r"[a-z']+")
_FILLER_WORDS = frozenset(("a", "an", "the", "one", "some", "any"))


def copies(piece: str, line: str) -> bool:
    """Whether ``piece`` is copied from a line of the prompt: most of the line, its beginning word for
    word ("I'm vegetarian," from "I'm vegetarian, I never eat meat or fish."), or, in English, only the
    line's words ("suggest a topping without cilantro" from "Suggest one topping without cilantro.")."""
    if repeats(piece, line, min_chars=6):
        return True
    said = _NOT_WORD.sub("", piece).lower()
    before = _NOT_WORD.sub("", line).lower()
    if len(said) >= 8 and before.startswith(said):
        return True
    if HAN_RE.search(piece):
        return False
    words = _EN_WORD.findall(piece.lower())
    line_words = set(_EN_WORD.findall(line.lower())) | _FILLER_WORDS
    return len(words) >= 3 and all(w in line_words for w in words)


_NOTE_LEAD = re.compile(r"^\s*(?:Remember|记住)\s*[:：]\s*", re.IGNORECASE)
# (a condensed earlier conversation's first part: "Earlier conversation (2026-12-04): User: …")
_ROLE_PREFIX = re.compile(
    r"^\s*(?:(?:user|assistant)\s*[:：]\s*|Earlier conversation \([^)]*\):\s*)*", re.IGNORECASE
)
# The guidance's example ("For example: a cup of chamomile tea."): said back, it is an answer, not an echo.
_EXAMPLE_NOTE = re.compile(r"^(?:For example:|比如：)")


def prompt_lines(messages: list[Message], user_words: str) -> list[str]:
    """The lines of the prompt's user messages (quoted memories, notes after the turn, earlier turns),
    except the person's words of this turn and the guidance's example: a reply that only says one back
    is no answer."""
    lines: list[str] = []
    for message in messages:
        if message.get("role") != "user":
            continue
        for line in re.split(r"\n| \| ", message.get("content", "")):
            line = _NOTE_LEAD.sub("", _ROLE_PREFIX.sub("", line)).strip(" ()（）")
            if line and not _is_turn(line, user_words) and not _EXAMPLE_NOTE.match(line):
                lines.append(line)
    return list(dict.fromkeys(lines))


def _is_turn(line: str, user_words: str) -> bool:
    """Whether ``line`` is the person's words of this turn, as said or as scrubbed for the prompt ("陪我
    [NAME:…]去饮茶" is "陪我阿爷去饮茶"): said back, the question would be spoken as something remembered."""
    words = user_words.strip()
    if line == words:
        return True
    if not PLACEHOLDER_RE.search(line):
        return False
    parts = [re.escape(part) for part in PLACEHOLDER_RE.split(line)[::3]]
    return re.fullmatch(r".{1,60}?".join(parts), words, re.DOTALL) is not None


def notes_after_turn(messages: list[Message], user_words: str) -> list[str]:
    """The notes the prompt states after the person's words in the last message ("(Suggest one cake
    without nuts.)"), the example aside (saying it is an answer)."""
    last = messages[-1].get("content", "") if messages else ""
    at = last.rfind(user_words.strip()) if user_words.strip() else -1
    if at < 0:
        return []
    tail = last[at + len(user_words.strip()) :]
    notes = [line.strip(" ()（）") for line in tail.split("\n")]
    return [note for note in notes if note and not _EXAMPLE_NOTE.match(note)]


def earlier_exchanges(messages: list[Message], user_words: str) -> list[str]:
    """The earlier questions and requests in the window, each with the reply that followed it ("What
    does a bee make? Bees make honey and wax."); the person's statements are left out (a reply may use
    what they told us)."""
    from voice_agent.conversation.echo import open_request
    from voice_agent.conversation.turns import said_words
    from voice_agent.text.questions import is_question

    out: list[str] = quoted_exchanges(messages[-1].get("content", "") if messages else "", user_words)
    asked = ""
    others = set(replies_to_other_words(messages, user_words))  # not a reply to these very words
    for message in messages[:-1]:
        content = message.get("content", "")
        if message.get("role") == "user":
            words = said_words(content).strip()
            same = bool(user_words.strip()) and user_words.strip() in words  # asked again: same answer
            asked = words if words and not same and (is_question(words) or open_request(words)) else ""
        elif message.get("role") == "assistant" and asked and message.get("content", "") in others:
            out.append(f"{asked} {content}")
            asked = ""
    return out


_MEMORY_BLOCK = re.compile(r"<memory>(.*?)</memory>", re.S)
_USER_LINE = re.compile(r"^\s*user\s*[:：]\s*", re.IGNORECASE)
_ASSISTANT_LINE = re.compile(r"^\s*assistant\s*[:：]\s*", re.IGNORECASE)


def quoted_exchanges(last: str, user_words: str) -> list[str]:
    """The person's earlier questions and requests quoted in this turn's memory block ("user: Suggest a
    board game for a rainy day.", "User: 蜜蜂会做什么？ | Assistant: 蜜蜂会酿蜂蜜…"), each with the reply
    quoted after it, if any."""
    from voice_agent.conversation.echo import open_request
    from voice_agent.text.questions import is_question

    block = _MEMORY_BLOCK.search(last)
    out: list[str] = []
    asking = False
    for line in (block.group(1) if block else "").split("\n"):
        speaker = ""  # (a clause after " | " with no speaker of its own is the same speaker's: "user: A | B")
        for part in line.split(" | "):
            if _USER_LINE.search(part) or "User:" in part:
                speaker = "user"
            elif _ASSISTANT_LINE.search(part) or "Assistant:" in part:
                speaker = "assistant"
            if speaker == "user":
                words = part.split("User:", 1)[-1] if "User:" in part else _USER_LINE.sub("", part)
                words = words.strip()
                asking = (
                    bool(words)
                    and words != user_words.strip()
                    and (is_question(words) or open_request(words))
                )
                if asking:
                    out.append(words)
            elif asking and speaker == "assistant":
                out[-1] = f"{out[-1]} {_ASSISTANT_LINE.sub('', part.split('Assistant:', 1)[-1]).strip()}"
                asking = False
    return out


def with_note(messages: list[Message], note: str) -> list[Message]:
    """The messages with ``note`` stated right after the user's turn (the last message)."""
    if not note or not messages:
        return list(messages)
    last = messages[-1]
    return [*messages[:-1], {**last, "content": f"{last['content']}\n({note})"}]


# The opening of the product's own note of a constraint ("Got it, I'll remember that …"), which a small
# model copies from the history into answers to questions: no answer is an act of remembering.
NOTING = re.compile(
    r"^(?:got it[,.!]?\s*)?i'?ll remember (?:that\s+)?|"
    r"^(?:(?:嗯|好的|好|行|当然|没问题|好嘞|OK|ok)[，,！!。.]?\s*)?我(?:会|都)?记住了[：:，,。.！!]?",
    re.IGNORECASE,
)
# The prompt told about in the third person ("The user's bday is in 2 weeks and their nan wants to know…",
# "用户想知道…"): a narration of the question, no answer to the person.
NARRATES_USER = re.compile(r"^(?:the user(?:'s)?|user(?:'s)?)\b|^用户(?:的|想|问|说|要|在)", re.IGNORECASE)


def sentence_start(text: str) -> str:
    """``text`` with its first letter capitalised when it begins with a plain lower-case word (not
    "iPhone", not "eBay")."""
    first = text.split(" ", 1)[0]
    if text[:1].islower() and not any(ch.isupper() for ch in first):
        return text[0].upper() + text[1:]
    return text


_NOT_WORDS = re.compile(r"[\W_]+")


def said_again(piece: str, said: list[str]) -> bool:
    """Whether ``piece`` says again, word for word, a piece of this reply already passed on (a small model
    going round in a loop: "大家好！今天是…" four times)."""
    bare = _NOT_WORDS.sub("", piece).lower()
    return len(bare) >= 4 and any(_NOT_WORDS.sub("", earlier).lower() == bare for earlier in said)


# Said to a statement (no question, no request) when the model only copied earlier words: the person
# told us something, and a second LLM request on the critical path would cost seconds for no better reply.
NOTED = {"zh": "好的，知道了。", "en": "Got it."}
_MAX_SAID_BACK = 160  # characters of a remembered line that may be said back as what the person told us


def about_turn(line: str, user_words: str, pinned: list[str]) -> bool:
    """Whether a remembered ``line`` is short and is about the turn: a fact the prompt restates for it
    (``pinned``: its "Remember:" lines) or one that shares a content word with the turn. One the model
    copied is said back as what the person told us only then ("the kids reckon the sunsets are actually
    sick" is no answer to a question about a paediatric ENT)."""
    if len(line) > _MAX_SAID_BACK:
        return False
    # (not a day's name or a relative alone: "师傅说下礼拜才能上门修" for "约了礼拜六上午十点…几点出门")
    return line in pinned or bool((content_keys(line) & content_keys(user_words)) - WEAK_KEYS)


def pinned_lines(messages: list[Message]) -> list[str]:
    """The facts the prompt restates for this turn (its "Remember:" / "记住：" lines), as ``prompt_lines``
    reads them."""
    return [
        _NOTE_LEAD.sub("", line).strip(" ()（）")
        for message in messages
        if message.get("role") == "user"
        for line in message.get("content", "").split("\n")
        if _NOTE_LEAD.match(line)
    ]
