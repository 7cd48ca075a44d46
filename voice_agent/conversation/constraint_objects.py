"""What a stated rule is about, read from the words after (or before) its verb: the thing's phrase
cleaned of articles, intensifiers, carriers and filler ("a proper banana allergy" -> "banana"; "我居然吃蚕蛹"
-> "蚕蛹"), a list split into its items ("Onions and garlic", "海鲜、羊肉、鹅肉"), how a reply may name the
phrase ("board game night" is broken by "board games" too), and whether a phrase names only one kind of
a known topic ("blue cheese" is not all cheese). Text only: no :class:`Constraint` is built here.
"""

from __future__ import annotations

import re

from voice_agent.conversation.constraint_outing_mentions import NOT_EATEN
from voice_agent.conversation.constraint_shapes import CARRIER_EN, POINTING_ZH
from voice_agent.conversation.constraint_terms import Topic
from voice_agent.text.cjk import HAN_CLASS, has_han
from voice_agent.text.plurals import singular

_I = re.IGNORECASE

_ZH_OBJECT_STOP = re.compile(r"[，。,.！？!?；;]|尤其|特别|还有|而且|所以|因为")
_EN_OBJECT_STOP = re.compile(
    # (not inside a hyphenated name: "paint-and-sip", "stick-on nails")
    # (and a Singlish particle: "cannot stand yellow lah")
    r"[,.;!?]|(?<!-)\b(?:especially|and|but|so|because|since|as|which|who|at all|anymore|any more|in|on|at|"
    r"lah|leh|lor|sia|meh|hor|"
    r"for|to|me|please|again|ever|from|with|now(?=\s*(?:[,.;!?]|$))|any longer|"
    # (a time said after it: "allergic to latex last year", "…since I was a kid")
    r"last (?:year|month|week|summer|winter|spring|autumn|time)|yesterday|recently|lately|nowadays|"
    r"these days|years ago|as a (?:kid|child|baby))\b(?!-)",
    _I,
)
# A constraint's object runs to the end of the sentence, or to a comma that starts something else
# ("nuts, especially peanuts" goes on; "sushi to me, I don't like raw fish" stops).
# A list closed by "none of it" or "the lot" goes on to its end too ("ibuprofen, or anything in that family,
# naproxen, aspirin, none of it").
STRETCH_END = re.compile(
    r"[。！？!?;；\n]|(?<=[a-z])\.(?:\s|$)|[,，](?!\s*(?:especially|particularly|including|and|or|even|"
    r"尤其|特别|包括|还有|和|或))"
    r"(?![^.!?;]*?,\s*(?:none of (?:it|them|that)|the lot|all of (?:it|them|that)|any of (?:it|them))\b)",
    re.I,
)
# (an intensifier too: "a proper banana allergy" is a banana allergy)
_ARTICLES = re.compile(
    r"^(?:any|all|the|a|an|some|whole|kinds of|kind of|type of|types of|my|your|of|is|was|it's|its|those|"
    r"these|proper|real|genuine|full-blown|serious|severe|mild|slight|bad|nasty|bit of an?|"
    r"(?:taste|smell|texture|sight|flavou?r|feel) of|"
    # "can't stand that sorakaya" (not "that I…", "that my sister…", "that guy"; "this rain" is a spell of it)
    r"that(?=\s+(?!(?:i|you|he|she|we|they|my|your|his|her|our|their|it|the|a|an|is|was|one|guy|man|"
    r"woman|bloke|lady|person|fella|kid|noise|feeling|thought|idea|way|kind|sort|much|many)\b)[a-z]{3,}))\s+",
    _I,
)
_GENERIC_BAD = re.compile(r"^(?:it|that|this|them|him|her|you|me|to|when|how|what|being|waiting|people|"
                          r"she|he|they|we|i|us|everyone|everybody|nobody|someone)\b"
                          # where, not what: "I won't have it next or near me"
                          r"|^(?:next or near|anywhere near|near|next to|beside|around)\b"
                          # a person, not a thing: "Our lass made us sleep in the spare room"
                          r"|^(?:our|my|his|her|their|the)\s+(?:lass|lad|lads|kids?|missus|wife|husband|hubby|"
                          r"mum|mam|mom|dad|nan|gran|partner|son|daughter|boss|mates?|friends?|sister|brother|"
                          r"family|neighbou?rs?|girls|boys|baby|little one)\b"
                          r"|ing$"
                          # an adverb or a cut-off quantity is no thing: "kena allergy already", "pieces of"
                          r"|^(?:already|again|now|too|also|still|then|anymore|lah|liao|one)$"
                          # a way things go, not a thing to suggest: "they hate fuss", "can't stand drama"
                          r"|^(?:a\s+)?(?:fuss|faff|hassle|drama|bother|stress|rushing|change|surprises)$"
                          # a hedge, not a thing: "Not an allergy apparently", "just an intolerance"
                          r"|^(?:not|just|only|apparently|actually|really|probably|basically|honestly|"
                          r"technically|supposedly|officially|though|either)\b"
                          r"|\b(?:of|with|to|for|from|and|or|a|an|the)$"
                          # an amount is no thing: "I had a couple handfuls"
                          r"|\b(?:couple|handfuls?|bit|lot|few|bunch)\b"
                          # a mouthful of something said before: "now I can't eat a bite of it"
                          r"|\b(?:bite|mouthful|morsel|crumb|drop|sip|taste)s? of (?:it|them|that|this)$"
                          # a word said alone is no thing: "it's the hops, a proper allergy", "the stuff"
                          r"|^(?:the\s+)?(?:proper|real|bad|stuff|bother|anyway|anyhow|come up|came up|lot|"
                          r"same|whole)$"
                          # a reaction, not its cause: "I've had these hives and puffy lips"
                          r"|^(?:(?:these|those|the|my|his|her|big|angry)\s+)?(?:hives|blisters|welts|rash|rashes|"
                          r"ulcers?|cramps|swelling|spots|itching|itch)$"
                          # nor the reaction said as done: "my lips had swollen up"
                          r"|^(?:swollen|swelled|blown|blew|puffed|broken|come|came)(?: up| out)?$"
                          # a part of the body or a quantifier: "I had a bad throat" (what the pill was for)
                          r"|^(?:(?:a|my|the|bad|sore)\s+)*(?:throat|face|eyes?|back|skin|stomach|tummy|chest|"
                          r"head|lips?|mouth|gut|neck|arms?|legs?|hands?|feet|foot|ears?|nose)$|^(?:all|both|any)$",
                          _I)  # fmt: skip
