"""A question about what the person told us, answered from the statement that clearly answers it."""

from __future__ import annotations

import pytest

from voice_agent.conversation.extract import extract
from voice_agent.conversation.recall_answer import answer_from_memory, is_recall_question, said_back
from voice_agent.memory.records import MemoryRecord


def _record(text: str, kind: str = "fact", at: float = 0.0, **extra: object) -> MemoryRecord:
    return MemoryRecord("c", text, kind=kind, created_at=1_000.0 + at, **extra)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Do you remember my name?", True),
        ("Which city do I live in?", True),
        ("When is the party?", True),
        ("你还记得我叫什么名字吗？", True),
        ("我女儿生日是哪天？", True),
        ("What should I cook for dinner tonight?", False),  # asks for advice
        ("What can I make my daughter for breakfast?", False),
        ("Can you recommend a cake for my kid's birthday?", False),
        ("下午喝点什么好？", False),
        ("Tell me a joke.", False),  # no question
        ("My name is Marisol.", False),
    ],
)
def test_recall_questions_are_told_from_requests_for_advice(question: str, expected: bool) -> None:
    assert is_recall_question(question) is expected


@pytest.mark.parametrize(
    ("question", "facts", "language", "says"),
    [
        (
            "Do you remember my name?",
            ["Name a planet.", "My name is Marisol."],
            "en",
            "Yes, you told me your name is Marisol.",
        ),
        (
            "Which city do I live in?",
            ["I live in Lyon.", "I love jazz."],
            "en",
            "You told me you live in Lyon.",
        ),
        (
            "What's my dog's name again?",
            ["My name is Marisol.", "Our dog is called Biscuit."],
            "en",
            "Biscuit",
        ),
        ("你还记得我叫什么名字吗？", ["我叫张伟。"], "zh", "记得，你告诉过我，你叫张伟。"),
        ("我住在哪个城市？", ["我在深圳的一家银行工作。", "我住在杭州。"], "zh", "你住在杭州"),
    ],
)
def test_the_matching_statement_is_said_back_in_the_second_person(
    question: str, facts: list[str], language: str, says: str
) -> None:
    records = [_record(text, at=i) for i, text in enumerate(facts)]
    answer = answer_from_memory(question, records, language)
    assert answer is not None and says in answer.text
    assert answer.record_id in {r.id for r in records} and answer.shared


def test_a_changed_plan_wins_over_the_older_statement() -> None:
    old = _record("My flight to Oslo is on Tuesday.", kind="utterance")
    new = _record("My flight got changed to Thursday.", kind="decision", at=5)
    answer = answer_from_memory("Which day is my flight to Oslo?", [old, new], "en")
    assert answer is not None and answer.record_id == new.id and "Thursday" in answer.text
    zh_old = _record("聚会定在星期六。", kind="utterance")
    zh_new = _record("我们把聚会改到星期天了。", kind="decision", at=5)
    zh = answer_from_memory("聚会是哪天？", [zh_old, zh_new], "zh")
    assert zh is not None and "星期天" in zh.text and "星期六" not in zh.text


@pytest.mark.parametrize(
    ("question", "facts"),
    [
        # Two different statements match as well: the LLM answers, with both in its prompt.
        ("What's my favourite colour?", ["My favourite colour is blue.", "My favourite colour is green."]),
        # Not about the person, and the statement is no plan they set.
        ("What's the capital of France?", ["I live in France."]),
        # Nothing in memory carries the answer (a request the person made is no statement about them).
        ("Do you remember my name?", ["I live in Lyon.", "Name a famous painter."]),
        # A request for advice is the LLM's.
        ("What should I cook for dinner?", ["I'm vegetarian, I cook dinner every day."]),
    ],
)
def test_no_answer_unless_one_statement_clearly_answers(question: str, facts: list[str]) -> None:
    records = [_record(text, at=i) for i, text in enumerate(facts)]
    assert answer_from_memory(question, records, "en") is None


def test_only_the_persons_own_current_statements_answer() -> None:
    said_by_assistant = _record("Your name is Bob.", role="assistant")
    superseded = _record("My name is Bob.", status="superseded")
    question_only = _record("What is my name?")
    summary = _record("Earlier conversation: User: My name is Bob. | User: hi", kind="summary")
    candidates = [said_by_assistant, superseded, question_only, summary]
    assert answer_from_memory("What is my name?", candidates, "en") is None


