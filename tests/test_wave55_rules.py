"""Wave 55's readers: a thing that merely talking of turns the person's stomach is kept off; a suggestion
is shaped by the one sentence that says a liking, and not by someone else's liking; foods, a verb and
the 成 of "into" are no names."""

from __future__ import annotations

import pytest

from voice_agent.conversation.constraints import parse_constraints
from voice_agent.conversation.liking_sentences import liking_sentence, someone_elses
from voice_agent.conversation.likings import says_liking
from voice_agent.conversation.related_tie import related_statement
from voice_agent.conversation.reminders import liked_fact
from voice_agent.conversation.said_before import relevant_statement
from voice_agent.memory.records import MemoryRecord
from voice_agent.memory.scrub import Scrubber


def _kinds(text: str) -> dict[str, str]:
    return {c.key: c.kind for c in parse_constraints(text)}


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("讲到榴莲我真的会起鸡皮疙瘩，那个味道根本就是瓦斯外泄加臭袜子。", "avoid:榴莲"),
        ("提到香菜我就想吐。", "cilantro"),
        ("一看到茄子就撇起个嘴巴。", "avoid:茄子"),
    ],
)
def test_what_talking_of_turns_the_stomach_is_kept_off(text: str, key: str) -> None:
    assert key in _kinds(text)


@pytest.mark.parametrize(
    "text",
    ["说到那场演唱会我就起鸡皮疙瘩，太燃了。", "说到这个问题我就头疼。", "提到周杰伦我就激动得起鸡皮疙瘩。"],
)
def test_goosebumps_of_joy_keep_nothing_off(text: str) -> None:
    assert _kinds(text) == {}


DURIAN_DAY = (
    "欸，台北这礼拜每天下午都在下雷阵雨，我的伞已经坏第三把了，超扯。"
    "对了，我妈最近迷上跳国标舞，每天都穿得亮晶晶出门。"
)

SAILING = "Oh, and my husband loves sailing."


def test_a_suggestion_is_shaped_by_the_sentence_of_the_liking_only() -> None:
    fact = "Work is mad this week, the boss is away. My favourite music is jazz, always has been."
    liking = "My favourite music is jazz, always has been."
    assert liked_fact([fact], "What concert should I look for?") == liking
    assert liking_sentence(fact) == liking


@pytest.mark.parametrize(
    ("fact", "turn"),
    [
        (DURIAN_DAY, "下个月我跟两个姊妹去新加坡玩四天，你帮我排一下行程，顺便推荐必吃的东西。"),
        (SAILING, "What book should I read next?"),
        ("然后我老公最近迷上拼乐高，客厅整个被他占满。", "中秋我们一家四口要去露营，帮我排一下菜单。"),
        (
            "我屋那口子最近迷上跳广场舞咧，天天晚上不见人影。",
            "八月份想带娃去秦岭露营两晚，你帮我推荐几个营地。",
        ),
    ],
)
def test_someone_elses_liking_does_not_shape_the_persons_suggestion(fact: str, turn: str) -> None:
    assert liked_fact([fact], turn) == ""


@pytest.mark.parametrize(
    ("fact", "turn", "said"),
    [
        (DURIAN_DAY, "我妈下个月过生日，推荐个礼物吧。", DURIAN_DAY[DURIAN_DAY.index("对了") :]),
        ("I love hiking in the hills.", "What should I do this weekend?", "I love hiking in the hills."),
        (SAILING, "What should I get my husband for his birthday?", SAILING),
    ],
)
def test_a_liking_shapes_a_turn_about_whose_it_is(fact: str, turn: str, said: str) -> None:
    assert liked_fact([fact], turn) == said


def test_my_mum_says_is_the_person_talked_of() -> None:
    assert not someone_elses("My mum says I love anything with cheese on it.", "What should I cook?")


@pytest.mark.parametrize(
    "text",
    [
        "胡萝卜我从小就不吃，一股土腥味。",
        "我剁成末藏饺子馅里她都能一口吃出来。",
        "连料酒、黄酒烧的菜、酒酿都不行。",
        "你爱喝就喝，出事别找我。",
        "辣的、刺激的也尽量莫吃，屋里吃饭还要分餐。",
        "桂圆我吃了就上火。",
    ],
)
def test_a_food_a_verb_or_the_cheng_of_into_is_no_name(name_scrubber: Scrubber, text: str) -> None:
    assert name_scrubber.scrub(text).text == text