# Question and filler words no thing a person keeps off is made of ("这两年不知咋整的，一吃就胀肚").
_NOT_A_THING_ZH = re.compile(
    # (一样, 似的: a likeness, "就跟没吃饭一样")
    r"[咋啥怎么呢]|(?<![网酒水氧书])吧|一[甜辣咸酸苦]|^(?:统统|一律|一概|全都|全部)$|不知|知道|整的|这两年|那会儿|就$|^一(?:点|口|沾|碰|吃|喝)|一样$|似的$|^不(?!锈)|"
    r"^一样(?:东西)?$|^[：:，,、]|"  # ("唯独一样东西碰不得：榴莲": the thing follows)
    r"^(?:根本|完全|压根|实在|真的|确实)$|"  # (a degree: "他根本克化不动")
    r"^(?:估计|可能|应该|好像|大概|怕是|多半|八成)是?$|"  # (a guess: "估计是过敏")
    r"^[那这](?:个|股|种)?$|"  # (pointing at it: "闻着那味儿就想吐")
    r"^(?:这种|那种)?(?:天气|天|鬼天气)$|"  # (the weather is no thing offered: "这种天气我真真吃不消")
    r"^(?:好|很|太|超|特别|非常|巨|贼)(?:浓|重|冲|刺鼻)$|"  # (how strong: "顶唔顺那些好浓的香味")
    r"(?:都|全|到处)是$|^就|"  # (where a smell spread: "整层楼都是那个味道", the smell of what was named)
    r"^药物?$|"  # ("医生说先不吃药": no medicine yet, no food kept off)
    # (an amount or a stretch of time: "吃个五六颗就心慌", "一个月里别吃")
    r"^个|^[一二两三四五六七八九十几半]{1,3}(?:个|颗|根|块|口|次|回|片|粒|杯|碗|勺)(?!性)|个月[里内]?$|^半年|^几天|"
    # (a time, not a thing: "今天别吃", "晚上不能吃", "周末一律不喝")
    r"^(?:今天|明天|后天|昨天|今晚|明晚|晚上|早上|中午|下午|上午|白天|夜里|半夜|周末|平时|最近|这几天|"
    r"这周|下周|本周|这礼拜|下礼拜|以后|从今往后|今后|现在|睡前|饭后|饭前|空腹)$|(?:的?时候|期间)$"
)


