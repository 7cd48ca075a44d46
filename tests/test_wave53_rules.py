"""Wave 53: dislikes told by disgust at a smell or by exaggeration (misses of heldout207-212)."""

from __future__ import annotations

from voice_agent.conversation.constraints import ConstraintSet, parse_constraints
from voice_agent.conversation.likings import liking_tie, says_liking


def _kinds(text: str) -> dict[str, str]:
    return {c.key: c.kind for c in parse_constraints(text)}


def test_retching_at_a_smell_is_a_dislike_not_an_intolerance() -> None:
    said = "我这个人什么都吃得，唯独羊肉，那股膻味一闻到就想呕，细个时阿妈逼我饮过一碗羊肉汤，吐了成晚。"
    assert _kinds(said) == {"lamb": "avoid"}
    smelled = "上礼拜聚餐吃涮羊肉，我一进门那股膻气冲上来，筷子都没动，这种骚哄哄的东西我闻到就要作呕的。"
    assert _kinds(smelled) == {"lamb": "avoid"}
    explained = parse_constraints(said)[0].explanation("zh")
    assert "不耐受" not in explained and "羊肉" in explained
    # (what eating it does to the body stays an intolerance)
    assert _kinds("我一喝牛奶就想吐") == {"dairy": "intolerance"}
    assert _kinds("闻到牛奶味就想吐，喝了还拉肚子") == {"dairy": "intolerance"}


def test_anything_but_the_thing_is_a_dislike_of_the_thing() -> None:
    said = "I'd eat the leg of the table, but coriander, God forgive me, it's like chewing a bar of soap."
    assert _kinds(said) == {"cilantro": "avoid"}  # (the known herb, under both its names)
    assert any("coriander" in c.terms_en for c in parse_constraints(said))
    assert _kinds("Honestly I'll eat anything except olives.") == {"avoid:olives": "avoid"}
    assert _kinds("I'll eat anything, I'm not fussy.") == {}


def test_sooner_eating_the_tin_keeps_off_what_the_tin_held() -> None:
    said = (
        "My granny used to plonk a tin of baked beans on everything, and forty year on the smell of that "
        "orange gloop still turns my stomach, I'd sooner eat the tin."
    )
    assert _kinds(said) == {"avoid:baked beans": "avoid"}
    assert _kinds("I'd sooner eat the tin than pay that much for soup.") == {}


def test_the_stuff_smelled_is_the_stuff_that_turns_the_stomach() -> None:
    said = (
        "The whole flat reeks of cinnamon now, and honest, that stuff gies me the boak, I cannae even be in "
        "the same room as a cinnamon roll."
    )
    assert _kinds(said) == {"avoid:cinnamon": "avoid"}  # (the roll goes with the spice)


def test_another_one_of_what_was_praised() -> None:
    said = (
        "The PT reckons burpees build character, but fair dinkum I'd rather chew through a stubby holder "
        "than do another one."
    )
    assert _kinds(said) == {"avoid:burpees": "avoid"}
    assert _kinds("The PT reckons squats are great and I'd rather do them than run.") == {}


def test_a_vow_that_no_one_can_talk_the_person_round() -> None:
    said = "打那以后我就撂下话了，张北那地界儿谁请我我都不去，给钱都不好使。"
    assert _kinds(said) == {"avoid:张北": "avoid"}
    films = "从此我发过毒誓，鬼片恐怖片这种东西，啥人请我都不去了，钞票倒贴也不看。"
    assert _kinds(films) == {"avoid:鬼片": "avoid", "avoid:恐怖片": "avoid"}
    hardship = "从那辰光起我就发过誓，坐在硬板凳上熬通宵这种罪，这辈子再也不受了，宁可不出门。"
    assert _kinds(hardship) == {"avoid:熬通宵": "avoid"}
    # (who invites is no vow: an invitation accepted, or a thing that is not sworn off)
    assert _kinds("谁请我吃饭我都去，我这个人不挑。") == {}


def test_happy_as_larry_is_a_liking_and_the_clause_that_names_it_is_said_back() -> None:
    said = (
        "Me, I've been mad for dancing since I was a girl jiving at the Top Rank in Swansea, give me a "
        "cha-cha and I'm happy as Larry, whereas them gym bikes bore me rigid."
    )
    assert says_liking(said)
    assert says_liking("Put a lemon in front of me and I'm happy as a pig in muck.")
    assert not says_liking("That cheese is rank.")
    assert not says_liking("The gym bikes bore me rigid, whereas the pool is just about bearable.")
    story = (
        "I'll tell you what keeps me sane come winter though: hand me a book about some poor fella freezing "
        "his toes off on the way to the South Pole or hanging off the side of K2 and I'm happy as a clam."
    )
    tie = liking_tie(story, "Try a cosy mystery.", "What should I read this winter?", "en", ConstraintSet([]))
    assert "South Pole" in tie and "K2" in tie
