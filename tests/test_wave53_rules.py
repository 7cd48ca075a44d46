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


def test_a_sworn_enemy_that_put_the_person_in_hospital_is_an_allergy_and_groundnut_is_peanut() -> None:
    said = (
        "They rushed me to National Hospital and the doctor said next time I might not be so lucky, so "
        "groundnut and anything made with it is now my sworn enemy, even the yaji on suya."
    )
    assert _kinds(said) == {"nuts": "allergy"}
    assert _kinds("Coriander is my kryptonite.") == {"cilantro": "avoid"}
    nuts = parse_constraints(said)
    assert ConstraintSet(nuts).check("Serve groundnut soup and chikki.") is not None
    assert ConstraintSet(nuts).check("Serve a groundnut-free chin chin.") is None


def test_a_vow_on_ones_name_with_a_step_over_the_door() -> None:
    said = "我当场就撂下话了：这辈子我再踏进4S店半步我就不姓赵！"
    found = parse_constraints(said)
    assert [c.key for c in found] == ["avoid:4s店"]
    assert ConstraintSet(found).check("你可以去4S店做保养。") is not None


def test_any_kind_sworn_off_for_a_child() -> None:
    said = "我当时就拍桌子了：这辈子再也不让她去遭那份罪考什么级了，爱咋咋地。"
    assert _kinds(said) == {"avoid:考级": "avoid"}


def test_a_machine_that_gave_up_is_no_quitting() -> None:
    said = (
        "Well, the block heater on the Silverado finally gave up at minus thirty-five. The guys at camp "
        "blast that Nashville twang all shift long, trucks and beer and my baby left me, and honestly I'd "
        "sooner listen to the drill rig."
    )
    assert _kinds(said) == {"avoid:nashville twang": "avoid"}
    assert _kinds("I gave up dairy last year.") == {"dairy": "avoid"}


def test_a_kosher_home_said_its_own_way_and_not_keeping_kosher() -> None:
    said = "Nothing treif comes through the door, no milk anywhere near the meat, I wait my six hours."
    assert _kinds(said) == {"diet:kosher": "diet"}
    assert _kinds("I don't keep kosher.") == {}
    assert _kinds("We keep kosher at home.") == {"diet:kosher": "diet"}


def test_rushing_to_the_toilet_is_a_symptom() -> None:
    said = "只要喝一口鲜奶、拿铁还是奶茶，半小时内一定冲厕所，所以我现在经过超商的鲜奶柜都绕路走。"
    assert _kinds(said) == {"dairy": "intolerance"}


def test_never_again_over_the_threshold() -> None:
    said = "I swore on my mother's grave that never again will a second-hand piano cross my threshold."
    assert _kinds(said) == {"avoid:second-hand piano": "avoid"}


def test_the_clause_after_a_liking_that_only_says_how_much() -> None:
    story = (
        "I'll tell you what's kept me sane since I retired though: chuck me in a freezing tarn or a bit of "
        "North Sea at seven in the morning in nowt but my cossie and a woolly hat and I'm grinning all day, "
        "the colder the better, our little group went in every Sunday right through January."
    )
    tie = liking_tie(story, "Here is your route.", "Plan our campervan route.", "en", ConstraintSet([]))
    assert "freezing tarn" in tie and "North Sea" in tie
