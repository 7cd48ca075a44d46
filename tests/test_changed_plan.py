"""A reply to a turn about a plan the person changed, that named nothing of the change, gets the change
said after it (conversation/changed_plan.py, reply_fallbacks.change_tie)."""

from __future__ import annotations

from tests._scripted_llm import ScriptedLlm
from voice_agent.conversation.changed_plan import changed_plan, names_change
from voice_agent.conversation.constraints import constraints_from_texts
from voice_agent.conversation.reply_check import ReplyCheck
from voice_agent.memory.records import MemoryRecord
from voice_agent.metrics.trace import TurnTrace

PHOTOS = [
    MemoryRecord(
        "c1", "婚纱照终于定了，下个月去厦门鼓浪屿拍海景，三天两晚，定金都交了", source="t1", created_at=1.0
    ),
    MemoryRecord(
        "c1",
        "厦门那边下个月有台风预警，干脆改去青海茶卡盐湖拍天空之镜，鼓浪屿那套直接取消了。",
        source="t2",
        created_at=2.0,
    ),
]
LIST_ASKED = "离出发还有两个礼拜，你帮我列个拍婚纱照要带的东西的清单吧，别漏了啥。"


def test_the_change_of_the_plan_a_turn_is_about_is_said_back_by_its_clause() -> None:
    change = changed_plan(LIST_ASKED, PHOTOS, "zh")
    assert change == "你告诉过我，干脆改去青海茶卡盐湖拍天空之镜。"
    assert changed_plan("晚上吃什么好？", PHOTOS, "zh") == ""  # not about the plan
    assert changed_plan(LIST_ASKED, PHOTOS[:1], "zh") == ""  # never changed
    assert names_change("记得带防晒，茶卡盐湖紫外线强。", change, LIST_ASKED)
    assert not names_change("1.婚纱 2.相机", change, LIST_ASKED)


def test_an_english_change_names_what_replaced_the_plan() -> None:
    records = [
        MemoryRecord(
            "c1", "We're doin' Mason's party in the backyard, dinosaur theme", source="t1", created_at=1.0
        ),
        MemoryRecord("c1", "Mason done changed his mind on me about the party", source="t2", created_at=2.0),
        MemoryRecord("c1", "it's gonna be an outer space party instead", source="t2", created_at=2.0),
    ]
    change = changed_plan("What should I get for Mason's party?", records, "en")
    assert change == "You told me it's gonna be an outer space party instead."


async def test_a_reply_without_the_change_gets_it_after_and_one_with_it_nothing() -> None:
    change = changed_plan(LIST_ASKED, PHOTOS, "zh")
    messages = [{"role": "system", "content": "简短回答。"}, {"role": "user", "content": LIST_ASKED}]
    for reply, tied in (
        ("要带婚纱、相机和充电宝。", True),
        ("要带婚纱、相机，茶卡盐湖紫外线强，带防晒。", False),
    ):
        trace = TurnTrace("change")
        check = ReplyCheck(constraints_from_texts([]), "zh", trace, user_words=LIST_ASKED, changed=change)
        said = "".join([text async for text in check.run(messages, ScriptedLlm(reply))])
        assert "相机" in said and said.rstrip().endswith(change) is tied
        assert (trace.first("reply.change_tie") is not None) is tied
