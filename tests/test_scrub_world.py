"""The scrubber on real people's data (issue 12): names without a cue in English and Chinese, the world's
street addresses, phone numbers as each country writes them, cued card and account numbers, and the
ordinary numbers and words that must stay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from voice_agent.config import load_config
from voice_agent.errors import ConfigError
from voice_agent.memory.person_names import PersonNameFinder
from voice_agent.memory.pii_phones import region_from_locale
from voice_agent.memory.scrub import Scrubber

KEY = bytes(range(32))
SMALL_SET = Path(__file__).parent / "data" / "privacy_small.jsonl"


@pytest.fixture(scope="module")
def names() -> PersonNameFinder:
    finder = PersonNameFinder()
    finder.start()
    return finder


@pytest.fixture(scope="module")
def gb(names: PersonNameFinder) -> Scrubber:
    return Scrubber(KEY, phone_region="GB", names=names)


@pytest.fixture(scope="module")
def nowhere(names: PersonNameFinder) -> Scrubber:
    return Scrubber(KEY, phone_region=None, names=names)


def _kinds(scrubber: Scrubber, text: str) -> dict[str, str]:
    """The raw value of each finding → its kind."""
    return {f.value: f.kind for f in scrubber.scrub(text).found}


# ---- names ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Steffen Mauer called about his order.", ["Steffen Mauer"]),
        (
            "Please forward this to Crystal Murdock and Daniel Andreasen.",
            ["Crystal Murdock", "Daniel Andreasen"],
        ),
        ("I talked with Wojciech Kowalski yesterday; Wojciech said hi.", ["Wojciech Kowalski", "Wojciech"]),
        ("Contact Ngozi Okafor-Adeyemi for details.", ["Ngozi Okafor-Adeyemi"]),
        ("Dr. Okafor saw me on Monday.", ["Okafor"]),
        ("Thanks Caroline, that was great.", ["Caroline"]),
        ("I met Hamish MacLeod at the station.", ["Hamish MacLeod"]),
        ("Please forward this to Tanses Yorulmaz before Friday.", ["Tanses Yorulmaz"]),
        ("The parcel for Ευφροσύνη Στρατογιάννη came back.", ["Ευφροσύνη Στρατογιάννη"]),
        ("I spoke with Maaike Bruijne van der Veen yesterday.", ["Maaike Bruijne van der Veen"]),
    ],
)
def test_english_names_without_a_cue(gb: Scrubber, text: str, expected: list[str]) -> None:
    result = gb.scrub(text)
    assert [f.value for f in result.found if f.kind == "NAME"] == expected
    assert not any(name in result.text for name in expected)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("白雅宁是一位43岁的退休教师，住在杭州。雅宁喜欢画画。", ["白雅宁", "雅宁"]),
        ("我今天去医院看了王建国医生，他说我没事。", ["王建国"]),
        ("我的主治医生是刘德华，护士叫陈静。", ["刘德华", "陈静"]),
        ("欧阳娜娜和她的妈妈李秀英一起去了北京。", ["欧阳娜娜", "李秀英"]),
        ("昨天和老公孙志强去看了电影。", ["孙志强"]),
        ("患者司马光，男，56岁，主诉头痛三天。", ["司马光"]),
        ("护士说万紫嫣的检查结果明天出来，让家属郑宇航来取。", ["万紫嫣", "郑宇航"]),
    ],
)
def test_chinese_names_in_plain_sentences(gb: Scrubber, text: str, expected: list[str]) -> None:
    result = gb.scrub(text)
    assert [f.value for f in result.found if f.kind == "NAME"] == expected
    assert not any(name in result.text for name in expected)


@pytest.mark.parametrize(
    "text",
    [
        "周末想给老婆做个水果沙拉，放哪些水果好？",  # 沙拉 is tagged as a name by the dictionary
        "晚上只吃一份凯撒沙拉。",
        "今天买了龙虾和汤圆。",
        "我想吃黄焖鸡。",
        "来一盒马卡龙吧。",
        "我想吃杨梅。",  # a fruit that is also a person's name, eaten here
        "香椿那个味儿我是真受不了。",  # 香椿 and 木耳 are tagged as names; 菌菇 sits in a person's slot
        "说是菌菇过敏，香菇、蘑菇、木耳这些菌类以后一概都别碰。",
    ],
)
def test_foods_and_drinks_are_not_taken_for_names(gb: Scrubber, text: str) -> None:
    result = gb.scrub(text)
    assert [f.value for f in result.found if f.kind == "NAME"] == [] and result.text == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("我同事杨梅明天来。", ["杨梅"]),  # the same word as a person, by the sentence around it
        ("请王芳吃饭。", ["王芳"]),
        ("我们去吃张伟做的菜。", ["张伟"]),  # eaten is what 张伟 made, not 张伟
    ],
)
def test_a_name_next_to_eating_stays_a_name(gb: Scrubber, text: str, expected: list[str]) -> None:
    assert [f.value for f in gb.scrub(text).found if f.kind == "NAME"] == expected


def test_a_later_mention_gets_the_same_placeholder_as_the_full_name(gb: Scrubber) -> None:
    found = gb.scrub("I spoke with Diego Ramírez today. Diego said the refund is on its way.").found
    first, later = (f for f in found if f.kind == "NAME")
    assert later.placeholder == gb.placeholder_for("NAME", "Diego")
    assert first.placeholder != later.placeholder  # the parts of a name are their own placeholders


@pytest.mark.parametrize(
    "text",
    [
        "Last Friday we went to the Golden Gate Bridge in San Francisco.",
        "Will you come to the Pride parade in New York?",
        "Happy Birthday! Glad you liked the cake.",
        "Lucky me, the Lincoln Park Zoo was open on Sunday.",
        "Nah, I think Blue is the better colour for the kitchen.",
        "We flew to Buenos Aires, then Hong Kong and Kuala Lumpur.",
        "今天天气不错，我们去公园散步吧。",
        "马上就要下雨了，高速路上车很多。",
        "周末我们去白天鹅宾馆吃早茶，黄金周人太多了。",
        "我和同事一起去开会，明天再说。",
    ],
)
def test_ordinary_words_are_not_names(gb: Scrubber, text: str) -> None:
    assert [f.value for f in gb.scrub(text).found] == []


def test_the_parsers_common_word_persons_are_dropped(gb: Scrubber) -> None:
    text = "Glad you came! Nah, Oliver stayed home."
    spans = [(0, 4), (15, 18), (20, 26)]  # what the small English model tags as PERSON here
    assert [f.value for f in gb.scrub(text, name_spans=spans).found] == ["Oliver"]


# ---- addresses -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "address",
    [
        "Dunajska 56, 1000 Ljubljana",
        "ul. Miła 53, 00-950 Warszawa",
        "Hauptstraße 5, 10115 Berlin",
        "12 rue de la Paix, 75002 Paris",
        "Via Roma 10, 00184 Roma",
        "Calle Mayor 5, 28013 Madrid",
        "Πλατεία Συντάγματος 204, 105 63 Αθήνα",
        "улица Пушкина, д. 10, Москва",
        "Andrássy út 60, 1062 Budapest",
        "Keizersgracht 123, 1015 CJ Amsterdam",
        "Hauptstraße 5\n10115 Berlin\nGermany",
        "House No. 12, MG Road, Bengaluru 560001",
    ],
)
def test_world_addresses(gb: Scrubber, address: str) -> None:
    result = gb.scrub(f"Please send the parcel to {address}. Thanks!")
    assert [f.kind for f in result.found] == ["ADDRESS"]
    assert result.found[0].value == address
    assert result.text.startswith("Please send the parcel to [ADDRESS:")


def test_a_postcode_beside_its_city_is_an_address(gb: Scrubber) -> None:
    assert _kinds(gb, "I moved to 10115 Berlin last year") == {"10115 Berlin": "ADDRESS"}


@pytest.mark.parametrize(
    "text",
    [
        "In 2019 Toyota sold more cars than ever",
        "I read Chapter 5 of the book",
        "iPhone 15 costs 999 euros",
        "We met on May 5 at 10:30 in room 101",
        "The 2024 Olympics in Paris were fun",
        "Python 3.11 and Windows 11",
    ],
)
def test_numbered_things_are_not_addresses(gb: Scrubber, text: str) -> None:
    assert gb.scrub(text).found == []


# ---- phones --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "phone",
    [
        "056 590 36 33",
        "01.84.17.61.18",
        "+48 723 813 266",
        "+1-903-140-4508x769",
        "(0)71 526 99 04",
        "+49 30 901820",
        "0049 30 901820",
        "06 12 34 56 78",
        "+33 6 12 34 56 78",
        "0412 345 678",
        "+7 495 123-45-67",
        "+55 11 98765-4321",
    ],
)
def test_phone_numbers_as_countries_write_them(nowhere: Scrubber, phone: str) -> None:
    assert _kinds(nowhere, f"You can reach her on {phone} after six.") == {phone: "PHONE"}


@pytest.mark.parametrize(
    "text", ["phone: 99 668472", "mobile 723 813 266", "电话 8765 4321", "Fax: 0123 45 67"]
)
def test_after_a_cue_any_run_of_six_digits_is_a_phone(nowhere: Scrubber, text: str) -> None:
    assert list(_kinds(nowhere, text).values()) == ["PHONE"]


def test_a_national_number_is_read_in_the_configured_region(gb: Scrubber, nowhere: Scrubber) -> None:
    national = gb.scrub("call 020 7946 0958").found[0]
    international = gb.scrub("call +44 20 7946 0958").found[0]
    assert national.canonical == international.canonical == "+442079460958"
    assert national.placeholder == international.placeholder
    unknown = nowhere.scrub("call 020 7946 0958").found[0]
    assert unknown.kind == "PHONE" and not unknown.canonical.startswith("+86")  # never a guessed country
    china = Scrubber(KEY, phone_region="CN").scrub("固定电话010-12345678").found[0]
    assert china.canonical == "+861012345678"


def test_an_extension_stays_with_its_number(gb: Scrubber) -> None:
    found = gb.scrub("Call 020 7946 0958 ext. 12 tomorrow").found
    assert [(f.kind, f.value) for f in found] == [("PHONE", "020 7946 0958 ext. 12")]
    assert found[0].canonical == "+442079460958;ext=12"


def test_one_value_said_two_ways_gives_one_placeholder(gb: Scrubber) -> None:
    spoken = gb.scrub("it is one three eight zero zero one three eight zero zero zero").found[0]
    written = gb.scrub("it is 138 0013 8000").found[0]
    uk_spoken = gb.scrub("my mobile is oh seven seven double oh nine double oh one two three").found[0]
    uk_written = gb.scrub("my mobile is +44 7700 900123").found[0]
    assert spoken.placeholder == written.placeholder
    assert uk_spoken.placeholder == uk_written.placeholder


def test_region_from_locale_and_config() -> None:
    assert region_from_locale({"LANG": "en_GB.UTF-8"}) == "GB"
    assert region_from_locale({"LANG": "C.UTF-8"}) is None
    assert region_from_locale({}) is None
    config = load_config(env={})
    assert config.privacy.resolved_phone_region({"LANG": "de_DE.UTF-8"}) == "DE"
    assert (
        load_config(env={"VOICE_AGENT_PRIVACY__PHONE_REGION": "none"}).privacy.resolved_phone_region() is None
    )
    with pytest.raises(ConfigError, match="phone_region"):
        load_config(env={"VOICE_AGENT_PRIVACY__PHONE_REGION": "XX"}).privacy.resolved_phone_region({})


# ---- cued numbers --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "kind", "raw"),
    [
        ("My credit card number is 5212 3456 7890, it was declined.", "CARD", "5212 3456 7890"),
        ("card number: 4111-1111-1111-1112 please", "CARD", "4111-1111-1111-1112"),
        ("我的银行卡号是6222 0212 3456 78，开户人是我。", "CARD", "6222 0212 3456 78"),
        ("policy number 624030197 expires soon", "ID", "624030197"),
        ("member no. 0045 8812 7 at the desk", "ID", "0045 8812 7"),
        ("账号：6225 8801 2345", "ID", "6225 8801 2345"),
    ],
)
def test_cued_digit_runs_are_scrubbed_even_when_their_checksum_fails(
    gb: Scrubber, text: str, kind: str, raw: str
) -> None:
    result = gb.scrub(text)
    assert [(f.kind, f.value) for f in result.found] == [(kind, raw)]


# ---- false positives -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "Meeting at 10:30-11:45 on 2023-05-08, then lunch at 12.30",
        "It costs $1,299.99 or €1.299,00 and 12 345 678 people saw it",
        "Python 3.11.7, version 1.2.3.4, build 2024.05.08",
        "I was born on 05/08/1990, we won 3-2, I ran 10 000 steps",
        "Order #123456789 shipped; tracking 1Z999AA10123456784",
        "the server 192.168.11.100 is down since 14:30:15",
        "ISBN 978-3-16-148410-0 and timestamp 1683561600",
        "I paid 1299 yuan, about 99% of it, on 2023年5月8日",
        "Sure! I can help you book a table for 4 people at 7 pm on Friday.",
        "The assistant said: your appointment is on 12.04.2024 at 09:15.",
    ],
)
def test_dates_prices_versions_counts_and_replies_are_kept(gb: Scrubber, text: str) -> None:
    result = gb.scrub(text)
    assert result.found == [], [(f.kind, f.value) for f in result.found]


# ---- the benchmark -------------------------------------------------------------------------------
def test_bench_privacy_on_the_small_set(tmp_path: Path) -> None:
    from voice_agent.bench.privacy import run_privacy_bench

    locomo = tmp_path / "locomo.json"
    turns = [
        {"speaker": "Ann", "dia_id": "D1:1", "text": "Hi Ben! I ran 5 km on 2023-05-08 in 25 minutes."},
        {"speaker": "Ben", "dia_id": "D1:2", "text": "Nice, Ann! Version 2.3 of the app costs $4.99."},
    ]
    sample = {"conversation": {"speaker_a": "Ann", "speaker_b": "Ben", "session_1": turns}}
    locomo.write_text(json.dumps([sample]))
    out = tmp_path / "report.json"
    report = run_privacy_bench(SMALL_SET, fp_dataset=locomo, phone_region="GB", ner=False, json_out=out)
    recall = report["labelled"]["recall"]["all"]["any"]
    assert set(recall) >= {"NAME", "PHONE", "ADDRESS"}
    assert all(cell["recall"] >= 0.9 for cell in recall.values()), recall
    assert report["labelled"]["values"] == sum(cell["total"] for cell in recall.values())
    fp = report["false_positives"]
    assert fp["turns"] == 2
    assert fp["non_name_per_1000_turns"] == 0.0
    assert fp["placeholders"].get("NAME", 0) == 0  # "Ann" and "Ben" are the speakers: counted apart
    assert fp["placeholders"]["NAME_speaker"] == 2
    assert json.loads(out.read_text())["labelled"]["texts"] == report["labelled"]["texts"]


def test_bench_privacy_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from voice_agent.cli import main

    out = tmp_path / "privacy.json"
    args = ["bench", "privacy", "--dataset", str(SMALL_SET), "--names", "lists", "--phone-region", "GB"]
    assert main([*args, "--repeat", "1", "--json", str(out), "--data-dir", str(tmp_path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["phone_region"] == "GB"
    assert printed["recall"]["all"]["any"]["PHONE"] == 1.0
    assert json.loads(out.read_text())["meta"]["name_lists"] is True


def test_an_unknown_run_before_me_or_you_is_a_verb_phrase_not_a_name(gb: Scrubber) -> None:
    text = "下个月我过七十大寿，闺女非问我想要啥，你帮我琢磨琢磨？"
    assert [f for f in gb.scrub(text).found if f.kind == "NAME"] == []
    named = gb.scrub("我闺女丽娟说她下个月回来。")  # a given name after a role word is still one
    assert "丽娟" not in named.text
