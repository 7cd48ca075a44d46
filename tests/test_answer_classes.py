"""Replies that answer nothing, by class: a refusal of an ordinary request, a bare word for an outing, a
liking left unused, a suggestion request taken for a recall question, a "never …" constraint for an
outing, a called-off plan said back. Real constraint parsing, reminders and reply check; the LLM is the
scripted one at its edge (``tests/_scripted_llm.py``)."""

from __future__ import annotations

import pytest

from tests._scripted_llm import ScriptedLlm
from voice_agent.bench.adoption import violations
from voice_agent.conversation.constraints import constraints_from_texts
from voice_agent.conversation.likings import distinctive_words, uses_liking
from voice_agent.conversation.recall_answer import is_recall_question
from voice_agent.conversation.reminders import (
    asks_for_suggestion,
    guided_constraints,
    requested_thing,
    turn_guidance,
    turn_reminders,
)
from voice_agent.conversation.reply_check import ReplyCheck
from voice_agent.conversation.reply_fallbacks import NOTHING_TO_SAY
from voice_agent.memory.records import MemoryRecord
from voice_agent.metrics.trace import TurnTrace


def _messages(turn: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": "Be brief."}, {"role": "user", "content": turn}]


async def _said(check: ReplyCheck, turn: str, llm: ScriptedLlm) -> str:
    return "".join([text async for text in check.run(_messages(turn), llm)])


async def test_a_refusal_of_an_ordinary_question_is_asked_again_with_what_to_name() -> None:
    turn = "What should we do this weekend?"
    never = constraints_from_texts(["Never take me to a karaoke bar again."])
    llm = ScriptedLlm("I'm sorry, but I can't assist with that.", "How about a picnic in the park?")
    trace = TurnTrace("refusal")
    check = ReplyCheck(never, "en", trace, requested=requested_thing(turn), user_words=turn)
    said = await _said(check, turn, llm)
    assert "can't assist" not in said and "picnic" in said
    assert len(llm.calls) == 2 and trace.first("reply.refusal") is not None
    note = llm.calls[1][-1]["content"]
    assert "one whole sentence" in note and "karaoke" in note  # the kind of answer, and the constraint


async def test_a_refusal_twice_in_chinese_still_answers() -> None:
    turn = "这周日难得有空，你说我干点啥好？"
    never = constraints_from_texts(["以后别带我去爬山了。"])
    llm = ScriptedLlm("抱歉，我无法协助完成这个请求。", "抱歉，我不能帮你。")
    check = ReplyCheck(never, "zh", TurnTrace("r2"), requested=requested_thing(turn), user_words=turn,
                       asks_suggestion=asks_for_suggestion(turn))  # fmt: skip
    said = await _said(check, turn, llm)
    assert "无法" not in said and "不能帮" not in said and said.strip()
    assert "爬山" in said and never.check(said) is None  # the constraint named, not broken
    assert check.outcome.safe_sentence


async def test_a_bare_word_for_an_outing_under_a_never_constraint_is_asked_again() -> None:
    fact = "千万别再拉我去KTV了，我五音不全。"
    never = constraints_from_texts([fact])
    turn = "周五下班想跟同事出去放松一下，去哪儿好？"
    guided = guided_constraints(never, turn_reminders([_pinned(fact)], [], never, turn), turn)
    assert [c.key for c in guided] == ["avoid:ktv"] and asks_for_suggestion(turn)
    llm = ScriptedLlm("去上海。", "可以去吃顿火锅，再去看场电影。")
    check = ReplyCheck(never, "zh", TurnTrace("bare"), user_words=turn, expects_suggestion=bool(guided),
                       asks_suggestion=True)  # fmt: skip
    said = await _said(check, turn, llm)
    assert "火锅" in said and "上海" not in said and len(llm.calls) == 2


async def test_a_terse_answer_to_a_plain_request_is_said_at_once() -> None:
    turn = "Can you recommend a book for my holiday?"
    llm = ScriptedLlm("Try Dune.", "unused")
    check = ReplyCheck(constraints_from_texts([]), "en", TurnTrace("terse"), user_words=turn,
                       asks_suggestion=asks_for_suggestion(turn))  # fmt: skip
    assert (await _said(check, turn, llm)).strip() == "Try Dune." and len(llm.calls) == 1


def test_yes_no_questions_are_not_requests_for_a_suggestion() -> None:
    assert not asks_for_suggestion("Can I eat this after midnight?")
    assert not asks_for_suggestion("What's the capital of France?")
    assert asks_for_suggestion("Can you recommend a cake for my kid?")
    assert asks_for_suggestion("I've got a free Saturday, what should I do with it?")
    assert asks_for_suggestion("晚上煮碗面，加点什么配料好？")
    assert asks_for_suggestion("Pick a movie for me and my friends on Friday night.")
    assert requested_thing("Pick a movie for me and my friends on Friday night.") == "movie"
    assert requested_thing("Can you give me a few ideas for my work lunches this month?") == "lunch"
    assert requested_thing("Any ideas for the kids' packed lunches?") == "lunch"
    assert requested_thing("What all should I eat while we're there?") == "dish"  # (southern US: "what all")
    assert requested_thing("I gotta order the goody bags this week. What all should I get?") == ""
    assert asks_for_suggestion("帮我挑一部周末看的电影。") and not asks_for_suggestion("Plants need water.")


async def test_an_unused_liking_is_tied_in_after_the_reply_without_delaying_it() -> None:
    turn = "开车的时候放点什么歌好？"
    liked = "我平时最爱听周杰伦的歌。"
    llm = ScriptedLlm("开车时放点轻松的流行歌，比如《我爱你》，节奏刚好不会太吵。")
    trace = TurnTrace("tie")
    check = ReplyCheck(constraints_from_texts([]), "zh", trace, requested=requested_thing(turn),
                       user_words=turn, expects_suggestion=True, liked=liked)  # fmt: skip
    pieces: list[str] = []
    consumed_at_first = -1
    async for text in check.run(_messages(turn), llm):
        if not pieces:
            consumed_at_first = llm.consumed
        pieces.append(text)
    total = len(llm.calls) and llm.consumed
    assert 0 < consumed_at_first < total  # the first piece left before the reply was over
    said = "".join(pieces)
    assert said.startswith("开车时") and "周杰伦" in said and trace.first("reply.liked_tie") is not None
    assert len(llm.calls) == 1


async def test_a_reply_that_used_the_liking_gets_nothing_added() -> None:
    turn = "What should I put on for a cosy movie night tonight?"
    liked = "Anything by Hayao Miyazaki, I could watch it over and over."
    llm = ScriptedLlm("Put on My Neighbor Totoro, a gentle Miyazaki film that is perfect for a cosy night.")
    trace = TurnTrace("used")
    check = ReplyCheck(constraints_from_texts([]), "en", trace, user_words=turn, expects_suggestion=True,
                       liked=liked)  # fmt: skip
    said = await _said(check, turn, llm)
    assert "told me" not in said and trace.first("reply.liked_tie") is None


def test_the_distinctive_words_of_a_liking_leave_out_how_much_and_the_question_s_own_words() -> None:
    jazz = distinctive_words("My favourite music is jazz.", "What kind of concert should I look for?")
    assert jazz == {"jazz"}
    assert "电影" not in "".join(distinctive_words("我特别喜欢看科幻电影。", "今晚看部什么电影好？"))
    assert uses_liking("A late jazz set would be lovely.", "My favourite music is jazz.", "Any concert?")
    assert not uses_liking("Try a classical recital.", "My favourite music is jazz.", "Any concert?")


def test_a_request_for_something_of_a_kind_is_no_recall_question() -> None:
    assert not is_recall_question("家里周末来客人，我老公也在，准备点什么饮料？")
    assert not is_recall_question("明天出门买些什么菜？")
    assert is_recall_question("我周六跟朋友去干什么？")
    assert is_recall_question("我是在哪个城市上班来着？")


def _pinned(text: str) -> MemoryRecord:
    return MemoryRecord(id="p1", conversation_id="c", text=text, kind="fact", created_at=1.0)


def test_a_never_constraint_shapes_a_question_about_what_to_do() -> None:
    fact = "Never take me camping again, one night in a tent was enough."
    constraints = constraints_from_texts([fact])
    record = _pinned(fact)
    asked = ("My partner and I want to get away this summer, any ideas?", "What should we do this weekend?")
    for turn in asked:
        reminders = turn_reminders([record], [], constraints, turn)
        assert reminders == [fact]
        assert [c.key for c in guided_constraints(constraints, reminders, turn)] == ["camping"]
        assert any("camping" in note for note in turn_guidance(constraints, reminders, turn, "en"))
    quiz = "What's the capital of Peru?"
    assert guided_constraints(constraints, turn_reminders([record], [], constraints, quiz), quiz) == []


def test_a_thing_called_off_is_not_recommended() -> None:
    assert violations("你告诉过我，羽毛球不打了，你们改成去游泳了。", ["羽毛球"]) == []
    assert violations("烧烤就不吃了，改成去吃火锅。", ["烧烤"]) == []
    assert violations("The barbecue is off, so how about bowling?", ["barbecue"]) == []
    assert violations("我们去打羽毛球吧。", ["羽毛球"]) == ["羽毛球"]
    assert violations("Have a barbecue in the garden.", ["barbecue"]) == ["barbecue"]
    assert NOTHING_TO_SAY["en"]  # the last resort stays defined


def test_a_liking_said_as_enthusiasm_is_kept_and_restated_for_a_request() -> None:
    from voice_agent.conversation.extract import extract
    from voice_agent.conversation.likings import PREFERENCE

    for liking in ("Anything by Hayao Miyazaki, I could watch it over and over.", "我平时最爱听周杰伦的歌。"):
        assert [item.kind for item in extract(liking).items] == ["fact"]
        assert PREFERENCE.search(liking)
    assert not PREFERENCE.search("我不喜欢香菜。") and not PREFERENCE.search("What can I eat all day?")


async def test_a_reply_that_answers_an_earlier_question_is_asked_again() -> None:
    turn = "It's freezing out, what comforting dinner would you make tonight?"
    messages = [
        {"role": "user", "content": "I'm allergic to peanuts, and my sister lives in Oslo."},
        {"role": "assistant", "content": "Got it."},
        {"role": "user", "content": "What does a bee make?"},
        {"role": "assistant", "content": "Bees make honey and wax."},
        {"role": "user", "content": turn},
    ]
    llm = ScriptedLlm("A bee makes honey.", "A hearty lentil stew would warm you up.")
    trace = TurnTrace("other")
    check = ReplyCheck(constraints_from_texts([]), "en", trace, user_words=turn, expects_suggestion=True)
    said = "".join([text async for text in check.run(messages, llm)])
    assert "honey" not in said and "lentil" in said and trace.first("reply.answers_other_turn") is not None
    # What the person told us (a statement, not an earlier question) may be used: no regeneration.
    turn = "Can you recommend a snack for me?"
    messages[-1] = {"role": "user", "content": turn}
    llm = ScriptedLlm("Since you're allergic to peanuts, try apple slices with sunflower butter.")
    check = ReplyCheck(constraints_from_texts([]), "en", TurnTrace("own"), user_words=turn)
    said = "".join([text async for text in check.run(messages, llm)])
    assert "apple slices" in said and len(llm.calls) == 1


def test_a_constraint_said_with_the_thing_first_or_as_keeping_away_is_read() -> None:
    from voice_agent.conversation.constraints import parse_constraints

    shellfish = "My boyfriend can't go near shrimp or any shellfish, last time he ended up in A&E."
    assert [c.key for c in parse_constraints(shellfish)] == ["shellfish"]
    assert [c.key for c in parse_constraints("Olives, I just can't stand them.")] == ["avoid:olives"]
    assert parse_constraints("Honestly, I can't stand it.") == []
    assert parse_constraints("The movie was long, I can't stand it.") == []
    assert parse_constraints("I can't go near the office today.") == []  # no known topic: no constraint
    onions = constraints_from_texts(["Onions and garlic really mess with my stomach, so I keep away."])
    assert onions.check("A salad with tomatoes and onions.") is not None
    assert onions.check("A ginger, garlic and lime sauce.") is not None  # the whole list, not its head
    assert parse_constraints("Work really messes with my head.") == []


def test_a_question_where_to_go_gets_an_outing_not_a_drink() -> None:
    from voice_agent.conversation.suggestions import KINDS, concrete_option

    never = constraints_from_texts(["千万别再拉我去KTV了，我五音不全。"])
    turn = "周五下班想跟同事出去放松一下，去哪儿好？"
    option = concrete_option(never, requested_thing(turn), turn, "zh")
    outing = next(kind for kind in KINDS if kind.name == "outing")
    assert option in {o.text for o in outing.zh}
    assert requested_thing("下午开会老犯困，喝点什么提提神？") == "饮品"


async def test_a_question_of_the_turn_said_back_is_no_answer() -> None:
    turn = "We're having dinner at a place by the harbour tonight. What should we order?"
    llm = ScriptedLlm("What should we order?", "Grilled sea bass with a green salad.")
    trace = TurnTrace("quote")
    check = ReplyCheck(constraints_from_texts([]), "en", trace, user_words=turn, expects_suggestion=True)
    said = await _said(check, turn, llm)
    assert said.strip() == "Grilled sea bass with a green salad." and trace.first("reply.repeats_question")


def test_a_filling_is_offered_for_tacos_and_a_drink_for_a_drink_question() -> None:
    from voice_agent.conversation.suggestions import KINDS, concrete_option

    coriander = constraints_from_texts(["Coriander tastes like soap to me, I really can't have it."])
    turn = "I'm doing tacos for the family tonight, what should I put in them?"
    filling = next(kind for kind in KINDS if kind.name == "filling")
    option = concrete_option(coriander, requested_thing(turn), turn, "en")
    assert option in {o.text for o in filling.en} and coriander.check(option) is None
    beans = constraints_from_texts(["我一吃豆类就胀气，黄豆绿豆都不行。"])
    turn = "明天早上喝点什么配包子？"
    assert requested_thing(turn) == "饮品"
    assert concrete_option(beans, requested_thing(turn), turn, "zh") not in {o.text for o in filling.zh}


def test_a_liking_with_a_scrubbed_name_is_not_compared() -> None:
    liked = "My favourite author is [NAME:0123456789ab]."
    assert uses_liking("The Left Hand of Darkness is a classic.", liked, "Can you recommend a book?")


@pytest.mark.parametrize(
    "liking",
    [
        "I'm a total sucker for a good romantic comedy.",
        "I could listen to old [NAME:0123456789ab] records all day long.",  # a scrubbed band or label
        "我是[NAME:0123456789ab]的老歌迷了，她的歌我百听不厌。",
        "I have a real soft spot for westerns.",
        "我超爱看科幻片。",
        "I've honestly read Dune like five times now.",  # coming back to it, no word of liking
        "We grew up on old soul records in our house.",
        "金庸的小说我翻来覆去看了不下十遍。",
        "我外公是广东人，我从小跟着他听粤剧。",
        "这首歌我单曲循环了一整周。",
        "Coffee is my life, the darker the better.",
        "That Bowie album has been on repeat since college.",
        "这部剧我是雷打不动每周都追。",
        "火锅是我的命。",
        "Sunday mornings you'll find me down at the lake with my binoculars.",  # a habit kept for itself
        "I saw a kingfisher by the canal last week and it made my whole month.",
        "我这人没啥别的爱好，就好下个象棋。",
        "周末背个相机满城跑，累是累，乐在其中。",
        "晚上不听两段评书都睡不着觉。",
        "别看我年纪轻，我就爱下围棋。",
        "我下了班哪儿都不去，就往球馆钻。",
        "天天在家练毛笔字，一天不写个两三个钟头手就痒痒。",  # going without it is what hurts
        "额这人没啥爱好，就爱吼两嗓子秦腔。",
        "每天早上在城墙根儿跟老伙计唱戏，一唱就是一上午。",
        "My big hobby is woodworking, especially Japanese joinery.",
        "我这人血迷手冲咖啡，哪儿有好豆子我都得去尝尝。",  # (north-eastern: crazy about)
    ],
)
def test_a_liking_said_in_other_words_or_with_a_scrubbed_name_is_read(liking: str) -> None:
    from voice_agent.conversation.likings import says_liking
    from voice_agent.conversation.reminders import liked_fact

    assert says_liking(liking)
    assert liked_fact([liking], "What should I put on tonight?") == liking
    for other in (
        "I hate horror films.",
        "我不迷信。",
        "My boss and I don't get along.",
        "Beetroot tastes like a mouthful of garden soil to me. My mum used to hide it in things.",  # "like"
        "It looks like rain all week.",
        "Don't ever talk me into camping again.",  # "into"
        "我最怕过山车了，看着都恶心。",
        "I have to read the contract two times before signing.",  # an obligation, not a liking
        "I've read the manual five times and I still don't get it.",
        "I need to reread the email.",
        "说明书我看了两遍还是不会装。",
        "我看了三遍都没看懂。",
        "我从小就怕狗。",
        "循环利用塑料瓶。",
        "My kid cannot live without his inhaler.",
        "我每天雷打不动六点起床。",
        "The washing machine is on repeat.",
        "You'll find me a bit tired today.",
        "That news made my day worse.",
        "我没啥爱好。",
        "我今天哪儿都不去了。",
        "他不听劝，我很难受。",
        "我这人老迷路。",
    ):
        assert not says_liking(other), other


async def test_the_fallback_along_a_liking_names_the_kind_with_the_right_article() -> None:
    turn = "What music should I put on?"
    for requested, expected in (("music", "some music"), ("film", "a film"), ("", "something")):
        llm = ScriptedLlm("Sorry, I can't help with that.", "Sorry, I can't help with that.")
        check = ReplyCheck(constraints_from_texts([]), "en", TurnTrace("fit"), requested=requested,
                           user_words=turn, expects_suggestion=True, asks_suggestion=True,
                           liked="I could listen to old Motown records all day long.")  # fmt: skip
        said = await _said(check, turn, llm)
        assert "You told me you could listen to old Motown records" in said, said
        assert f"I'd suggest {expected} along those lines." in said, said


def test_the_safe_sentence_says_a_statement_back_but_not_an_order() -> None:
    """ "My kid is allergic to nuts." is said back ("You told me your kid is…"); an order is not ("You
    told me Don't ever talk you into camping…"): the constraint's own words are said instead."""
    order = "Don't ever talk me into camping again, one night in a tent was more than enough."
    for source, says, never in (
        (order, "You told me you don't want camping", "talk you into"),
        ("My kid is allergic to nuts.", "You told me your kid is allergic to nuts.", "Don't"),
    ):
        constraints = constraints_from_texts([source])
        check = ReplyCheck(constraints, "en", TurnTrace("safe"), user_words="Any ideas for the summer?")
        said = check.safe_sentence(constraints.constraints[0])
        assert said.startswith(says) and never not in said, said


def test_a_statement_said_back_loses_its_opening_word_and_keeps_its_grammar() -> None:
    from voice_agent.conversation.recall_answer import said_back

    said = said_back("Honestly, Rumours has been on repeat since I was fifteen.", "en")
    assert said == "You told me Rumours has been on repeat since you were fifteen."
    assert said_back("Oh, before I forget: mustard is a hard no for me.", "en") == (
        "You told me mustard is a hard no for you."
    )


def test_a_long_liking_is_said_back_by_the_sentence_that_says_it() -> None:
    from voice_agent.conversation.likings import liking_tie

    liked = (
        "Honestly, I'm a sucker for an old-fashioned whodunnit. A country house, a body in the library, "
        "a detective in the drawing room, a butler nobody suspects, I've read each of those twice."
    )
    none = constraints_from_texts([])
    tie = liking_tie(liked, "Try To Kill a Mockingbird.", "What should I read?", "en", none)
    assert tie.startswith("You told me you're a sucker for an old-fashioned whodunnit.")
    assert "butler" not in tie


def test_a_plan_asked_for_is_shaped_by_what_the_person_likes() -> None:
    from voice_agent.conversation.reminders import liked_fact

    hobby = "My big hobby is woodworking, especially Japanese joinery."
    assert liked_fact([hobby], "In April we go to Japan for two weeks. Can you make a plan for us?") == hobby
    assert (
        liked_fact(["我这人血迷手冲咖啡。"], "国庆我俩寻思去云南走走，你给安排安排行程呗？")
        == "我这人血迷手冲咖啡。"
    )
    assert liked_fact([hobby], "The plan for us is to leave at six.") == ""  # no plan asked for


def test_food_for_a_baby_is_a_baby_food_with_nothing_added() -> None:
    from voice_agent.conversation.suggestions import concrete_option

    rules = constraints_from_texts(["一岁以内不能吃蜂蜜，辅食也不能加盐、不能加糖，酱油、蚝油都不行。"])
    turn = "这个周末我想自己给宝宝做几样辅食，做好分装冻起来，做点啥好？"
    option = concrete_option(rules, requested_thing(turn), turn, "zh")
    assert option.endswith("泥") and option.startswith("不加盐不加糖") and rules.check(option) is None
    turn = "What purees should I batch cook for my nine-month-old?"
    option = concrete_option(constraints_from_texts([]), requested_thing(turn), turn, "en")
    assert "purée" in option and "nothing added" in option
    assert concrete_option(rules, "dish", "What should I cook for dinner tonight?", "en") != option


def test_a_dish_at_a_named_cuisine_is_one_of_its_dishes_that_keeps_the_constraints() -> None:
    from voice_agent.conversation.suggestions import concrete_option

    hakka = "同事讲要带我去食客家菜，仲要我来点菜，你帮我想下点麼个好？"
    assert (
        concrete_option(constraints_from_texts(["我最怕食肥猪肉。"]), requested_thing(hakka), hakka, "zh")
        == "盐焗鸡"
    )
    thai = "We're going to a Thai place tonight, what should I eat?"
    peanuts = constraints_from_texts(["I'm allergic to peanuts."])
    option = concrete_option(peanuts, requested_thing(thai), thai, "en")
    assert option == "green curry with chicken" and "pad thai" not in option
    assert requested_thing("到了那边我点点啥好？") == "菜" and requested_thing("有点什么好玩的？") == ""
    plain = concrete_option(peanuts, "dish", "What should I cook for dinner tonight?", "en")
    assert plain and plain != option  # no cuisine named: the everyday dinners


def test_ordering_decorations_asks_for_no_dinner() -> None:
    from voice_agent.conversation.suggestions import request_kind

    assert (
        request_kind("", "I gotta order the decorations and the goody bags this week. What all should I get?")
        is None
    )
    kind = request_kind("", "What should we order tonight?")
    assert kind is not None and kind.name == "dinner"
