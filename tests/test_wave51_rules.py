"""Wave 51: rules found on the misses of the blind splits heldout198-200 (driving lessons, dentists, ski
trips)."""

from __future__ import annotations

from voice_agent.conversation.acknowledge import acknowledgement
from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints
from voice_agent.conversation.place_note import place_note, ranked_places
from voice_agent.conversation.recall_answer import is_recall_question
from voice_agent.conversation.revised_plans import without_revised
from voice_agent.memory.records import MemoryRecord


def _said(*texts: str, one_turn: bool = True) -> list[MemoryRecord]:
    return [
        MemoryRecord(f"c{i}", text, role="user", source="t1" if one_turn else f"t{i}", created_at=1.0 + i)
        for i, text in enumerate(texts)
    ]


def test_a_condo_closed_on_is_the_home_friends_drive_from() -> None:
    said = (
        "Good news though, we finally closed on a condo in Canmore, up on Three Sisters, and we moved out of "
        "Calgary on the first of the month."
    )
    assert ranked_places(said)[0] == (0, "Canmore")
    turn = (
        "My buddies from Edmonton want to come down for a ski weekend. Which hills should we hit, and how "
        "long's the drive to each one in the morning?"
    )
    assert "Canmore" in place_note(turn, _said(said), "en")
    # (the journey the person starts themselves is theirs to say: no note for "from Edmonton")
    assert place_note("I'm driving up from Edmonton. How long's the drive to Banff?", _said(said), "en") == ""


def test_where_to_find_a_service_is_near_home() -> None:
    said = "我们家上个月搬到青岛崂山区了,就在石老人海水浴场边上,出门走两步就是海。"
    turn = "我闺女正换牙,想找个儿童牙科看看,周末带她去,你帮我出出主意,找哪儿、挂啥号、要注意啥。"
    assert "崂山" in place_note(turn, _said(said), "zh")
    # (which parts of a test lose points is no place to go)
    exam = "下个礼拜就要考科目二了,帮我把考试项目一个一个讲讲,哪些地方最容易扣分?"
    assert place_note(exam, _said(said), "zh") == ""


def test_a_smell_that_filled_the_floor_is_not_the_thing_disliked() -> None:
    said = (
        "我同事上个礼拜带了一盒猫山王回办公室,整层楼都是那个味道,我真的顶唔顺,榴莲我从小就讨厌,闻到就想吐,"
        "吃一口都不行的。"
    )
    guided = parse_constraints(said)
    assert [c.key for c in guided] == ["avoid:榴莲"]
    assert [c.key for c in parse_constraints("香菜我从小就讨厌。")] == ["cilantro"]
    # (a fruit is eaten: it is kept out of the desserts, not "不用")
    turn = "这个周末想开车去顺德,吃吃甜品喝喝糖水,你帮我推荐几间店和必点的甜品?"
    ack = acknowledgement(guided, constraints_from_texts([said]), "zh", turn)
    assert ack is not None and "避开榴莲" in ack.text


def test_a_licence_class_switched_revises_the_one_signed_up_for() -> None:
    said = _said(
        "我在长沙星沙这边报了个驾校,报的是C1手动挡,教练讲手动挡学会了么子车都开得,我就霸蛮报了。",
        "跟你讲咯,我还是改了,去驾校把C1转成C2自动挡了,补了点差价。",
        one_turn=False,
    )
    assert [r.text[:6] for r in without_revised(said, constraints_stand=False)] == ["跟你讲咯,我"]
    # (a request to explain how a test goes is no question about what the person told us)
    assert not is_recall_question("下个礼拜就要考科目二了,帮我把考试项目一个一个讲讲,哪些地方最容易扣分?")
    assert is_recall_question("我报的是哪个驾校来着？")
