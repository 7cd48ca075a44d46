"""Wave 43: whom a message is for when the story named them twice or by a business; a thing done or used
kept off said as "不用…"; spicy food kept off as "mild"; red-eyes as overnight flights; no "Sure!" after
the greeting."""

from __future__ import annotations

from test_echo import _said as said_by
from test_reply_check import ScriptedLlm

from voice_agent.conversation.acknowledge import from_kind
from voice_agent.conversation.constraints import constraints_from_texts, parse_constraints
from voice_agent.conversation.message_draft import salutation
from voice_agent.conversation.name_note import addressee, name_note
from voice_agent.conversation.reply_check import ReplyCheck
from voice_agent.conversation.writing import TO_A_ROLE_ANYWHERE
from voice_agent.memory.records import MemoryRecord
from voice_agent.metrics.trace import TurnTrace

A, B, C, D = ("[NAME:3b2a04c7897e]", "[NAME:a2539ead2126]", "[NAME:0784ba47f3a7]", "[NAME:9eb0b84b745f]")


def _records(*texts: str) -> list[MemoryRecord]:
    return [MemoryRecord("c", text) for text in texts]


def test_a_name_said_to_everyone_is_the_same_person() -> None:
    told = _records(
        f"the coach there was a gas woman, {A}, {B} to everyone, an ex-county camogie player who had us all "
        "in stitches."
    )
    turn = "Can you write me a message I can send to the coach at the club, asking about lessons for two?"
    assert name_note(turn, told, "en") == f"Address it to {A}."


def test_the_name_the_turn_only_mentions_is_not_whom_it_is_to() -> None:
    told = _records(
        f"At my cousin {C}'s wedding in Surulere on Saturday, the best thing there was the small chops.",
        f"everybody calls her {D}",
        f"she runs {A}'s Kitchen in Yaba",  # (a business: not another person)
    )
    turn = (
        "My mum turns seventy in March and we're doing a small party at home. I want to book the woman who "
        f"did the small chops at {C}'s wedding. Please draft a WhatsApp message to her asking if she's free."
    )
    assert addressee(turn, told) == D
    assert salutation(turn, "en") == ""  # never "Hi Chidi,"


def test_a_role_the_turn_only_tells_of_is_not_whom_it_writes_to() -> None:
    assert TO_A_ROLE_ANYWHERE.search("My mum turns seventy in March, draft a message to the caterer.") is None
    assert TO_A_ROLE_ANYWHERE.search("My mum's party is in March, draft a message to the caterer.") is None
    assert TO_A_ROLE_ANYWHERE.search("Help me reply to my landlord about the boiler.") is not None


def test_a_nickname_after_a_title_is_the_same_person() -> None:
    told = _records(
        f"At the church potluck I got to visiting with the sweetest lady, {A}, she's been calling square "
        f"dances for thirty-odd years and said everybody just calls her Miss {B}."
    )
    turn = "Who could I ask to call the square dances, and could you draft the note I'd send to invite them?"
    assert addressee(turn, told) == A


def test_a_thing_kept_off_that_is_no_food_is_not_used() -> None:
    (vow,) = [c for c in parse_constraints("这辈子再也不用网盘存照片了，丢了好几年的。") if c.kind == "avoid"]
    assert from_kind(vow, "zh").startswith(f"按你说的，不用{vow.noun_zh}")
    (food,) = [c for c in parse_constraints("我这个人真的不吃香菜。") if c.kind == "avoid"]
    assert from_kind(food, "zh") == f"按你说的，避开{food.noun_zh}，"


def test_spicy_food_kept_off_is_offered_mild() -> None:
    told = constraints_from_texts(["I can't handle spicy food at all, chilli wrecks my stomach."])
    (spicy,) = told.constraints
    assert "mild" in spicy.alternative("", "en") and "mild" in spicy.alternative("dinner", "en")
    (la,) = constraints_from_texts(["我一点辣都吃不了。"]).constraints
    assert "不辣的" in la.alternative("菜", "zh")


