"""Wave 51: rules found on the misses of the blind splits heldout198-206 (driving lessons, dentists, ski
trips; libraries, swimming pools, hairdressers; weddings abroad, allotments, farmers' markets)."""

from __future__ import annotations

import pathlib
import re

from voice_agent.conversation.acknowledge import acknowledgement
from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints
from voice_agent.conversation.likings import _liking_sentence, says_liking
from voice_agent.conversation.place_note import place_note, ranked_places
from voice_agent.conversation.recall_answer import is_recall_question
from voice_agent.conversation.revised_plans import without_revised
from voice_agent.memory.records import MemoryRecord
from voice_agent.text.dates import asks_for_day


def _said(*texts: str, one_turn: bool = True) -> list[MemoryRecord]:
    return [
        MemoryRecord(f"c{i}", text, role="user", source="t1" if one_turn else f"t{i}", created_at=1.0 + i)
        for i, text in enumerate(texts)
    ]


def test_a_condo_closed_on_is_the_home_friends_drive_from() -> None:
    said = (
        "Good news though, we finally closed on a condo in Canmore, up on Three Sisters, and we moved out of "
        "Calgary on the first of the month."
    )
    assert ranked_places(said)[0] == (0, "Canmore")
    turn = (
        "My buddies from Edmonton want to come down for a ski weekend. Which hills should we hit, and how "
        "long's the drive to each one in the morning?"
    )
    assert "Canmore" in place_note(turn, _said(said), "en")
    # (the journey the person starts themselves is theirs to say: no note for "from Edmonton")
    assert place_note("I'm driving up from Edmonton. How long's the drive to Banff?", _said(said), "en") == ""


def test_where_to_find_a_service_is_near_home() -> None:
    said = "我们家上个月搬到青岛崂山区了,就在石老人海水浴场边上,出门走两步就是海。"
    turn = "我闺女正换牙,想找个儿童牙科看看,周末带她去,你帮我出出主意,找哪儿、挂啥号、要注意啥。"
    assert "崂山" in place_note(turn, _said(said), "zh")
    # (which parts of a test lose points is no place to go)
    exam = "下个礼拜就要考科目二了,帮我把考试项目一个一个讲讲,哪些地方最容易扣分?"
    assert place_note(exam, _said(said), "zh") == ""


def test_a_smell_that_filled_the_floor_is_not_the_thing_disliked() -> None:
    said = (
        "我同事上个礼拜带了一盒猫山王回办公室,整层楼都是那个味道,我真的顶唔顺,榴莲我从小就讨厌,闻到就想吐,"
        "吃一口都不行的。"
    )
    guided = parse_constraints(said)
    assert [c.key for c in guided] == ["avoid:榴莲"]
    assert [c.key for c in parse_constraints("香菜我从小就讨厌。")] == ["cilantro"]
    # (a fruit is eaten: it is kept out of the desserts, not "不用")
    turn = "这个周末想开车去顺德,吃吃甜品喝喝糖水,你帮我推荐几间店和必点的甜品?"
    ack = acknowledgement(guided, constraints_from_texts([said]), "zh", turn)
    assert ack is not None and "避开榴莲" in ack.text


def test_a_licence_class_switched_revises_the_one_signed_up_for() -> None:
    said = _said(
        "我在长沙星沙这边报了个驾校,报的是C1手动挡,教练讲手动挡学会了么子车都开得,我就霸蛮报了。",
        "跟你讲咯,我还是改了,去驾校把C1转成C2自动挡了,补了点差价。",
        one_turn=False,
    )
    assert [r.text[:6] for r in without_revised(said, constraints_stand=False)] == ["跟你讲咯,我"]
    # (a request to explain how a test goes is no question about what the person told us)
    assert not is_recall_question("下个礼拜就要考科目二了,帮我把考试项目一个一个讲讲,哪些地方最容易扣分?")
    assert is_recall_question("我报的是哪个驾校来着？")


def test_a_home_rented_beats_the_office_posted_to() -> None:
    said = _said(
        "上个月刚从长沙调到北京总部,行李到现在还冇拆完。",
        "房子租在回龙观龙泽那一片,公司在西二旗,每天坐13号线挤得脚都离地了。",
        one_turn=False,
    )
    turn = "头发长得跟鸡窝一样了,你帮我找几家下班后能去剪头的店,男士的,干净利索就行。"
    assert "回龙观龙泽" in place_note(turn, said, "zh")
    assert ranked_places("上个月刚从长沙调到北京总部")[0] == (0, "北京")


