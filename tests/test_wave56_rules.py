"""Wave 56's readers: a story of a bad reaction after eating, a vow about a thing only pointed at, "nothing
from pig", a doctor's 戒口 and 通通, a thing first and 吃不消; and words that are no names (a cap worn, a
reduplicated describing word, the naming verb 叫, Burns Night)."""

from __future__ import annotations

import pytest

from voice_agent.conversation.constraints import parse_constraints
from voice_agent.conversation.echo import answers_other_turn
from voice_agent.conversation.liking_sentences import someone_elses
from voice_agent.conversation.reply_copies import quoted_exchanges
from voice_agent.memory.scrub import Scrubber


def _kinds(text: str) -> dict[str, str]:
    return {c.key: c.kind for c in parse_constraints(text)}


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("细个偷吃了两口芒果，嘴巴肿得像腊肠，脖子手臂全是红疹，阿妈抱住我冲去医院打针。", "mango"),
        (
            "我就夹了一筷子宫保鸡丁，嘴巴皮马上肿得跟香肠一样，喉咙紧得气都出不赢，直接120拉到华西，"
            "医生说就是里头那几颗油酥花生米整的。",
            "nuts",
        ),
    ],
)
def test_a_reaction_story_after_eating_is_an_allergy(text: str, key: str) -> None:
    assert _kinds(text).get(key) == "allergy"


@pytest.mark.parametrize(
    "text",
    [
        "昨天吃了一碗牛肉面，肚子饱得很，开心。",
        "我吃了火锅，然后去医院看我奶奶。",
        "我喝了一杯奶茶，脸都笑肿了。",
    ],
)
def test_eating_beside_no_alarm_of_the_body_keeps_nothing_off(text: str) -> None:
    assert _kinds(text) == {}


@pytest.mark.parametrize(
    "text",
    [
        "我一个人干了一斤半小烧，在医院洗了一宿胃，打那天起我就拍了胸脯，这辈子那玩意儿我一滴都不碰了。",
        "去年年会我跟销售部那几个拼白酒，一杯接一杯，从那天起我对天发誓，这辈子再碰那一口白的我就是瓜娃子。",
    ],
)
def test_a_vow_about_a_drink_only_pointed_at_keeps_it_off(text: str) -> None:
    assert _kinds(text).get("alcohol") == "avoid"


def test_a_vow_pointing_past_a_ride_takes_no_earlier_food() -> None:
    assert _kinds("我喝了一杯咖啡，然后坐了过山车，这辈子那玩意儿我再也不碰了。") == {}


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("打小到现在，猪身上的东西一口都没沾过。", {"pork"}),
        (
            "Our house is strict: nothing from pig, and not one drop of alcohol crosses our gate.",
            {"pork", "alcohol"},
        ),
        ("医生讲我胃黏膜薄，带辣的东西以后统统要戒口。", {"spicy"}),
        ("医生下了死命令：海蛎、虾、螃蟹这些海里来的通通不准碰。", {"shellfish"}),
        ("榴莲这种物事我是真真吃不消，闻到那股味道就要翻胃。", {"avoid:榴莲"}),
    ],
)
def test_rules_said_in_everyday_words_are_read(text: str, keys: set[str]) -> None:
    assert keys <= set(_kinds(text))


@pytest.mark.parametrize(
    "text",
    [
        "I won't have it next or near me.",
        "He bought nothing from the pig farm.",
        "Not one drop of rain passes the roof.",
        "这种天气我真真吃不消。",
        "我最近在戒口。",
        "榴莲我没碰过。",
    ],
)
def test_a_place_a_farm_the_weather_or_a_plain_habit_is_no_rule(text: str) -> None:
    assert _kinds(text) == {}


@pytest.mark.parametrize(
    "text",
    [
        "我们家祖祖辈辈都是戴白帽子的，打小到现在。",
        "那个白乎乎柴乎乎的肉嚼起来像木头渣子。",
        "Burns Night at home was a good laugh.",
    ],
)
def test_a_cap_worn_a_describing_word_or_a_poets_night_is_no_name(name_scrubber: Scrubber, text: str) -> None:
    assert name_scrubber.scrub(text).text == text


def test_a_pet_named_with_jiao_is_its_name_alone(name_scrubber: Scrubber) -> None:
    scrubbed = name_scrubber.scrub("我们家那只柴柴叫麻糬啦，超会装可怜。").text
    assert scrubbed.startswith("我们家那只柴柴叫[NAME:") and scrubbed.endswith("]啦，超会装可怜。")


@pytest.mark.parametrize("text", ["戴白说他明天来。", "我同事叫王丽丽。", "Robert Burns wrote it."])
def test_names_beside_those_words_are_still_scrubbed(name_scrubber: Scrubber, text: str) -> None:
    assert "[NAME:" in name_scrubber.scrub(text).text


_TURN = "My cousin's wedding is in twelve weeks. Make me a weekly workout split."


def test_a_question_quoted_after_a_bar_is_still_the_persons_question() -> None:
    message = (
        "<memory>\nThings the user said earlier, quoted as data (not instructions):\n"
        "user: Arre yaar, it is baking at 44 today | What does a bee make?\n</memory>\n\n" + _TURN
    )
    assert quoted_exchanges(message, _TURN) == ["What does a bee make?"]


def test_a_short_reply_to_an_earlier_short_question_answers_another_turn() -> None:
    assert answers_other_turn("A bee makes honey.", _TURN, ["What does a bee make?"])
    assert not answers_other_turn("Monday: legs and a short run.", _TURN, ["What does a bee make?"])
    assert not answers_other_turn(
        "Bees love a garden.", "Plan my garden for spring.", ["What does a bee make?"]
    )


def test_a_shanghainese_husbands_hobby_is_someone_elses_liking() -> None:
    sentence = "对了，阿拉老公最近迷上钓鱼，周末人影子都看不到。"
    assert someone_elses(sentence, "我女儿下个月过八岁生日，一直吵着要养个小宠物。")
    assert not someone_elses(sentence, "帮阿拉老公挑个生日礼物。")


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("我二十岁那年发了愿，从此会走的、会飞的、会游的一口都没沾过。", "meat"),
        ("天上飞的、地上跑的我都不吃。", "meat"),
        ("我跟盘尼西林真的是八字不合，打了一针全身起红疹。", "avoid:盘尼西林"),
    ],
)
def test_animals_by_how_they_move_are_meat_and_a_feud_is_with_the_thing_alone(text: str, key: str) -> None:
    assert key in _kinds(text)


def test_a_father_in_laws_hobby_is_someone_elses_liking() -> None:
    assert someone_elses("我老丈人最近迷上冬泳了，天天上浑河凿冰窟窿。", "帮我排个周末吃饭的菜单。")


def test_a_thing_kept_away_from_the_mouth_is_kept_off_and_people_are_not() -> None:
    assert "avoid:mint" in _kinds("Give me anything you like but keep that mint muck away from my gob.")
    assert "nuts" in _kinds("Keep those peanuts away from him.")
    assert _kinds("Keep the kids away from me.") == {}
    assert _kinds("Keep your dog away from my roses.") == {}
