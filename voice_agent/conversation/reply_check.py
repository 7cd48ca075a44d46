"""The reply check: each piece of the reply is checked against the person's constraints and language
before it leaves the engine (and so before the speech loop or the text chat can say it).

The LLM stream is split by the speech loop's :class:`SentenceSplitter` rules: a piece leaves when the
loop could have cut it, so a clean reply's first audio is not delayed (a check is well under a
millisecond; each is a ``constraint`` span in the trace).

- A piece that breaks a constraint ("peanut butter cake" after "my kid is allergic to nuts") is not
  passed on. The reply is regenerated once with the constraint stated next to the turn; if the new reply
  breaks it too, a safe sentence naming the constraint is said instead.
- A first piece in the wrong language (English for a Chinese turn) is not passed on: the reply is
  regenerated once with a language instruction; if still wrong, it is said and marked (``language.mismatch``).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Sequence

from voice_agent.clock import Clock, MonotonicClock
from voice_agent.conversation.acknowledge import Acknowledgement, continues
from voice_agent.conversation.constraints import Constraint, ConstraintSet, Violation
from voice_agent.conversation.echo import answers_other_turn, asks_of_you, open_request, orders, restates
from voice_agent.conversation.holding import HoldingPhrase
from voice_agent.conversation.message_draft import after_salutation, without_salutation
from voice_agent.conversation.no_answer import REFUSAL, is_bare, only_lead_in, says_nothing
from voice_agent.conversation.recall_answer import said_back
from voice_agent.conversation.reply_copies import (
    NARRATES_USER,
    NOTED,
    NOTING,
    Message,
    about_turn,
    copies,
    copies_rules,
    copy_after_answer,
    earlier_exchanges,
    may_copy,
    notes_after_turn,
    pinned_lines,
    prompt_lines,
    quotes_question,
    quotes_request,
    repeats,
    replies_to_other_words,
    rule_grams,
    said_again,
    sentence_start,
    starts_line,
    with_note,
    without_prompt_date,
    without_prompt_echo,
)
from voice_agent.conversation.reply_fallbacks import ReplyFallbacks
from voice_agent.conversation.reply_language import LANGUAGE_NOTES, reply_language_ok
from voice_agent.conversation.reply_outcome import CheckOutcome
from voice_agent.conversation.revised_plans import the_change
from voice_agent.conversation.writing import WRITES_TO
from voice_agent.memory.language import detect_language
from voice_agent.metrics.trace import TurnTrace
from voice_agent.text.corrections import copied_correction
from voice_agent.text.questions import is_question
from voice_agent.text.sentences import SentenceSplitter

_WORD = re.compile(r"\w")

StreamFactory = Callable[[list[Message]], AsyncIterator[str]]

_NUMBER_ONLY = re.compile(r"^\W*\d[\d\s.,:/-]*\W*$")  # a piece that is only a number


class _Retry(Exception):
    def __init__(self, reason: str, violation: Violation | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.violation = violation


class ReplyCheck:
    """One reply's check. ``run`` yields the text that may be said, piece by piece."""

    def __init__(
        self,
        constraints: ConstraintSet,
        user_language: str,
        trace: TurnTrace,
        *,
        first_clause_min_words: int = 4,
        clock: Clock | None = None,
        requested: str = "",
        user_words: str = "",
        acknowledgement: Acknowledgement | None = None,
        expects_suggestion: bool = False,
        asks_suggestion: bool = False,
        concrete: bool = True,
        liked: str = "",
        remembered: str = "",
        remembered_first: bool = False,
        salutation: str = "",
        day: str = "",
        changed: str = "",
        place: str = "",
        replaced: frozenset[str] = frozenset(),
        related: Callable[[], Awaitable[str]] | None = None,
        guided: Sequence[Constraint] = (),
    ) -> None:
        self.constraints = constraints
        self.language = user_language if user_language in LANGUAGE_NOTES else "und"
        self.trace = trace
        self.first_clause_min_words = first_clause_min_words
        self.clock = clock or MonotonicClock()
        self.user_words = user_words  # the turn itself: a first piece that only repeats it is regenerated
        # (a statement said back is an acknowledgement, not an echo; a question followed by more words is
        # still one: "Wat she can do ova dea? She neva come back since small kid time.")
        self.asked = is_question(user_words) or "?" in user_words or "？" in user_words
        self.open_request = open_request(user_words)  # its own words, reworded, answer nothing
        # (a request asks too: "月初了，帮我在群里发个提醒", "…so build me a schedule": no news to note)
        self.requested = asks_of_you(user_words) or (orders(user_words) and not self.open_request)
        self.written = WRITES_TO.search(user_words) is not None  # a message asked for: not a question back
        self.statement = bool(user_words.strip()) and not (
            self.asked or self.requested or self.open_request or expects_suggestion or asks_suggestion
        )
        self.earlier_replies: list[str] = []
        self.prompt_lines: list[str] = []  # what the prompt's user messages say: copied, it is no answer
        self.rule_grams: frozenset[tuple[str, ...]] = frozenset()  # the system rules' wording
        self.pinned_lines: list[str] = []  # the facts among them it restates for this turn ("Remember: …")
        self.request_lines: list[str] = []  # the earlier questions and requests among them
        self.exchanges: list[str] = []  # earlier questions, each with its reply
        self.asked_with_notes = user_words  # the turn and the notes after it ("(Suggest one cake …)")
        # Said first, before the model's words ("Since your kid is allergic to nuts, ").
        self.acknowledgement = acknowledgement
        self.acknowledged = False
        # Said first for a request for something written to someone we can name ("Dear Luz,"): the
        # model's own greeting is then left out (``message_draft``).
        self.salutation = salutation
        self.saluted = False
        # The turn asks for a suggestion under a constraint: a bare fragment ("Chocolate.") is no answer.
        self.expects_suggestion = expects_suggestion
        # The turn asks for something to be suggested ("Pick a movie for us", "去哪儿好？"), with or
        # without constraints: a refusal, the question said back or an earlier answer is no answer (a
        # terse one, "Try Dune.", is: only ``expects_suggestion`` holds bare words).
        self.asks_suggestion = asks_suggestion or expects_suggestion
        self.fallbacks = ReplyFallbacks(
            constraints, self.language, trace, requested=requested, user_words=user_words,
            asks_suggestion=self.asks_suggestion, concrete=concrete, liked=liked, remembered=remembered,
            remembered_first=remembered_first, day=day, changed=changed, place=place, replaced=replaced,
            related=related, guided=guided,
        )  # fmt: skip
        self._held = ""  # a bare first piece, held until the model says more (or ends)
        self._copy_held = ""  # a first clause that may be the question said back, judged with the next
        self._released = False  # a piece of the model's reply was passed on
        self.outcome = CheckOutcome()
        self.said_anything = False
        self._said: list[str] = []  # the model's pieces passed on, this attempt
        self._language_decided = self.language not in LANGUAGE_NOTES

    async def run(self, messages: list[Message], stream: StreamFactory) -> AsyncIterator[str]:
        """The reply, piece by piece, each checked before it is passed on. Whatever the checks left out,
        the person never hears nothing: a reply that said no word gets the fallback (traced)."""
        spoken = False
        async with contextlib.aclosing(self._run(messages, stream)) as pieces:  # (a barge-in closes it)
            async for text in pieces:
                spoken = spoken or (not isinstance(text, HoldingPhrase) and _WORD.search(text) is not None)
                yield text
        if not spoken:
            self.trace.mark("reply.nothing_said", attempt=self.outcome.attempts)
            yield self.no_answer()

    async def _run(self, messages: list[Message], stream: StreamFactory) -> AsyncGenerator[str, None]:
        # The replies in the recent window: a first piece copied from one is no answer either.
        self.earlier_replies = replies_to_other_words(messages, self.user_words)
        self.prompt_lines = prompt_lines(messages, self.user_words)
        self.rule_grams = rule_grams(messages)
        self.pinned_lines = pinned_lines(messages)
        self.request_lines = [line for line in self.prompt_lines if open_request(line)]
        self.exchanges = earlier_exchanges(messages, self.user_words)
        self.asked_with_notes = " ".join([self.user_words, *notes_after_turn(messages, self.user_words)])
        if self.acknowledgement is not None:
            said = self._acknowledge(self.acknowledgement)
            if said:
                yield said
        if self.salutation and (not self.constraints or self.constraints.check(self.salutation) is None):
            self.saluted = True
            self.trace.mark("reply.salutation")
            yield self.salutation + " "
        try:
            async for text in self._attempt(stream(messages), final=False):
                yield text
            for text in await self._ties():
                yield text
            return
        except _Retry as retry:
            reason, violation = retry.reason, retry.violation
        self.outcome.attempts = 2
        self._held, self._released, self._said = "", False, []
        self.trace.mark("reply.regenerate", reason=reason, after_text=self.said_anything)
        noted = with_note(messages, self.fallbacks.note(violation, reason))
        try:
            async for text in self._attempt(stream(noted), final=True):
                yield text
            for text in await self._ties():
                yield text
        except _Retry as again:  # a constraint, or the question said back again with one constraint
            if not self.constraints or (again.violation is None and self.fallbacks.liking_first()):
                self.trace.mark("reply.no_answer", reason=again.reason)
                yield self.no_answer()
                return
            constraint = self._constraint_for(again.violation)
            self.outcome.safe_sentence = True
            self.trace.mark("constraint.safe_sentence", constraint=constraint.key, reason=again.reason)
            if self.acknowledged:  # the reason was said already: only the suggestion that keeps it
                yield self.fallbacks.alternative(constraint) + " "
            else:
                yield self.safe_sentence(constraint) + " "

    @property
    def option(self) -> str:
        """A specific thing of the kind asked for that keeps every constraint ("" when none is known)."""
        return self.fallbacks.option

    async def _ties(self) -> list[str]:
        return await self.fallbacks.ties_after(" ".join(self._said), opened=self.acknowledged)

    def no_answer(self) -> str:
        said = self.fallbacks.no_answer(opened=self.acknowledged)
        return after_salutation(said, self.salutation) if self.saluted else said

    def safe_sentence(self, constraint: Constraint) -> str:
        return self.fallbacks.safe_sentence(constraint)

    def _constraint_for(self, violation: Violation | None) -> Constraint:
        if violation is not None:
            return violation.constraint
        if self.acknowledgement is not None:
            return self.acknowledgement.constraint
        return self.constraints.constraints[0]

    def _acknowledge(self, acknowledgement: Acknowledgement) -> str:
        """The acknowledgement, checked like any piece (it is built to pass; "" if it would not)."""
        with self.trace.span("constraint", index=-1, attempt=0) as span:
            violation = self.constraints.check(acknowledgement.text)
            span.update(violated=violation is not None)
        if violation is not None:
            return ""
        self.acknowledged = True
        self.outcome.opening = acknowledgement.text
        key, own = acknowledgement.constraint.key, acknowledgement.said_back
        self.trace.mark("reply.acknowledged", constraint=key, said_back=own)
        return acknowledgement.text

    def _speaking_language(self) -> str:
        return self.language if self.language in LANGUAGE_NOTES else "en"

    async def _attempt(self, deltas: AsyncIterator[str], *, final: bool) -> AsyncIterator[str]:
        splitter = SentenceSplitter(first_clause_min_words=self.first_clause_min_words, clock=self.clock)
        context = ""  # the current sentence so far: a first clause keeps its negation for what follows
        self._copy_held = ""  # (a held clause of an attempt that failed is not carried into the next)
        try:
            async for delta in deltas:
                if isinstance(delta, HoldingPhrase):  # said while the LLM is late: passed on as it is
                    yield delta
                    continue
                if self.trace.first("llm.first_token") is None and delta:
                    self.trace.mark("llm.first_token")
                for piece in splitter.push(delta):
                    said, context = self._piece(piece.text, piece.index, context, final)
                    if said:
                        yield said
            for piece in splitter.flush():
                said, context = self._piece(piece.text, piece.index, context, final)
                if said:
                    yield said
            if self._held:  # the whole reply was one bare word ("Chocolate."): no suggestion
                held, self._held = self._held, ""
                self.trace.mark("reply.fragment", attempt=self.outcome.attempts)
                if final and not self.constraints and not says_nothing(held):  # a terse answer answers
                    yield held
                    return
                self.said_anything = False
                raise _Retry("fragment again" if final else "fragment")
            if self.said_anything and self.open_request and only_lead_in(self._said, written=self.written):
                self.said_anything = False  # only "Sure, here's a reply to the team:": nothing asked for
            if not self.said_anything:  # an empty reply, or only echoes: the person would hear nothing
                self.trace.mark("reply.empty", attempt=self.outcome.attempts)
                if self.statement and not final and not self.acknowledged:
                    self.trace.mark("reply.noted")
                    yield NOTED[self._speaking_language()]
                    return
                if not final or self.acknowledged or len(self.constraints) == 1:
                    raise _Retry("said nothing")
                yield self.no_answer()
        finally:
            close = getattr(deltas, "aclose", None)
            if close is not None:
                await close()

    def _unless_bare(self, said: str) -> str:
        """``said``, except that a bare first piece of a reply that should suggest something is held
        until more follows (released with it) or the reply ends (then it is no answer). A number alone
        ("16" for "让我点几个菜") is bare for any request for a suggestion."""
        if not said:
            return ""
        if self._held:
            said, self._held = self._held + said, ""
            return said
        number = self.asks_suggestion and _NUMBER_ONLY.match(said) is not None
        empty = self.open_request and says_nothing(said)  # ("That." for a supplement stack: no answer)
        if (number or empty or (self.expects_suggestion and is_bare(said))) and not self._released:
            self._held = said
            return ""
        self._released = True
        return said

    def _piece(self, text: str, index: int, context: str, final: bool) -> tuple[str, str]:
        """What of one piece may be said ("" for nothing) and the context for the next piece. The
        prompt's own markup and notes echoed back are left out (never spoken: "<memory>"); a first
        piece that only repeats the person's question or an earlier reply is no answer, and the reply is
        regenerated once (said back again with one constraint known: the safe sentence instead)."""
        if self._copy_held:  # a first clause that may copy the question, judged with this one
            text, self._copy_held = self._copy_held + text, ""
        clean = without_prompt_echo(text)
        if clean and copies_rules(clean, self.rule_grams):  # the system rules said back: never spoken
            self.trace.mark("reply.rules_dropped", index=index)
            clean = ""
        if (stands := copied_correction(clean, self.prompt_lines)) is not None:  # (only what stands)
            self.trace.mark("reply.correction_copied")
            clean = stands
        if clean:  # the date from the system rules said back ("Hello! Today is 2026-12-02.", "阿琪，今天是…")
            clean = without_prompt_date(clean, self.user_words)
        if clean and self.fallbacks.names_old_plan(clean):  # the plan as it was before the change
            self.trace.mark("reply.old_plan_dropped", index=index)
            clean = ""
        if clean and self.acknowledged and not self.said_anything:
            clean = self._after_acknowledgement(clean)
        if clean and self.saluted and not self.said_anything:
            clean = "" if only_lead_in([clean]) else without_salutation(clean)  # ("Dear Luz," said; "Sure!")
        if clean and not self.said_anything and not self.statement:
            clean = NOTING.sub("", clean)  # "I'll remember that boiling an egg takes…" for a question
        if clean and not self.said_anything and NARRATES_USER.match(clean):
            clean = ""  # "The user's bday is in 2 weeks and…": the question told about, not answered
        if clean and not self.said_anything:
            clean = self._raise_if_no_answer(clean, index, final)
        elif clean and self._refuses(clean):  # after a lead-in only ("Sure!") no answer; else left out
            self.trace.mark("reply.refusal", index=index, attempt=self.outcome.attempts)
            if only_lead_in(self._said):
                raise _Retry("refusal again" if final else "refusal")
            clean = ""
        elif clean:
            clean = self._unless_copied(clean, index)
        if clean and said_again(clean, self._said):  # the model going round in a loop
            self.trace.mark("reply.repeat_dropped", index=index)
            clean = ""
        if not clean:
            self.trace.mark("reply.echo_dropped", index=index)
            return "", context
        if not self.said_anything and not self.acknowledged:  # (after one, it goes on mid-sentence)
            clean = sentence_start(clean)  # its opening clause left out: "you can…" → "You can…"
        context = self._check(clean, index, context, final)
        self.said_anything = True
        self._said.append(clean)
        return self._unless_bare(clean + " "), context

    def _unless_copied(self, clean: str, index: int) -> str:
        """A later piece that says the question back or copies a line of the prompt: left out, or a
        remembered line said back once as what the person told us ("你告诉过我，你爸妈…搬到昆明住了…")."""
        copied, line = copy_after_answer(clean, self.user_words, self.prompt_lines)
        if not copied:
            return clean
        self.trace.mark("reply.copy_left_out", index=index)
        told = self._told(line) if line and not open_request(line) else ""
        return told if told and told not in self._said and self.constraints.check(told) is None else ""

    def _told(self, line: str) -> str:
        """A remembered line the model copied, said back as what the person told us; for a turn about a
        plan they changed, the change instead (the line may be the plan as it was: "…在湘里人家摆三桌")."""
        if self.fallbacks.changed:
            return self.fallbacks.changed.strip()
        about = about_turn(line, self.user_words, self.pinned_lines)
        return said_back(the_change(line), self._speaking_language()) if about else ""

    def _raise_if_no_answer(self, clean: str, index: int, final: bool) -> str:
        """Raise ``_Retry`` for a first piece that is no answer: the question or a line of the prompt
        said back (reworded or in part, for a question or request), an earlier reply copied, or a
        refusal of an ordinary request. On the second attempt, with one constraint to name, the safe
        sentence is said instead; without one, a question said back is left out and a remembered
        statement copied is said back as what the person told us. Returns what may be said."""
        asks = self.asked or self.asks_suggestion or self.requested
        starts_memory = any(starts_line(clean, line) for line in self.prompt_lines)
        if (asks and may_copy(clean, self.user_words)) or starts_memory:
            # "下个月放暑假，" of "下个月放暑假，…去边度好？", "今天胃口不大好，" of "这两天胃口不大好，…",
            # "我胃不好，" of a quoted "我胃不好，一吃柿子…": too short to tell; judged with what follows
            self.trace.mark("reply.question_start_held", index=index)
            self._copy_held = clean
            return ""
        # (a request for a suggestion said back is no answer either: "Suggest a topping for my tacos.")
        said_again = asks and (repeats(clean, self.user_words) or quotes_question(clean, self.user_words))
        # ("I should order at the bar"; "suggest a topping for my tacos without cilantro": the turn and
        # the guidance after it, mixed)
        # (a request said back word for word too: "你来朋友圈发段话祝她生日快乐" for "…你帮我写一段嘛")
        reworded = self.open_request and (
            restates(clean, self.asked_with_notes) or quotes_request(clean, self.user_words)
        )
        if reworded and not said_again:
            return ""  # left out: what follows in the same reply may answer (else it is regenerated)
        echoes_question = said_again
        copied = next((line for line in self.prompt_lines if copies(clean, line)), None)
        echoes_prompt = copied is not None or any(restates(clean, line) for line in self.request_lines)
        one_reason = self.acknowledged or len(self.constraints) == 1
        if final and (echoes_question or echoes_prompt):
            if one_reason:
                raise _Retry("repeats the question again")  # the safe sentence suggests something instead
            # (a remembered line said back, unless what to do around the place they told us is known:
            # "You told me you are still searching one good maid" answers no "where can I take them?")
            if copied is not None and not open_request(copied) and not self.fallbacks.remembered_first:
                told = self._told(copied)  # (a story said back whole may name what it rules out, or
                ok = told and self.constraints.check(told) is None  # a plan since changed: "…泮溪酒家")
                return told if ok and not self.fallbacks.names_old_plan(told) else ""
            return ""
        if not final:
            if echoes_question:
                self.trace.mark("reply.repeats_question", index=index)
                raise _Retry("repeats the question")
            if self.statement and (echoes_prompt or self._repeats_earlier_reply(clean)):
                self.trace.mark("reply.copy_left_out", index=index)
                return ""  # what follows may answer; if nothing does, the statement is noted

            if echoes_prompt:
                self.trace.mark("reply.repeats_prompt", index=index)
                raise _Retry("repeats the prompt")
            if self._repeats_earlier_reply(clean):
                self.trace.mark("reply.repeats_earlier_reply", index=index)
                raise _Retry("repeats an earlier reply")
        if not self.statement and answers_other_turn(clean, self.user_words, self.exchanges):
            self.trace.mark("reply.answers_other_turn", index=index, attempt=self.outcome.attempts)
            if final:
                return ""  # left out: what follows may answer (else the fallback does)
            raise _Retry("answers an earlier turn")
        if not self._released and self._refuses(clean):
            self.trace.mark("reply.refusal", index=index, attempt=self.outcome.attempts)
            raise _Retry("refusal again" if final else "refusal")
        return clean

    def _refuses(self, clean: str) -> bool:  # (what the turn asked: an ordinary request or question)
        answers_something = self.asks_suggestion or self.asked or self.open_request
        return answers_something and REFUSAL.search(clean) is not None

    def _repeats_earlier_reply(self, clean: str) -> bool:
        return any(repeats(clean, earlier, min_chars=12) for earlier in self.earlier_replies)

    def _after_acknowledgement(self, clean: str) -> str:
        """The model's first piece after the acknowledgement: "" when it says it again, only "Sure!", or
        opens with the person's question said back ("今天和同事聚会，")."""
        said = self.acknowledgement
        assert said is not None
        if any(copies(clean, text) for text in (said.text, said.clause, self.user_words) if text):
            return ""
        clean = NOTING.sub("", clean).strip()  # "因为你说过对松子过敏，" + "我记住了。": no answer
        return continues(clean, mid_sentence=not said.text.rstrip().endswith((".", "。"))) if clean else ""

    def _check(self, text: str, index: int, context: str, final: bool) -> str:
        """Raise ``_Retry`` when the piece may not be said; return the context for the next piece."""
        with self.trace.span("constraint", index=index, attempt=self.outcome.attempts) as span:
            start = self.clock.now_ns()
            violation = self.constraints.check(text, context) if self.constraints else None
            self.outcome.check_ms.append((self.clock.now_ns() - start) / 1e6)
            span.update(violated=violation is not None)
        if violation is not None:
            self.outcome.violations.append({**violation.to_json(), "attempt": self.outcome.attempts})
            detail = violation.to_json()
            self.trace.mark(
                "constraint.violation",
                index=index,
                attempt=self.outcome.attempts,
                constraint=detail["constraint"],
                kind=detail["kind"],
                term=detail["term"],
            )
            raise _Retry("constraint", violation)
        if not self._language_decided:
            self._check_language(text, final)
        ends_sentence = bool(re.search(r"[.!?;。！？；…]\W*$", text))
        return "" if ends_sentence else f"{context} {text}".strip()

    def _check_language(self, text: str, final: bool) -> None:
        """Decided on the first piece long enough to tell; a wrong language before anything was said
        is regenerated, after that (or on the second attempt) only marked."""
        ok = reply_language_ok(self.language, text)
        if ok is None:
            return
        self._language_decided = True
        if ok:
            return
        kept = final or self.said_anything
        self.trace.mark("language.mismatch", expected=self.language, got=detect_language(text), kept=kept)
        if kept:
            self.outcome.language_mismatch = True
            return
        self._language_decided = False  # the second attempt is checked again
        raise _Retry("language")
