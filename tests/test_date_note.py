"""The day the person told us is quoted next to a turn that needs a date (conversation/date_note.py)."""

from __future__ import annotations

from voice_agent.conversation.date_note import date_note
from voice_agent.memory.records import MemoryRecord

MRI = "The MRI on the back is Wednesday the 11th of February, quarter to eight in the morning"


def _said(text: str, role: str = "user") -> MemoryRecord:
    return MemoryRecord("c1", text, role=role)  # type: ignore[arg-type]


def test_a_message_that_needs_the_date_gets_the_persons_dated_words() -> None:
    records = [_said("Typical, the one morning I'd murder a fry."), _said(MRI)]
    asked = "Would you draft a text to my sister asking could she do the school run? Put the date in."
    assert date_note(asked, records, "en") == f"The day I told you: {MRI}."
    visa = _said("美国签证的面签总算约到了，三月十二号")
    note = date_note(
        "我要跟老板请半天假，侬帮我写条微信，把日子讲讲清爽。", [_said("材料要准备一大堆"), visa], "zh"
    )
    assert note == "我跟你说过的日子：美国签证的面签总算约到了，三月十二号。"


def test_a_day_spoken_in_words_and_corrected_is_quoted_as_it_stands() -> None:
    said = "so layla's birthday is the uh twelfth of may no wait sorry that's wrong the twenty first of may"
    asked = "can you help me write a note to her nursery saying i'll bring in cupcakes on her birthday"
    note = date_note(asked, [_said(said)], "en")
    assert note == "The day I told you: 21 May."  # (the day in digits: what a plan with dates needs)
    moving = _said("搬家公司我订好了下礼拜二早上八点来，不对不对，是礼拜四早上八点")
    note = date_note("你帮我给物业发条微信，就说我那天搬家要用一下货梯", [moving], "zh")
    assert note == "我跟你说过的日子：是礼拜四早上八点。"


def test_nothing_without_a_day_asked_or_a_dated_statement() -> None:
    assert date_note("Would you draft a text to my sister?", [_said(MRI)], "en") == ""
    assert date_note("When is it again?", [_said("Typical, the one morning I'd murder a fry.")], "en") == ""
    assert date_note("When is it again?", [_said(MRI, role="assistant")], "en") == ""
    # two dated statements and neither shares a word with the turn: which day is not clear
    two = [_said(MRI), _said("The dentist is on the 3rd of March")]
    assert date_note("Put the date in the text, please.", two, "en") == ""


def test_when_the_model_has_nothing_the_day_a_message_needs_is_said_back() -> None:
    from types import SimpleNamespace

    from voice_agent.conversation.turn_compose import remembered_fallback

    visa = _said("美国签证的面签总算约到了，三月十二号")
    prompt = SimpleNamespace(retrieved=[_said("材料要准备一大堆"), visa], pinned=[], left_out=[])
    said = remembered_fallback("我要跟老板请半天假，侬帮我写条微信，把日子讲讲清爽。", prompt, "zh")  # type: ignore[arg-type]
    assert said.startswith("你告诉过我") and "三月十二号" in said


def test_words_for_someone_we_can_name_are_written_to_them_even_on_the_day() -> None:
    from types import SimpleNamespace

    from voice_agent.conversation.turn_compose import remembered_fallback

    grandma = [_said("我阿嬷下个月就九十岁了"), _said("她名字很古早喔，叫[NAME:ca75728269ec]")]
    prompt = SimpleNamespace(retrieved=grandma, pinned=[], left_out=[])
    asked = "阿嬷生日那天全家要去餐厅帮她做寿，我想订一个寿桃蛋糕，上面要写字，你帮我想一句？要有她的名字喔。"
    said = remembered_fallback(asked, prompt, "zh")  # type: ignore[arg-type]
    assert said.startswith("[NAME:ca75728269ec]，") and "九十" not in said


async def test_a_leave_request_said_back_is_no_reply_and_the_day_is_said_instead() -> None:
    """An unpunctuated request for a leave message, said back word for word by the model, is not
    spoken; the day the person told us is (a leave request needs the day)."""
    from types import SimpleNamespace

    from test_echo import _said as said_by
    from test_reply_check import ScriptedLlm

    from voice_agent.conversation.constraints import constraints_from_texts
    from voice_agent.conversation.date_note import needs_day
    from voice_agent.conversation.reply_check import ReplyCheck
    from voice_agent.conversation.turn_compose import remembered_fallback
    from voice_agent.metrics.trace import TurnTrace

    asked = "呃那个我得跟我们组长请一天假去考试你帮我写个请假的消息吧就是微信上发的那种"
    assert needs_day(asked)
    exam = _said("嗯那个我跟你说一下啊就是我雅思终于报上了呃六月二十号星期六")
    prompt = SimpleNamespace(retrieved=[_said("然后是早上八点半在那个考点"), exam], pinned=[], left_out=[])
    fallback = remembered_fallback(asked, prompt, "zh")  # type: ignore[arg-type]
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": asked}]
    trace = TurnTrace("leave")
    check = ReplyCheck(constraints_from_texts([]), "zh", trace, user_words=asked, remembered=fallback)
    said = await said_by(check, ScriptedLlm(asked, asked), messages)
    assert asked not in said and "六月二十号" in said


def test_the_system_rules_date_with_a_weekday_in_chinese_brackets_is_no_answer() -> None:
    from voice_agent.conversation.reply_copies import DATE_ONLY

    assert DATE_ONLY.match("今天是2026-12-03（Thursday）。")
    assert DATE_ONLY.match("今天是2026年12月3日（星期四）")
    assert not DATE_ONLY.match("今天是2026-12-03，适合去华山。")


def test_a_turn_that_names_a_day_does_not_ask_for_the_date() -> None:
    from voice_agent.conversation.reply_copies import ASKS_DATE

    for naming in ("下个礼拜三是我幺妹儿二十四岁生，帮我写一段嘛。", "A toast for the party on Saturday."):
        assert not ASKS_DATE.search(naming), naming
    for asking in ("今天星期几？", "明天是几号", "What day is it today?", "What's the date?"):
        assert ASKS_DATE.search(asking), asking


def test_a_plan_on_a_day_asked_about_gets_the_persons_words_on_that_day() -> None:
    exams = _said("Orals finish liao. The written papers start on the 26th of September, English first.")
    asked = "My in-laws want to go Bangkok end September, 24th to 30th. Can or not ah?"
    assert date_note(asked, [_said("Every night I sit beside him."), exams], "en") == (
        "The day I told you: The written papers start on the 26th of September, English first."
    )
    school = _said("平常四点半放学，就是礼拜三下半天两点半就放学了，要早点去接。")
    note = date_note("我想约个礼拜三下半天两点钟去做头发，侬讲好伐？", [school], "zh")
    assert "礼拜三下半天两点半就放学" in note
    assert date_note("Can we go to the cinema on Friday?", [exams], "en") == ""  # no day in common
    assert date_note("The exams are in September.", [exams], "en") == ""  # nothing asked
