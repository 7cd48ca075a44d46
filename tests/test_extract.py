"""Rule-based extraction of durable items, English and Chinese."""

from __future__ import annotations

import pytest

from voice_agent.conversation.extract import extract


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("My kid is allergic to peanuts.", "constraint"),
        ("我家小孩对坚果过敏，尤其是花生。", "constraint"),
        ("I'm vegetarian, by the way.", "constraint"),
        ("We decided to launch in March.", "decision"),
        ("我们决定下个月去北京。", "decision"),
        ("My daughter's name is Emma.", "fact"),
        ("I really love jazz.", "fact"),
        ("我喜欢喝绿茶。", "fact"),
        ("I'm currently training for a marathon.", "state"),
        ("From now on, answer in French.", "constraint"),
        ("以后请用中文回答我。", "constraint"),
        ("I can't stand mushrooms.", "constraint"),
        ("Please don't recommend horror movies.", "constraint"),
        ("I'm not a fan of olives.", "constraint"),
        ("I stopped drinking last year.", "constraint"),
        ("我受不了辣的。", "constraint"),
        ("别给我推荐恐怖片。", "constraint"),
    ],
)
def test_unprompted_statements_are_classified(text: str, kind: str) -> None:
    items = extract(text).items
    assert [item.kind for item in items] == [kind]
    assert items[0].text.rstrip("。.") in text


@pytest.mark.parametrize(
    "text",
    [
        "What's the weather like?",
        "Tell me a joke.",
        "今天天气怎么样？",
        "ok",
        "   ",
        "He was not an ill-disposed young man.",
        "It is not that simple.",
        "Can you recommend a good book?",
        "推荐一部电影吧。",
    ],
)
def test_small_talk_yields_nothing(text: str) -> None:
    result = extract(text)
    assert result.items == [] and result.forget == []


def test_explicit_remember_is_important_and_strips_the_command() -> None:
    item = extract("Remember that the gate code changes every Monday.").items[0]
    assert item.text == "the gate code changes every Monday"
    assert item.importance >= 0.9
    zh = extract("记住：周五下午三点开会。").items[0]
    assert zh.text == "周五下午三点开会"


def test_forget_requests_are_not_items() -> None:
    result = extract("Forget about my old address.")
    assert result.items == []
    assert result.forget[0].query == "my old address"
    assert extract("忘掉我的旧地址").forget[0].query == "我的旧地址"


@pytest.mark.parametrize(
    ("text", "old"),
    [
        ("Actually, we switched from MySQL to PostgreSQL.", "MySQL"),
        ("Use PostgreSQL, not MySQL.", "MySQL"),
        ("Let's go with Vue instead of React.", "React"),
        ("我们从MySQL换成PostgreSQL了。", "MySQL"),
        ("改用PostgreSQL，不用MySQL了。", "MySQL"),
        ("高铁票退了，改坐飞机去了，快一点。", "高铁"),
        ("酒店取消了，改住民宿。", "酒店"),
        ("We cancelled the train and booked a flight instead.", "train"),
    ],
)
def test_changes_of_mind_name_what_they_replace(text: str, old: str) -> None:
    item = extract(text).items[0]
    assert item.kind == "decision"
    assert old in item.replaces


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("Actually, we moved the party to Sunday.", "party"),
        ("My flight got changed to Thursday.", "flight"),
        ("我们把聚会改到星期天了。", "聚会"),
        ("项目会改到周四下午了。", "项目会"),
    ],
)
def test_a_moved_plan_replaces_older_items_about_it(text: str, subject: str) -> None:
    (item,) = extract(text).items
    assert item.kind == "decision" and subject in item.replaces


@pytest.mark.parametrize(
    "question",
    [
        "What is my kid allergic to?",
        "Am I vegetarian?",
        "Is my son allergic to anything?",
        "我孩子对什么过敏？",
        "对了，我是素食者吗？",
    ],
)
def test_a_question_pins_nothing(question: str) -> None:
    """Asking about a constraint states none: pinned, "Am I vegetarian?" would make the guard keep meat
    out of every reply, and "我孩子对什么过敏？" would be an allergy to "什么"."""
    assert extract(question).items == []


def test_a_statement_before_a_question_is_still_pinned() -> None:
    items = extract("I'm vegetarian, what should I cook tonight?").items
    assert [item.kind for item in items] == ["constraint"]


@pytest.mark.parametrize(
    "text",
    [
        "The wife's gone completely mad for the sea swimming.",
        "我这人平时没别的爱好，就爱拼乐高",
        "my son is nuts about dinosaurs",
    ],
)
def test_a_liking_said_in_passing_is_pinned(text: str) -> None:
    assert [item.kind for item in extract(text).items] == ["fact"]


def test_loving_to_be_tidy_is_no_liking_to_pin() -> None:
    assert extract("我就爱干净").items == []


def test_a_long_ramble_pins_only_the_sentence_that_states_the_liking() -> None:
    ramble = (
        "哎呀，人老了话就多，你莫嫌我啰嗦啊。今天早上菜场的小白菜又涨了五毛，楼下张老太家的孙子考上研究生了，"
        "一大早就在楼道里讲了个遍。我这个人呐，一辈子也没啥别的爱好，就是喜欢侍弄兰花，阳台上二十几盆。"
        "每天早上起来头一件事就是去瞧瞧它们。哦对了，今年这天气怪得很，立秋了还这么热，菜也贵。"
    )
    (item,) = extract(ramble).items
    assert item.kind == "fact"
    assert item.text == "我这个人呐，一辈子也没啥别的爱好，就是喜欢侍弄兰花，阳台上二十几盆。"
    short = "I really love jazz, especially Coltrane."
    assert extract(short).items[0].text == short  # a short turn is pinned whole
