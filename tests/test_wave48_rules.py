"""Wave 48 rules, each from held-out speech an earlier wave missed (heldout177-185)."""

from __future__ import annotations

import pytest

from voice_agent.conversation.acknowledge import acknowledgement
from voice_agent.conversation.avoid_said import avoid_explanation
from voice_agent.conversation.constraints import ConstraintSet, parse_constraints
from voice_agent.conversation.date_note import date_note
from voice_agent.conversation.likings import liked_fallback, says_liking
from voice_agent.conversation.local_needs import asks_local
from voice_agent.conversation.negation import is_negated
from voice_agent.conversation.place_note import place_note, place_said, ranked_places, recalled_place
from voice_agent.conversation.reminders import asks_plan, turn_reminders
from voice_agent.memory.records import MemoryRecord


def _said(*texts: str, kind: str = "utterance") -> list[MemoryRecord]:
    return [MemoryRecord(conversation_id="c", text=t, role="user", kind=kind) for t in texts]  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "first"),
    [
        # a saint's town, and "we're now in" a clause after the move
        ("We're finally settled in St Peter Port, in Guernsey, since Alasdair took the job.",
         (0, "St Peter Port")),
        ("We finally moved last month, we're now in Kilimani, just off the main road near Yaya Centre.",
         (0, "Kilimani")),
    ],
)  # fmt: skip
def test_home_said_in_more_shapes(text: str, first: tuple[int, str]) -> None:
    assert ranked_places(text)[0] == first


@pytest.mark.parametrize(
    "turn",
    [
        "Help me figure out how to find a good orthodontist for her.",
        "Can you help me find a good guzheng teacher or music school?",
        "Can you suggest how to find a good dog walker or doggy daycare?",
        "I need a reliable pet sitter for a week in March.",
    ],
)
def test_a_specialist_or_a_minder_is_found_near_home(turn: str) -> None:
    assert asks_local(turn)


@pytest.mark.parametrize(
    "turn",
    [
        "Can you find a good book on Roman history?",
        "I need some time off work.",
        "Find a good recipe for dal.",
    ],
)
def test_what_is_not_a_local_service_stays_out(turn: str) -> None:
    assert not asks_local(turn)


def test_the_station_to_board_at_is_near_home_whatever_town_the_trip_goes_to() -> None:
    home = "The big news is the move's done: we've bought a wee do-up in Hokowhitu, right by the river."
    turn = "We want to take the train up to Auckland in July. Which station should we get on at?"
    note = place_note(turn, _said(home), "en")
    assert "Hokowhitu" in note and "set off" in note
    # (a journey with no boarding asked: the town the turn names is the trip's, no note of home)
    assert (
        place_note("We want to take the train up to Auckland in July. What should we see?", _said(home), "en")
        == ""
    )


def test_a_parcel_is_sent_from_home() -> None:
    home = "We're finally settled in St Peter Port since Alasdair took the job with the bank."
    turn = "I've sold an old lens to a buyer in Manchester. How should I post it, and what will it cost?"
    assert recalled_place(turn, _said(home)) == "St Peter Port"
    said = place_said(turn, "St Peter Port", "en")
    assert "St Peter Port" in said and "sending" in said
    # (someone else's town is not where the parcel goes from)
    assert recalled_place(turn, _said("My sister lives in Truro now.")) == ""


def test_a_home_pinned_though_not_recalled_first_is_still_near_home() -> None:
    chatter = _said(*(f"Aside number {i} about the telly and the chippy." for i in range(8)))
    home = _said("Howay, we've finally got the keys and moved into the new flat in Jesmond.", kind="fact")
    turn = "Can you suggest how to find a good dog walker near me?"
    assert recalled_place(turn, [*chatter, *home]) == "Jesmond"
    # (an utterance is not pinned: beyond the recalled first, it is not read)
    assert recalled_place(turn, [*chatter, *_said(home[0].text)]) == ""
    # (nor for things to do round someone else's town)
    assert recalled_place("What can we do round there with the kids?", [*chatter, *home]) == ""


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        # a pastime pointed at: "受不了那个东西" after 打麻将, "真的烦那个" after 跳广场舞
        ("那几个孃孃天天喊我去打麻将,我是真的受不了那个东西,稀里哗啦的声音听得我脑壳都是昏的。",
         ["avoid:打麻将"]),
        ("我们小区楼下每天晚上准时开跳广场舞，音响开得震天响，我是真的烦那个，我不喜欢。",
         ["avoid:跳广场舞"]),
        # a day kept free is no thing kept off
        ("我跟老伴儿说了,那天谁也甭给我安排事儿。", []),
        ("以后别给我推荐香菜了", ["cilantro"]),
        # "never, ever" with a comma before setting foot
        ("I will never, ever set foot on a cruise ship again, I don't care if it's free.",
         ["avoid:cruise ship"]),
    ],
)  # fmt: skip
def test_more_shapes_of_keeping_off(text: str, keys: list[str]) -> None:
    assert sorted(c.key for c in parse_constraints(text)) == keys


