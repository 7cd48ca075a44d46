"""What a turn's prompt and its reply check are made of: the constraints the person stated, the reminder
line and the notes after the turn, the four-layer prompt, and what to say when the model gives no answer.

The turn and its speculation (``speculate``) compose the same way, so the turn's prompt extends the one
the LLM already read.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from voice_agent.config import PromptConfig
from voice_agent.conversation.block_records import shown_pinned
from voice_agent.conversation.changed_plan import changed_plan, replaced_keys
from voice_agent.conversation.constraints import Constraint, ConstraintSet, constraints_from_texts
from voice_agent.conversation.date_note import date_note, day_in_planned_month, needs_day
from voice_agent.conversation.dated_fallback import dated_statement, dated_text, near_date_statement
from voice_agent.conversation.message_draft import message_draft, salutation
from voice_agent.conversation.name_fallback import name_statement
from voice_agent.conversation.name_note import addressee, name_note, tied_addressee
from voice_agent.conversation.pet_names import pet_note
from voice_agent.conversation.place_note import place_note, place_said, recalled_place
from voice_agent.conversation.recall_answer import said_back
from voice_agent.conversation.related_tie import related_statement
from voice_agent.conversation.reminders import guided_constraints, liked_fact, turn_guidance, turn_reminders
from voice_agent.conversation.said_before import person_statements, relevant_statement
from voice_agent.conversation.turns import LoggedTurn
from voice_agent.conversation.writing import WRITES_TO
from voice_agent.memory.language import detect_language
from voice_agent.memory.records import MemoryRecord
from voice_agent.prompt import BuiltPrompt, PromptBuilder, Turn
from voice_agent.text.dates import ASKS_DAY, NEEDS_DATE, NEEDS_DAY, holds_day
from voice_agent.text.questions import only_asks


def compose_turn(
    builder: PromptBuilder,
    cfg: PromptConfig,
    scrubbed: str,
    pinned: list[MemoryRecord],
    retrieved: list[MemoryRecord],
    recalled: Sequence[MemoryRecord],
    window: list[LoggedTurn],
) -> tuple[BuiltPrompt, ConstraintSet, str, list[Constraint], str]:
    """The turn's prompt, with the constraints, the turn's language, the constraints that shape this
    turn's answer (``guided_constraints``) and what the person likes, restated for a request for a
    recommendation (``liked_fact``)."""
    language = detect_language(scrubbed)
    shown = shown_pinned(pinned)  # (a plan changed since is not shown, nor noted)
    constraints = turn_constraints(cfg, pinned, scrubbed)
    reminders = turn_reminders(shown, recalled, constraints, scrubbed)
    concrete = cfg.concrete_suggestions
    guidance = turn_guidance(constraints, reminders, scrubbed, language, specific=concrete,
                             example=concrete and cfg.example_in_guidance)  # fmt: skip
    if concrete:  # the place they told us about, the day, or who a message is for: after any guidance
        # (a "where should I take them nearby?" shaped by a liking still needs the place)
        note = (
            place_note(scrubbed, [*retrieved, *shown], language)
            or date_note(scrubbed, [*retrieved, *shown], language)  # (as ``turn_day``: a clause is
            # read with its whole pinned statement, not said alone: "五道口那家云南菜馆周六被人包场了")
        )
        # (who a message is for, beside the day or the place: "draft the note I'd send to invite them" is
        # to the caller they told us about, whatever day the note also names; the pinned introductions
        # too: "My nurse is … called [NAME]" for a card to "the nurse")
        told = recalled_then_pinned(retrieved, shown)
        named = name_note(scrubbed, told, language) or pet_note(scrubbed, told, language)
        guidance = [*guidance, *(n for n in (note, named) if n)]
    prompt = builder.build(scrubbed, pinned=shown, retrieved=retrieved, recent=as_turns(window),
                           now=dt.datetime.now(), reminders=reminders, language=language,
                           guidance=guidance)  # fmt: skip
    shown_ids = {r.id for r in (*prompt.retrieved, *prompt.pinned)}
    prompt.left_out = [r for r in (*recalled, *pinned) if r.id not in shown_ids]
    guided = guided_constraints(constraints, reminders, scrubbed)
    return prompt, constraints, language, guided, liked_fact(reminders, scrubbed)


def turn_constraints(cfg: PromptConfig, pinned: list[MemoryRecord], scrubbed: str) -> ConstraintSet:
    """The constraints the reply is checked against: those the person stated, pinned or in this turn."""
    if not cfg.check_constraints:
        return ConstraintSet()
    # (a question states no constraint: "Am I allergic to nuts?"; nor does one pinned before it was
    # told apart)
    stated = [text for text in (*(r.text for r in pinned), scrubbed) if not only_asks(text)]
    return constraints_from_texts(stated)


def remembered_fallback(scrubbed: str, prompt: BuiltPrompt, language: str) -> str:
    """What to say instead of "sorry" when the model gives no answer: the person's dated statement for
    a question about a day, the clause that gives a name for a question about which name to write
    (``name_fallback``), a message of our own addressed to the person a message is for (by name,
    ``message_draft``), things to do around the place they told us about, the change of a plan the turn
    is about, or else their statement closest to the question (``said_before``)."""
    statements = person_statements([*prompt.retrieved, *prompt.pinned])
    place = turn_place(scrubbed, prompt)
    # (a turn that names its own day and asks about a place they told us needs that place, not another
    # day of theirs: "…one Sunday… Where should I go and what time should I set off?")
    own_day = bool(place) and holds_day(scrubbed)
    dated = "" if own_day else dated_statement(scrubbed, statements, language)
    if dated:
        return dated
    named = name_statement(scrubbed, statements, language)
    if named:
        return named
    # (a card for someone we can name is written to them, even when it mentions the day: "阿嬷生日那天…
    # 上面要写字，要有她的名字")
    name = addressee(scrubbed, recalled_then_pinned(prompt.retrieved, prompt.pinned))
    if name:
        return message_draft(scrubbed, name, "zh" if language == "zh" else "en")
    if needs_day(scrubbed) and not own_day:  # "写条微信，把日子讲讲清爽": the day the message needs
        day = dated_text(scrubbed, statements)
        if day:
            return said_back(day, language)
    if place:
        return place_said(scrubbed, place, language)
    # (a plan changed since: its change, not the clause that says only that it changed, "拉练地点改了啊"; a
    # plan on a date: what they have on at a date of their own)
    return (
        turn_change(scrubbed, prompt, language)
        or near_date_statement(scrubbed, statements, language)
        or relevant_statement(scrubbed, statements, language)
    )


def turn_day(scrubbed: str, prompt: BuiltPrompt, language: str) -> str:
    """The person's recalled words that hold the day a turn needs (a leave request, "put the date in"),
    said back ("You told me …"), or "": a turn that asks for a day, or whose request needs a date
    (``text.dates.NEEDS_DATE``; "我没时间做饭" is no such turn), or asks for something written about "that
    day" (``dated_fallback.dated_text``)."""
    # (a note to be written about "that day" needs the day in it: "a note … letting them know there'll be
    # a van on the drive … that day", "发条微信，说我去看话剧那天他得在家带孩子")
    written_day = WRITES_TO.search(scrubbed) is not None and NEEDS_DAY.search(scrubbed) is not None
    statements = person_statements([*prompt.retrieved, *prompt.pinned])
    if ASKS_DAY.search(scrubbed) or NEEDS_DATE.search(scrubbed) or written_day:
        text = dated_text(scrubbed, statements)
    else:  # (days planned in a month: the day they told us in it, "the 20th of December" for Christmas week)
        text = day_in_planned_month(scrubbed, statements)
    return said_back(text, language) if text else ""


