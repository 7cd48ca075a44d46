"""Wave 44: the day of a long utterance that the question names; local errands; vows and places read in
more shapes. (The runner-up notes of this wave were removed in wave 45: no win in an A/B.)"""

from __future__ import annotations

from typing import Any

from tests.test_retrieve import PLAIN, T, axis, put, rec, store  # noqa: F401  (the store fixture)
from voice_agent.conversation.date_note import date_note
from voice_agent.conversation.dated_fallback import dated_text
from voice_agent.memory.records import MemoryRecord

CLIMB = (
    "Wah, this week damn sian, the aircon in my HDB conked out and the technician can only come next "
    "Thursday, so I'm sleeping with the fan on full blast. Then my company's D&D, my boss sang until 1am, "
    "cannot tahan. Oh ya, my [NAME:102f96a8e1b1] climb is confirmed already, we start the climb on 14 March, "
    "overnight at Laban Rata and summit the next morning, then fly back to Singapore on the 16th."
)


def _said(text: str, source: str = "t1", **kw: Any) -> MemoryRecord:
    return MemoryRecord("c1", text, source=source, **kw)


def test_of_two_days_in_a_long_utterance_the_one_the_question_names_is_said() -> None:
    asked = "Write a leave email for the trip, and a training plan counting back from the climb."
    text = dated_text(asked, [_said(CLIMB)])
    assert "14 March" in text and "technician" not in text
    # a question naming neither: the first day said, as before (not both run together)
    other = dated_text("When is it again?", [_said(CLIMB)])
    assert "next Thursday" in other and "14 March" not in other


def test_a_clause_naming_the_asked_thing_beats_a_dated_clause_of_the_same_turn() -> None:
    records = [
        _said("the technician can only come next Thursday"),
        _said("we start the climb on 14 March, overnight at Laban Rata"),
    ]
    note = date_note("Can you make me a training plan counting back to the climb date?", records, "en")
    assert "14 March" in note and "Thursday" not in note
    # the two still go together when the question names only the turn as a whole
    said = dated_text("When did I say the guests arrive?", [*records, _said("the guests arrive then")])
    assert said == "" or "Thursday" in said


def test_a_local_service_or_errand_asks_for_somewhere_near_home() -> None:
    from voice_agent.conversation.local_needs import asks_local
    from voice_agent.conversation.place_note import place_note

    home = [_said("Right, we've finally moved: we're in Bishopston now, just off the Gloucester Road.")]
    teacher = "My seven-year-old wants piano lessons. I'd like a teacher we can walk to after school."
    assert asks_local(teacher)
    assert "Bishopston" in place_note(teacher, home, "en")
    inhaler = (
        "My GP surgery's shut till Tuesday because of the bank holiday. What are my options for getting "
        "more tonight?"
    )
    assert "Bishopston" in place_note(inhaler, home, "en")  # (a bank holiday is no trip away)
    assert "Bishopston" in place_note("周末想找个靠谱的牙医，帮我想想去哪", home, "zh")
    assert not asks_local("Can you write a thank-you card for my daughter's teacher?")
    assert place_note("Any ideas for a birthday cake for my daughter?", home, "en") == ""


def test_someone_elses_pregnancy_told_as_news_is_no_diet() -> None:
    from voice_agent.conversation.constraints import parse_constraints

    def keys(text: str) -> list[str]:
        return [c.key for c in parse_constraints(text)]

    assert keys("And my sister's pregnant with twins, so Mum's over the moon.") == []
    assert keys("My best friend is pregnant, the baby's due in May.") == []
    assert keys("I'm pregnant, twenty weeks now, so no soft cheese for me.")[:1] == ["diet:pregnancy"]
    assert "diet:pregnancy" in keys("My wife is pregnant, so we're off the soft cheese and the wine.")


def test_constraints_read_from_wave44_misses() -> None:
    from voice_agent.conversation.constraints import parse_constraints

    def keys(text: str) -> list[str]:
        return [c.key for c in parse_constraints(text)]

    # a smell of "the stuff" a thing was done with; "no X for me" said of one morning is no rule
    assert keys(
        "My ouma did every window with vinegar and newspaper, and to this day I cannot stand the smell of "
        "the stuff, it makes me gag."
    ) == ["avoid:vinegar"]
    assert keys("The water tanker guy didn't come again, so no bath for me this morning.") == []
    assert keys("No dairy for me, please.") != []
    # "never again, no …, no …": each of the list
    assert "avoid:moving seats" in keys("Told her then and there: never again, no 3D, no moving seats.")
    # 吃不消 (can't stand) a thing; a pet that won't eat its food is no rule of the person's
    assert keys("我这个人顶顶吃不消榴莲，闻到一眼眼就想逃。还有，屋里那只猫最近不吃猫粮，真是作死。") == [
        "avoid:榴莲"
    ]
    assert keys("最近加班太多，身体吃不消。") == []
    # 阿要命 (Wu: how annoying) is no reaction to the salted duck before it
    assert keys("天天给我寄盐水鸭，阿要命。") == []
    assert keys("花生会要了我的命。") == ["nuts"]


def test_catkins_are_no_names(name_scrubber: Any) -> None:
    text = "一到五月初，我们这片儿杨絮柳絮满天飞，我是花粉加杨絮过敏。"
    assert [f.value for f in name_scrubber.scrub(text).found] == []


def test_which_days_and_leave_days_ask_for_the_day() -> None:
    from types import SimpleNamespace

    from voice_agent.conversation.turn_compose import turn_day

    said = [
        _said("it's on the 22nd of November, first thing in the morning"),
        _said("his neutering is booked"),
    ]
    prompt = SimpleNamespace(retrieved=said, pinned=[])
    turn = "Office wants our leave days for November. Which days should I put down for the dog's operation?"
    assert "22nd of November" in turn_day(turn, prompt, "en")  # type: ignore[arg-type]


def test_a_home_said_before_zai_is_where_the_person_lives(name_scrubber: Any) -> None:
    from voice_agent.conversation.place_note import place_note, ranked_places

    moved = "我们上个月终于从汉口搬走了,新家在光谷,关山大道旁边一个小区,走到地铁2号线光谷广场站十分钟。"
    assert ranked_places(moved)[0] == (0, "光谷")
    turn = "我家猫这两天老是吐,想找个靠谱的宠物医院看看,你帮我出出主意,大概去哪找?"
    assert "光谷" in place_note(turn, [_said(moved)], "zh")
    # (a district is no name: "徐汇那边王医生…" kept 徐汇 in clear, and it was greeted as a person)
    assert "徐汇" not in [f.value for f in name_scrubber.scrub("徐汇那边王医生临时要去外地开会。").found]


def test_a_place_moved_out_of_loses_to_where_they_are_now() -> None:
    from voice_agent.conversation.constraints import parse_constraints
    from voice_agent.conversation.place_note import ranked_places

    moved = (
        "Right, so the agency's finally moved out of that grim business park in Trafford and we're now in a "
        "converted mill on Blossom Street in Ancoats, bare brick, exposed pipes, the lot."
    )
    assert ranked_places(moved)[0] == (0, "Ancoats")
    # 要不 (otherwise) before 吃 is no refusal of what follows
    keys = [c.key for c in parse_constraints("油炸的、肥肉、荤油都不能碰,要不吃完准拉肚子。")]
    assert "fried" in keys and not any("拉肚子" in k for k in keys)