def test_a_red_eye_is_an_overnight_flight() -> None:
    told = constraints_from_texts(
        [
            "I flew back from Sydney on the red-eye last month, landed at six, so I've told the missus "
            "that's it: I am never doing an overnight flight again."
        ]
    )
    assert told.check("Take the red-eye from Perth on the Monday night.") is not None
    assert told.check("Fly over on a daytime flight, no red-eye.") is None
    vowed = constraints_from_texts(["这辈子再也不坐红眼航班了。"])
    assert vowed.check("可以坐夜航过去，省一晚酒店。") is not None


async def test_no_lead_in_is_said_after_the_greeting() -> None:
    asked = "Can you write me a message I can send to the coach at the club, asking about lessons?"
    messages = [{"role": "system", "content": "rules"}, {"role": "user", "content": asked}]
    none = constraints_from_texts([])
    check = ReplyCheck(none, "en", TurnTrace("s"), user_words=asked, salutation="Hi Siofra,")
    reply = "Sure! Here's a message for the coach: Dear Siofra, we'd love padel lessons. We're beginners."
    said = await said_by(check, ScriptedLlm(reply), messages)
    assert said.startswith("Hi Siofra, We'd love padel lessons.") and "Sure" not in said


def test_vows_with_a_measure_or_a_route_are_read() -> None:
    def keys(text: str) -> set[str]:
        return {c.key for c in parse_constraints(text)}

    assert "avoid:peat compost" in keys("I swore I'd never buy a bag of peat compost again as long as I live")
    assert "avoid:addis ababa" in keys("I will never transit through Addis Ababa again in this life.")
    assert "avoid:heathrow" in keys("I'm never connecting through Heathrow again.")
    assert "raw" in keys("我打小就不待见生的东西，那股子腥味儿，一口下去差点儿没吐出来。")
    assert not keys("我婆婆不待见我。")


def test_someone_described_then_named_is_pinned() -> None:
    from voice_agent.conversation.extract import extract

    def kinds(text: str) -> list[str]:
        return [item.kind for item in extract(text).items]

    assert kinds(f"The young lad who looked after me was a dote, {A} from Carraroe, chatting away.") == [
        "fact"
    ]
    assert kinds(f"接待我的是个小伙子叫{A}，说叫他{B}就行") == ["fact"]
    assert kinds(f"It was a long day, {A} said so.") == []


def test_only_whom_a_chinese_turn_writes_to_is_greeted() -> None:
    # (慢病 taken for a name by the scrubber: not "慢病：")
    turn = (
        f"我想给社区药店送面锦旗，再给他们老板写封感谢信，表扬一下上次帮我老娘办{A}医保的事。你帮我写一下。"
    )
    assert salutation(turn, "zh") == ""
    assert salutation(f"帮我给{A}发个微信，说明天不去了。", "zh") == f"{A}："


def test_a_child_the_turn_tells_of_is_not_greeted_for_a_card_to_the_teacher() -> None:
    turn = f"{A} just passed his Grade 5 piano! Can you help me write a thank-you card to his teacher?"
    assert salutation(turn, "en") == ""
    manager = f"{A} is my new manager and I need to write an email to my manager about Friday."
    assert salutation(manager, "en") == f"Dear {A},"


def test_the_intolerance_said_back_breaks_no_rule() -> None:
    told = constraints_from_texts(["我这个人喝不得咖啡，一杯下去心跳得咚咚的，医生说我是咖啡因不耐受。"])
    assert told.check("因为你说过对咖啡因不耐受，") is None
    assert told.check("因为你这个人喝不得咖啡，") is None
    assert told.check("早上来一杯拿铁提提神。") is not None


def test_what_to_grab_at_the_chemist_is_a_medicine_turn() -> None:
    from voice_agent.conversation.clinical import medicine_turn

    assert medicine_turn("Did my back in. I'm heading down to the Chemist Warehouse, what should I grab?")
    assert medicine_turn("要不要去药房买点什么东西辅助一下？")
    assert not medicine_turn("What should I grab for dinner on the way home?")


def test_no_diet_read_from_a_likeness_or_a_street() -> None:
    def keys(text: str) -> set[str]:
        return {c.key for c in parse_constraints(text)}

    assert "diet:pregnancy" not in keys("The whole night I was in the toilet, bloated until like pregnant.")
    assert "diet:halal" not in keys("前两天还去回民街咥了一碗羊肉泡馍。")
    assert "diet:halal" in keys("我是回民，只吃清真。")


