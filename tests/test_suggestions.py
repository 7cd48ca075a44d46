"""Concrete suggestions that keep the constraints (the second attempt's note and the safe sentence), the
date line kept out of the person's words, and the refill of the person's own names for a local LLM.

The constraint check, the reply check, the prompt builder and the vault (real SQLite) are the real ones;
the LLM is a scripted stream (the network edge)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import apsw
import pytest
from _scripted_llm import ScriptedLlm

from voice_agent.config import Config, PromptConfig
from voice_agent.conversation.constraints import constraints_from_texts
from voice_agent.conversation.refill import messages_for_llm, refills_names
from voice_agent.conversation.reminders import requested_thing
from voice_agent.conversation.reply_check import ReplyCheck
from voice_agent.conversation.reply_copies import DATE_ONLY, without_prompt_echo
from voice_agent.conversation.reply_fallbacks import NOTHING_TO_SAY
from voice_agent.conversation.suggestions import EXAMPLE, KINDS, SUGGEST, concrete_option, request_kind
from voice_agent.memory.scrub import Scrubber
from voice_agent.memory.vault import PiiVault, refill_own_names
from voice_agent.metrics.trace import TurnTrace
from voice_agent.prompt import PromptBuilder
from voice_agent.text.placeholders import PLACEHOLDER_RE

STATEMENTS = [
    "My kid is allergic to nuts, especially peanuts.",
    "My daughter is allergic to eggs.",
    "My wife has celiac disease, so she can't eat gluten.",
    "I'm lactose intolerant.",
    "I'm vegan.",
    "I'm vegetarian, I never eat meat or fish.",
    "I only eat halal food, so no pork and no alcohol.",
    "Caffeine makes my heart race, so I stay away from it completely.",
    "I gave up red meat last year, but I still eat fish and chicken.",
    "I can't stand mushrooms.",
    "我家小孩对坚果过敏，尤其是花生。",
    "我一喝牛奶就拉肚子。",
    "医生说我血糖偏高，我现在不吃甜食了。",
    "我不吃羊肉，受不了那个膻味。",
    "以后别再叫我去爬山了，我膝盖不好。",
    "我吃素，不吃肉也不吃鱼。",
]


@pytest.mark.parametrize("statement", STATEMENTS)
def test_every_option_offered_keeps_the_constraint_by_its_words_and_what_it_is_made_of(
    statement: str,
) -> None:
    constraints = constraints_from_texts([statement])
    assert constraints, statement
    for kind in KINDS:
        for language, options in (("en", kind.en), ("zh", kind.zh)):
            assert request_kind(kind.name, "") is kind  # (each kind's name asks for it)
            chosen = concrete_option(constraints, kind.name, "", language)
            # (the option itself, with a diet the person keeps named before or after it)
            picked = next(
                (o.text for o in options if chosen.startswith(o.text) or chosen.endswith(o.text)), ""
            )
            assert chosen == "" or picked, chosen
            for option in options:
                if option.text == picked:
                    break
                # Every option before the chosen one breaks a constraint, by its words or its contents.
                assert any(constraints.check(w) for w in (option.text, *option.contains)), option
            if chosen:
                assert constraints.check(chosen) is None


def test_what_an_option_is_made_of_counts() -> None:
    eggs = constraints_from_texts(["My daughter is allergic to eggs."])
    cake = concrete_option(eggs, "cake", "", "en")
    assert cake and "sponge" not in cake and "lemon" not in cake  # both are made with eggs
    nuts = constraints_from_texts(["My kid is allergic to nuts."])
    assert concrete_option(nuts, "snack", "", "en") != "a handful of almonds"


def test_the_kind_comes_from_the_named_thing_else_from_the_turn() -> None:
    grill = "We're firing up the grill on Saturday. What should I put on it?"
    assert request_kind(requested_thing(grill), grill) is not None
    kind = request_kind(requested_thing(grill), grill)
    assert kind is not None and kind.name == "grill"
    warm = "I need something warm to drink while I work. What do you suggest?"
    kind = request_kind(requested_thing(warm), warm)
    assert kind is not None and kind.name == "drink"
    # A thing named that is of no known kind gets no option (not a dish for a perfume question).
    game = "Which perfume should I buy?"
    assert requested_thing(game) and request_kind(requested_thing(game), game) is None
    assert request_kind("", "Tell me about the moon.") is None
    kind = request_kind(requested_thing("冬天吃什么火锅比较好？"), "冬天吃什么火锅比较好？")
    assert kind is not None and kind.name == "hotpot"


async def test_the_second_attempt_names_a_specific_thing_and_the_safe_sentence_says_it() -> None:
    caffeine = constraints_from_texts(["Caffeine makes my heart race, so I stay away from it completely."])
    turn = "I need something warm to drink this afternoon. What do you suggest?"
    llm = ScriptedLlm("A strong coffee will keep you going.", "Try an espresso.")
    check = ReplyCheck(caffeine, "en", TurnTrace("c"), requested=requested_thing(turn), user_words=turn)
    messages = [{"role": "user", "content": turn}]
    said = "".join([t async for t in check.run(messages, llm)])
    option = concrete_option(caffeine, requested_thing(turn), turn, "en")
    assert option and check.outcome.safe_sentence
    assert EXAMPLE["en"].format(option=option) in llm.calls[1][-1]["content"]
    assert said.strip().endswith(SUGGEST["en"].format(option=option))
    assert "coffee" not in said and "espresso" not in said and caffeine.check(said) is None


async def test_a_chinese_safe_sentence_names_a_chinese_option() -> None:
    milk = constraints_from_texts(["我一喝牛奶就拉肚子。"])
    turn = "早餐配什么饮品好？"
    llm = ScriptedLlm("来一杯热牛奶吧。", "拿铁也不错。")
    check = ReplyCheck(milk, "zh", TurnTrace("z"), requested=requested_thing(turn), user_words=turn)
    said = "".join([t async for t in check.run([{"role": "user", "content": turn}], llm)])
    option = concrete_option(milk, requested_thing(turn), turn, "zh")
    assert option and SUGGEST["zh"].format(option=option) in said
    assert milk.check(said) is None and "不含乳制品的饮品" not in said


async def test_a_terse_answer_to_a_liking_is_asked_again_then_said_rather_than_nothing() -> None:
    none = constraints_from_texts([])
    turn = "今晚在家看部什么电影好？"
    llm = ScriptedLlm("《月球》", "《星际穿越》")
    trace = TurnTrace("f")
    check = ReplyCheck(none, "zh", trace, requested="电影", user_words=turn, expects_suggestion=True)
    said = "".join([t async for t in check.run([{"role": "user", "content": turn}], llm)])
    assert len(llm.calls) == 2 and said.strip() == "《星际穿越》"
    # A refusal twice with no constraint to name: a specific thing of the kind asked for still answers,
    # and a request of no known kind gets a short apology; never a crash.
    llm = ScriptedLlm("抱歉，我无法协助完成这个请求。", "抱歉，我无法回答。")
    trace = TurnTrace("r")
    check = ReplyCheck(none, "zh", trace, requested="电影", user_words=turn, expects_suggestion=True)
    said = "".join([t async for t in check.run([{"role": "user", "content": turn}], llm)])
    option = concrete_option(none, "电影", turn, "zh")
    assert option and said.strip() == SUGGEST["zh"].format(option=option)
    assert trace.first("reply.option_fallback") is not None
    knots = "这个绳结怎么打比较好？"
    llm = ScriptedLlm("抱歉，我无法协助完成这个请求。", "抱歉，我无法回答。")
    check = ReplyCheck(none, "zh", TurnTrace("k"), requested="", user_words=knots, expects_suggestion=True)
    said = "".join([t async for t in check.run([{"role": "user", "content": knots}], llm)])
    assert said.strip() == NOTHING_TO_SAY["zh"]


async def test_the_date_said_back_is_left_out_and_a_date_in_an_answer_is_kept() -> None:
    assert DATE_ONLY.match("今天是2026-12-01，") and DATE_ONLY.match("Today is 2026-12-01 (Tuesday).")
    assert not DATE_ONLY.match("Your appointment is on 2026-12-01.")
    none = constraints_from_texts([])
    turn = "这个周末有什么户外活动推荐？"
    llm = ScriptedLlm("今天是2026-12-01，可以去公园野餐。")
    check = ReplyCheck(none, "zh", TurnTrace("d"), user_words=turn)
    said = "".join([t async for t in check.run([{"role": "user", "content": turn}], llm)])
    assert "2026" not in said and "公园野餐" in said


def test_the_date_sits_in_the_system_rules_not_before_the_words() -> None:
    now = dt.datetime(2026, 12, 1, 9, 0)
    messages = PromptBuilder(PromptConfig()).build("What should I cook?", now=now).messages
    assert "Today is 2026-12-01" in messages[0]["content"]
    assert messages[-1]["content"] == "What should I cook?"
    old = PromptBuilder(PromptConfig(date_in_system=False)).build("What should I cook?", now=now).messages
    assert old[-1]["content"].startswith("(today is 2026-12-01)") and "Today is" not in old[0]["content"]


# -- the person's own names, refilled for a local LLM ---------------------------------------------------
KEY = bytes(range(32))


@pytest.fixture
def vault(tmp_path: Path) -> Iterator[PiiVault]:
    connection = apsw.Connection(str(tmp_path / "memory.sqlite3"))
    yield PiiVault(connection, KEY)
    connection.close()


def _scrubbed(vault: PiiVault, conversation: str, text: str, name: str) -> str:
    start = text.index(name)
    result = Scrubber(KEY).scrub(text, name_spans=[(start, start + len(name))])
    vault.put(conversation, result.found)
    return result.text


def test_only_this_conversations_own_names_are_refilled(vault: PiiVault) -> None:
    mine = _scrubbed(vault, "reader", "My favourite author is Ursula Le Guin.", "Ursula Le Guin")
    theirs = _scrubbed(vault, "kiosk-guest", "My favourite author is Haruki Murakami.", "Haruki Murakami")
    assert "Le Guin" not in mine and PLACEHOLDER_RE.search(mine)
    assert refill_own_names(mine, "reader", vault) == "My favourite author is Ursula Le Guin."
    # Another conversation's placeholder is never revealed, even quoted into this one's prompt.
    both = f"{mine} {theirs}"
    refilled = refill_own_names(both, "reader", vault)
    assert "Ursula Le Guin" in refilled and "Murakami" not in refilled and PLACEHOLDER_RE.search(refilled)
    assert "Le Guin" not in refill_own_names(mine, "kiosk-guest", vault)
    # Only names: a phone number stays a placeholder (the owner hears it only as a hint).
    phone = Scrubber(KEY).scrub("Call me on 138 0013 8000.")
    vault.put("reader", phone.found)
    assert refill_own_names(phone.text, "reader", vault) == phone.text


def test_names_are_refilled_only_when_every_backend_is_local() -> None:
    assert refills_names("local", ["local"]) and refills_names("local", ["local", "local"])
    assert not refills_names("local", ["local", "openai"]) and not refills_names("local", [])
    assert refills_names("always", ["openai"]) and not refills_names("never", ["local"])


class _VaultMemory:
    """The memory's ``refill_names`` over a real vault (what ``MemoryPrivacy`` does off the loop)."""

    def __init__(self, vault: PiiVault) -> None:
        self.vault = vault

    async def refill_names(self, conversation_id: str, text: str) -> str:
        return refill_own_names(text, conversation_id, self.vault)


