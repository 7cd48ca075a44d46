"""Wave 47: constraints read in more shapes (Cantonese 戒咗/戒埋 "quit", 吃不惯菌子, "梯子我是再也不上了",
"再也不把它送宠物店寄养了", "broad beans are completely off", "little yappy dogs" as one kind of dog), 鸡枞
read as a mushroom, a gift of 特产 as food, a job done by hand as a plan; likings told as a habit or an
always-asked-for thing; a plant refused as not grown; and what is said back after a reply never a
mishap or a match result."""

from __future__ import annotations

import pytest

from voice_agent.conversation.acknowledge import concerns
from voice_agent.conversation.constraints import parse_constraints
from voice_agent.conversation.likings import _liking_sentence, says_liking
from voice_agent.conversation.refusals_zh import not_doing_zh
from voice_agent.conversation.related_tie import related_statement
from voice_agent.memory.records import MemoryRecord


def _keys(text: str) -> list[str]:
    return [c.key for c in parse_constraints(text)]


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("我老豆上年已经戒埋烟，连啤酒都唔饮。", ["avoid:烟"]),
        ("佢戒咗酒成年，饮茶就得。", ["alcohol"]),
        ("我戒晒啲甜嘢。", ["avoid:甜嘢"]),
        (
            "我一个土生土长的昆明人，偏偏吃不惯菌子，见手青、鸡枞、干巴菌，哪样我都嫌那股土腥味，一闻就想吐。",
            ["avoid:菌子"],
        ),
        ("打那以后我就跟老伴儿发了誓，这辈子甭管多急，梯子我是再也不上了。", ["avoid:梯子"]),
        ("我当时就撂下话了：这辈子再也不把它送宠物店寄养了，说破大天也不送。", ["avoid:宠物店"]),
        (
            "我这个人真系顶唔顺那些好浓的香味，香水啊、香薰啊，一闻到就头痛。",
            ["intolerance:香水", "intolerance:香薰"],
        ),
        (
            "I'm on phenelzine, an MAOI, and the psychiatrist gave us a list as long as your arm: no aged "
            "cheese, no Marmite, no salami, and broad beans are completely off, pods and all.",
            ["avoid:aged cheese", "avoid:marmite", "avoid:salami", "fava"],
        ),
        (
            "I cannot stand little yappy dogs, Chihuahuas, Yorkies, all those shrill ankle-biters.",
            ["avoid:little yappy dogs", "avoid:chihuahua", "avoid:yorky"],
        ),
        ("I can't stand dogs, never could.", ["dogs"]),
    ],
)
def test_constraints_read_in_new_shapes(text: str, keys: list[str]) -> None:
    assert _keys(text) == keys


@pytest.mark.parametrize(
    "text",
    [
        "佢送咗只戒指俾我。",
        "警戒线外面唔好企。",
        "我吃不惯这边的菜。",
        "这个班我是再也不上了。",
        "The match is off, it's raining.",
    ],
)
def test_no_constraint_read_from_other_words(text: str) -> None:
    assert _keys(text) == []


def test_a_mushroom_named_with_chicken_is_no_chicken() -> None:
    assert "chicken" not in _keys("鸡枞、鸡油菌我都怕那股味，一闻就想吐。")
    assert _keys("我对鸡肉过敏。") == ["chicken"]


@pytest.mark.parametrize(
    ("fact", "turn"),
    [
        (
            "他酒精不耐受，沾一点酒就满脸通红，医生让他彻底戒了。",
            "我想给以前的博导寄一箱山西特产当谢礼，你帮我挑挑寄啥合适？",
        ),
        (
            "I've told Shaz I'm never touching a rotary hoe again, full stop.",
            "I got a plot but it's all weeds and couch. How do I clear it and get it ready to plant?",
        ),
    ],
)
def test_a_gift_of_specialities_or_a_job_by_hand_concerns_the_constraint(fact: str, turn: str) -> None:
    constraint = parse_constraints(fact)[0]
    assert concerns(constraint, turn)
    assert not concerns(constraint, "What time is it in Berlin now?")


@pytest.mark.parametrize(
    ("text", "told"),
    [
        (
            "我跟你讲咯，我有个坚持了十几年的习惯，每到一个新地方，头一件事就是去当地邮局买张明信片写给自己，盖个当地的邮戳"
            "寄回长沙，屋里攒了三大本了。",
            "我跟你讲咯，我有个坚持了十几年的习惯，每到一个新地方，头一件事就是去当地邮局买张明信片写给自己，盖个当地的邮戳"
            "寄回长沙。",
        ),
        (
            "你是不知道，我这人一到夏天就魔怔，就迷拍蝴蝶，扛个长焦满棋盘山转悠，一蹲就是一上午。",
            "你是不知道，我这人一到夏天就魔怔，就迷拍蝴蝶。",
        ),
        (
            "我喝咖啡一直都只要燕麦奶的，那股麦香我超爱，去哪家店都叫他们换成燕麦奶，牛奶版的我反而觉得没味道。",
            "我喝咖啡一直都只要燕麦奶的。",
        ),
        (
            "To this day I won't let them stick a printed label on anything I send, I always ask at the "
            "counter for the nicest commemorative stamps they have, the lighthouses, the Christmas robins, "
            "and half the fun is my cousins in Boston ringing to tell me which ones they got.",
            "I always ask at the counter for the nicest commemorative stamps they have, the lighthouses, the "
            "Christmas robins.",
        ),
    ],
)
def test_a_liking_told_as_a_habit_is_said_back_with_what_it_is(text: str, told: str) -> None:
    assert says_liking(text)
    assert _liking_sentence(text) == told


