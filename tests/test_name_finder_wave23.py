"""The name finder on real speech (wave 23), whole sentences through the real scrubber, the real name
lists, jieba and the English parse: everyday words whose first character is a surname stay in clear
(祝酒词, 项目经理, 师范, 桃子, 李子, 全科医生), as do places after "in" / "out at" and before
"accent"; names with a rare surname or one the speaker spells out are hashed (阚雨桐, 亓慧琳, 禤海燕,
揭志强, 仉佳禾)."""

from __future__ import annotations

import pytest

from voice_agent.memory.names import EnglishNameFinder, person_spans
from voice_agent.memory.names_zh_surnames import (
    ALL_COMPOUND_SURNAMES,
    ALL_SINGLE_SURNAMES,
    COMPOUND_SURNAMES,
    SINGLE_SURNAMES,
)
from voice_agent.memory.scrub import PLACEHOLDER_RE, Scrubber, ScrubResult


@pytest.fixture(scope="module")
def scrubber(name_scrubber: Scrubber) -> Scrubber:
    return name_scrubber


@pytest.fixture(scope="module")
def parser() -> EnglishNameFinder:
    finder = EnglishNameFinder()
    finder.start()
    return finder


def _scrub(scrubber: Scrubber, text: str, parser: EnglishNameFinder | None = None) -> ScrubResult:
    """The write path's scrub: the patterns and the name finder, and for English the parse's PERSONs."""
    spans = person_spans(parser.parse(text)) if parser is not None else []
    return scrubber.scrub(text, name_spans=spans)


def _names(result: ScrubResult) -> list[str]:
    return [f.value for f in result.found if f.kind == "NAME"]


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("帮我给团建写几句祝酒词，简短一点。", "祝酒词"),
        ("下周六庆功宴我得上台敬大家一杯，帮我写个简短的祝酒词呗？", "祝酒词"),
        ("帮我写几句祝福的话，发给客户。", "祝福"),
        ("帮我给客户那边的项目经理写条微信，说会议推迟了。", "项目经理"),
        ("项目进度有点慢，这个方案的金额也太高了。", "方案的金额"),
        ("听说她是师范刚毕业的，教语文。", "师范"),
        ("他是全科医生，周三坐诊。", "全科医生"),
        ("我去叫司机过来。", "司机"),
        ("钱包落在出租车上了。", "钱包"),
        ("坐高铁去江边看看，再找个房子住两天。", "高铁"),
        ("把报销单放你桌上了，记得签字。", "报销单放你"),
        ("我婆婆对桃子过敏，连桃子的毛蹭到手上都起一片红疹子。", "桃子的毛蹭到手上"),
        ("李子和梅子都很酸，杨梅倒是挺甜。", "李子和梅子都很酸，杨梅"),
        ("柚子和栗子我都爱吃。", "柚子和栗子"),
        ("我晕车晕得厉害，坐大巴就吐。", "晕车晕得"),
        ("闺女的舞蹈课在少年宫三楼。", "少年宫三楼"),
        ("他这个人很跋扈。", "跋扈"),
        ("我姓高，高兴认识你。", "高兴"),
    ],
)
def test_everyday_words_a_surname_starts_stay_in_clear(scrubber: Scrubber, text: str, kept: str) -> None:
    result = _scrub(scrubber, text)
    assert kept in result.text, result.text
    assert _names(result) == []