async def test_the_llm_reads_the_names_the_prompt_keeps_scrubbed(vault: PiiVault) -> None:
    mine = _scrubbed(vault, "reader", "My favourite author is Ursula Le Guin.", "Ursula Le Guin")
    prompt = [
        {"role": "system", "content": "rules"},
        {"role": "user", "content": f"Remember: {mine}\nA book?"},
    ]
    local = Config.model_validate({"llm": {"backends": [{"name": "l", "kind": "local"}]}})
    read = await messages_for_llm(_VaultMemory(vault), local, "reader", prompt)
    assert "Ursula Le Guin" in read[-1]["content"] and PLACEHOLDER_RE.search(prompt[-1]["content"])
    assert await messages_for_llm(_VaultMemory(vault), local, "someone-else", prompt) == prompt
    never = local.model_copy(update={"prompt": PromptConfig(refill_own_names="never")})
    assert await messages_for_llm(_VaultMemory(vault), never, "reader", prompt) is prompt


@pytest.mark.parametrize(
    "reply",
    [
        "For example: a lemon olive-oil cake.",
        "A lemon olive-oil cake for your kid's birthday.",
        "I suggest a lemon olive-oil cake.",
    ],
)
async def test_saying_the_guidances_example_is_an_answer_not_an_echo(reply: str) -> None:
    nuts = constraints_from_texts(["My kid is allergic to nuts, especially peanuts."])
    turn = "Can you recommend a cake for my kid's birthday?"
    last = f"{turn}\n(Suggest one cake without nuts.)\n(For example: a lemon olive-oil cake.)"
    llm = ScriptedLlm(reply)
    check = ReplyCheck(nuts, "en", TurnTrace("x"), requested="cake", user_words=turn, expects_suggestion=True)
    said = "".join([t async for t in check.run([{"role": "user", "content": last}], llm)])
    assert len(llm.calls) == 1 and "lemon olive-oil cake" in said and "For example" not in said