_QUANTITY_EN = frozenset(
    ("any", "all", "most", "much", "many", "too", "some", "more", "no", "the", "a", "an")
)


# A word that tells a kind (红眼, 长途, 私人), not a verb or a pointer ("排那个船" is the boat itself).
_MODIFIER_ZH = re.compile(r"[^这那个些种的了排坐去乘搭开买订]{2,}")


# Words that tell one kind of a food or drink apart ("猫屎咖啡" is not all coffee).
_KIND_OF_FOOD_ZH = frozenset(("猫屎", "麝香猫", "网红", "路边摊", "隔夜", "生腌"))


# A thing of one size or manner, not the whole kind: "I cannot stand little yappy dogs".
_SIZED_EN = re.compile(r"(?:little|small|tiny|toy|big|large|giant|yappy|noisy|loud)\s+\w", re.IGNORECASE)


def names_one_kind(thing: str, topics: list[Topic], kind: str, own_words: bool) -> bool:
    """Whether ``thing`` (what a constraint was read on) names one kind of its topics: said before the
    verb ("blue cheese I cannot do"), or after it with a size or manner ("I cannot stand little yappy
    dogs", not all dogs)."""
    return (own_words or (kind == "avoid" and _SIZED_EN.match(thing) is not None)) and narrower(
        clean_object(thing), topics
    )


def narrower(phrase: str, topics: list[Topic]) -> bool:
    """A phrase naming one kind of a known topic ("blue cheese", "goat's cheese"; 红眼航班 of flying, no
    food): a dislike of it is not a dislike of the whole topic."""
    lowered = phrase.lower().strip()
    words = lowered.split()
    if has_han(lowered):  # (a kind of a way of going or a place, told by a word before it: 红眼航班)
        return any(
            lowered.endswith(k)
            and (t.key in NOT_EATEN or lowered[: -len(k)] in _KIND_OF_FOOD_ZH)
            and _MODIFIER_ZH.fullmatch(lowered[: -len(k)])
            for t in topics
            for k in t.keys
            if has_han(k)
        )
    if len(words) < 2 or any(w in _QUANTITY_EN for w in words):
        return False
    return not any(lowered in t.keys or singular(lowered) in t.keys for t in topics)


# ("…韭菜这些统统不能碰": 韭菜; "孔明灯这种东西": 孔明灯)
LIST_TAIL_ZH = re.compile(r"(?:[这那]一?[类些]|[这那]种(?:东西|玩意儿?)|之类|等等|等|什么的|[嗰呢]啲).*$")


def list_parts(raw: str) -> list[str]:
    """The items of a thing named as a list: "Onions and garlic", "海鲜、羊肉、鹅肉、辣的"."""
    parts = _LIST_PARTS_ZH.split(raw) if has_han(raw) else _LIST_PARTS.split(_TRAILING_ADVERB.sub("", raw))
    # ("葱姜蒜" is three things: the pungent seasonings said run together)
    # ("酸菜泡菜", "牛肉羊肉": two things of a kind said run together)
    return [q for p in parts if p.strip() for q in (list(p) if _SEASONINGS_ZH.fullmatch(p) else _pair_zh(p))]


_SEASONINGS_ZH = re.compile(r"[葱姜蒜韭椒]{2,4}")
_PAIR_ZH = re.compile(rf"(?P<a>{HAN_CLASS}(?P<end>[菜肉鱼果瓜豆茶酒奶糖蛋虾]))(?P<b>{HAN_CLASS}(?P=end))")


def _pair_zh(part: str) -> list[str]:
    pair = _PAIR_ZH.fullmatch(part.strip())
    return [pair.group("a"), pair.group("b")] if pair else [part]


def phrase_terms(phrase: str) -> tuple[str, ...]:
    """How a reply may name a thing said as a phrase: the phrase, its singular, and without a trailing
    word for the occasion ("board game night" is broken by "playing board games" too, "a beach holiday"
    by "go to the beach")."""
    terms = [singular(phrase), phrase]
    if "'s " in phrase:  # "goat's cheese" is said "goat cheese" too
        terms += [singular(phrase.replace("'s ", " ")), phrase.replace("'s ", " ")]
    bare = _OCCASION_EN.sub("", _PART_OF_ANIMAL_EN.sub("", phrase))
    if bare != phrase and " " in phrase and bare:
        terms += [singular(bare), bare]
    words = phrase.split()
    if len(words) == 2 and words[1].endswith("ing") and len(words[1]) > 5:
        terms.append(words[1])  # "ice skating" is broken by "go skating at the rink" too
    return tuple(dict.fromkeys(terms))