def test_more_vows_are_read() -> None:
    def keys(text: str) -> set[str]:
        return {c.key for c in parse_constraints(text)}

    assert "avoid:减肥药" in keys("我以后都不会再吃任何减肥药了，真的是吓死。")
    assert not keys("他以后不会再来了。")
    washes = keys(
        "I've sworn off automatic car washes for good after one ripped the aerial off the Hilux, so I'm "
        "never going through one of those again."
    )
    assert washes == {"avoid:automatic car washes"}
    assert keys("这辈子再也不得托运琴了，哪怕给琴单独买个座位都要得。") == {"avoid:托运"}
    assert keys("我这辈子最烦的曲子就是《卡农》，听着就闹心。") == {"avoid:卡农"}


def test_an_allergy_in_one_word_is_offered_free_of_it() -> None:
    (nickel,) = constraints_from_texts(["I'm allergic to nickel, my ears blister."]).constraints
    assert nickel.alternative("", "en") == "I'd suggest something nickel-free."
    (nuts,) = constraints_from_texts(["My kid is allergic to nuts."]).constraints
    assert nuts.alternative("", "en") == "I'd suggest something nut-free."


def test_the_stuff_eaten_before_and_things_done_with_for_life() -> None:
    def keys(text: str) -> set[str]:
        return {c.key for c in parse_constraints(text)}

    porridge = (
        "Mum made me eat porridge every morning before school, and to this day I can't stand the stuff."
    )
    assert "porridge" in keys(porridge)
    assert not keys("We had to eat breakfast at six and I can't stand the stuff.")
    assert "avoid:cable cars" in keys(
        "I've told Gareth, that's me done with cable cars and chairlifts for life."
    )
    assert "avoid:骑马" in keys("从那以后我就发了誓，这辈子再也不骑马了。")


def test_a_cousin_the_turn_tells_of_is_not_greeted() -> None:
    turn = (
        f"My cousin {A} wants to do the Annapurna Circuit in October. Please draft a warm WhatsApp message I "
        "can send to our old guide introducing her."
    )
    assert salutation(turn, "en") == ""


def test_porridge_pork_and_halal_said_other_ways() -> None:
    porridge = constraints_from_texts(
        ["Mum made me eat porridge every morning, and I can't stand the stuff."]
    )
    assert porridge.check("I'd suggest oatmeal with banana and berries.") is not None
    hui = {
        c.key
        for c in parse_constraints("我们家是回族，娃娃们只吃清真，大肉一点都不沾，买东西也要看有没有清真标。")
    }
    assert {"diet:halal", "pork"} <= hui
    trampolines = "I swear, never again: no trampoline parks, no trampolines at friends' houses."
    assert "avoid:trampoline parks" in {c.key for c in parse_constraints(trampolines)}
    assert not parse_constraints("Never again. No way.")


def test_how_hot_it_was_is_no_reaction_to_food() -> None:
    summer = "这边夏天热得人受不了，空调一天到晚开着。前两天还去回民街咥了一碗羊肉泡馍，掰馍掰得手疼。"
    assert not parse_constraints(summer)
    assert "lamb" in {c.key for c in parse_constraints("我一吃羊肉就受不了，肚子疼。")}


def test_a_thing_pointed_at_is_no_one_to_write_to() -> None:
    told = _records(
        f"我在农行办那个经营贷，对接我的客户经理是个大姐，叫{A}，让我管她叫{B}就行。对了，我家那{C}昨天把沙发咬了。"
    )
    assert addressee("你帮我拟条微信，发给银行那边负责的人，问问审批到哪一步了。", told) == A


def test_a_drug_kept_off_by_anything_with_it() -> None:
    told = (
        "They gave me codeine after, and the nurse said some people just don't tolerate it and wrote it on "
        "my chart. It's not an allergy as such, so I don't go near anything with codeine in it now."
    )
    assert {c.key for c in parse_constraints(told)} == {"avoid:codeine"}
    assert "avoid:sunroofs" in {c.key for c in parse_constraints("I don't like those sunroofs at all.")}
    (camping,) = constraints_from_texts(["I can't stand camping."]).constraints
    assert camping.alternative("", "en") == "I'd suggest something else, with no camping."