def test_a_notes_parenthesis_left_behind_is_not_said() -> None:
    assert without_prompt_echo("(比如：番茄炒蛋配米饭。)") == "番茄炒蛋配米饭。"
    assert without_prompt_echo("番茄炒蛋配米饭。)") == "番茄炒蛋配米饭。"
    assert without_prompt_echo("A lemon cake (no nuts) is lovely.") == "A lemon cake (no nuts) is lovely."


async def test_without_constraints_no_option_overrides_what_the_person_likes() -> None:
    none = constraints_from_texts([])
    turn = "今晚在家看部什么电影好？"
    llm = ScriptedLlm("《月球》", "《星际穿越》，一部很棒的科幻片。")
    check = ReplyCheck(none, "zh", TurnTrace("p"), requested="电影", user_words=turn, expects_suggestion=True)
    said = "".join([t async for t in check.run([{"role": "user", "content": turn}], llm)])
    assert check.option == "" and "比如" not in llm.calls[1][-1]["content"]
    assert "星际穿越" in said


@pytest.mark.parametrize(
    ("statement", "question", "language", "kind"),
    [
        ("I can't stand mushrooms.", "Which pizza should we get for the match tonight?", "en", "pizza"),
        ("I'm vegetarian.", "Which curry could I make for friends on Saturday?", "en", "curry"),
        ("My son is allergic to nuts.", "Any ideas for something to bake with the kids?", "en", "baking"),
        ("I get seasick, so no boats for me.", "Where should we go for a holiday in May?", "en", "trip"),
        ("我不吃香菇。", "晚上想煮面条，怎么做好？", "zh", "pasta"),
        ("我不能吃辣。", "国庆想去旅游，去哪儿好？", "zh", "trip"),
    ],
)
def test_more_everyday_requests_get_a_specific_option_that_keeps_the_constraint(
    statement: str, question: str, language: str, kind: str
) -> None:
    guard = constraints_from_texts([statement])
    found = request_kind(requested_thing(question), question)
    assert found is not None and found.name == kind
    option = concrete_option(guard, requested_thing(question), question, language)
    assert option and guard.check(option) is None
    # (a dish for a vegetarian is said to be vegetarian: "…, keeping it vegetarian")
    assert any(
        option.startswith(o.text) or option.endswith(o.text)
        for o in (found.zh if language == "zh" else found.en)
    )