def phrase_terms_zh(phrase: str) -> tuple[str, ...]:
    """How a reply may name a Chinese thing said as a phrase: the phrase, for an animal's hair the
    animal too ("对猫毛过敏" rules out "养只猫"), and for a thing of one colour the colour ("受不了大白墙"
    rules out "刷白色")."""
    if phrase.endswith("毛") and len(phrase) > 1:
        return (phrase, phrase[:-1])
    colour = _COLOURED_ZH.fullmatch(phrase)
    if colour:
        return (phrase, colour.group("colour") + "色")
    return (phrase,)


# A thing named by its colour: "大白墙", "粉色的东西", "黑衣服" (the colour is what the person minds).
_COLOURED_ZH = re.compile(
    r"(?:大|纯|一片|全)?(?P<colour>[白黑粉红黄绿蓝紫灰棕])(?:色的?)?(?:墙|墙面|衣服|裙子|家具|东西|沙发|窗帘)"
)


_OCCASION_EN = re.compile(
    r"\s+(?:nights?|evenings?|days?|sessions?|parties|party|trips?|outings?|things?|stuff|weekends?|"
    r"holidays?|vacations?|breaks?|getaways?|resorts?)$"
)
_PART_OF_ANIMAL_EN = re.compile(r"\s+(?:hair|fur|dander|feathers?)$")  # "cat hair": the cat is kept off too
_LIST_PARTS_ZH = re.compile(r"[、，,]|和|跟|还有")
# (not inside a hyphenated name: "paint-and-sip", "hit-or-miss")
_LIST_PARTS = re.compile(r"\s*(?:,|&|(?<!-)\band\b(?!-)|(?<!-)\bor\b(?!-))\s*", re.IGNORECASE)
_TRAILING_ADVERB = re.compile(r"(?:\s+(?:really|just|always|totally|honestly|seriously|both|all))+\s*$", re.I)


def clean_object(raw: str, *, activity: bool = False) -> str:
    zh = has_han(raw)
    kind_of = _KIND_OF_ZH.match(raw) if zh else None  # "那种香薰精油": a kind named, the thing follows
    raw = kind_of.group("x") if kind_of else raw
    of_kind = _THING_OF_KIND_ZH.match(raw) if zh else None  # "酸菜这种发酵腌渍的东西": 酸菜
    raw = of_kind.group("x") if of_kind else raw
    if zh and POINTING_ZH.match(raw):
        return ""
    if zh and "对" in raw[:4]:  # "我对猫毛" (the allergy's object, read from before "过敏")
        raw = raw[raw.index("对") + 1 :]
    if not zh:  # (what leads an English object and is no part of it)
        for lead in (CARRIER_EN, _TOPIC_SEE, _ANY_FROM_EN, _OTHERS_DOING_EN):
            raw = lead.sub("", raw.strip())
    stop = (_ZH_OBJECT_STOP if zh else _EN_OBJECT_STOP).search(raw)
    phrase = raw[: stop.start()] if stop else raw
    phrase = phrase.strip(" -")
    while True:
        stripped = _ARTICLES.sub("", phrase)
        if stripped == phrase:
            break
        phrase = stripped
    if zh:
        phrase = _ZH_SAID.sub("", phrase)  # "(大夫)说我是松子(过敏)": what was said is the thing
        phrase = _ZH_TAIL.sub("", phrase)  # ("最闻不得那种香薰精油的味道": not 味道)
        phrase = LIST_TAIL_ZH.sub("", phrase) or phrase  # ("…韭菜这些统统不能碰": 韭菜)
        phrase = _ZH_LEAD.sub("", after_de(phrase)).strip('吃喝用《》“”"')  # (a title: "《卡农》")
        # ("KTV啊"; a bar is no particle: 网吧, 酒吧)
        phrase = phrase if re.search(r"[网酒水氧书]吧$", phrase) else phrase.rstrip("啊呀吧呢哦嘛啦")
        phrase = _ZH_TAIL.sub("", phrase)  # ("闻不了孜然那个味儿": 孜然)
        phrase = "羊肉" if _GAMY_ZH.fullmatch(phrase) else phrase  # ("闻不得那股膻气": mutton's smell)
        return phrase if 1 <= len(phrase) <= 8 and not _NOT_A_THING_ZH.search(phrase) else ""
    phrase = thing_of_flavour(_CONDITION_TAIL_EN.sub("", phrase))
    if re.search(r"\bwhole\s", raw, _I):  # ("the whole Disney princess thing"; not "an enzyme thing")
        phrase = _WHOLE_THING_EN.sub("", phrase)
    words = phrase.split()
    # "camping", "bowling", "ice skating", "wild swimming"
    gerund = activity and len(words) <= 2 and phrase.lower().endswith("ing")
    bad = _GENERIC_BAD.search(phrase)
    generic = bad is not None and not (gerund and bad.group(0).lower() == "ing")
    if not words or len(words) > 3 or generic or len(phrase) < 3 or phrase.lower() in _A_PERSON_EN:
        return ""
    return _SAID_FOR_EN.get(phrase.lower(), phrase)  # ("never taking the motor up there again": the car)