def test_said_back_swaps_the_person_and_drops_discourse_words() -> None:
    assert (
        said_back("Actually, we moved the party to Sunday.", "en")
        == "You told me you moved the party to Sunday."
    )
    assert (
        said_back("I'm allergic to my neighbour's cat.", "en")
        == "You told me you're allergic to your neighbour's cat."
    )
    assert said_back("Marisol is my name.", "en") == "You told me Marisol is your name."
    assert said_back("我们把聚会改到星期天了。", "zh") == "你告诉过我，你们把聚会改到星期天了。"


@pytest.mark.parametrize(
    ("question", "facts", "says", "not_says"),
    [
        (
            "So what did I say my name was?",
            ["My sister's name is Lily.", "Who painted the Mona Lisa?", "Oh, my name's Tomasz, by the way."],
            "Tomasz",
            "Lily",
        ),
        (
            "Do you know what to call me?",
            ["Our cat is called Pepper.", "Everyone just calls me Jo."],
            "Jo",
            "Pepper",
        ),
        ("我叫啥来着？", ["我女朋友叫林晓雨。", "我叫周明。"], "周明", "林晓雨"),
    ],
)
def test_the_persons_own_name_comes_from_where_they_named_themselves(
    question: str, facts: list[str], says: str, not_says: str
) -> None:
    records = [_record(text, at=float(i)) for i, text in enumerate(facts)]
    answer = answer_from_memory(question, records, "zh" if "我" in question else "en")
    assert answer is not None and says in answer.text and not_says not in answer.text


def test_someone_elses_name_does_not_answer_the_persons_own() -> None:
    records = [_record("My daughter's name is Lily."), _record("Name a famous painter.")]
    assert answer_from_memory("What's my name?", records, "en") is None


@pytest.mark.parametrize(
    "statement", ["Oh, my name's Tomasz, by the way.", "You can call me Jo.", "My first name is Ana."]
)
def test_a_person_naming_themselves_is_kept_as_a_fact(statement: str) -> None:
    items = extract(statement).items
    assert items and items[0].kind == "fact"


@pytest.mark.parametrize(
    ("question", "facts", "language", "says", "not_says"),
    [
        (
            "How are we getting to the lake on Sunday?",
            ["We were planning to cycle to the lake on Sunday.", "Actually, we'll take the bus instead."],
            "en",
            "bus",
            "cycle",
        ),
        (
            "What am I doing this weekend?",
            ["I'm planning to repaint the fence this weekend.", "Scratch that, I'm visiting my aunt."],
            "en",
            "aunt",
            "fence",
        ),
        (
            "我周日跟家人去哪儿？",
            ["周日本来打算跟家人去爬山。", "算了，我们改去逛博物馆。"],
            "zh",
            "博物馆",
            "爬山",
        ),
    ],
)
def test_a_plan_revised_in_the_next_statement_is_said_in_its_new_form(
    question: str, facts: list[str], language: str, says: str, not_says: str
) -> None:
    records = [_record(text, kind=extract(text).items[0].kind, at=float(i)) for i, text in enumerate(facts)]
    assert all(r.kind == "decision" for r in records)  # plans and their changes are pinned as decisions
    answer = answer_from_memory(question, records, language)
    assert answer is not None and says in answer.text and not_says not in answer.text


def test_an_unrelated_next_statement_does_not_replace_the_plan() -> None:
    records = [
        _record("We're planning to cycle to the lake on Sunday.", kind="decision"),
        _record("I love the smell of rain.", at=1.0),
    ]
    answer = answer_from_memory("How are we getting to the lake on Sunday?", records, "en")
    assert answer is not None and "cycle" in answer.text


def test_a_fact_is_not_replaced_by_the_change_of_another_plan() -> None:
    """Among the recalled statements, a change of another plan may come right after a fact (the plan it
    changed was superseded and not recalled): the fact is the answer, not the move."""
    fact = _record("My daughter [NAME:0123456789ab] is allergic to sesame.", kind="constraint")
    for place in ("York", "[NAME:fedcba987654]"):  # (a place may be taken for a name, and scrubbed)
        moved = _record(f"I changed my mind, we're moving to {place} instead.", kind="decision", at=1.0)
        answer = answer_from_memory("What's my daughter's name?", [fact, moved], "en")
        assert answer is not None and "sesame" in answer.text and "moving" not in answer.text


