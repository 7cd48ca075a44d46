"""Wave 57's liking readers: a family member's new hobby is theirs even when the sentence goes on to
compare it with the person ("行程比我还满"), in more kin words (老汉, 老爷子, 阿嬷, 大孙子, hubby); and a
liking said as an offer that cannot be refused ("put a proper comic in front of me and I'll read it
twice", "是真好那口酸")."""

from __future__ import annotations

import pytest

from voice_agent.conversation.liking_sentences import someone_elses
from voice_agent.conversation.likings import says_liking


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