_GAMY_ZH = re.compile(r"(?:那股|这股|一股)?羊?膻(?:气|味儿?|味道)")
# Everyday names of a thing, as a reply would name it: "the motor" (British) is the car.
_SAID_FOR_EN = {"motor": "car", "motor car": "car", "jalopy": "car", "banger": "car"}


# A person, no thing to keep off ("can't stand the man's music": his work, named before, is the thing).
_A_PERSON_EN = frozenset(
    ["man", "woman", "guy", "fella", "fellow", "lad", "lass", "girl", "boy", "bloke", "lady", "gentleman"]
)


# The thing of a condition named by it: "it's fructose malabsorption" keeps fructose off.
_CONDITION_TAIL_EN = re.compile(r"(?<=[a-z])\s+(?:malabsorption|intolerance|sensitivity)$", _I)
_WHOLE_THING_EN = re.compile(r"(?<=\w)\s+(?:thing|stuff|business|malarkey|nonsense)$", _I)
# A topic put first the Scots way, the sentence's first word: "See phone calls? Cannae stand them."
_TOPIC_SEE = re.compile(r"^See\s+(?=[a-z])")
# What others do to one is the act: "can't stand people singing Happy Birthday at her".
# (the act with what it is done to; not "people talking in my ears": talking alone names too much)
_OTHERS_DOING_EN = re.compile(
    r"^(?:people|anyone|anybody|folk|folks|others|strangers|everyone)\s+"
    r"(?=[a-z]+ing\s+(?!(?:in|on|at|to|about|with|near|around|over|behind|loudly|all)\b)[a-z])",
    _I,
)
# Anything had from somewhere is that place: "never book anything on Airbnb", "nothing from Temu again".
_ANY_FROM_EN = re.compile(
    r"^(?:anything|something|nothing|stuff|things)\s+(?:on|from|at|through|via|off|in)\s+(?:the\s+)?(?=[A-Za-z])",
    _I,
)
_KIND_OF_ZH = re.compile(
    rf"^(?:那种|这种|那些|这些|那类|这类)(?!东西|地方|玩意|人|事)(?P<x>{HAN_CLASS}{{2,}})"
)
# A thing named, then the kind it is of: "对酸菜这种发酵腌渍的东西不耐受".
_THING_OF_KIND_ZH = re.compile(
    rf"^(?P<x>{HAN_CLASS}{{2,6}}?)(?:这种|那种|这类|那类|之类|一类)[^，。,.]*?的?(?:东西|玩意儿?|食物|吃的)$"
)
# (its smell or feel, or the kind it is of: "孜然那个味儿", "薄荷那股凉劲儿", "推理悬疑这种书" (迭种: Wu
# 这种))
_ZH_TAIL = re.compile(
    r"(?:那个|这个|那股|这股|的)?(?:味儿|味道|气味|凉劲儿?|冲劲儿?)$|"
    r"(?<=..)(?:这种|那种|迭种|这类|那类)(?:书|片子?|电影|歌|剧)$|"
    r"(?<=..)(?:那|这)(?:个|种)?(?:玩意儿?|东西)$"  # ("芹菜那玩意儿我是真整不了": 芹菜)
)
# What comes before the thing in a report of a diagnosis cut mid-word ("夫说我是松子过敏": 大夫 said).
# (not a word that starts with the verb: "讲座", "说明书")
_ZH_SAID = re.compile(
    r"^.{0,4}?(?:说(?!明)|讲(?![座究台课])|查出|诊断|确诊)(?:了|过)?(?:我|他|她|孩子|俺)?(?:是|有)?"
)


