"""Names that the words around them give away (memory/name_cues.py, memory/names_zh_cues.py), through
the real scrubber with the real name lists and jieba: a single uncommon given name at a sentence's start,
after "called", beside a relation, spoken to; 老周, 王阿姨, 海燕说 in Chinese; and the capitalised words
in the same places that are not people (places, shops, nationalities, dishes, brands)."""

from __future__ import annotations

import pytest

from voice_agent.memory.scrub import Scrubber


@pytest.fixture(scope="module")
def scrubber(name_scrubber: Scrubber) -> Scrubber:
    return name_scrubber


def _names(scrubber: Scrubber, text: str) -> list[str]:
    return [f.value for f in scrubber.scrub(text).found if f.kind == "NAME"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Our new nanny is called Bronwen.", "Bronwen"),
        ("Bronwen starts on Monday.", "Bronwen"),
        ("Bronwen, lovely Welsh lady, is going to look after the kids.", "Bronwen"),
        ("Marguerite, my neighbour, has a key.", "Marguerite"),
        ("I'm leaving the spare key with my neighbour Oisin.", "Oisin"),
        ("Dervla rang about the school run.", "Dervla"),
        ("Can you tell Aroha I'm running late?", "Aroha"),
        ("Chidi from work is coming round.", "Chidi"),
        ("Caleb's parents are coming for brunch.", "Caleb"),
        ("We're calling her Tilly.", "Tilly"),
        ("He goes by Tolu, it's short for Toluwalase.", "Toluwalase"),
        ("Precious texted to say she's landed.", "Precious"),
        ("Rhodri and Gwenllian can't make it tonight.", "Gwenllian"),
        ("My daughter Grace starts school in September.", "Grace"),
    ],
)
def test_a_name_the_words_around_it_give_away_is_scrubbed(scrubber: Scrubber, text: str, name: str) -> None:
    found = _names(scrubber, text)
    assert any(name in value for value in found), (text, found)
    assert name not in scrubber.scrub(text).text


@pytest.mark.parametrize(
    "text",
    [
        "Galway was packed for the races.",
        "We went to a café called Dishoom.",
        "It's called Pret, near the station.",
        "Polish food is my favourite.",
        "The Welsh lady next door waved.",
        "I told my boss Monday that I'd be off.",
        "Transitioning wasn't easy, but it was worth it.",
        "Seeing my kids' faces made my day.",
        "Thankfully, my son's okay.",
        "Glad your son is okay.",
    ],
)
def test_capitalised_words_in_the_same_places_that_are_no_person_stay(scrubber: Scrubber, text: str) -> None:
    assert _names(scrubber, text) == [], text


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("老周刚打电话来，说那批货要推迟到下个月。", "老周"),
        ("小邓把报销单放你桌上了，记得签个字。", "小邓"),
        ("阿辉晚上过来修空调，你帮我留个门。", "阿辉"),
        ("老马说他那边信号不好，等会儿再打过来。", "老马"),
        ("王阿姨明天上午来打扫，钥匙放在门口鞋柜里。", "王"),
        ("楼下的孙大爷说电梯又坏了，走楼梯吧。", "孙"),
        ("海燕说她明天不来上班了，请了病假。", "海燕"),
        ("我们宿舍的美玲和佳琪要去看演唱会。", "佳琪"),
        ("朵朵今天咳嗽得厉害，帮我跟幼儿园请个假。", "朵朵"),
    ],
)
def test_chinese_nicknames_titles_and_given_names_are_scrubbed(
    scrubber: Scrubber, text: str, name: str
) -> None:
    found = _names(scrubber, text)
    assert any(name in value for value in found), (text, found)


@pytest.mark.parametrize(
    "text",
    [
        "我想买小米的新手机，你觉得怎么样？",
        "马上就到了，你先帮我点一份宫保鸡丁。",
        "黄山周末人太多了，我们改去千岛湖吧。",
        "白天太热了，晚上再去看看房子。",
        "老师说明天不用带课本。",
        "小区门口新开了一家面馆。",
        "我们组新来的那个人，你帮我加一下他微信。",
    ],
)
def test_chinese_words_in_the_same_places_stay(scrubber: Scrubber, text: str) -> None:
    assert _names(scrubber, text) == [], text


def test_a_surname_inside_a_word_starts_no_name(scrubber: Scrubber) -> None:
    text = "阿姨下个月要回老家照顾孙子了，我想给她写几句感谢的话。"
    assert scrubber.scrub(text).text == text


