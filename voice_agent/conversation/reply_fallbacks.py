"""What the reply check says when the model's own words cannot be used: the note stated next to the turn
for the second attempt, the safe sentence after a constraint was broken twice, and what replaces "no
answer" (what the person likes said back with a suggestion, a specific option that keeps every constraint,
what they told us that answers the question, or a plain sorry).

Kept apart from :mod:`reply_check`, which decides *when* these are needed, piece by piece.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence

from voice_agent.conversation.acknowledge import stating_clauses
from voice_agent.conversation.changed_plan import names_change, names_old_plan
from voice_agent.conversation.constraints import Constraint, ConstraintSet, Violation
from voice_agent.conversation.dated_fallback import names_day_of
from voice_agent.conversation.generic_reply import names_nothing_new
from voice_agent.conversation.likings import liked_fallback, liking_tie
from voice_agent.conversation.no_answer import NO_ANSWER_REASONS, answer_note
from voice_agent.conversation.place_note import place_said
from voice_agent.conversation.recall_answer import said_back
from voice_agent.conversation.refusals_zh import eaten_zh
from voice_agent.conversation.related_tie import related_tie
from voice_agent.conversation.reminders import CONSTRAINT_TOPICS
from voice_agent.conversation.reply_language import LANGUAGE_NOTES
from voice_agent.conversation.suggestions import EXAMPLE, FOR_EXAMPLE, SUGGEST, concrete_option
from voice_agent.metrics.trace import TurnTrace
from voice_agent.text.cjk import HAN_RE
from voice_agent.text.placeholders import spoken_length

NOTHING_TO_SAY = {"zh": "抱歉，这个我一时答不上来。", "en": "Sorry, I don't have a good answer to that."}
_AN_ORDER_EN = re.compile(
    r"^\s*(?:(?:oh|ok|okay|and|also|so|look|listen|honestly|seriously)[,\s]+)*(?:please\s+)?"
    r"(?:don't|do not|never|stop|no more|always|quit)\b",
    re.IGNORECASE,
)


_MAX_REMEMBERED = 200  # characters of what the person told us, said back as a fallback


class ReplyFallbacks:
    """The words one reply's check falls back on. ``language``: the person's ("und" when unknown; then
    English is spoken and no language note is given)."""

    def __init__(
        self,
        constraints: ConstraintSet,
        language: str,
        trace: TurnTrace,
        *,
        requested: str = "",
        user_words: str = "",
        asks_suggestion: bool = False,
        concrete: bool = True,
        liked: str = "",
        remembered: str = "",
        remembered_first: bool = False,
        day: str = "",
        changed: str = "",
        place: str = "",
        replaced: frozenset[str] = frozenset(),
        related: Callable[[], Awaitable[str]] | None = None,
        guided: Sequence[Constraint] = (),
    ) -> None:
        self.constraints = constraints
        self.language = language
        self.speaking = language if language in LANGUAGE_NOTES else "en"
        self.trace = trace
        self.requested = requested  # what the person asked for ("cake"): the safe sentence suggests one
        self.user_words = user_words
        self.asks_suggestion = asks_suggestion
        # What the person likes, restated for a request for a recommendation ("My favourite music is
        # jazz."): with no answer from the model, it is said back with a suggestion that fits it.
        self.liked = liked
        # Said instead of "sorry" when the model gives no answer, from what the person told us: their
        # statement that holds the day the turn asks about (``dated_fallback``), or things to do in the
        # place they told us about (``place_note``).
        # (never a story said back whole, nor words that name what a rule keeps off: "…伙计照旧冲咗壶菊普…
        # 以后菊花茶、夏桑菊嗰啲都唔好再掂" for "我哋叫咩茶好？")
        fits = spoken_length(remembered) <= _MAX_REMEMBERED and constraints.check(remembered) is None
        self.remembered = remembered if fits else ""
        # ``remembered`` is about the place they told us (what to do around it): said before a generic
        # option of the kind asked for, which knows nothing of where they are.
        self.remembered_first = remembered_first
        # The person's words that hold the day a turn needs ("You told me she were born the day after
        # Valentine's (15 February)."), for a request that needs one (a leave request, a card with the
        # date): said after a reply that named no day of it (``day_tie``).
        self.day = day if spoken_length(day) <= _MAX_REMEMBERED and constraints.check(day) is None else ""
        # A plan the turn is about, changed since, said back ("You told me … instead."): said after a reply
        # that named nothing of the change (``change_tie``).
        self.changed = changed if constraints.check(changed) is None else ""
        self.replaced = replaced  # what the plan was before the change (``changed_plan.replaced_keys``)
        # The place they told us about, for a turn asking what to do around it (``place_tie``).
        self.place = place
        # The constraints the turn's guidance names (``reminders.guided_constraints``): with nothing else to
        # say, the first one said back with a suggestion that keeps it beats "sorry" (``no_answer``).
        self.guided = guided
        # What they told us that the turn shares the most with, said back (``related_tie``): looked up
        # when the reply has ended (``ties_after``), off the path to its first audio.
        self.related = ""
        self._related_lookup = related
        # A specific thing that keeps the constraints ("a cup of chamomile tea"), for the second attempt's
        # note and the safe sentence ("" when the request is of no known kind, or ``concrete`` is off;
        # without constraints too: the options know nothing of what the person likes).
        offered = concrete and bool(constraints)
        self.option = concrete_option(constraints, requested, user_words, self.speaking) if offered else ""

    async def ties_after(self, said: str, *, opened: bool = False) -> list[str]:
        """``ties``, once what the person told us that the turn is about has been looked up."""
        if self._related_lookup is not None:
            self.related, self._related_lookup = await self._related_lookup(), None
        return self.ties(said, opened=opened)

    def ties(self, said: str, *, opened: bool = False) -> list[str]:
        """What is said after a whole reply (``said``) that left out what the turn needed: the liking, the
        day, the change of plan, the place, a specific option (each ``*_tie``, in that order); with none
        of those, and no opening said (``opened``: it named what the turn is under), what the person told
        us that the turn is about (``related_tie``)."""
        # (a plan changed since: its change names the day that holds now, not the day said first)
        day = [] if self.changed else self.day_tie(said)
        ties = [
            *self.liking_tie(said),
            *day,
            *self.change_tie(said),
            *self.place_tie(said),
            *self.option_tie(said),
        ]
        return ties or ([] if opened else self.related_tie(said))

    def related_tie(self, said: str) -> list[str]:
        """After a whole reply (``said``) that named nothing of what the person told us that the turn is
        about ("Cerys is a popular choice for graduation." for the daughter who is Doctor Who daft): that
        statement said back (``related_tie``; traced ``reply.related_tie``)."""
        tie = related_tie(self.related, said, self.user_words, self.constraints)
        if not tie or self.names_old_plan(tie):
            return []
        self.trace.mark("reply.related_tie")
        return [tie + " "]

    def liking_tie(self, said: str) -> list[str]:
        """After a whole reply (``said``) to a request that what the person likes shapes, when it named
        nothing of the liking ("开车时放点《我爱你》好。" for a 周杰伦 fan): the liking said back with a
        suggestion along those lines (``likings``; traced ``reply.liked_tie``). Nothing when it was used,
        or would not read well here."""
        tie = liking_tie(self.liked, said, self.user_words, self.speaking, self.constraints)
        if not tie:
            return []
        self.trace.mark("reply.liked_tie")
        return [tie + " "]

    def day_tie(self, said: str) -> list[str]:
        """After a whole reply (``said``) to a turn that needs a day we were told, when it named none of
        that day ("日期要写清楚。" for a leave request): the person's dated words said back (traced
        ``reply.day_tie``). Nothing when the reply gave it, or said nothing to follow."""
        if not self.day or not said.strip() or names_day_of(said, self.day):
            return []
        self.trace.mark("reply.day_tie")
        return [self.day + " "]

    def change_tie(self, said: str) -> list[str]:
        """After a whole reply (``said``) to a turn about a plan the person changed, when it named nothing
        of the change: the change said back (``changed_plan``; traced ``reply.change_tie``)."""
        if not self.changed or not said.strip() or names_change(said, self.changed, self.user_words):
            return []
        self.trace.mark("reply.change_tie")
        return [self.changed + " "]

    def option_tie(self, said: str) -> list[str]:
        """After a whole reply (``said``) that named nothing the turn did not ("You should order a
        cocktail."), to a request of a known kind under constraints: a specific option that keeps them
        all (traced ``reply.option_tie``)."""
        if not self.option or self.option in said or not names_nothing_new(said, self.user_words):
            return []
        self.trace.mark("reply.option_tie")
        return [FOR_EXAMPLE[self.speaking].format(option=self.option) + " "]

    def names_old_plan(self, piece: str) -> bool:
        """Whether a piece of the reply says the plan as it was before the person changed it."""
        return names_old_plan(piece, self.replaced, self.changed, self.user_words)

    def place_tie(self, said: str) -> list[str]:
        """After a whole reply (``said``) to a turn asking what to do around the place the person told
        us about, when it named no part of it ("We should go to the beach and snorkel." for a visit to
        the brother who moved to Hobart): things to do around that place (traced ``reply.place_tie``)."""
        if not self.place or not said.strip():
            return []
        words = [w for w in re.findall(r"\w+", self.place.lower()) if len(w) > 1] or [self.place.lower()]
        if any(w in said.lower() for w in words):
            return []
        self.trace.mark("reply.place_tie")
        return [place_said(self.user_words, self.place, self.speaking) + " "]

    def no_answer(self, *, opened: bool = False) -> str:
        """``_no_answer``, followed by the day the turn needs when it does not name it (``day_tie``): a
        message drafted to the person it is for carries the date it was asked to. Instead of a plain sorry,
        for a turn that a constraint guides ("Give me a decoration plan…" after "the doctor said it's
        latex"): the constraint said back with a suggestion that keeps it (``safe_sentence``), or only the
        suggestion when an opening said it already (``opened``)."""
        said = self._no_answer()
        if said == NOTHING_TO_SAY[self.speaking] and self.guided:
            rule = self.guided[0]
            self.trace.mark("reply.rule_fallback", constraint=rule.key)
            return self.alternative(rule) if opened else self.safe_sentence(rule)
        # (a plan changed since: its change names the day that holds now, as in ``ties``)
        if said == NOTHING_TO_SAY[self.speaking] or not self.day or self.day in said or self.changed:
            return said
        return " ".join([said, *self.day_tie(said)]).strip()

    def liking_first(self) -> bool:
        """Whether what the person likes answers a turn that is about no food or drink ("弄个胎教歌单" after
        "听越剧听到大的"), before the safe sentence of a constraint it does not shape ("怀孕": no alcohol or
        raw food)."""
        told = liked_fallback(self.liked, self.requested, self.speaking, self.constraints)
        return bool(told) and not CONSTRAINT_TOPICS.search(self.user_words)

    def _no_answer(self) -> str:
        """Said when the model gave no answer twice: what they told us of the place the turn asks about
        (``remembered`` with ``remembered_first``); else what the person likes said back with a suggestion
        that fits it (``likings.liked_fallback``), when the turn asked for a recommendation and they
        told us one in this language; else things to do around their place; else a specific option of the
        kind asked for; else what they told us that answers it (``remembered``), or the day the turn
        needs; else a plain sorry. The plan the turn is about, as the person changed it, comes before all
        but the place asked about."""
        # (never what they told us when it names a thing they keep off: "You told me the girls booked you on
        # that afternoon tea bus…" of a bus they swore off reads as suggesting it)
        remembered = self.remembered if self.constraints.check(self.remembered) is None else ""
        if remembered and self.remembered_first:  # (the place a turn asked about, before a liking)
            self.trace.mark("reply.remembered_fallback")
            return remembered
        # the plan the turn is about as the person changed it, before anything else they told us: "你妈在
        # 湘雅复查的号…下周一上午" said back for a weekend with a perm moved to 周日上午十点 misleads
        if self.changed:
            self.trace.mark("reply.changed_fallback")
            return self.changed.strip()
        fallback = liked_fallback(self.liked, self.requested, self.speaking, self.constraints)
        if fallback:
            self.trace.mark("reply.liked_fallback")
            return fallback
        # The place the turn asks about, from what they told us, before a generic option that knows nothing
        # of it ("I'd suggest a vegetable stir-fry with rice." for the way to the zoo and a lunch stop).
        if self.place:
            self.trace.mark("reply.place_fallback")
            return place_said(self.user_words, self.place, self.speaking)
        # Asked for a suggestion of a known kind: a specific one that keeps every constraint beats "sorry".
        option = self.option or (
            concrete_option(self.constraints, self.requested, self.user_words, self.speaking)
            if self.asks_suggestion
            else ""
        )
        if option:
            self.trace.mark("reply.option_fallback")
            return SUGGEST[self.speaking].format(option=option)
        if remembered:
            self.trace.mark("reply.remembered_fallback")
            return remembered
        # what we know that this turn is about beats "sorry": the day it needs
        if self.day:
            self.trace.mark("reply.day_fallback")
            return self.day.strip()
        return NOTHING_TO_SAY[self.speaking]

    def safe_sentence(self, constraint: Constraint) -> str:
        """Said instead of a reply that broke ``constraint`` twice: the person's own words said back
        ("You told me your kid is allergic to nuts.") or, when those are in another language, too long
        or would break a constraint themselves, a sentence naming it; then a suggestion that keeps it
        ("I'd suggest a cake without nuts.")."""
        language = self.speaking
        if self.changed and names_change(constraint.source, self.changed, self.user_words):
            return self.changed  # a thing dropped from a plan: what replaced it ("…改成买滑板吧。")
        why = constraint.explanation(language)
        source = stating_clauses(constraint)
        # (an order is not said back: "You told me Don't ever talk you into camping again…")
        if (
            source
            and len(source) <= 160
            and bool(HAN_RE.search(source)) == (language == "zh")
            and not _AN_ORDER_EN.match(source)
        ):
            told = said_back(source, language)
            if told and self.constraints.check(told) is None:
                why = told
        return why + ("" if language == "zh" else " ") + self.alternative(constraint)

    def alternative(self, constraint: Constraint) -> str:
        """A suggestion that keeps the constraints: a specific thing of the kind asked for when one is
        known ("I'd suggest a cup of chamomile tea."), else the kind without the constraint ("I'd
        suggest a cake without nuts.")."""
        if self.option:
            return SUGGEST[self.speaking].format(option=self.option)
        if self.speaking == "zh" and constraint.kind == "avoid" and eaten_zh(constraint):
            # (a food kept off is left out of the dish, not "避开香菜，换个别的选择" after "避开香菜")
            return f"我建议选不含{constraint.noun_zh}的{self.requested or '吃的'}。"
        return constraint.alternative(self.requested, self.speaking)

    def note(self, violation: Violation | None, reason: str = "") -> str:
        """What is stated next to the turn for the second attempt: the language, and every constraint
        (the one broken first); after a reply that said the prompt back or only a word, to answer with
        one whole sentence naming one specific thing of the kind asked for, fitting what the person
        likes when that shapes it."""
        language = self.speaking
        parts = [LANGUAGE_NOTES[language]] if self.language in LANGUAGE_NOTES else []
        if reason in NO_ANSWER_REASONS and (self.asks_suggestion or reason.startswith("refusal")):
            parts.append(answer_note(self.requested, self.liked, language))
        ordered = list(self.constraints.constraints)
        if violation is not None:
            ordered.sort(key=lambda c: c.key != violation.constraint.key)
        parts += [c.instruction(language) for c in ordered[:3]]
        if self.option:  # something specific that keeps them all, to name or to take after
            parts.append(EXAMPLE[language].format(option=self.option))
        return " ".join(parts)