def after_de(phrase: str) -> str:
    """The thing a 的 phrase names ("树上结的坚果" → 坚果): what follows the last de, if it is a word; the
    whole phrase when that word is only a kind of work ("吓人的片子" keeps off the scary ones, not films)."""
    _, de, tail = phrase.rpartition("的")
    return tail if de and len(tail) >= 2 and tail not in _KIND_OF_WORK_ZH else phrase


_KIND_OF_WORK_ZH = frozenset(("片子", "电影", "节目", "歌曲", "曲子", "小说", "电视剧", "游戏", "故事", "书"))


# Heads that name no thing: the thing is what they are of ("果聚糖的问题" is 果聚糖).
_NO_THING_HEADS_ZH = frozenset(("问题", "原因", "东西", "毛病", "关系", "缘故", "事儿", "味道", "味儿"))


def head_of(part: str) -> str:
    """The thing a list item said with 的 names: its head after a modifier of two or more characters
    ("庙里的线香" → 线香, "油焖的大虾" → 大虾), or the modifier when the head names no thing ("果聚糖的问题");
    the item itself after a one-character modifier ("甜的水果": the sweet ones only) or with no 的."""
    modifier, de, head = part.rpartition("的")
    if not de or len(head) < 2 or len(modifier) < 2:
        return part
    return modifier if head in _NO_THING_HEADS_ZH else head


# Who and how before the thing in "我居然吃蚕蛹过敏", "他从小一碰花生就…": not part of the thing.
_ZH_LEAD = re.compile(
    # who gave the rule: "医生说菠菜、苋菜…一律别吃"
    r"^(?:(?:医生|大夫|营养师|护士|老师|我妈|我爸|他|她|人家)(?:千叮咛万嘱咐|说|讲|交代|嘱咐|叮嘱)(?:了|过)?)?"
    r"(?:可?别(?:跟|和|同)(?:我|俺)提(?:了)?)?"  # ("别跟我提三里屯，这辈子再也不去了": 三里屯)
    r"(?:往后|以后|今后|从今往后|从今以后|打那以后|从那以后|自那以后|那以后|从此|后来|现在|如今)?"
    r"(?:我们?|他们?|她们?|你|孩子|俺|咱|额)?(?:这(?=是))?(?:居然|竟然|偏偏|原来|其实|好像|一直|从小|打小|真的|特别|有点|就|也|都|还|又|连(?![锁衣续体载环接帽])(?=..))*"
    # ("我就是艾蒿过敏", "我这是荞麦过敏", 粤语 "最怕就系粥": the thing; "那种香薰精油"; "任何抽卡游戏")
    r"(?:是(?=.)|系(?![统列数带])(?=.))?(?:那种|这种|那些|这些)?(?:任何|所有|一切|凡是)?"
    r"(?:吃了?|喝了?|碰了?|闻了?|沾了?|用了?|一(?:上|到|进|坐|闻|碰)(?=..))?"  # ("一上黄龙": 黄龙)
)


# "anything tomatoey", "everything garlicky": what tastes of a thing is the thing ("tomato", "garlic").
_FLAVOUR_OF = re.compile(r"^(?:anything|everything|something|stuff|food|things)\s+([a-z]{3,}?)(?:ey|y)$", _I)
_DOUBLED_END = re.compile(r"([bdgmnpt])\1$")


# Animals named by how they move, which a vow of meat lists: "会走的、会飞的、会游的一口都没沾过".
_MOVING_ANIMALS_ZH = re.compile(r"^(?:从此|以后)?(?:会|天上|地上|水里|海里)(?:走|飞|游|跑|爬)的$")


def thing_of_flavour(phrase: str) -> str:
    if _MOVING_ANIMALS_ZH.match(phrase):
        return "肉"
    match = _FLAVOUR_OF.match(phrase)
    if match is None:
        return phrase
    stem = _DOUBLED_END.sub(r"\1", match.group(1))  # "nutty" -> "nut"
    stem = stem[:-1] if stem.lower().endswith("ck") else stem  # "garlicky" -> "garlic"
    return stem + "e" if stem.lower() in ("chees", "spic") else stem  # "cheesy" -> "cheese"