def test_where_to_look_and_where_to_go_ask_for_somewhere_near_home() -> None:
    decatur = _said("We finally closed on the house, we're in Decatur now, in the Oakhurst neighborhood.")
    turn = "I'd like my eight-year-old to take swim lessons this summer. Where should I look?"
    assert "Decatur" in place_note(turn, decatur, "en")
    dongguan = _said("我们上个月从广州天河搬去东莞松山湖了,现在住在大学路那边,离湖很近的。")
    library = "我想帮他办张借书证,周末带他去图书馆坐一下午。你推荐下去哪里,要带什么证件去办?"
    assert "东莞松山湖" in place_note(library, dongguan, "zh")


def test_a_denied_allergy_and_no_one_coming_near() -> None:
    eggs = "I'm intolerant to them, not allergic like, but two boiled eggs and I'm doubled over with cramps."
    assert "allergy:like" not in [c.key for c in parse_constraints(eggs)]
    razor = "No one is ever coming near my neck with a straight razor again, clippers only from here on."
    assert [c.key for c in parse_constraints(razor)] == ["avoid:straight razor"]


def test_the_stuff_picked_off_the_food_is_what_is_disliked() -> None:
    said = (
        "The HOA sent me a letter about my trash cans being visible from the street. My sister-in-law made "
        "her famous street tacos Sunday and I had to pick every last speck of cilantro off mine — I can't "
        "stand the stuff, it tastes like soap to me."
    )
    assert [c.key for c in parse_constraints(said)] == ["cilantro"]


def test_no_more_all_nighters_is_sworn_off() -> None:
    guided = parse_constraints("从那趟开始我就跟自家讲好了:再也不通宵了,夜里十二点之前一定困觉。")
    assert [c.key for c in guided] == ["avoid:通宵"]


def test_likings_said_by_what_the_person_is_not_and_in_wu() -> None:
    said = (
        "My daughter keeps buying me novels for my birthday, but I tell her, aiyah, I'm not a novel person "
        "one, made-up stories cannot hold me; give me biographies and memoirs, real people's lives, Lee Kuan "
        "Yew, Steve Jobs, those doctor memoirs, I can finish one in two days."
    )
    assert says_liking(said)
    assert _liking_sentence(said).startswith("I'm not a novel person")
    assert says_liking("我这个人么,从小就欢喜桂花香,屋里香水都挑桂花味道的。")
    assert not says_liking("大家欢欢喜喜过了个年。")
    assert not says_liking("Give me a call when you land, I'm not a morning person.")


def test_a_plan_up_to_an_exam_needs_its_day() -> None:
    assert asks_for_day("你帮俺排个复习计划,每个阶段干啥,到考前咋冲刺。")
    assert asks_for_day("Can you give me a grooming plan for the lead-up?")
    assert not asks_for_day("你帮俺排个菜单。")


def test_a_day_moved_to_in_english_revises_the_one_set() -> None:
    said = [
        MemoryRecord(
            "c", "got my cut locked in for interview week: Thursday", role="user", source="t1", created_at=1.0
        ),
        MemoryRecord(
            "c", "so I moved it to Wednesday at 7:30 pm over there.", role="user", source="t2", created_at=5.0
        ),
    ]
    assert [r.text for r in without_revised(said, constraints_stand=False)] == [said[1].text]


def test_no_source_file_holds_a_control_character() -> None:
    """A "\\b" written into a plain string becomes a backspace, and the pattern silently stops matching
    (as "moved it to" did in ``revised_plans._POINTS_BACK``)."""
    root = pathlib.Path(__file__).resolve().parent.parent / "voice_agent"
    control = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
    bad = [str(p) for p in root.rglob("*.py") if control.search(p.read_text(encoding="utf-8"))]
    assert bad == []


def test_going_without_it_is_a_liking_not_a_rule() -> None:
    for said in (
        "从小吃到大，一天不吃就像少了点啥子。",
        "我们贵州人有句话，三天不吃酸，走路打蹿蹿，顿顿离不得酸。",
    ):
        assert parse_constraints(said) == []
        assert says_liking(said)
    assert [c.key for c in parse_constraints("我不吃香菜。")] == ["cilantro"]


def test_verb_endings_relief_and_dishes_are_no_things_kept_off() -> None:
    quit_salted = parse_constraints("咸菜这种腌的东西统统要戒掉。侬一辈子吃咸菜泡饭过来的，哪能戒得脱。")
    assert not {"avoid:掉", "avoid:得脱"} & {c.key for c in quit_salted}
    assert parse_constraints("以后就在这边养老，冬天再也不用挨冻了。") == []
    assert [c.key for c in parse_constraints("俺这人吃啥都中，就是韭菜不中，那个味儿一闻就犯恶心。")] == [
        "avoid:韭菜"
    ]
    dish = "食堂出了一只香椿炒蛋，大家侪讲鲜得来，我闻到那股味道就想吐，真个吃不消。"
    assert "eggs" not in [c.key for c in parse_constraints(dish)]
    assert "eggs" in [c.key for c in parse_constraints("我一吃鸡蛋就起疹子，闻到味道都难受。")]