def test_no_option_when_every_one_of_the_kind_breaks_the_constraint() -> None:
    coeliac = constraints_from_texts(["I'm coeliac."])
    assert concrete_option(coeliac, "pizza", "What pizza should I order?", "en") == ""


async def test_a_liking_is_compared_with_the_reply_as_the_llm_read_it(vault: PiiVault) -> None:
    """The liking the reply check looks for is refilled like the prompt (``text_for_llm``), so a reply
    that named "Ursula Le Guin" used it and one that did not gets the liking said back, by name."""
    from voice_agent.conversation.refill import text_for_llm

    mine = _scrubbed(vault, "reader", "My favourite author is Ursula Le Guin.", "Ursula Le Guin")
    local = Config.model_validate({"llm": {"backends": [{"name": "l", "kind": "local"}]}})
    memory = _VaultMemory(vault)
    assert await text_for_llm(memory, local, "reader", mine) == "My favourite author is Ursula Le Guin."
    assert await text_for_llm(memory, local, "someone-else", mine) == mine
    remote = Config.model_validate({"llm": {"backends": [{"name": "r", "kind": "openai"}]}})
    assert await text_for_llm(memory, remote, "reader", mine) == mine


@pytest.mark.parametrize(
    ("turn", "kind"),
    [
        ("吃完年夜饭还有好几个钟头，你说整点啥热闹热闹？", "outing"),  # a meal named, an activity asked
        ("周末带孩子有什么活动推荐？", "outing"),
        ("这两天热得一点胃口都没有，你说弄点啥开胃的吃吃？", "starter"),  # something to whet the appetite
        ("Three couples are coming round for dinner, what should I do for a starter?", "starter"),
        ("What should I cook for dinner tonight?", "dinner"),
        ("跟同事吃晚饭，点什么菜好？", "dinner"),
        ("下个礼拜冬至，外父外母过嚟食饭，你话整几个咩餸好？", "dinner"),  # Cantonese: 餸, a dish
        ("晚上想拍个黄瓜当凉菜，汁儿怎么调好吃？", "sauce"),
        ("明天早上想炒一下隔夜饭当早饭，你看搭点啥料炒好？", "topping"),
        ("下个月放暑假，想带个女喺广州周边玩两日，你帮我谂下去边度好？", "outing"),
        ("My cousin's over for a week in February, where should we take her?", "outing"),
        (
            "The boys are up for my fortieth, what should we get up to on the Saturday night?",
            "evening",
        ),  # (a night out: no picnic)
        ("What dressing goes with a rocket salad?", "sauce"),
        ("今天晚上想炖一锅汤给全家喝，要怎么煮才会比较鲜？", "soup"),  # a soup, not a drink
        ("It's freezing, what soup could I make for the kids?", "soup"),
    ],
)
def test_what_is_asked_for_a_meal_a_course_or_after_it(turn: str, kind: str) -> None:
    found = request_kind(requested_thing(turn), turn)
    assert found is not None and found.name == kind