@pytest.mark.parametrize("text", ["说谢天宇明天来", "我同事成龙明天来", "张伟说他明天来"])
def test_names_beside_those_words_are_still_scrubbed(name_scrubber: Scrubber, text: str) -> None:
    assert "[NAME:" in name_scrubber.scrub(text).text


def test_a_liking_of_the_persons_own_after_someone_elses_subject_is_theirs() -> None:
    assert not someone_elses("我外公是广东人，我从小跟着他听粤剧。", "今晚放点什么听？")
    assert not someone_elses("My husband got me into sailing and I love it now.", "What book should I read?")


@pytest.mark.parametrize(
    "text",
    [
        "I'd stand in a river from dawn to dusk for a salmon and kiss every one before I slip it back.",
        "We fished from sunrise to sunset and caught nothing.",
    ],
)
def test_hours_alone_are_no_fast(text: str) -> None:
    assert "diet:daylight-fast" not in _kinds(text)


def test_hours_with_not_eating_are_a_fast() -> None:
    assert "diet:daylight-fast" in _kinds(
        "For the Fast I have nothing to eat or drink from sunrise to sunset."
    )


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("现在沾一点辣椒、剁椒，肚子里就跟点了把火一样，一晚上困不着。", "spicy"),
        ("喝一口冰的肚子就咕噜咕噜叫。", "cold"),
        ("现在饮茶见到有人点火锅我都要坐远点。", "avoid:火锅"),
    ],
)
def test_a_stomach_or_a_seat_moved_away_tells_what_is_kept_off(text: str, key: str) -> None:
    assert key in _kinds(text)


@pytest.mark.parametrize(
    "text",
    [
        "吃了一碗面，肚子就饱了。",
        "连芝士蛋挞都要戒埋。",  # (埋: "as well", no thing)
        "我这辈子最受不了就是那种绿色、浑身疙瘩、一口下去苦到心里的东西。",  # (described, not named)
    ],
)
def test_no_thing_is_read_from_a_full_stomach_a_particle_or_a_description(text: str) -> None:
    keys = _kinds(text)
    assert not any(key.startswith("avoid:") for key in keys), keys
    assert "avoid:埋" not in keys and "avoid:绿色" not in keys


def test_tossing_and_turning_is_no_liking() -> None:
    assert not says_liking("一晚上翻来覆去困不着。")
    assert says_liking("那本书我翻来覆去看了好多遍。")


def test_of_equal_sentences_the_one_with_a_day_is_said_back() -> None:
    story = (
        "哎哟，上海今朝落雨落得结棍，伞都撑不牢。医生总算排好了，上海六院6月14号礼拜六住进去开刀。"
        "隔壁爷叔又在楼道里堆纸板箱。"
    )
    record = MemoryRecord("c1", story, source="t1", created_at=100.0)
    said = relevant_statement("想带小孩在上海周边露营，哪几个周末去好？", [record], "zh")
    assert "6月14号" in said and "落雨" not in said


@pytest.mark.parametrize(
    "text",
    [
        "哎呀，佛山呢排热到癫，我喺祖庙门口等部车都成身汗。",
        "成块面即刻肿到好似猪头，仲出晒风团、喉咙发紧，医生叫我以后见到嗰类花都要兜路行。",
    ],
)
def test_cantonese_words_a_surname_starts_are_no_names(name_scrubber: Scrubber, text: str) -> None:
    assert name_scrubber.scrub(text).text == text


def test_a_surname_of_those_words_is_still_a_name_in_mandarin(name_scrubber: Scrubber) -> None:
    assert "[NAME:" in name_scrubber.scrub("我同事仲伟明天来").text


@pytest.mark.parametrize("text", ["现在沾一点点海椒，胃里头就像有人拿刀在搅。", "我吃海椒就拉肚子。"])
def test_sichuan_chilli_is_spicy(text: str) -> None:
    assert "spicy" in _kinds(text)


def test_a_story_of_harm_is_not_said_back_after_a_reply() -> None:
    told = "我同菊花真系八字唔夹。上年饮咗一杯菊花茶，成块面即刻肿到好似猪头，去到急诊打咗针。"
    record = MemoryRecord("c1", told, source="t1", created_at=100.0)
    assert related_statement("你帮我列张清单，花茶买边啲好？", [record], "zh") == ""
    calm = MemoryRecord("c1", "上年饮咗一杯菊花茶，好好饮。", source="t2", created_at=101.0)
    assert "菊花茶" in related_statement("你帮我列张清单，花茶买边啲好？", [calm], "zh")
