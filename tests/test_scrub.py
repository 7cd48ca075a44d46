"""PII scrubber: every kind in its written and spoken forms, stable tokens, and ordinary text left alone."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

from voice_agent.errors import InputError
from voice_agent.memory.pii_cued import iban_ok
from voice_agent.memory.pii_numbers import id_check_char, luhn_ok
from voice_agent.memory.scrub import (
    KINDS,
    PLACEHOLDER_HEX_CHARS,
    PLACEHOLDER_RE,
    Scrubber,
    ScrubResult,
    canonical_value,
)

KEY = bytes(range(32))
OTHER_KEY = bytes(range(1, 33))
LOCOMO = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "locomo-dev.json"


@pytest.fixture(scope="module")
def scrubber() -> Scrubber:
    return Scrubber(KEY)


# (text, kind, the raw value as it appears in the text)
POSITIVES: list[tuple[str, str, str]] = [
    ("call me on 13800138000 tomorrow", "PHONE", "13800138000"),
    ("my number is 138 0013 8000", "PHONE", "138 0013 8000"),
    ("138-0013-8000 is mine", "PHONE", "138-0013-8000"),
    ("reach me at +86 13800138000.", "PHONE", "+86 13800138000"),
    ("it's +86-138-0013-8000", "PHONE", "+86-138-0013-8000"),
    ("dial 0086 138 0013 8000 from abroad", "PHONE", "0086 138 0013 8000"),
    ("我的手机号是一三八零零一三八零零零。", "PHONE", "一三八零零一三八零零零"),
    ("手机幺三八 零零幺三 八零零零，记一下", "PHONE", "幺三八 零零幺三 八零零零"),
    ("号码是138零零13八000吧", "PHONE", "138零零13八000"),
    ("电话：１３８００１３８０００", "PHONE", "１３８００１３８０００"),
    (
        "it is one three eight zero zero one three eight zero zero zero ok",
        "PHONE",
        "one three eight zero zero one three eight zero zero zero",
    ),
    ("so 1 3 8 0 0 1 3 8 0 0 0 right", "PHONE", "1 3 8 0 0 1 3 8 0 0 0"),
    ("in 2023 13800138000 was my number", "PHONE", "13800138000"),
    ("call (555) 123-4567 after six", "PHONE", "(555) 123-4567"),
    ("or 555-123-4567", "PHONE", "555-123-4567"),
    ("fax 555.123.4567", "PHONE", "555.123.4567"),
    ("my cell is +1 415 555 2671", "PHONE", "+1 415 555 2671"),
    ("toll free 1-212-555-1234", "PHONE", "1-212-555-1234"),
    ("London office +44 20 7946 0958", "PHONE", "+44 20 7946 0958"),
    ("固定电话010-12345678", "PHONE", "010-12345678"),
    ("Tel: (010) 6552-9988", "PHONE", "(010) 6552-9988"),
    ("身份证号11010519491231002X", "ID", "11010519491231002X"),
    ("ID 440524188001010014 please", "ID", "440524188001010014"),
    ("身份证 110105 19491231 002X 对吗", "ID", "110105 19491231 002X"),
    ("lower case 11010519491231002x", "ID", "11010519491231002x"),
    ("card 4111 1111 1111 1111 expires soon", "CARD", "4111 1111 1111 1111"),
    ("4111-1111-1111-1111", "CARD", "4111-1111-1111-1111"),
    ("mastercard 5555555555554444", "CARD", "5555555555554444"),
    ("amex 3782 822463 10005", "CARD", "3782 822463 10005"),
    ("银联卡6250941006528599", "CARD", "6250941006528599"),
    ("email john.smith@gmail.com today", "EMAIL", "john.smith@gmail.com"),
    ("it's john dot smith at gmail dot com", "EMAIL", "john dot smith at gmail dot com"),
    ("mail jane_doe99 at example dot co dot uk", "EMAIL", "jane_doe99 at example dot co dot uk"),
    ("write to jane at example.org", "EMAIL", "jane at example.org"),
    ("邮箱zhangsan点li艾特qq点com", "EMAIL", "zhangsan点li艾特qq点com"),
    ("我的QQ邮箱13800138000@qq.com", "EMAIL", "13800138000@qq.com"),
    ("I live at 221B Baker Street.", "ADDRESS", "221B Baker Street"),
    (
        "1600 Pennsylvania Avenue NW, Washington, DC 20500",
        "ADDRESS",
        "1600 Pennsylvania Avenue NW, Washington, DC 20500",
    ),
    (
        "HQ: 350 5th Avenue, Suite 3300, New York, NY 10118",
        "ADDRESS",
        "350 5th Avenue, Suite 3300, New York, NY 10118",
    ),
    ("I'm in apt 4 now", "ADDRESS", "apt 4"),
    ("we moved to 12 main street last year", "ADDRESS", "12 main street"),
    ("Send it to PO Box 1234", "ADDRESS", "PO Box 1234"),
    ("mail goes to Austin, TX 78701", "ADDRESS", "Austin, TX 78701"),
    ("我住在北京市朝阳区建国路88号", "ADDRESS", "北京市朝阳区建国路88号"),
    (
        "地址：广东省深圳市南山区科技园路12号阳光小区3栋2单元501室，谢谢",
        "ADDRESS",
        "广东省深圳市南山区科技园路12号阳光小区3栋2单元501室",
    ),
    ("朝阳区望京街道100号201室", "ADDRESS", "朝阳区望京街道100号201室"),
    ("上海市浦东新区世纪大道一百号", "ADDRESS", "上海市浦东新区世纪大道一百号"),
    ("我住在阳光小区5号楼", "ADDRESS", "阳光小区5号楼"),
    ("我在成都市武侯区人民南路四段12号附近上班", "ADDRESS", "成都市武侯区人民南路四段12号"),
    ("他在成都市高新区天府大道北段1700号", "ADDRESS", "成都市高新区天府大道北段1700号"),
    ("北京市朝阳区建国路88号SOHO现代城5号楼1201室", "ADDRESS", "北京市朝阳区建国路88号SOHO现代城5号楼1201室"),
    ("send it to 42 Elm St., Springfield, IL 62704 please", "ADDRESS", "42 Elm St., Springfield, IL 62704"),
    ("I live at 221B Baker Street, London NW1 6XE.", "ADDRESS", "221B Baker Street, London NW1 6XE"),
    ("text me on 07700 900123", "PHONE", "07700 900123"),
    ("appelle au 01 42 68 53 00", "PHONE", "01 42 68 53 00"),
    ("my mobile is 0412 345 678", "PHONE", "0412 345 678"),
    ("住在海淀区学院路30号院5号楼2单元301", "ADDRESS", "海淀区学院路30号院5号楼2单元301"),
    ("my SSN is 123-45-6789.", "ID", "123-45-6789"),
    ("social security 078 05 1120", "ID", "078 05 1120"),
    ("IBAN DE89 3704 0044 0532 0130 00 for the rent", "ID", "DE89 3704 0044 0532 0130 00"),
    ("pay GB82WEST12345698765432 today", "ID", "GB82WEST12345698765432"),
    ("my passport number is X12345678", "ID", "X12345678"),
    ("driver's license: D1234567.", "ID", "D1234567"),
    ("Passport Number: X12345678", "ID", "X12345678"),
    ("护照号码是E12345678", "ID", "E12345678"),
]


@pytest.mark.parametrize(("text", "kind", "raw"), POSITIVES)
def test_each_kind_is_replaced_by_its_placeholder(scrubber: Scrubber, text: str, kind: str, raw: str) -> None:
    result = scrubber.scrub(text)
    assert [f.kind for f in result.found] == [kind]
    finding = result.found[0]
    assert finding.value == raw
    assert text[finding.start : finding.end] == raw
    assert PLACEHOLDER_RE.fullmatch(finding.placeholder)
    assert finding.placeholder.startswith(f"[{kind}:")
    assert result.text == text.replace(raw, finding.placeholder)
    assert raw not in result.text
    assert result.placeholders == (finding.placeholder,)


# Each list: one value written every way; all must give one placeholder.
SAME_VALUE: dict[str, tuple[str, list[str]]] = {
    "cn-mobile": (
        "PHONE",
        [
            "13800138000",
            "138 0013 8000",
            "138-0013-8000",
            "+86 13800138000",
            "+86-138-0013-8000",
            "0086 138 0013 8000",
            "86 138 0013 8000",
            "一三八零零一三八零零零",
            "幺三八零零幺三八零零零",
            "一三八 〇〇一三 八〇〇〇",
            "138零零13八000",
            "１３８００１３８０００",
            "1 3 8 0 0 1 3 8 0 0 0",
            "one three eight zero zero one three eight zero zero zero",
        ],
    ),
    "us-phone": (
        "PHONE",
        [
            "(555) 123-4567",
            "555-123-4567",
            "+1 555 123 4567",
            "1-555-123-4567",
            "555.123.4567",
            "5551234567",
            "five five five one two three four five six seven",
        ],
    ),
    "resident-id": ("ID", ["11010519491231002X", "11010519491231002x", "110105 19491231 002X"]),
    "card": ("CARD", ["4111111111111111", "4111 1111 1111 1111", "4111-1111-1111-1111"]),
    "email": (
        "EMAIL",
        [
            "john.smith@gmail.com",
            "John.Smith@Gmail.COM",
            "john dot smith at gmail dot com",
            "John Dot Smith at Gmail dot com",
            "john.smith at gmail.com",
        ],
    ),
    "en-address": ("ADDRESS", ["221B Baker Street", "221B Baker St", "221b Baker  Street"]),
    "zh-address": ("ADDRESS", ["中关村大街88号", "中关村大街八十八号", "中关村大街８８号"]),
}


@pytest.mark.parametrize("case", sorted(SAME_VALUE))
def test_same_value_in_any_form_gives_the_same_token(scrubber: Scrubber, case: str) -> None:
    kind, forms = SAME_VALUE[case]
    tokens = set()
    for form in forms:
        result = scrubber.scrub(f"note: {form} ;")
        assert [f.kind for f in result.found] == [kind], form
        tokens.add(result.found[0].placeholder)
        if kind in ("PHONE", "ID", "CARD", "EMAIL"):
            assert scrubber.placeholder_for(kind, form) == result.found[0].placeholder
    assert len(tokens) == 1, f"{case}: {len(tokens)} different tokens for one value"


def test_different_values_give_different_tokens(scrubber: Scrubber) -> None:
    a = scrubber.scrub("13800138000").found[0].placeholder
    b = scrubber.scrub("13800138001").found[0].placeholder
    assert a != b
    # the kind is part of the hash: the same digits as a card and as a phone differ
    assert scrubber.placeholder("PHONE", "4111111111111111") != scrubber.placeholder(
        "CARD", "4111111111111111"
    )


def test_placeholder_depends_on_the_key() -> None:
    text = "call 138 0013 8000"
    same = Scrubber(KEY).scrub(text).text
    assert Scrubber(KEY).scrub(text).text == same  # deterministic across instances
    assert Scrubber(OTHER_KEY).scrub(text).text != same


def test_placeholder_format_is_typed_and_fixed_length(scrubber: Scrubber) -> None:
    token = scrubber.placeholder("EMAIL", "a@b.co")
    m = PLACEHOLDER_RE.fullmatch(token)
    assert m is not None
    assert m.group(1) == "EMAIL" and len(m.group(2)) == PLACEHOLDER_HEX_CHARS
    with pytest.raises(ValueError, match="unknown PII kind"):
        scrubber.placeholder("SSN", "x")


NEGATIVES = [
    "The year 2023 had 365 days",
    "Meeting at 10:30-11:45 on 2023-05-08",
    "It costs $1,299.99 and 12,345,678 people saw it",
    "I paid 1299 yuan, about 99% of it",
    "Python 3.11.7 and version 1.2.3.4",
    "I was born on 05/08/1990 in the 1990s",
    "2023/05/08 12:30:00 and 14:30:15",
    "from 2023-05-08 - 2023-06-01",
    "I ran 5 km in 25 minutes, 3 times",
    "it happened 1 2 3 4 5 6 7 8 9 10 times",
    "Room 101, 102 and 103; chapter 11, verses 13-19",
    "Order #123456789 and 3.14159265358979",
    "the server 192.168.11.100 is down",
    "coordinates 40.7128, -74.0060",
    "ISBN 978-3-16-148410-0, timestamp 1683561600",
    "I walked 3 miles down the road",
    "We have 2 kids on Main Street",
    "I met him at school. Come over at noon",
    "Q3 2023 revenue 12.5M, score 3-2, 1st, 2nd, 3rd",
    "call 911 or 123-4567",
    "2023年5月8日我们5月12号见",
    "我有两个孩子，一二三四五，第三名",
    "他买了一百二十个苹果，花了3000元",
    "Dec 2022 12345678901234",
    "parts 000-12-3456, 666-12-3456 and 123-00-4567 are not SSNs",
    "flight CA1234 and model XPS9310 at gate 12",
    "my account is great and the customer 1234 called",
]


@pytest.mark.parametrize("text", NEGATIVES)
def test_ordinary_numbers_are_not_scrubbed(scrubber: Scrubber, text: str) -> None:
    result = scrubber.scrub(text)
    assert result.found == [], [f.kind for f in result.found]
    assert result.text == text


@pytest.mark.skipif(not LOCOMO.is_file(), reason="LoCoMo dev data not present")
def test_locomo_conversation_is_left_intact(scrubber: Scrubber) -> None:
    data = json.loads(LOCOMO.read_text(encoding="utf-8"))
    turns = [
        turn["text"]
        for sample in data
        for key, session in sample["conversation"].items()
        if key.startswith("session_") and isinstance(session, list)
        for turn in session
    ]
    assert len(turns) > 100
    hits = [(t, f.kind) for t in turns for f in scrubber.scrub(t).found]
    assert hits == []


def test_resident_id_check_character() -> None:
    assert id_check_char("11010519491231002") == "X"
    assert id_check_char("44052418800101001") == "4"


def test_id_with_bad_check_char_is_still_scrubbed_and_flagged(scrubber: Scrubber) -> None:
    good = scrubber.scrub("身份证11010519491231002X").found
    bad = scrubber.scrub("身份证110105194912310021").found
    assert [f.flags for f in good] == [()]
    assert [(f.kind, f.flags) for f in bad] == [("ID", ("check_char_mismatch",))]
    assert good[0].placeholder != bad[0].placeholder


def test_iban_check_digits() -> None:
    assert iban_ok("DE89 3704 0044 0532 0130 00") and iban_ok("GB82WEST12345698765432")
    assert not iban_ok("DE00 3704 0044 0532 0130 00") and not iban_ok("GB82WEST1234569876543X")


def test_an_address_keeps_the_full_stop_that_ends_its_sentence(scrubber: Scrubber) -> None:
    result = scrubber.scrub("I met him at 5 Main St. He was late.")
    assert [f.value for f in result.found] == ["5 Main St"]
    assert result.text.endswith(". He was late.")


def test_luhn() -> None:
    for number in ("4111111111111111", "5555555555554444", "378282246310005", "6011111111111117"):
        assert luhn_ok(number)
    assert not luhn_ok("4111111111111112")
    assert not luhn_ok("378282246310006")


def test_card_numbers_failing_luhn(scrubber: Scrubber) -> None:
    # grouped as a card: likely a mis-heard card, scrubbed and flagged
    assert [(f.kind, f.flags) for f in scrubber.scrub("4111 1111 1111 1112").found] == [
        ("CARD", ("luhn_failed",))
    ]
    # UnionPay numbers (62…) may carry no Luhn digit
    assert [f.kind for f in scrubber.scrub("卡号6222020200112233445").found] == ["CARD"]
    # an ungrouped 14-digit number failing Luhn is some other number
    assert scrubber.scrub("ref 12345678901234").found == []


def test_email_wins_over_the_phone_inside_it(scrubber: Scrubber) -> None:
    result = scrubber.scrub("13800138000@qq.com")
    assert [f.kind for f in result.found] == ["EMAIL"]


def test_two_adjacent_numbers_are_two_findings(scrubber: Scrubber) -> None:
    result = scrubber.scrub("13800138000 13900139000")
    assert [f.kind for f in result.found] == ["PHONE", "PHONE"]
    assert result.found[0].placeholder != result.found[1].placeholder


def test_findings_never_print_their_value(scrubber: Scrubber) -> None:
    result = scrubber.scrub("call 138 0013 8000 or john.smith@gmail.com")
    for finding in result.found:
        for shown in (repr(finding), str(finding), f"{finding}"):
            assert finding.value not in shown and finding.canonical not in shown
            assert "8000" not in shown and "smith" not in shown
    assert "8000" not in repr(result) and "smith" not in repr(result)


def test_scrubbing_is_idempotent(scrubber: Scrubber) -> None:
    first = scrubber.scrub("Call 13800138000, mail a.b@c.com, 221B Baker Street, card 4111111111111111")
    second = scrubber.scrub(first.text)
    assert second.text == first.text
    assert second.found == []


def test_kinds_can_be_limited() -> None:
    only_email = Scrubber(KEY, kinds=("EMAIL",))
    result = only_email.scrub("13800138000 and a@b.com")
    assert [f.kind for f in result.found] == ["EMAIL"]
    assert "13800138000" in result.text
    with pytest.raises(ValueError, match="unknown PII kinds"):
        Scrubber(KEY, kinds=("PHONE", "SSN"))


def test_canonical_value() -> None:
    assert canonical_value("PHONE", " 138-0013-8000 ") == "+8613800138000"
    assert canonical_value("EMAIL", "John dot Smith at Gmail dot com") == "john.smith@gmail.com"
    assert canonical_value("NAME", "  John   Smith's") == "john smith"
    with pytest.raises(InputError, match="PHONE"):
        canonical_value("PHONE", "call 13800138000 now")
    assert {k for k in KINDS} == {"PHONE", "ID", "CARD", "EMAIL", "ADDRESS", "NAME"}


# ---- names ------------------------------------------------------------------------------------------
def test_scrub_names_replaces_given_spans(scrubber: Scrubber) -> None:
    text = "I met John Smith's sister and Mary."
    spans = [(6, 18), (30, 34)]  # "John Smith's", "Mary"
    result = scrubber.scrub_names(text, spans)
    assert [f.value for f in result.found] == ["John Smith", "Mary"]
    assert result.text == f"I met {result.found[0].placeholder}'s sister and {result.found[1].placeholder}."
    again = scrubber.scrub_names("JOHN  SMITH called", [(0, 11)])
    assert again.found[0].placeholder == result.found[0].placeholder


def test_names_and_patterns_together(scrubber: Scrubber) -> None:
    text = "Mary's number is 138 0013 8000"
    result = scrubber.scrub(text, name_spans=[(0, 6)])
    assert [f.kind for f in result.found] == ["NAME", "PHONE"]
    assert "Mary" not in result.text and "8000" not in result.text


def test_name_spans_are_validated(scrubber: Scrubber) -> None:
    with pytest.raises(InputError, match="outside the text"):
        scrubber.scrub_names("Bob", [(0, 10)])
    with pytest.raises(InputError, match="pair of ints"):
        scrubber.scrub_names("Bob", [("a", "b")])  # type: ignore[list-item]
    # a span over an existing placeholder is not scrubbed again
    already = scrubber.scrub("13800138000").text
    assert scrubber.scrub_names(already, [(0, len(already))]).text == already


@pytest.mark.slow
def test_english_name_finder_feeds_the_scrubber(scrubber: Scrubber) -> None:
    from voice_agent.memory.names import EnglishNameFinder

    finder = EnglishNameFinder()
    finder.start()
    text = "Yesterday I had lunch with John Smith and his dog."
    spans = finder.spans(text)
    result = scrubber.scrub(text, name_spans=spans)
    assert "John Smith" not in result.text
    assert [f.kind for f in result.found] == ["NAME"]


# ---- bad and huge input --------------------------------------------------------------------------
def test_non_text_input_is_a_clear_error(scrubber: Scrubber) -> None:
    with pytest.raises(InputError, match="must be str, got bytes"):
        scrubber.scrub(b"13800138000")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="got NoneType"):
        scrubber.scrub(None)  # type: ignore[arg-type]


def test_empty_text_is_a_no_op(scrubber: Scrubber) -> None:
    assert scrubber.scrub("") == ScrubResult("", [])


def test_binary_garbage_and_invalid_utf8_are_handled(scrubber: Scrubber) -> None:
    rnd = random.Random(7)
    garbage = bytes(rnd.randrange(256) for _ in range(20_000))
    for text in (
        garbage.decode("utf-8", errors="surrogateescape"),
        garbage.decode("latin-1"),
        "\x00\ud800 13800138000 \udfff\x00" + garbage.decode("utf-8", errors="replace"),
    ):
        result = scrubber.scrub(text)
        for finding in result.found:
            assert text[finding.start : finding.end] == finding.value
    last = scrubber.scrub("\x00\ud800 13800138000 \udfff\x00")
    assert [f.kind for f in last.found] == ["PHONE"]
    assert scrubber.scrub_names("\ud800\udc00x", [(0, 2)]).found[0].kind == "NAME"


def test_huge_text_with_planted_values_is_fully_scrubbed(scrubber: Scrubber) -> None:
    filler = "We talked about the 2023 trip, it cost $1,299.99 for 3 nights at 10:30. " * 13
    planted = ["138 0013 8000", "john.smith@gmail.com", "4111 1111 1111 1111", "11010519491231002X"]
    parts: list[str] = []
    while sum(len(p) for p in parts) < 1_000_000:
        parts.append(filler)
        parts.append(planted[len(parts) // 2 % len(planted)] + ". ")
    text = "".join(parts)
    result = scrubber.scrub(text)
    assert len(result.found) == len(parts) // 2
    for value in planted:
        assert value not in result.text


@pytest.mark.parametrize(
    ("soup", "expected"),
    [
        ("1 " * 50_000, 0),
        ("1." * 50_000, 0),
        ("one " * 25_000, 0),
        ("@" * 100_000, 0),
        ("a at b dot " * 10_000, 0),
        ("1234 " * 20_000, 5_000),  # 16 digits in fours: card-shaped, flagged luhn_failed
        ("路1号" * 30_000, None),
    ],
    ids=["spaced-digits", "dotted", "digit-words", "at-signs", "spoken-at-dot", "groups-of-4", "cn-roads"],
)
def test_pathological_inputs_complete(scrubber: Scrubber, soup: str, expected: int | None) -> None:
    # Timing is the benchmark's job (scripts/bench_scrub.py); here: it finishes and stays consistent.
    result = scrubber.scrub(soup)
    if expected is not None:
        assert len(result.found) == expected
    spans = [(f.start, f.end) for f in result.found]
    assert spans == sorted(spans)
    assert all(a_end <= b_start for (_, a_end), (b_start, _) in itertools.pairwise(spans))
    assert all(soup[f.start : f.end] == f.value for f in result.found)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("我叫张伟，今年三十岁", ["张伟"]),
        ("我的名字是欧阳娜娜", ["欧阳娜娜"]),
        ("孩子叫陈小宝，今年五岁", ["陈小宝"]),
        ("李明老师说明天考试", ["李明"]),
        ("我们找王芳女士办手续", ["王芳"]),
        ("我叫外卖了", []),  # 叫 as "order"
        ("我叫了一辆车", []),
        ("他叫我去", []),
        ("名字叫什么？", []),
        ("王府井很热闹", []),  # no cue: a place, not a name
        ("昨天见了张医生", []),  # a surname alone names nobody
        ("找李老师问问", []),
        ("谢谢王丽老师的照顾", ["王丽"]),  # 谢谢 thanks her, it is not her name
        ("感谢张伟医生", ["张伟"]),
        ("写张卡片谢谢笪老师", []),  # 笪 is a surname the list does not know: no 谢谢笪
        ("祝贺王老师", []),
        ("谢明老师来了", ["谢明"]),  # 谢 as a surname stays
    ],
)
def test_chinese_names_are_found_where_the_sentence_says_so(text: str, names: list[str]) -> None:
    from voice_agent.memory.names_zh import chinese_name_spans

    assert [text[a:b] for a, b in chinese_name_spans(text)] == names