@pytest.mark.parametrize(
    "text",
    [
        "明天量尺寸的师傅要过来，他问我们台面到底定的啥子材料。",  # a role the dictionary tags as a name
        "她下个礼拜天办婚礼，我想在贺卡上写几句祝福的话。",  # 贺卡, 祝福: common words tagged as names
        "所以他一辈子不沾牛肉，连牛油火锅底料都不碰。",  # 连 … 都: "even", not the surname 连
        "一碰芹菜就起红疹子，连熬汤放两片芹菜叶都不行。",  # 连 … 都, and 叶 + a function word
        "下周我妈过来住，早饭做点啥？",  # a pronoun is no given name
        "周末跟闺蜜去甜品店，点什么好？",  # a relation, not a name
        "我对麸质过敏，不能吃面包。",  # an unknown word with a person word on one side only
        "一吃就胀肚、拉稀，难受得很。",  # a word tagged as a name between commas
        "病人扎针都爱找她，人缘好得很。",
        "他叫外卖了，你别做饭了。",  # a verb after 叫
        "你孩子叫什么名字？",
        "所以以后莫给我推荐泡温泉了，汗蒸、桑拿那些也莫得。",  # listed beside a thing, it is one
        "白切鸡、豉油鸡、盐焗鸡、鸡汤，一啖都唔掂。",  # a dish
        "跟你说喔，我们班毕旅决定去垦丁了啦！",  # 毕 + 旅: no name is made of 旅, no person word beside
        "欸跟你讲，毕旅改了啦。",
        "呢个礼拜日成家人陪我阿爷去酒楼饮茶。",  # 阿 + a kinship word: a grandfather, no nickname
        "我阿嬷下个月就九十岁了。",
    ],
)
def test_chinese_everyday_words_shaped_like_names_stay(scrubber: Scrubber, text: str) -> None:
    assert _names(scrubber, text) == [], text


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("维吾尔族小丫头，名字叫迪丽努尔·艾尔肯，名字太长了。", "迪丽努尔·艾尔肯"),
        ("我同学叫买买提，人挺好。", "买买提"),
        ("她名叫玛丽亚，在医院上班。", "玛丽亚"),
        ("名字太长了，我们都喊她努尔。", "努尔"),
        ("我姓王，你叫我小王就行。", "小王"),
        ("跟李娜说一声，会议改到三点。", "李娜"),
        ("你问问秀英，上次借的那把伞还在不在她那儿。", "秀英"),
        ("我跟王芳、李娜去吃饭。", "李娜"),  # a list of names stays a list of names
        ("王磊明天来我家。", "王磊"),  # an unknown run of name characters at the clause's start
    ],
)
def test_chinese_names_of_any_shape_after_a_naming_cue_are_scrubbed(
    scrubber: Scrubber, text: str, name: str
) -> None:
    assert name in _names(scrubber, text), (text, _names(scrubber, text))


@pytest.mark.parametrize(
    "text",
    [
        "So we've gone with Kenya High instead, at least it's here in Nairobi.",
        "Could you write a little note from Mam and me to go in with a tin of Welsh cakes?",
        "Arey, Navratri started today only, and I have also kept the full nine-day vrat.",
    ],
)
def test_schools_festivals_and_family_words_the_parser_calls_people_stay(
    scrubber: Scrubber, text: str
) -> None:
    from voice_agent.memory.chunker import ClauseChunker

    spans = ClauseChunker().person_spans(text)
    assert [f.value for f in scrubber.scrub(text, name_spans=spans).found if f.kind == "NAME"] == [], text


@pytest.mark.parametrize(
    "text",
    [
        "Fixin' to have the whole crew out to the house for the Fourth.",
        "De christenin' set fuh Sunday week at St. Patrick's an' I buyin' a lil silver bangle.",
        "Ma daughter's comin' up fae Glasgow wi' her new fella on Saturday.",
        "The girls on the ward are lovely, miss Manchester a bit but the sea, honestly.",
        "Right, so we're off to Mauritius for ten days on the 3rd, finally.",  # a surname too
        "Mi madda a come up from Mandeville. Wah mi fi cook fi we Sunday breakfast?",
        "She's moved out to Perth in Australia.",
        "My aunty from Vegas like go visit him next month fo' one week. Wat she can do ova dea?",  # Pidgin
        "She were born the day after Valentine's, in a two-up two-down.",  # a holiday, not a person
        "St Patrick's is my favourite night of the year.",
    ],
)
def test_dropped_g_words_and_places_the_parser_calls_people_stay(scrubber: Scrubber, text: str) -> None:
    from voice_agent.memory.chunker import ClauseChunker

    spans = ClauseChunker().person_spans(text)
    assert [f.value for f in scrubber.scrub(text, name_spans=spans).found if f.kind == "NAME"] == [], text


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("I told Miss Manchester about the trip.", "Manchester"),  # a title makes the place word a person
        ("Say hi to miss Jenkins from me.", "Jenkins"),  # a surname after the lower-case title
        ("Kevin's coming round later.", "Kevin"),  # an apostrophe with an s is a possessive, not a dropped g
        ("We're off to Mary's for tea.", "Mary"),  # whom they visit
        ("Wha Marcus say about it?", "Marcus"),
        ("Wat Kainoa said was funny.", "Kainoa"),
        ("I told Valentine about the party.", "Valentine"),
        ("It's Margaret's birthday in a fortnight.", "Margaret"),  # as in "my wife Margaret"
        ("That\u2019s Oluwaseun's favourite.", "Oluwaseun"),
    ],
)
def test_names_beside_those_shapes_are_still_scrubbed(scrubber: Scrubber, text: str, name: str) -> None:
    from voice_agent.memory.chunker import ClauseChunker

    spans = ClauseChunker().person_spans(text)
    found = [f.value for f in scrubber.scrub(text, name_spans=spans).found if f.kind == "NAME"]
    assert name in found, (text, found)


@pytest.mark.parametrize(
    ("text", "kept", "name"),
    [
        ("我哋屋企终于养狗啦！系一只两个月大嘅柯基，个女坚持要叫佢豆豆。", "柯基", ""),
        ("话佢个屁股好似麻糬咁，好得意。", "麻糬", ""),
        ("我家那只叫旺财的狗是王建国送的。", "", "王建国"),
        ("你话我叫乜嘢好？", "乜嘢", ""),  # Cantonese "what" after 叫
        ("第二朝成个口烂晒，仲流埋鼻血。", "仲流", ""),  # Cantonese 仲 "also" before a verb
        ("我朋友仲明话佢今晚嚟。", "", "仲明"),
    ],
)
def test_an_animal_counted_with_zhi_and_a_food_are_no_person(
    scrubber: Scrubber, text: str, kept: str, name: str
) -> None:
    found = _names(scrubber, text)
    assert kept == "" or all(kept not in f for f in found), found
    assert name == "" or name in found, found
