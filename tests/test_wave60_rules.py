"""Wave 60: reactions told the way people tell them: retching at a food ("一口下去我当场就呕了"), a stomach
on fire ("痛得在床上打滚"), a Cantonese allergy story ("起晒红疹", "喉咙仲收紧"), a racing heart after coffee;
the allergen behind a severe reaction to a thing made of it ("almond friand … my throat closed up"); and
a list kept off read without the time words before it ("后来连浓茶、可乐我都不敢碰了")."""

from __future__ import annotations

import pytest

from voice_agent.conversation.constraints import parse_constraints


def _read(said: str) -> list[tuple[str, str]]:
    return [(c.key, c.kind) for c in parse_constraints(said)]


@pytest.mark.parametrize(
    ("said", "key", "kind"),
    [
        (
            "我这辈子跟羊肉是犟起的，那股膻味隔两条街我都闻得到，上回同事硬拉我去吃烤串，一口下去我当场就呕了。",
            "lamb",
            "avoid",
        ),
        ("海椒花椒现在沾一点点，胃里头就像有人拿烙铁在烫，半夜痛得在床上打滚。", "spicy", "intolerance"),
        (
            "讲起我细个第一次食蛋挞，咬咗两啖全身起晒红疹，块面肿到好似个猪头，喉咙仲收紧到唞唔到气，"
            "之后医生开咗支针笔俾我随身带，依家连鸡蛋仔、蛋黄酱都唔敢掂。",
            "eggs",
            "allergy",
        ),
        (
            "One bite of my sister-in-law's almond friand at Christmas and my throat closed up.",
            "nuts",
            "allergy",
        ),
        (
            "我这颗心脏跟咖啡是前世冤家，一杯拿铁下去，心跳得像敲鼓，手抖得筷子都拿不牢。",
            "coffee",
            "intolerance",
        ),
    ],
)
def test_reactions_told_in_stories_are_read(said: str, key: str, kind: str) -> None:
    assert (key, kind) in _read(said)


def test_a_face_swollen_like_a_pigs_head_is_no_pork() -> None:
    said = "咬咗两啖全身起晒红疹，块面肿到好似个猪头，之后连鸡蛋仔都唔敢掂。"
    assert "pork" not in [key for key, _ in _read(said)]


@pytest.mark.parametrize(
    "said",
    [
        "I had a slice of pizza and my stomach was upset.",  # (a mild reaction blames no allergen)
        "Grabbed an almond croissant on the way to work, the traffic was murder.",  # (no reaction at all)
    ],
)
def test_a_thing_made_of_an_allergen_without_a_severe_reaction_names_none(said: str) -> None:
    assert "nuts" not in [key for key, _ in _read(said)]


@pytest.mark.parametrize(
    ("said", "keys", "not_keys"),
    [
        ("后来连浓茶、可乐我都不敢碰了。", {"avoid:浓茶", "avoid:可乐"}, {"avoid:后来连浓茶"}),
        ("那些连锁体检中心我这辈子再也不进了！", {"avoid:连锁体检中心"}, set()),  # (连锁: a chain, kept)
    ],
)
def test_time_words_and_even_before_a_thing_are_not_part_of_it(
    said: str, keys: set[str], not_keys: set[str]
) -> None:
    read = {key for key, _ in _read(said)}
    assert keys <= read and not read & not_keys


@pytest.mark.parametrize(
    ("said", "key", "kind"),
    [
        (
            "Total poison for me: one bite of scampi at my cousin's wedding in Largs and my lips blew up "
            "like a lilo, my throat went tight.",
            "shellfish",
            "allergy",
        ),
        (
            "I swore to Our Lady on the pier in Kilronan that I'd never again put a foot on anything that "
            "floats, not for love nor money.",
            "boats",
            "avoid",
        ),
        ("I swore I'd never again set foot on a boat.", "boats", "avoid"),
    ],
)
def test_vows_and_allergies_in_other_words_are_read(said: str, key: str, kind: str) -> None:
    assert (key, kind) in _read(said)


def test_a_boat_set_foot_on_and_loved_is_no_vow() -> None:
    assert _read("I set foot on a boat to Skye and loved it.") == []


def test_full_is_no_word_a_request_shares_with_a_story() -> None:
    from voice_agent.conversation.related_tie import strong_keys

    assert "full" not in strong_keys("My daughters are sending me for a full day at the salon, the works.")


@pytest.mark.parametrize(
    ("said", "key"),
    [
        (
            "Coconut, though, I cannot, it's like chewin' suntan-lotion-flavored toenail clippings; I spit "
            "one right into a napkin.",
            "avoid:coconut",
        ),
        ("阿拉从小到大就闻不得那股膻气，一块羊肉端上来我隔开三张桌子都闻得到。", "avoid:羊肉"),
    ],
)
def test_a_food_refused_after_an_aside_or_by_its_smell_is_read(said: str, key: str) -> None:
    assert key in [k for k, _ in _read(said)]


@pytest.mark.parametrize(
    "said", ["Friday, though, I can't, I'm working.", "The weekend, though, I cannot wait."]
)
def test_a_day_that_cannot_be_done_is_no_food_refused(said: str) -> None:
    assert _read(said) == []
