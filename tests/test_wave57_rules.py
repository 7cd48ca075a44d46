"""Wave 57's liking readers: a family member's new hobby is theirs even when the sentence goes on to
compare it with the person ("行程比我还满"), in more kin words (老汉, 老爷子, 阿嬷, 大孙子, hubby); and a
liking said as an offer that cannot be refused ("put a proper comic in front of me and I'll read it
twice", "是真好那口酸")."""

from __future__ import annotations

import pytest

from voice_agent.conversation.changed_plan import changed_plan
from voice_agent.conversation.constraints import parse_constraints
from voice_agent.conversation.date_note import date_note
from voice_agent.conversation.liking_sentences import someone_elses
from voice_agent.conversation.likings import says_liking
from voice_agent.conversation.place_note import ranked_places
from voice_agent.conversation.place_note import recalled_place as turn_place_of
from voice_agent.conversation.refusals_zh import eaten_zh
from voice_agent.memory.records import MemoryRecord


@pytest.mark.parametrize(
    "sentence",
    [
        "我家老爷子最近迷上广场舞，天天比我回家还晚。",
        "对了，我屋头老汉最近迷上钓鱼，天天不见人影。",
        "对了，我家阿嬷最近迷上跳排舞，行程比我还满。",
        "我那大孙子最近迷上打游戏，说他也不听。",
        "Oh and my hubby is into pickleball now.",
    ],
)
def test_a_family_members_hobby_is_someone_elses(sentence: str) -> None:
    assert someone_elses(sentence, "帮我排一下这个礼拜的行程。")


def test_the_person_going_on_about_themself_is_their_own_liking() -> None:
    assert not someone_elses("我外公是广东人，我从小跟着他听粤剧。", "推荐几出戏。")


@pytest.mark.parametrize(
    ("text", "liked"),
    [
        (
            "Mam says I read picture books, but put a proper comic in front of me, Tintin, Maus, anything "
            "with panels, and I will read it twice in the one sitting.",
            True,
        ),
        ("Hand me a crossword and I will be gone for the afternoon.", True),
        ("If the food no dey bite back, e no be food: I carry my own bottle of scotch bonnet sauce.", True),
        ("我这人打小就是个醋坛子，是真好那口酸，吃饺子得蘸半碗醋。", True),
        ("Put a plate of sprouts in front of me and I will cry.", False),
    ],
)
def test_a_liking_said_as_an_offer(text: str, liked: bool) -> None:
    assert says_liking(text) is liked


def test_a_changed_plan_is_said_back_with_its_new_time_and_place() -> None:
    records = [
        MemoryRecord(
            "c", "Book club is locked in: Thursday at 7 at the Harold Washington Library.", created_at=1.0
        ),
        MemoryRecord(
            "c", "Book club update: the library gave our room away to a council thing", created_at=2.0
        ),
        MemoryRecord(
            "c",
            "so we're doing Wednesday instead, 6:30, at the Logan Square branch, which is way closer.",
            created_at=2.001,
        ),
    ]
    said = changed_plan(
        "Plan my week, and leave reading time for the book club book before we meet.", records, "en"
    )
    assert "Wednesday" in said and "6:30" in said and "Logan Square" in said
    assert "closer" not in said  # (what follows the details is no part of the change)


def test_somewhere_close_to_where_i_am_staying_asks_for_a_place_near_it() -> None:
    turn = "I need somewhere close to where I'm staying with decent wifi and a desk, plus a pool for laps."
    records = [MemoryRecord("c", "I'm crashing at my aunty's in Karori for the next six weeks.")]
    assert turn_place_of(turn, records) == "Karori"


def test_hair_wax_is_no_food_though_its_smell_is_told() -> None:
    (rule,) = parse_constraints("我最顶唔顺就系发蜡发胶嗰啲嘢，成个头好似抹咗层猪油，枕头都一阵味。")
    assert rule.noun_zh == "发蜡发胶"
    assert not eaten_zh(rule)


@pytest.mark.parametrize(
    ("turn", "noted"),
    [
        ("What should I buy at the market, and what can I cook for Sunday lunch?", False),
        ("Should I go to the market on Sunday?", True),
    ],
)
def test_the_day_told_is_noted_for_a_yes_or_no_question_about_that_day(turn: str, noted: bool) -> None:
    records = [MemoryRecord("c", "My pastor has finally agreed to start Sunday service on time.")]
    assert bool(date_note(turn, records, "en")) is noted


def test_a_stay_inside_a_resort_beats_the_city_the_person_comes_from() -> None:
    text = "我们成都人哪见过这种阵仗。我这个礼拜住在太舞小镇里头那家公寓，下楼走两步就是雪道。"
    assert ranked_places(text)[0][1] == "太舞小镇"


def test_a_mouth_swollen_all_round_after_a_mango_is_an_allergy() -> None:
    rules = {
        c.key: c.kind
        for c in parse_constraints("我跟芒果八字相冲，小时候啃了半个，嘴巴周围肿得像腊肠，打了两天吊针。")
    }
    assert rules.get("mango") == "allergy"