def test_a_change_said_in_pieces_is_said_back_whole() -> None:
    facts = ["周日本来打算跟家人去爬山。", "爬山不去了。", "我们改成去逛博物馆了。"]
    records = [_record(text, kind="decision", at=float(i)) for i, text in enumerate(facts)]
    answer = answer_from_memory("我周日跟家人去干什么？", records, "zh")
    assert answer is not None and "博物馆" in answer.text and "本来" not in answer.text
    # A clause kept as its own record beside its whole sentence is said once, not twice.
    facts = ["周六本来约了朋友去打羽毛球。", "羽毛球不打了。", "羽毛球不打了，我们改成去游泳了。"]
    records = [_record(text, kind="decision", at=float(i)) for i, text in enumerate(facts)]
    answer = answer_from_memory("我周六跟朋友去干什么？", records, "zh")
    assert answer is not None and answer.text.count("羽毛球不打了") == 1 and "游泳" in answer.text
    # ... also when that clause is kept as a plain utterance between the plan and its change
    kinds = ["decision", "utterance", "decision"]
    records = [_record(text, kind=kinds[i], at=float(i)) for i, text in enumerate(facts)]
    answer = answer_from_memory("我周六跟朋友去干什么？", records, "zh")
    assert answer is not None and "游泳" in answer.text and "本来" not in answer.text


def test_a_plan_said_as_the_original_one_is_answered_by_its_change_though_not_pinned() -> None:
    """ "这次去北京我本来订的是高铁" is kept as a plain utterance (no decision shape), then the change
    ("高铁票退了，改坐飞机去了") is pinned; "我这次去北京是怎么去？" asks what was told, not for advice."""
    old = _record("这次去北京我本来订的是高铁。", kind="utterance")
    change = _record(
        "高铁票退了，改坐飞机去了，快一点。", kind=extract("高铁票退了，改坐飞机去了。").items[0].kind, at=1.0
    )
    assert change.kind == "decision"
    answer = answer_from_memory("我这次去北京是怎么去？", [old, change], "zh")
    assert answer is not None and "飞机" in answer.text and "本来" not in answer.text
    assert answer_from_memory("蛋糕怎么做？", [old, change], "zh") is None  # advice, not recall


@pytest.mark.parametrize(
    ("question", "facts", "language"),
    [
        ("Where are we having the party?", ["We were planning to have the party at home."], "en"),
        ("聚餐在哪儿？", ["聚餐本来打算在家里吃。", "商量了一下。"], "zh"),
    ],
)
def test_a_plan_said_as_the_original_one_is_not_said_back_without_its_change(
    question: str, facts: list[str], language: str
) -> None:
    """ "We were planning to…" says the plan changed: with no change found, the LLM answers from the whole
    prompt instead of the old form being said back."""
    records = [_record(text, kind="decision", at=float(i)) for i, text in enumerate(facts)]
    assert answer_from_memory(question, records, language) is None


@pytest.mark.parametrize("statement", ["后来商量了一下，聚餐改去火锅店了。", "会议改为线上开。"])
def test_a_changed_plan_in_chinese_is_pinned_as_a_decision(statement: str) -> None:
    items = extract(statement).items
    assert items and items[0].kind == "decision"


def test_i_said_back_mid_sentence_is_not_capitalised() -> None:
    said = said_back("My exam is on Monday and I'm nervous, I've barely slept.", "en")
    assert said == "You told me your exam is on Monday and you're nervous, you've barely slept."


def test_an_answer_across_languages_is_the_name_alone_or_left_to_the_llm() -> None:
    told_zh = _record("我叫[NAME:0123456789ab]。")
    answer = answer_from_memory("What's my name?", [told_zh], "en")
    assert answer is not None and answer.text == "Your name is [NAME:0123456789ab]."
    told_en = _record("My name is [NAME:0123456789ab].")
    answer = answer_from_memory("我叫什么名字？", [told_en], "zh")
    assert answer is not None and answer.text == "你叫[NAME:0123456789ab]。"
    # Anything but a name would have to be translated: the LLM answers it in the question's language.
    flight = _record("我的航班是周二。", kind="decision")
    assert answer_from_memory("When is my flight?", [flight], "en") is None
