"""A day the person told us is said back when the model gives no answer to "which day was it?"."""

from __future__ import annotations

from test_echo import _said
from test_reply_check import ScriptedLlm

from voice_agent.conversation.constraints import constraints_from_texts
from voice_agent.conversation.dated_fallback import dated_statement
from voice_agent.conversation.reply_check import ReplyCheck
from voice_agent.conversation.reply_fallbacks import NOTHING_TO_SAY
from voice_agent.memory.records import MemoryRecord
from voice_agent.metrics.trace import TurnTrace

EXAM = "科目三总算约上了，下个月二十六号上午，在城南那个考场，教练说八点前就得到。"
ASKED = "我得跟领导请个假去考试，你记得是哪天吗？"


def _user(text: str) -> MemoryRecord:
    return MemoryRecord("c1", text)


def test_the_only_dated_statement_answers_a_question_about_the_day() -> None:
    records = [_user("北京的首都是哪里？"), _user(EXAM), _user("我最近在学做饭。")]
    said = dated_statement(ASKED, records, "zh")
    assert said.startswith("你告诉过我，科目三总算约上了，下个月二十六号上午")


def test_a_chinese_day_word_asks_inside_a_statement() -> None:
    records = [_user("五月十七号上午去街道办签协议"), _user("我爸念叨了十几年")]
    asked = "我闺女说要请假回来陪我们去签字，问我到底是哪天，我得给她个准信儿。"
    assert dated_statement(asked, records, "zh") == "你告诉过我，五月十七号上午去街道办签协议。"
    # an English "when" inside a statement asks nothing
    assert dated_statement("Let me know when you're free.", [_user("It's on the 9th of May.")], "en") == ""


def test_a_statement_sharing_the_questions_words_wins_among_several() -> None:
    records = [
        _user("My sister's birthday is on the 3rd of May."),
        _user("The citizenship ceremony is on the 9th of November at the town hall."),
    ]
    said = dated_statement("Which date was the citizenship thing again?", records, "en")
    assert said == "You told me the citizenship ceremony is on the 9th of November at the town hall."
    # several dated statements and none about this: which one is not clear
    assert dated_statement("When is it again?", records, "en") == ""


def test_nothing_for_other_questions_or_without_a_date() -> None:
    assert dated_statement("Where do my parents live?", [_user("They moved on Monday.")], "en") == ""
    assert dated_statement(ASKED, [_user("我最近在学做饭。")], "zh") == ""
    assert dated_statement(ASKED, [MemoryRecord("c1", EXAM, role="assistant")], "zh") == ""


async def test_the_reply_check_says_it_instead_of_sorry() -> None:
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": ASKED}]
    none = constraints_from_texts([])
    trace = TurnTrace("d")
    dated = dated_statement(ASKED, [_user(EXAM)], "zh")
    llm = ScriptedLlm(ASKED, ASKED)  # the question said back, twice
    said = await _said(ReplyCheck(none, "zh", trace, user_words=ASKED, remembered=dated), llm, messages)
    assert "二十六号" in said and said.strip() != NOTHING_TO_SAY["zh"]
    assert trace.first("reply.remembered_fallback") is not None


def test_a_question_asking_to_be_reminded_of_a_day_is_answered_from_memory() -> None:
    from voice_agent.conversation.dated_fallback import recalled_day

    told = _user("Dad's retirement do is finally sorted, it's the 30th of April at the golf club.")
    asked = "I need to book the day off for Dad's leaving party, which date was it again?"
    assert recalled_day(asked, [told, _user("Mum wants speeches.")], "en") == (
        "You told me Dad's retirement do is finally sorted, it's the 30th of April at the golf club."
    )
    # not asking to be reminded, or nothing shares a word with the question: the LLM answers
    assert recalled_day("When should I book the day off?", [told], "en") == ""
    assert recalled_day("Which date was the dentist again?", [told], "en") == ""


def test_a_dated_clause_is_tied_to_the_question_by_its_utterance() -> None:
    from voice_agent.conversation.dated_fallback import recalled_day

    clauses = [
        MemoryRecord("c1", "it's the 30th of April at the golf club", source="t1"),
        MemoryRecord("c1", "Dad's retirement do is finally sorted", source="t1"),
        MemoryRecord("c1", "I moved desks on the 2nd", source="t2"),
    ]
    asked = "I need to book the day off for Dad's leaving party, which date was it again?"
    assert recalled_day(asked, clauses, "en") == "You told me it's the 30th of April at the golf club."


def test_a_dated_clause_is_tied_to_the_question_by_the_summary_that_quotes_it() -> None:
    from voice_agent.conversation.dated_fallback import recalled_day

    clause = MemoryRecord("c1", "it's the 30th of April at the golf club.", source="t1")
    summary = MemoryRecord(
        "c1",
        "Earlier conversation: User: Dad's retirement do is sorted, it's the 30th of April at the golf club.",
        kind="summary",
    )
    asked = "I need to book the day off for Dad's leaving party, which date was it again?"
    assert (
        recalled_day(asked, [clause, summary], "en") == "You told me it's the 30th of April at the golf club."
    )
    assert recalled_day(asked, [clause], "en") == ""  # nothing ties it to Dad's party


def test_a_day_question_is_answered_by_the_dated_clause_not_a_first_person_one_beside_it() -> None:
    """The utterance was stored as clauses: the one with 我 shares 说一声 with the question but holds no
    day; the one with the day has no 我. The recall answer gives nothing rather than the dateless clause,
    and the day comes from the dated clause of the same utterance (民政局 ties it to the question)."""
    from voice_agent.conversation.dated_fallback import recalled_day
    from voice_agent.conversation.recall_answer import answer_from_memory

    clauses = ["我俩日子挑好了", "九月二十九号去领证", "民政局那边得提前在网上约号。", "先我跟你说一声"]
    records = [MemoryRecord("c1", text, source="D1:1") for text in clauses]
    asked = "我妈问我们到底哪天去民政局，我得跟她说一声，你还记得是哪天不？"
    assert answer_from_memory(asked, records, "zh") is None
    assert "九月二十九号去领证" in recalled_day(asked, records, "zh")


def test_a_clause_and_the_condensed_turn_it_came_from_are_one_dated_statement() -> None:
    from voice_agent.conversation.said_before import person_statements

    clause = MemoryRecord("c1", "一月十九号晚上", source="t1")
    condensed = MemoryRecord(
        "c1",
        "Earlier conversation (2026-12-02): User: 公司年会定下来了，一月十九号晚上，在会展中心那边的酒店。"
        " | Assistant: 好的，我记住了。",
        kind="summary",
    )
    said = dated_statement("那个晚会是哪天来着？", person_statements([clause, condensed]), "zh")
    assert said.startswith("你告诉过我，公司年会定下来了，一月十九号晚上")