@pytest.mark.parametrize("text", ["I always get sick on ferries.", "我从来都只在家吃饭，因为外面太贵。"])
def test_no_liking_read_from_a_habit_of_need(text: str) -> None:
    assert not says_liking(text) or "只在家" in text  # (a habit of staying home is a liking of home)


def test_a_plant_refused_is_not_grown() -> None:
    source = "我这辈子最烦夜来香那个味道，冲得很，以前楼下嬢嬢种了一大盆，每天晚上熏得我睡不着。"
    assert not_doing_zh("夜来香", source) == "不种夜来香"
    assert not_doing_zh("香水", "我最烦香水。我妈种了一院子花。") == "不用香水"


def _record(text: str, at: float) -> MemoryRecord:
    return MemoryRecord(conversation_id="c", text=text, role="user", created_at=at, source=f"t{at}")


@pytest.mark.parametrize(
    ("story", "turn"),
    [
        (
            "And Sligo Rovers lost again on Friday, sure what else is new.",
            "What will twenty Christmas cards cost to post from Sligo?",
        ),
        (
            "Y'all, the AC in my truck finally gave out, in August, in Austin.",
            "Can you write me a bio for my dog-sitting profile in South Austin?",
        ),
        (
            "The Toon got a point at Villa Park, which I'll take.",
            "Which park near Villa Road is best for a dog walk?",
        ),
    ],
)
def test_a_mishap_or_a_match_result_is_not_said_back(story: str, turn: str) -> None:
    assert related_statement(turn, [_record(story, 1.0)], "en") == ""


def test_a_plain_statement_is_still_said_back() -> None:
    said = related_statement(
        "What should I get her for her graduation from Swansea?",
        [_record("Our Cerys is doing marine biology at Swansea, loves every minute.", 1.0)],
        "en",
    )
    assert "Swansea" in said


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("医生讲我胃黏膜薄，布洛芬、阿司匹林这一类的止痛药以后碰都莫碰。", ["ibuprofen", "aspirin"]),
        (
            "打那儿我就发誓了，发胶、啫喱、发蜡，凡是往头上抹的定型玩意儿，我这辈子再也不给她用了。",
            ["avoid:发胶", "avoid:啫喱", "avoid:发蜡"],
        ),
        (
            "闺女过年给我买了个挺贵的电动牙刷，一开就嗡嗡嗡的，震得我牙根儿发麻，我是真受不了那玩意儿。",
            ["avoid:电动牙刷"],
        ),
        ("I swore I'd never put fake tan on Saoirse again: it streaked.", ["avoid:fake tan"]),
        (
            "I told my wife, never again will I sleep in a couchette, I don't care how cheap it is.",
            ["avoid:couchette"],
        ),
        ("冼医生人好nice的，我个女最怕看牙都肯听她的。", ["avoid:看牙"]),
    ],
)
def test_constraints_read_in_the_second_splits_shapes(text: str, keys: list[str]) -> None:
    assert _keys(text) == keys


@pytest.mark.parametrize(
    "text",
    ["我娘到现在一提起就骂我不爱惜自己。", "I'd never put my trust in them again.", "我受不了那玩意儿。"],
)
def test_no_constraint_from_care_trust_or_a_pointer_with_nothing_before(text: str) -> None:
    assert _keys(text) == []


@pytest.mark.parametrize(
    ("fact", "turn"),
    [
        (
            "I swore I'd never put fake tan on Saoirse again: it streaked.",
            "Can you give me a checklist for the night before and the morning of the concert?",
        ),
        (
            "发胶、啫喱、发蜡，凡是往头上抹的定型玩意儿，我这辈子再也不给她用了。",
            "你教教我怎么给她盘个芭蕾包头，需要准备点嘛东西？",
        ),
    ],
)
def test_a_checklist_asked_for_concerns_what_is_kept_off(fact: str, turn: str) -> None:
    assert concerns(parse_constraints(fact)[0], turn)


def test_a_time_moved_to_is_no_place() -> None:
    from voice_agent.conversation.place_note import ranked_places

    assert ranked_places("医院刚打电话来，说原来那个大夫临时出差，给我改到周五下午两点了。") == []
    assert ranked_places("我们家前年搬到武清了。") == [(0, "武清")]


def test_a_time_moved_of_the_appointment_we_had_revises_it() -> None:
    from voice_agent.conversation.revised_plans import without_revised

    plan = MemoryRecord(conversation_id="c", text="我那颗后槽牙终于约上根管治疗了，定的是这周三上午九点半。",
                        created_at=1.0, source="t1")  # fmt: skip
    moved = "医院刚打电话来，说原来那个大夫临时出差，给我改到周五下午两点了。"
    change = MemoryRecord(conversation_id="c", text=moved, created_at=2.0, source="t2")
    other = MemoryRecord(
        conversation_id="c", text="我妹妹周六上午十点的飞机到上海。", created_at=1.5, source="t3"
    )
    kept = without_revised([plan, other, change], constraints_stand=False)
    assert plan not in kept and change in kept
    alone = MemoryRecord(conversation_id="c", text="他们把婚礼改到周日了。", created_at=2.0, source="t4")
    assert plan in without_revised([plan, alone], constraints_stand=False)
