"""Wave 52: rules found on the misses of the blind splits heldout207-209 (bakeries, gyms, bookshops)."""

from __future__ import annotations

from voice_agent.conversation.acknowledge import acknowledgement
from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints
from voice_agent.conversation.likings import says_liking
from voice_agent.conversation.pet_names import pet_note
from voice_agent.conversation.place_note import place_note
from voice_agent.memory.records import MemoryRecord
from voice_agent.text.dates import asks_for_day


def _keys(text: str) -> list[str]:
    return [c.key for c in parse_constraints(text)]


def _said(*texts: str) -> list[MemoryRecord]:
    return [MemoryRecord(f"c{i}", text, role="user", created_at=1.0 + i) for i, text in enumerate(texts)]


def test_a_headache_from_the_air_conditioning_is_no_reaction_to_the_food_named_next() -> None:
    said = (
        "这几天杭州又闷又潮，我在公司空调底下吹得头疼。我这个人嘛，跟桂花是真的有缘分，桂花糕、桂花糖藕、"
        "糖桂花冲藕粉，啥东西沾点桂花我都觉得好吃一倍。"
    )
    assert _keys(said) == []
    # (a reaction whose food is named next is read as before)
    assert "dairy" in _keys("我一喝就拉肚子。牛奶我是真不行。") or "dairy" in _keys("喝了牛奶。我就肚子疼。")
    assert says_liking("我这个人嘛，跟桂花是真的有缘分，一到九月满觉陇那一片香起来，我魂都被勾走了")
    assert not says_liking("跟他有缘没缘的不重要")


def test_a_vow_never_to_have_a_cake_delivered_is_about_delivery_not_eggs() -> None:
    assert _keys("从那天起我就跟自己讲好了，蛋糕这种东西再也不叫人送了，宁可自己跑断腿。") == ["avoid:外卖"]
    assert _keys("蛋糕这种东西再也不吃了") == ["eggs"]


def test_a_hand_that_itches_or_a_smell_pointed_at_is_not_the_thing() -> None:
    keys = _keys("我跟芒果真的是八字不合，小时候舔一口芒果干整个嘴巴肿成香肠，现在连芒果皮碰到手都会痒。")
    assert keys == ["mango"]
    assert _keys("讲真，我同榴莲真系前世有仇，隔远闻到那阵味就想呕") == ["avoid:榴莲"]
    assert "intolerance:猫毛" in _keys("我一碰猫毛就会痒")


def test_durian_refused_in_cantonese_and_wu_words() -> None:
    assert _keys("我真系顶唔顺，闻到就想呕，榴莲这种东西我一辈子都吃不落") == ["avoid:榴莲"]
    assert _keys("榴莲这种东西我一辈子都吃不下") == ["avoid:榴莲"]
    said = "讲真，我同榴莲真系前世有仇，隔远闻到那阵味就想呕"
    turn = "今个礼拜六系我生日，老公话带我去天河行甜品店、蛋糕店，你帮我揀几间，推荐下每间点啲咩。"
    ack = acknowledgement(parse_constraints(said), constraints_from_texts([said]), "zh", turn)
    assert ack is not None and "避开榴莲" in ack.text  # (its smell makes them retch: a food, not "不用")


def test_scots_and_idiom_dislikes_name_the_thing() -> None:
    assert _keys("I cannae even be in the same room as a cinnamon roll, never mind eat one.") == [
        "avoid:cinnamon roll"
    ]
    assert _keys("honestly, cinnamon gies me the boak.") == ["avoid:cinnamon"]
    assert _keys("I had to pick every wee raisin out and line them up on the plate.") == ["avoid:raisin"]
    assert _keys("she can't be in the same room as him") == []
    assert _keys("I pick everything out, and") == []


def test_no_thing_is_read_from_another_one_or_every_second_of_it() -> None:
    said = (
        "fair dinkum I'd rather chew through a stubby holder than do another one, worst invention since the "
        "dropbear, I hate every flamin' second of 'em."
    )
    assert _keys(said) == []
    assert _keys("I hate every minute of yoga.") == []


def test_a_pet_named_once_is_named_for_a_turn_about_that_pet() -> None:
    told = _said("哎呀今天成都又是阴到起。我屋头那个小柯基叫汤圆，屁股圆滚滚的，下个礼拜就满三岁了")
    turn = "我想给我屋头狗儿订个它能吃的生日蛋糕，你帮我写段给店家的订单留言"
    assert pet_note(turn, told, "zh") == "狗狗的名字：汤圆。"
    assert pet_note("帮我写个留言", told, "zh") == ""
    pets = _said("Our rescue lab's called Biscuit, a menace.", "The cat is named Pepper Pot, she's 12.")
    assert pet_note("Can you write a birthday poem for my dog?", pets, "en") == "The dog is called Biscuit."
    assert pet_note("Plan a vet visit for the cat", pets, "en") == "The cat is called Pepper Pot."
    assert pet_note("Plan a walk with Biscuit the dog", pets, "en") == ""


def test_a_train_to_a_named_town_to_visit_family_is_not_a_journey_home() -> None:
    told = _said("俺们郑州这两天热得人直冒油，小区偏偏又停电，空调开不成。")
    turn = "下个月俺要坐火车去乌鲁木齐看俺儿子，路上得两天多。你给俺推荐五六本书带着路上看。"
    assert "郑州" not in place_note(turn, told, "zh")


def test_a_plan_in_phases_needs_the_day() -> None:
    assert asks_for_day("你帮我排个训练计划，按阶段排，每周练几次都写清楚。")
    assert asks_for_day("Give me a training plan in phases.")
    assert not asks_for_day("你帮我排个一周的训练计划。")