@pytest.mark.parametrize(
    ("text", "names", "kept"),
    [
        ("我儿子的新老师姓阚，念kàn，叫阚雨桐，听说是师范刚毕业的。", ["阚雨桐"], "姓阚"),
        ("客户那边对接的项目经理叫亓慧琳，亓是个特别少见的姓。", ["亓慧琳"], "项目经理"),
        ("我换了个牙医，姓禤，示字旁那个禤，全名禤海燕。手可轻了。", ["禤海燕"], "姓禤"),
        ("我们读书会来了个新成员，姓仉，全名仉佳禾，在图书馆上班。", ["仉佳禾"], "姓仉"),
        ("我表哥揭志强买新房了，叫我一定要去。", ["揭志强"], "我表哥"),
        ("我姓揭，揭志强是我哥。", ["揭志强"], "我姓揭"),
        ("下个月我想请几天假去找岑露玩。", ["岑露"], "去找"),
        ("我细佬禤家明而家喺顺德返工。", ["禤家明"], "我细佬"),
        ("我们班主任姓笪，叫笪文静，人挺好。", ["笪文静"], "姓笪"),
        ("我有个同学复姓澹台，叫澹台明月。", ["澹台明月"], "复姓澹台"),
        ("我公公尉迟老爷子退休以后迷上养鸽子了。", ["尉迟"], "我公公"),
        ("我同事杨梅明天来。", ["杨梅"], "我同事"),  # the fruit's word as a person, by the sentence
        ("我闺蜜叫桃子，她说明天来。", ["桃子"], "我闺蜜"),
    ],
)
def test_names_with_a_rare_or_told_surname_are_hashed(
    scrubber: Scrubber, text: str, names: list[str], kept: str
) -> None:
    result = _scrub(scrubber, text)
    assert _names(result) == names
    for name in names:
        assert name not in result.text
    assert kept in result.text
    assert PLACEHOLDER_RE.search(result.text)


def test_the_name_of_a_rare_surname_is_the_same_placeholder_each_time(scrubber: Scrubber) -> None:
    first = _scrub(scrubber, "新老师叫阚雨桐。")
    again = _scrub(scrubber, "阚雨桐明天开家长会。")
    assert first.placeholders == again.placeholders and len(first.placeholders) == 1


@pytest.mark.parametrize(
    ("text", "kept", "names"),
    [
        ("Got the email: I'm speaking at the logistics conference in Kraków!", "Kraków", []),
        (
            "We've got a new travel coordinator, Ailsa Urquhart. Lovely woman, Orkney accent.",
            "Orkney accent",
            ["Ailsa Urquhart"],
        ),
        (
            "Imogen's just started as a midwife at the Royal Infirmary of Edinburgh, out at Little France.",
            "Little France",
            ["Imogen"],
        ),
        ("She spent a year in Orkney before moving south.", "Orkney", []),
        ("My niece's wedding is this Saturday down in Kilkenny.", "Kilkenny", []),
        ("Ama has travelled to Takoradi, she'll be back by the weekend.", "Takoradi", ["Ama"]),
    ],
)
def test_places_after_in_or_at_and_before_an_accent_are_no_person(
    scrubber: Scrubber, parser: EnglishNameFinder, text: str, kept: str, names: list[str]
) -> None:
    result = _scrub(scrubber, text, parser)
    assert kept in result.text, result.text
    assert [n for n in names if n in result.text] == []


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("I laughed at Tomasz all evening.", "Tomasz"),
        ("We had dinner at Nkechi's place.", "Nkechi"),
        ("I'm angry at Kwame for forgetting.", "Kwame"),
        ("Wat Kainoa said was funny.", "Kainoa"),
    ],
)
def test_a_person_after_at_is_still_a_person(
    scrubber: Scrubber, parser: EnglishNameFinder, text: str, name: str
) -> None:
    result = _scrub(scrubber, text, parser)
    assert name not in result.text, result.text


def test_the_surname_lists_cover_the_traditional_list() -> None:
    # A sample of the traditional list, common and rare, and the compound surnames.
    for surname in "赵钱孙李周吴郑王冯陈褚卫蒋沈韩杨阚亓禤仉揭佘岑笪覃邝冼谌蔺逯":
        assert surname in ALL_SINGLE_SURNAMES, surname
    compounds = "欧阳 司马 尉迟 上官 诸葛 皇甫 令狐 慕容 东方 端木 公孙 长孙 宇文 司徒 夏侯 澹台 呼延"
    for surname in compounds.split():
        assert surname in COMPOUND_SURNAMES, surname
    assert len(ALL_SINGLE_SURNAMES) >= 440 and len(ALL_COMPOUND_SURNAMES) >= 60
    # Rare surnames count by their shape; those that are everyday words too (揭, 水) only after a cue.
    assert {"阚", "亓", "禤", "仉"} <= SINGLE_SURNAMES
    assert not {"揭", "水", "有", "那"} & SINGLE_SURNAMES
