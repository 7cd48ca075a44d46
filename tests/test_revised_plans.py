"""A plan the person changed later is left out of the memory block; the rest stays."""

from __future__ import annotations

from voice_agent.conversation.block_records import block_records
from voice_agent.conversation.revised_plans import without_revised
from voice_agent.memory.records import MemoryRecord


def _said(text: str, when: float, source: str, kind: str = "utterance") -> MemoryRecord:
    return MemoryRecord("c1", text, kind=kind, source=source, created_at=when)  # type: ignore[arg-type]


def test_a_plan_changed_later_is_not_shown() -> None:
    old = _said("Right, so for the hen do we've booked flights to Prague", 1.0, "t1")
    party = _said("the girls are buzzing, beer spa, boat party, the works.", 1.0, "t1")
    update = _said("Ugh, hen do update.", 9.0, "t9")
    new = _said("so we've knocked Prague on the head and we're doing Brighton instead", 9.0, "t9")
    kept = without_revised([old, party, update, new])
    assert old not in kept
    assert [party, update, new] == [r for r in kept]


def test_chinese_plan_changed_later() -> None:
    old = _said("孩子的满月酒我们订在和平饭店了", 1.0, "t1")
    change = _said("满月酒换地方了啊", 5.0, "t5")
    where = _said("改到小区对面的福满楼了", 5.0, "t5")
    assert without_revised([old, change, where]) == [change, where]


def test_a_name_changed_later_shares_only_the_naming() -> None:
    old = _said("孩子大名定了，跟他爸姓，叫[NAME:11e2f90a4ecf]，他爷爷翻了好几天字典挑的。", 1.0, "t1")
    change = _said("名字那事儿又改了啊。撞名撞得太厉害，最后改叫[NAME:7d6efc19f404]了。", 5.0, "t5")
    assert without_revised([old, change]) == [change]
    puppy = _said("We've named the puppy [NAME:aa11bb22cc33].", 1.0, "t1")
    renamed = _said("Actually we renamed him [NAME:dd44ee55ff66], it suits him better.", 5.0, "t5")
    assert without_revised([puppy, renamed]) == [renamed]
    # a change about something else leaves the name alone
    moved = _said("Actually the party moved to Sunday.", 5.0, "t5")
    assert without_revised([puppy, moved]) == [puppy, moved]


def test_what_is_not_a_changed_plan_stays() -> None:
    allergy = _said("My daughter is allergic to sesame, we booked her an allergist.", 1.0, "t1")
    unrelated = _said("We booked a table at Luigi's for Friday.", 1.0, "t2")
    later_first = _said("We booked the cottage in Wales.", 9.0, "t9")  # newer than the change
    change = _said("Actually, my daughter's party moved to Sunday, and the cottage is off.", 5.0, "t5")
    kept = without_revised([allergy, unrelated, later_first, change])
    assert kept == [allergy, unrelated, later_first, change]
    # a change within the same turn revises nothing said in that turn
    same = _said("We planned Rome", 3.0, "t3")
    same_change = _said("but we're doing Rome in May instead", 3.0, "t3")
    assert without_revised([same, same_change]) == [same, same_change]


def test_the_memory_block_uses_it_with_the_pinned_records() -> None:
    old = _said("我下周三上午得去医院复查甲状腺", 1.0, "t1")
    pinned_change = _said("哎，复查那事儿变了，给我改到周五下午了。", 5.0, "t5", kind="decision")
    other = _said("我最近睡得不太好", 2.0, "t2")
    shown = block_records([old, other], [pinned_change], [], 0, "我要请半天假去医院，是哪天来着？")
    assert shown == [other]


def test_a_changed_plan_is_answered_without_its_reasons() -> None:
    from voice_agent.conversation.recall_answer import answer_from_memory

    old = _said("我下周三上午得去医院复查甲状腺，号都挂好了。", 1.0, "t1", kind="decision")
    told = "哎，复查那事儿变了，医院打电话说那个主任周三临时被叫去会诊，给我改到周五下午了。"
    change = _said(told, 5.0, "t5", kind="decision")
    answer = answer_from_memory("我要跟公司请半天假去医院复查，是哪天来着？", [old, change], "zh")
    assert answer is not None
    assert "周五" in answer.text and "周三" not in answer.text


def test_a_pinned_name_changed_later_is_not_restated_next_to_the_turn() -> None:
    from voice_agent.conversation.constraints import ConstraintSet
    from voice_agent.conversation.reminders import turn_reminders

    old = _said("孩子大名定了，跟他爸姓，叫[NAME:11e2f90a4ecf]。", 1.0, "t1", kind="decision")
    change = _said("名字那事儿又改了啊。", 5.0, "t5")
    asked = "表上名字那栏可得填对了，孩子大名最后定的是哪个来着？"
    assert turn_reminders([old], [old], ConstraintSet([]), asked) == [old.text]  # as it stands
    assert turn_reminders([old], [old, change], ConstraintSet([]), asked) == []  # changed since


def test_a_name_changed_since_is_not_the_recall_answer() -> None:
    from voice_agent.conversation.recall_answer import answer_from_memory

    old = _said("孩子大名定了，跟他爸姓，叫[NAME:11e2f90a4ecf]，他爷爷挑的。", 1.0, "t1", kind="decision")
    asked = "孩子大名最后定的是哪个来着？"
    assert answer_from_memory(asked, [old], "zh") is not None  # as told, when nothing changed it
    change = _said("名字那事儿又改了啊。", 5.0, "t5")
    assert answer_from_memory(asked, [old, change], "zh") is None  # the model reads the block instead


def test_a_job_taken_then_turned_down_is_not_shown() -> None:
    jd = _said(
        "Assistant manager at the JD Sports in Westfield, starting first week of next month.", 1.0, "a"
    )
    tfl = _said("TfL called me back, so I'm starting on the tube driver scheme instead.", 2.0, "b")
    thanks = _said("Told JD thanks but no thanks.", 2.0, "b")
    assert without_revised([jd, tfl, thanks]) == [tfl, thanks]
    bytedance = _said("下个月一号 join 字节，做 data 那块的 PM，base 北京", 1.0, "c")
    declined = _said("Update 一下：字节那个 offer 我最后 decline 了。", 2.0, "d")
    assert without_revised([bytedance, declined]) == [declined]
    # a job that nothing later changes stays
    assert without_revised([jd, _said("My mum's well gassed about the job.", 2.0, "e")])[0] is jd


def test_a_change_is_read_with_the_rest_of_its_utterance() -> None:
    plan = MemoryRecord(
        "c1", "We're doin' it in the backyard on the 14th, dinosaur theme", source="t1", created_at=1.0
    )
    out = MemoryRecord("c1", "the dinosaurs are out", source="t2", created_at=2.0)
    instead = MemoryRecord("c1", "it's gonna be an outer space party instead.", source="t2", created_at=2.0)
    unrelated = MemoryRecord("c1", "I'm planning a trip to the coast in May.", source="t0", created_at=0.5)
    assert without_revised([plan, out, instead, unrelated]) == [out, instead, unrelated]
    assert without_revised([plan, instead]) == [plan, instead]  # the clause alone names no dinosaur