def test_a_sauce_for_someone_off_garlic_has_none_in_it() -> None:
    """Garlic is a topic (蒜, 蒜蓉, 蒜苗 …): "葱姜蒜调的酱汁" is no sauce for a stomach that cannot take
    it."""
    guard = constraints_from_texts(["医生说是胃炎加反流，一吃大蒜就烧心，生蒜熟蒜都不行，蒜苗也不敢碰"])
    assert guard.keys() == ["garlic"]
    assert guard.check("我建议试试葱姜蒜调的酱汁。") is not None
    turn = "天热了，晚上想拍个黄瓜当凉菜，汁儿怎么调好吃？"
    option = concrete_option(guard, requested_thing(turn), turn, "zh")
    assert option and "蒜" not in option


def test_several_dishes_for_guests_and_juice_get_options_of_their_kind() -> None:
    from voice_agent.conversation.constraints import constraints_from_texts
    from voice_agent.conversation.suggestions import concrete_option, request_kind

    def kind(words: str) -> str | None:
        found = request_kind("", words)
        return found.name if found else None

    assert kind("屋里厢摆两桌请请亲眷，我想自家烧几只菜，侬帮我想想烧点啥？") == "feast"
    assert kind("有几个广东同事要来我屋头耍，我想露一手整几个川菜，你看整啥子好？") == "feast"  # no bar
    assert kind("跟同事聚会喝点啥好？") == "bar"
    assert kind("俺儿子给俺买了个榨汁机，你说俺榨点啥好？") == "juice"
    assert kind("What smoothie should I make?") == "juice"
    no_shoots = constraints_from_texts(["以后竹笋、笋干、扁尖统统不要吃了。"])
    dishes = concrete_option(no_shoots, "", "我想自家烧几只菜，侬帮我想想烧点啥？", "zh")
    assert "、" in dishes and "笋" not in dishes  # a table of dishes, none with the shoots
    no_grapefruit = constraints_from_texts(["西柚、柚子啥的俺是一口都不敢碰了。"])
    assert concrete_option(no_grapefruit, "", "你说俺榨点啥好？", "zh") == "苹果胡萝卜汁"
    no_pork_or_fish = constraints_from_texts(["I don't eat pork.", "I'm allergic to fish."])
    option = concrete_option(no_pork_or_fish, "", "What dishes should I make for the dinner party?", "en")
    assert option.startswith("a roast chicken")