def test_a_pastime_kept_off_is_said_back_as_not_doing_it() -> None:
    told = parse_constraints("楼下每天晚上准时开跳广场舞，音响开得震天响，我是真的烦那个。")
    turn = "我刚退休，你帮我安排一下每个星期的活动嘛，想锻炼下身体。"
    opening = acknowledgement(told, ConstraintSet(told), "zh", turn)
    assert opening is not None and "不跳广场舞" in opening.text


def test_a_vow_is_said_back_as_one_the_judge_reads_as_negated() -> None:
    said = avoid_explanation(
        "cruise ship", "游轮", "I will never, ever set foot on a cruise ship again", "en"
    )
    at = said.index("cruise")
    assert is_negated(said, at, at + len("cruise"))


@pytest.mark.parametrize(
    "text",
    [
        "我这个人吃东西就是好一口酸的，酸菜鱼、酸辣汤、酸豆角，越酸越开胃。",
        "Northern Soul and old Motown, that's my music and always has been.",
        "I've been a soul girl since I was fifteen.",
    ],
)
def test_more_likings(text: str) -> None:
    assert says_liking(text)


def test_the_liking_that_names_what_is_liked_is_said_back() -> None:
    story = (
        "Our Shannon's started at the nursery down Standish and she loves it. Me, I've been a soul girl "
        "since I was fifteen, Northern Soul and old Motown, that's my music."
    )
    assert "Northern Soul" in liked_fallback(story, "playlist", "en", ConstraintSet([]))


def test_a_list_asked_for_brings_back_what_they_like() -> None:
    turn = "想先去图书馆借几本书带到病房里看,你帮我开个书单,七八本就要得。"
    assert asks_plan(turn)
    liked = MemoryRecord(
        conversation_id="c", text="我这个人咯,看书就只认武侠,翻来覆去看了好多遍。", kind="fact"
    )
    assert turn_reminders([liked], [], ConstraintSet([]), turn) == [liked.text]
    assert asks_plan("Two weeks in Alaska, glaciers, whales, the whole thing. Can you plan it out for us?")


@pytest.mark.parametrize(
    ("turn", "said", "day"),
    [
        ("I'm flying out to Calgary on the 20th of November for five weeks. Can you make me a checklist of "
         "everything to sort out at home before I go?",
         "The lady on the desk was stern: it has to be back with them by the 23rd of November, no renewals.",
         "23rd of November"),
        ("我闺女一直让我四月份过去住几天。你帮我看看四月份哪几天去合适?",
         "古籍修复体验课我抢上名额了!就四月十二号,礼拜六下午两点,错过了得等明年。", "四月十二号"),
    ],
)  # fmt: skip
def test_a_day_told_in_the_month_of_a_trip_is_noted(turn: str, said: str, day: str) -> None:
    assert day in date_note(turn, _said(said), "zh" if "号" in day else "en")


def test_where_a_thing_bought_is_said_to_be_asks_nothing_of_the_area() -> None:
    home = "我们家搬到南京江宁了。"
    menu = "我打算那天一早去小区附近的周末农夫市集买菜。你帮我定个六菜一汤的菜单，再列个采购单。"
    assert place_note(menu, _said(home), "zh") == ""
    assert place_note("我家附近的公园有哪些好玩的？", _said(home), "zh") != ""
    men = "I want to meet people, maybe a men's shed or a choir. What would you suggest near me?"
    assert "Dungarvan" in place_note(
        men, _said("We sold the house in Tallaght and moved down to Dungarvan."), "en"
    )