def turn_change(scrubbed: str, prompt: BuiltPrompt, language: str) -> str:
    """The change of a recalled plan this turn is about, said back, or "" (``changed_plan``): read with the
    records the prompt left out, as the plan before the change is among them."""
    return changed_plan(scrubbed, [*prompt.retrieved, *prompt.pinned, *prompt.left_out], language)


def turn_related(cfg: PromptConfig, scrubbed: str, prompt: BuiltPrompt, language: str) -> str:
    """What the person told us that this turn is about, said back after a reply that used none of it
    (``related_tie``); "" with ``related_tie`` off."""
    if not cfg.related_tie:
        return ""
    return related_statement(scrubbed, [*prompt.retrieved, *prompt.pinned], language)


def turn_replaced(scrubbed: str, prompt: BuiltPrompt) -> frozenset[str]:
    """What a changed plan this turn is about was before the change (``changed_plan.replaced_keys``)."""
    return replaced_keys(scrubbed, [*prompt.retrieved, *prompt.pinned, *prompt.left_out])


def turn_place(scrubbed: str, prompt: BuiltPrompt) -> str:
    """The place the person told us about (in what was recalled or pinned), when the turn asks what to do
    around it (``place_note.recalled_place``)."""
    # (else in those the prompt's budget left out: the home said in a statement restated only as a reminder)
    return recalled_place(scrubbed, [*prompt.retrieved, *prompt.pinned]) or recalled_place(
        scrubbed, prompt.left_out
    )


def turn_salutation(cfg: PromptConfig, scrubbed: str, prompt: BuiltPrompt, language: str) -> str:
    """The greeting that opens a reply to a request for something written to someone we can name, in the
    turn or tied to it in what was recalled (``message_draft.salutation``; none with
    ``concrete_suggestions`` off)."""
    if not cfg.concrete_suggestions:
        return ""
    remembered = tied_addressee(scrubbed, prompt.retrieved)  # (spoken as it is: recalled names only)
    return salutation(scrubbed, "zh" if language == "zh" else "en", remembered)


def recalled_then_pinned(retrieved: list[MemoryRecord], pinned: list[MemoryRecord]) -> list[MemoryRecord]:
    """The recalled records, then the pinned ones not among them (a person introduced by name)."""
    return [*retrieved, *(r for r in pinned if r not in retrieved)]


def as_turns(window: list[LoggedTurn]) -> list[Turn]:
    return [Turn(t.role, t.text) for t in window]