def test_guests_for_a_meal_get_a_spread_and_a_drink_ordered_out_a_bar_drink() -> None:
    from voice_agent.conversation.suggestions import request_kind

    def kind(words: str) -> str | None:
        found = request_kind("", words)
        return found.name if found else None

    assert (
        kind("Jed and his parents are coming to our house this Sunday for lunch, what should I cook?")
        == "feast"
    )
    assert (
        kind("My in-laws are coming from Nyeri on Sunday for lunch, what should we cook for them?") == "feast"
    )
    assert kind("My husband is coming home from work, what should I cook for dinner?") == "dinner"
    assert kind("He's booked us at some fancy restaurant on Saturday, what should I order to drink?") == "bar"
    assert kind("What should I order at the restaurant?") == "dinner"
    assert kind("Something warm to drink before bed?") == "drink"


def test_a_salad_and_days_off_get_options_of_their_kind() -> None:
    from voice_agent.conversation.constraints import constraints_from_texts
    from voice_agent.conversation.suggestions import concrete_option, request_kind

    no_cucumber = constraints_from_texts(["I am not like cucumber, never."])
    assert concrete_option(no_cucumber, "", "What salad I can make it?", "en") == "a potato salad"
    holiday = "五一放五天假，想带婆姨娃出去耍一耍，你看去哪达好？"
    kind = request_kind("", holiday)
    assert kind is not None and kind.name == "trip"
    no_coach = constraints_from_texts(["以后出去耍，甭给额安排自驾、包车、坐大巴这些，额真受不了。"])
    assert "大巴" not in concrete_option(no_coach, "", holiday, "zh")


def test_where_to_hold_a_do_gets_a_venue_that_keeps_the_rules() -> None:
    from voice_agent.conversation.constraints import constraints_from_texts
    from voice_agent.conversation.suggestions import concrete_option, request_kind

    asked = "A bit of a do for my eightieth with all the family. Where do you think we should have it?"
    kind = request_kind("", asked)
    assert kind is not None and kind.name == "venue"
    no_stairs = constraints_from_texts(["I can walk to the post office, but stairs, I can't do them."])
    assert concrete_option(no_stairs, "", asked, "en") == "a ground-floor function room at a local pub"
    found = request_kind("", "孩子满月酒在哪儿办好？")
    assert found is not None and found.name == "venue"


def test_how_to_get_somewhere_keeps_off_flying_and_a_smoker_gets_no_red_meat() -> None:
    from voice_agent.conversation.constraints import constraints_from_texts
    from voice_agent.conversation.suggestions import concrete_option, request_kind

    no_flying = constraints_from_texts(["我这人坐不了飞机，打那以后是死活不坐了。"])
    asked = "腊月里想带上老婆去三亚暖和上半个月，从呼市走，你帮我看看咋走合适？"
    kind = request_kind("", asked)
    assert kind is not None and kind.name == "route"
    option = concrete_option(no_flying, "", asked, "zh")
    assert option and "飞" not in option
    no_coriander = constraints_from_texts(["我不吃香菜。"])
    flying_ok = concrete_option(no_coriander, "", "How should we get down there?", "en")
    assert flying_ok.startswith("the train")
    alpha_gal = constraints_from_texts(["I got that alpha-gal deal now."])
    smoker = "Fixin' to have the whole crew over. What should I throw on the smoker?"
    assert concrete_option(alpha_gal, "", smoker, "en") == "chicken skewers with peppers"


def test_a_buffet_plate_and_a_new_partner_at_dinner_get_options_of_their_kind() -> None:
    from voice_agent.conversation.constraints import constraints_from_texts
    from voice_agent.conversation.suggestions import concrete_option, request_kind

    no_wheat = constraints_from_texts(["So no roti, no naan, no chapati, nothing made with atta or maida."])
    walima = "My nephew's walima is at the banqueting hall, massive buffet. What should I go for on my plate?"
    assert concrete_option(no_wheat, "", walima, "en") == "grilled chicken with rice and a salad"
    no_chicken = constraints_from_texts(["I'm allergic to chicken."])
    assert "chicken" not in concrete_option(no_chicken, "", walima, "en")
    meeting = (
        "Ma daughter's comin' up wi' her new fella on Saturday, first time I'm meetin' him. "
        "Whit should I make fur the dinner?"
    )
    found = request_kind("", meeting)
    assert found is not None and found.name == "feast"
    plain = request_kind("", "My husband is coming home from work, what should I make for dinner?")
    assert plain is not None and plain.name == "dinner"


def test_a_pet_for_company_keeps_off_the_animal_feared_or_reacted_to() -> None:
    asked = "俺闺女去外地上大学了，屋里冷清得很。俺寻思养个啥小活物儿做个伴儿，你说养啥好？"
    kind = request_kind("", asked)
    assert kind is not None and kind.name == "pet"
    afraid = constraints_from_texts(["俺给你说个事儿，俺这人怕狗，怕哩要命。"])
    option = concrete_option(afraid, "", asked, "zh")
    assert option and afraid.check(option) is None
    allergic = constraints_from_texts(["I'm allergic to cats, my eyes swell right up."])
    offered = concrete_option(allergic, "", "What pet should we get for the kids?", "en")
    assert offered and "cat" not in offered


def test_a_pet_already_kept_asks_for_no_pet() -> None:
    for turn in ("登记表上面宠物名嗰栏我应该填咩名？", "What should I name my pet rabbit?"):
        kind = request_kind("", turn)
        assert kind is None or kind.name != "pet", turn


@pytest.mark.parametrize(
    ("statement", "asked", "language", "named"),
    [
        ("I'm vegan.", "What should I cook for dinner tonight?", "en", ", keeping it vegan"),
        ("我们家是回民，吃清真。", "晚饭做点啥好？", "zh", "清真的"),
        ("I only eat halal food.", "Can you recommend a curry?", "en", ", keeping it halal"),
    ],
)
def test_a_dish_offered_names_the_diet_the_person_keeps(
    statement: str, asked: str, language: str, named: str
) -> None:
    option = concrete_option(constraints_from_texts([statement]), asked, asked, language)
    assert named in option
    # an option that is no dish (a film, a route) is not "kept vegan"
    assert concrete_option(constraints_from_texts([statement]), "film", "", language).find(named) == -1
