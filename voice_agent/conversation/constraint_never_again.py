"""A person swearing off something for good, in their own words: "We are never, ever going camping
again", "I'm never connecting through Heathrow again"; "以后过年我是再也不开车回老家了", "打死也不自驾了",
"再也不坐大巴了". The thing is the activity itself ("camping", 开车) or what the verb takes (Heathrow, 大巴).
Each thing is read by ``constraints`` as its words say it (a known topic, else the phrase)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from voice_agent.conversation.constraint_no_items import NOT_A_THING_EN
from voice_agent.memory.names_things_zh import SHOP_WORDS_ZH
from voice_agent.text.cjk import HAN_CLASS

_I = re.IGNORECASE
# "I am never, ever connecting through Heathrow again", "we're never going camping again", "I'm never
# flying with them again" (a pronoun is no thing: ``clean_object`` drops it).
NEVER_AGAIN_EN = re.compile(
    r"\b(?:i|we|he|she|they)(?:'m|'re|'s|\s+am|\s+are|\s+is|\s+will|'ll)?\s+never,?\s+(?:ever,?\s+)?"
    r"(?:be\s+)?(?:(?:going|go)\s+(?=[a-z]+ing\b))?"
    # (someone taken along: "I am never putting her on the bus again")
    # (what is eaten, drunk or used: "I am never touching tequila again")
    r"(?:(?:touching|drinking|eating|having|ordering|using|buying|booking|wearing|trying)\s+(?:the\s+|any\s+)?"
    r"(?P<obj>[a-z][a-z' -]{1,30}?)(?=\s+again\b)|"
    r"(?P<act>[a-z]+ing)\b(?:\s+(?:her|him|them|the kids|my \w+|our \w+))?"
    r"(?:\s+(?:through|via|with|on|at|in|to|into|by|from)\s+"
    r"(?:the\s+|(?:one|any) of (?:those|them|these)\s+)?"
    r"(?P<x>[a-z][a-z' -]{1,30}?))?|(?:going\s+(?:to|back to)|visiting|setting foot in)\s+(?:the\s+)?"
    r"(?P<place>[a-z][a-z' -]{1,30}?))\s+again\b",
    _I,
)
# "never, ever" said of a thing, with no "again": "he is never, ever doing Schoolies at Surfers Paradise".
NEVER_EVER_EN = re.compile(
    r"\b(?:i|we|he|she|they)(?:'m|'re|'s|\s+am|\s+are|\s+is|\s+will|'ll)?\s+never,?\s+ever,?\s+"
    r"(?:be\s+)?(?:doing|going to|going on|setting foot in|touching|eating|drinking|using|booking|buying)\s+"
    r"(?:the\s+|a\s+|an\s+|another\s+|any\s+)?(?P<x>[A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*){0,2}?)"
    r"(?=\s*(?:[.,;!?]|$|\s+(?:at|in|on|with|while|again|ever|until|till)\b))",
    _I,
)
# Someone swearing off: "I'm never", "we are not", "she will never, ever".
_SWEARS_EN = (
    r"\b(?:i|we|he|she|they)(?:'m|'re|'s|\s+am|\s+are|\s+is|\s+will|'ll)?\s+"
    r"(?:never,?\s+(?:ever,?\s+)?|not\s+)"
)
# Any verb and what it takes, with "again" later in the clause: "We are never hiring a van and doing it
# ourselves again", "I am never putting snail bait in that garden again" (the object: a word or two).
NEVER_VERB_AGAIN_EN = re.compile(
    rf"(?:{_SWEARS_EN}|(?:^|[.;:!?]\s*)never,?\s+(?:ever,?\s+)?)"  # ("Never, ever getting acrylics again")
    # ("one of them gas stoves", "getting in one of those buggies")
    r"(?P<verb>[a-z]+ing)\s+(?:(?:in|into|on|onto)\s+)?(?:(?:one|any) of (?:them|those|these|the)\s+)?"
    r"(?:(?:a|an|the|any|some|that|those|this|these|our|my)\s+)?"
    r"(?P<obj>[a-z][a-z'-]+(?:\s+[a-z][a-z'-]+)?)\b"
    # ("I am not frying a turkey as long as I live")
    r"(?=[^.!?;]{0,50}?\b(?:again|as long as (?:i|we|he|she|they) (?:live|lives)|"
    r"for the rest of (?:my|our) li(?:fe|ves))\b)",
    _I,
)
# The plain verb after a modal: "I'd never put on a pair of heels again as long as I live", "I will never
# touch Jägermeister again, not even a sip", "we'll never book that hotel again" (the verbs of
# ``_TAKING_VERBS``, what they take being the thing).
NEVER_BASE_AGAIN_EN = re.compile(
    r"\b(?:i|we|he|she|they)(?:'d|'ll|\s+would|\s+will|\s+shall|'m|\s+am|'re|\s+are)\s+never,?\s+(?:ever,?\s+)?"
    r"(?:going to\s+|gonna\s+)?"
    r"(?:touch|drink|eat|have|order|use|buy|book|wear|try|put on|take|ride|hire|rent|get|choose|climb|"
    r"board|get on|step on|step into)\s+"
    r"(?:(?:a pair of|another|any more|any|a|an|the|that|those|these|one of (?:those|them|these))\s+)?"
    r"(?P<obj>[^\W\d_][\w'-]*(?:\s+[^\W\d_][\w'-]*)?)\b"
    r"(?=[^.!?;]{0,50}?\b(?:again|as long as (?:i|we|he|she|they) (?:live|lives)|"
    r"for the rest of (?:my|our) li(?:fe|ves))\b)",
    _I,
)
# Someone put on or into the thing sworn off: "booking Dad on the hospital patient transport", "putting her
# in that nursery".
_SOMEONE_ON_EN = re.compile(
    r"(?:(?:my|our|the)\s+)?(?:dad|mum|mom|mam|mother|father|nan|nana|gran|granny|grandad|grandma|grandpa|"
    r"him|her|them|kids|children|baby|husband|wife|son|daughter|the kids)\s+"
    r"(?:on|onto|into|in|through|with)\s+"
    r"(?:(?:the|a|an|that|those|any)\s+)?(?P<x>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,3}?)(?=\s+again\b)",
    _I,
)
_NOT_A_THING_EN = frozenset((
    "in", "on", "at", "into", "and", "or", "to", "with", "for", "from", "up", "out", "down", "back", "off",
    "again", "ever", "it", "them", "him", "her", "that", "there", "anything", "something", "myself",
    "ourselves", "yourself", "himself", "herself", "themselves", "foot", "so", "like", "this",
    "things", "stuff", "ones",  # ("picking one of those things up again": named before, not here)
))  # fmt: skip
# Verbs whose object is the thing itself (hired, bought, used, put down): "frying a turkey" swears off the
# frying, not turkey, so other verbs name no thing here.
_TAKING_VERBS = frozenset((
    "hiring", "renting", "buying", "using", "putting", "booking", "ordering", "eating", "drinking", "having",
    "trying", "wearing", "taking", "visiting", "choosing", "picking", "leasing", "subletting", "signing",
    "joining", "downloading", "installing", "planting", "growing", "spraying", "feeding", "giving", "sending",
    "running", "organising", "organizing", "hosting",
    "reheating", "microwaving", "touching", "getting", "doing", "riding", "letting",
))  # fmt: skip
# A road, pass or place never travelled again: "I am not going over the Bealach na Bà as long as I live".
NEVER_GOING_EN = re.compile(
    _SWEARS_EN + r"(?:going|driving|walking|cycling|riding|flying)\s+"
    r"(?:over|through|up|down|near|along|across|back to|to|into)"
    r"\s+(?:the\s+)?(?P<x>[^\W\d_][\w'-]*(?:\s+[^\W\d_][\w'-]*){0,3}?)"
    r"(?=\s+(?:again\b|as long as (?:i|we|he|she|they) (?:live|lives)|for the rest of))",
    _I,
)
# Names sworn off in a list: "Never again, not Viagogo, not StubHub, none of them touts' sites".
_NAME_EN = r"[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2}"
_NEVER_AGAIN_NOT = re.compile(
    rf"\b[Nn]ever again[,:]?\s+not\s+(?P<names>{_NAME_EN}(?:,\s+not\s+{_NAME_EN})*)"
)
_NOT_BETWEEN = re.compile(r",\s+not\s+")
# "Never again" said alone after a story ("…at that trampoline park … snapped both bones in her forearm.
# I'm telling you, never again"), or "never going back": what is sworn off is the place or the outing the
# story happened at.
_BARE_NEVER_EN = re.compile(r"\bnever (?:again\b(?![,:]?\s+not\s)|(?:going|go|setting foot) back\b)", _I)
# "I am officially done with SkipTheDishes" (not "done with the gym for today"), and "never again" said
# first: "Never again am I using Evri", "Never again will we fly with them".
_DONE_WITH_EN = re.compile(
    r"\b(?i:i|we)(?:'m|'re|\s+am|\s+are)\s+(?i:officially|so|completely|totally|well and truly)\s+"
    r"done with\s+(?:the\s+)?(?P<x>[A-Za-z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})\b"
    r"(?!\s+(?i:for|till|until|by|today|tonight|now|this)\b)"
)
# A brand with no adverb, when its kind or what replaces it follows: "I'm done with Airbnb and all those
# rent-a-stranger's-house sites", "I'm done with Ryanair, it's trains only from now on".
_DONE_WITH_BRAND_EN = re.compile(
    r"\b(?i:i|we)(?:'m|'re|\s+am|\s+are)\s+done with\s+(?P<x>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})"
    r"(?=\s+and all (?:those|these|the|of)\b|,\s+(?i:it's|it is)\b[^.!?]{0,30}\bonly\b)"
)
# ("Never again, mate, I'm done with those small speedboats bashing across open water")
_NEVER_AGAIN_DONE_EN = re.compile(
    r"\bnever again\b[^.!?]{0,30}?\b(?i:i|we)(?:'m|'re| am| are) done with (?:those |these |the |any |all )?"
    r"(?P<x>[a-z][\w'-]*(?: [a-z][\w'-]*){0,2}?)(?= [a-z]+ing\b|\s*[.,;!?]|$)",
    _I,
)
# ("that's it, I'm done with heels forever")
_DONE_FOR_GOOD_EN = re.compile(
    r"\b(?:i|we)(?:'m|'re| am| are) (?:\w+ )?done with (?:those |these |the |any |all )?"
    r"(?P<x>[a-z][\w'-]*(?: [a-z][\w'-]*){0,2}?)\s+(?:forever|for good|for life|for ever|from now on)\b",
    _I,
)
# "I have finished with boats.", "I'm done with cruises.": a kind of thing, plural, that ends the clause.
_FINISHED_WITH_EN = re.compile(
    r"\b(?:i|we)(?:'ve| have|'m| am|'re| are)\s+(?:(?:well and truly|officially|completely|so) )?"
    r"(?:finished|done) with (?P<x>[a-z][\w'-]*[a-z]s)(?=\s*(?:[.;!?]|,\s+(?:and|so|mate|honestly)\b|$))",
    _I,
)
_NEVER_AGAIN_FIRST_EN = re.compile(
    r"\bnever again (?:am|will|do|shall|are|is)\s+(?:i|we|he|she|they)\s+(?:be\s+)?(?:using|use|booking|book|"
    r"ordering from|order from|flying with|fly with|going to|go to|shopping at|shop at|staying at|stay at|"
    r"eating at|eat at|buying from|buy from)\s+(?:the\s+)?(?P<x>[A-Za-z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})\b",
    _I,
)
# "never again with those paint-and-sip nights", "never again for me in a tunnel", "no more recorders in
# this house".
_NEVER_AGAIN_WITH_EN = re.compile(
    r"\bnever again(?:,? for (?:me|us|him|her))?,? (?:with (?:those|these|the|that|any)?|(?:in|on|at) "
    r"(?:a|an|the|that|those|these|one of those))\s*(?P<x>[a-z][\w'-]*(?:[ -][a-z][\w'-]*){0,2}?)"
    r"(?:\s+(?:nights?|evenings?|things?|sessions?|places?))?(?=\s*(?:[.,;!?]|$))|"
    r"\bno more (?P<y>[a-z][\w'-]*(?: [a-z][\w'-]*)?) (?:in|under) (?:this|my|our|the) "
    r"(?:house|home|roof|flat)\b",
    _I,
)
_BOOKED_AS_EN = re.compile(r"(?<=\w)\s+(?:class|session|course|workshop)$", _I)
_STORY_SPOT_EN = re.compile(
    r"\b(?:at|to|in|on)\s+(?:that|a|an|the|this|one of those)\s+(?P<x>(?:[a-z]+[ -]){0,2}(?:park|centre|"
    r"center|venue|class|club|camp|session|restaurant|bar|pub|hotel|resort|cruise|tour|ride|course|gym|studio|"
    r"arcade|spa|hostel|festival|market|workshop|retreat|theme park|escape room|bus|coach|boat|ferry|"
    r"sleeper|red-eye))\b",
    _I,
)
# A house rule: "slime is banned from this house for life", "glitter's banned in our house".
BANNED_EN = re.compile(
    r"(?:^|[.,;:!?]\s*|\b(?:so|and|but|now|telling you|honestly)\s+)"
    r"(?P<x>[a-z]+(?:[ -][a-z]+){0,2}?)(?:'s|\s+is|\s+are)\s+"
    r"(?:now\s+|officially\s+|totally\s+|completely\s+)?"
    r"banned\s+(?:from|in|at)\s+(?:this|our|my|the)\s+(?:house|home|flat|household|kitchen|car)\b",
    _I,
)
# A foot never set on a thing again: "I'm not setting foot on a boat for anything", "she won't set foot in a
# lift ever again", "I am not getting behind the wheel of a hire van ever again".
_NO_FOOT_ON_EN = re.compile(
    r"\b(?:i|we|he|she|they)(?:'m|'re|'s|\s+am|\s+are|\s+is|\s+will|'ll|\s+won't|\s+will not)?\s+"
    r"(?:never\s+|not\s+)?(?:ever\s+)?(?:(?:setting|set|putting|put)\s+(?:a\s+)?foot\s+(?:on|in|into|aboard)|"
    r"(?:getting|get)\s+behind\s+the\s+wheel\s+of)\s+"
    r"(?:a|an|another|any|one of those)\s+(?P<x>[a-z]+(?:[ -][a-z]+)?)"
    r"(?=\s+(?:again|ever|for anything|as long as|for love nor money)\b|\s*[.,;!?]|$)",
    _I,
)
# A thing the person has parted with: "so lavender and I are finished", "me and red wine are done".
_PARTED_WITH_EN = re.compile(
    r"(?:^|[.,;:!?]\s*|\b(?i:so|and|but|now|honestly)\s+)(?P<x>[a-z]+(?: [a-z]+)?) and (?:I|me) (?:are|'re) "
    r"(?:finished|done|through|over)\b|"
    r"\b(?:[Mm]e|I) and (?P<y>[a-z]+(?: [a-z]+)?) (?:are|'re) (?:finished|done|through|over)\b"
)
# Verbs whose -ing form is a pastime or a way of travelling: the thing itself ("camping", "cruising").
_ACTIVITY_VERBS = frozenset((
    "camping", "glamping", "caravanning", "skiing", "hiking", "cruising", "sailing", "driving", "flying",
    "cycling", "clubbing", "bowling", "karaoke", "busking", "hitchhiking", "backpacking", "fishing",
    "skating", "swimming", "diving", "running", "climbing", "gambling", "drinking", "smoking",
))  # fmt: skip
_PRONOUNS = frozenset(("them", "him", "her", "it", "that", "there", "those", "you", "things", "ones"))
# (not relief: "再也不用每天早上挤地铁了" is no longer having to, "再也不用担心")
_SWORN_OFF_ZH = (
    r"(?:再也不|打死(?:我|俺)?(?:也|都)?不|说什么也不|死活不|这辈子都?不|这辈子再不)"
    r"(?!用(?:每天|天天|每周|早上|晚上|再|挤|排队|早起|加班|通勤|跑|等|熬|担心|操心|花|交|付|看|为))"
    r"(?:会|想|要|敢|得)?再?"
)
# A vow on one's own name: "这辈子再坐顺风车我就不姓王", "再去那家店我就是狗".
# ("以后出门再住民宿我就是瓜娃子", "这辈子我再跟团，我名字倒过来写")
_OR_ELSE_ZH = re.compile(
    r"再(?:也)?(?P<v>坐|乘|搭|去|吃|喝|用|买|租|找|请|点|住|报|碰|信|玩|穿|戴|跟|飞|开)"
    r"(?P<x>[^，。,.！？!?；;了的]{1,10}?)[，,]?"
    r"(?:我|俺|老子)?(?:就(?:不姓|是狗|是猪|是小狗|不是人|跟你姓|倒着走|把名字倒过来|是瓜娃子|是傻子|是傻瓜|是憨包|"
    r"是孙子|是王八|是憨子)|(?:就|把)?名字倒过来写)"
)
# (where it was bought: "这辈子再在直播间买衣裳我就是憨子": 直播间)
_OR_ELSE_AT_ZH = re.compile(
    r"再(?:也)?在(?P<x>[^，。,.！？!?；;了的在]{2,8}?)(?:里|上)?(?:买|下单|抢|订|囤)[^，。,.！？!?；;]{0,6}?[，,]?"
    r"(?:我|俺|老子)?就(?:不姓|是狗|是猪|是小狗|不是人|是瓜娃子|是傻子|是憨子|是憨包)"
)
# "再也不开车回老家了", "打死也不自驾了", "这辈子再也不坐大巴了", "再也不去那种地方了" (a pointing word is no
# thing).
NEVER_AGAIN_ZH = re.compile(
    # ("这辈子再也不在网上露脸了", "再也不通过啥中介、家政公司找人了")
    _SWORN_OFF_ZH
    + r"(?:在(?:外面|外头|人前|镜头前|公开场合|朋友圈)|在网上(?=露脸|出镜|开直播))?(?:自己|自个儿|亲自)?"
    r"(?:(?P<act>开车|自驾|坐船|坐飞机|坐夜车|爬山|露营|喝酒|抽烟|熬夜|蹦极|潜水|滑雪|露脸|出镜|开直播|"
    # ("这辈子再也不骑车了", "再也不漂头发了")
    r"骑(?:电动|摩托)?车|(?:漂|烫|染)(?:头发|发)|纹身|爬梯子)"
    r"|(?:坐|乘|搭|住|去|吃|喝|用|报|找|点|买|租|请|雇|种|养|穿|碰|信|玩|进|装|睡|约|参加|飞|搞|赶|开|"
    r"通过(?:啥|什么)?)"
    # (a kind described: "那种整人的堵门游戏"; not whose it was: "他家的")
    r"(?P<x>[^，。,.！？!?；;了的]{1,10}?(?:的[^，。,.！？!?；;了的]{2,8}?)??))"
    r"(?=[了啦啊，。,.！？!?；;]|的(?:房子|东西|车|店|平台|软件|app|APP)|回|去|过|找人|请人|$)"
)
# The thing named at the clause's start, then sworn off with no pause: "网上平台约的保洁再也不约了".
_THING_THEN_VOW_ZH = re.compile(
    r"(?:^|[，,。！!？?；;])(?!这辈子|以后|往后|打死|从此|从今)(?P<x>[^，,。！!？?；;我你他她咱俺]{2,14}?)"
    # ("夜车我是再也不坐了")
    r"(?:我们|我|俺|咱)?(?:是|真的|是真的|真是)?(?:这辈子|以后|往后|打死)?"
    + _SWORN_OFF_ZH
    + r"(?:去|来|用|找|坐|买|点|住|报|叫|进|约|请|碰|吃|喝|玩|睡|开|赶)(?:了|啦|[，,。！!？?；;]|$)"
)
# A kind of thing named, then sworn off with a clause between: "隐形眼镜这种东西，不管日抛月抛，这辈子再也不往
# 眼睛里放了", "这辈子两个轮子的东西再也不碰了".
_KIND_NAMED_ZH = re.compile(
    r"(?:^|[，,。！!？?；;]|这辈子|以后|往后)(?!这辈子|以后|往后)(?P<x>[^，,。！!？?；;我你他她咱俺]{2,10}?)"
    r"(?:的|这种|那种|这类|那类)"
    r"(?:东西|玩意儿?)[，,]?(?:[^，,。！!？?；;]{0,12}[，,])?(?:我们|我|俺|咱)?是?(?:这辈子|以后|往后)?"
    + _SWORN_OFF_ZH
)
# How a clause opens, no thing: "说实话我这辈子再也不去了".
_FILLER_ZH = re.compile(r"^(?:说实话|说真的|讲真|老实说|其实|反正|总之|真的|真是|哎呀?|唉|嗯|(?:我)?跟你说)$")
# A kind of place named before "那种地方": "英语角那种地方我这辈子都不会再去了" swears off 英语角.
_KIND_OF_SPOT_ZH = re.compile(r"^(?P<x>.{2,}?)(?:那种|这种|那类|这类|那样的?)(?:地方|东西|玩意儿?|场合)$")
# Where things are bought, sworn off: "这辈子我再也不在直播间买东西了" (直播间).
_BOUGHT_AT_ZH = re.compile(
    _SWORN_OFF_ZH + r"在(?P<x>[^，。,.！？!?；;了的在]{2,8}?)(?:里|上)?(?:买|下单|抢|订|囤)"
)

_VOW_BEFORE_ZH = re.compile(
    r"^.*?" + _SWORN_OFF_ZH + r"(?:坐|去|来|用|找|买|点|住|报|叫|进|约|请|碰|吃|喝|玩|睡|开|赶)?"
)
_LEAD_TIME_ZH = re.compile(r"^(?:这辈子|以后|往后|打那以后|打那儿起|从此|从今往后)")
_POINTING_ZH = frozenset((
    "它", "他们", "她们", "这家", "那家", "这个", "那个", "这玩意", "那玩意", "这玩意儿", "那玩意儿",
    "那东西", "这东西",
))  # fmt: skip
# The thing used or taken in the clause before: "搬家叫的货拉拉，", "上回坐的那家大巴，".
_NAMED_BEFORE_ZH = re.compile(
    rf"(?:叫|用|坐|找|订|买|选|点|约|请)(?:的|了)(?:那家|这家|那个|这个)?(?P<x>{HAN_CLASS}{{2,6}}?)(?=[，,。；;！!]|$)|"
    # (or thrown out: "我当场就把那学步车扔了，这辈子都不得再用那玩意儿")
    rf"把(?:那|这)?(?:个|台|辆|张|把)?(?P<y>{HAN_CLASS}{{2,6}}?)(?:给)?(?:扔|卖|退|砸|送人)"
)

# Buying online sworn off, whatever was bought: "这辈子再也不在网上买家具了".
_ONLINE_ZH = re.compile(_SWORN_OFF_ZH + r"在?(?:网上(?:买|购物|下单)|网购)")

# Swearing off what is done to or for someone: "再也不把豆豆送出去寄养了" (寄养), "以后再也不给他吃小龙虾了"
# (小龙虾): the thing after the last verb of going, eating or using, else the verb phrase's own activity.
_FOR_SOMEONE_ZH = re.compile(
    _SWORN_OFF_ZH + r"(?:把|让|给|带|叫|送)(?P<tail>[^，。,.！？!?；;了]{2,14}?)(?=[了啦啊，。,.！？!?；;]|$)"
)
# (where a thing is kept: "再也不把么子东西存到网盘云盘上面去" swears off 网盘云盘)
_STORED_IN_ZH = re.compile(
    r"(?:存到|存进|存在|放到|放在|传到|传进|交给|托给)(?P<x>[^，。,.！？!?；;]{2,8}?)(?:上面|上头|里面|里头|上|里)?"
    r"(?:去|来)?$"
)
# What is done to or with someone, at the tail's end: "再也不让人搓澡了" (搓澡), "再也不给仔仔亲手喂动物"
# (喂动物).
_DONE_TO_ZH = re.compile(
    r"(?P<x>(?:搓|喂|剪|染|烫|刮|掏|采|纹|拔|扎|摸|抱|骑|按|推)[^，。,.！？!?；;了]{1,4})$"
)
# (the kind pointed at is the thing: "送他去这种军事化的营" swears off 军事化的营)
_LAST_VERB_ZH = re.compile(
    r"(?:吃|喝|坐|乘|去|住|用|买|玩|报|碰|上)(?:这种|那种|这类|那类)?(?P<x>[^吃喝坐乘去住用买玩报碰上]{1,6})$"
)

# The thing named first, then sworn off: "解放路那家福寿康大药房，我这辈子再也不去了！" (what follows the last
# "那家" is the thing; the street before it only says where).
_THING_FIRST_ZH = re.compile(
    r"(?:^|[，,。！!？?；;])(?P<x>[^，,。！!？?；;]{2,16}?)[，,](?:我|我们|俺|咱)?(?:这辈子|以后|往后)?是?"
    + _SWORN_OFF_ZH
    # ("这种折腾人的体力游戏，我这辈子再也不玩儿了")
    + r"(?:去|来|用|找|坐|买|点|住|报|叫|进|沾|玩)儿?(?:了|啦|[，,。！!？?；;]|$)"
)
# Or pointed at, then the person, then sworn off: "那破存款机我这辈子再也不碰了".
_POINTED_FIRST_ZH = re.compile(
    r"(?:^|[，,。！!？?；;])(?P<x>[那这][^，,。！!？?；;]{1,13}?)(?:我们|我|俺|咱)(?:这辈子|以后|往后)?是?"
    + _SWORN_OFF_ZH
    + r"(?:去|来|用|找|坐|买|点|住|报|叫|碰|吃|喝|玩|进)(?:了|啦|[，,。！!？?；;]|$)"
)
# An activity sworn off, with what it was done on: "这辈子再也不自驾跑山路了" (自驾).
_ACT_THEN_ZH = re.compile(
    _SWORN_OFF_ZH + r"(?P<act>自驾|开车|坐船|坐飞机|坐夜车|爬山|露营|蹦极|潜水|滑雪|骑车|骑摩托)"
    r"(?![了啦啊，。,.！？!?；;]|$)"
)
# Anything of a kind, sworn off from now on: "以后什么上门服务都不搞了" (上门服务).
_ANY_OF_KIND_ZH = re.compile(
    r"(?:以后|往后|这辈子|从此|打那以后)再?(?:什么|啥|任何|哪样)(?P<x>[^，。,.！？!?；;都也]{2,8}?)(?:都|也)"
    r"(?:不|莫|别)再?(?:搞|用|碰|找|请|约|去|买|吃|坐|做|叫|沾|信|要)了"
)
# What names no one thing before a list ("啥水滴筹、轻松筹"), and the kind after it ("这些筹款平台").
_ANY_LEAD_ZH = re.compile(r"^(?:啥子|啥|什么|任何|所有的?|一切)")  # (啥子: Sichuan 啥)
_KIND_AFTER_ZH = re.compile(r"这些|那些|这类|那类")


def _listed_zh(thing: str) -> list[str]:
    """The things a sworn-off phrase names: "啥水滴筹、轻松筹这些筹款平台" → 水滴筹, 轻松筹, 筹款平台."""
    parts = _KIND_AFTER_ZH.sub("、", _ANY_LEAD_ZH.sub("", thing)).split("、")
    return [part for part in parts if len(part) >= 2]


# A thing pointed at with scorn: "那破存款机" is the cash machine.
_SCORNED_ZH = re.compile(r"^(?:那|这)(?:破|烂)(?=.{2})")
_ANY_PLACE_ZH = frozenset(("地方", "那儿", "那里", "这儿", "这里", "那边", "这边", "店", "那地儿"))
_KIND_OF_PLACE_ZH = re.compile(rf"(?:{SHOP_WORDS_ZH})$")
_KIND_TAIL_ZH = re.compile(r"(?:这种|那种|这类|那类|之类的?)(?:东西|玩意儿?)?$")
_WHICH_ONE_ZH = re.compile(r"^.*?(?:那家|这家|那个|这个|那种|这种)")
_GOING_TO_ZH = re.compile(r"^.*(?:去|到|回)(?=.{2})")


# A thing kept out of the home for good, pointed at: "I swore that game never comes into my house again".
_KEPT_OUT_EN = re.compile(
    r"\b(?:that|this) (?:game|board game|card game|thing|one) (?:will )?never (?:comes?|goes?|gets?|"
    r"is coming|is going|sets? foot) (?:back )?(?:in|into|inside|through|near) (?:my|our|this|the) "
    r"(?:house|home|flat|door)",
    _I,
)
# What was played or brought out before it: "we pulled out Monopoly after lunch" (a name, capitalised).
_PLAYED_EN = re.compile(
    r"\b(?:played|playing|pulled out|got out|brought out|broke out|dug out|bought|opened)\s+"
    r"(?:a\s+game\s+of\s+)?"
    r"(?P<x>(?-i:[A-Z][\w'-]*)(?:\s+(?-i:[A-Z][\w'-]*)){0,2})"
)


def never_again(text: str) -> Iterator[str]:
    """The things sworn off ("Heathrow", "camping", 开车, 大巴), in the person's words."""
    for thing in _sworn_off(text):
        # (a closing 了 is no part of the thing: "再也不得去啥子农家乐了" swears off 农家乐)
        yield thing[:-1] if thing.endswith("了") and len(thing) > 2 else thing


def _sworn_off(text: str) -> Iterator[str]:
    for match in NEVER_AGAIN_EN.finditer(text):
        act = (match.group("act") or "").lower()
        thing = match.group("obj") or match.group("x") or match.group("place")
        if thing:  # ("never flying with them again": that airline, not flying; unknown here)
            if thing.lower() not in _PRONOUNS:
                yield thing
        elif act in _ACTIVITY_VERBS:
            yield act
    for match in [*NEVER_VERB_AGAIN_EN.finditer(text), *NEVER_BASE_AGAIN_EN.finditer(text)]:
        verb = match.groupdict().get("verb")
        if verb and (verb.lower() not in _TAKING_VERBS or NEVER_AGAIN_EN.match(text, match.start())):
            continue
        someone = _SOMEONE_ON_EN.match(text, match.start("obj"))
        if someone:  # ("never booking Dad on the hospital patient transport again": the transport)
            yield someone.group("x")
            continue
        words = []
        for word in match.group("obj").split():
            if word.lower() in _NOT_A_THING_EN:
                break
            words.append(word)
        if words and " ".join(words).lower() not in NOT_A_THING_EN:  # ("never have a chance again")
            yield " ".join(words)
    for match in [*NEVER_GOING_EN.finditer(text), *NEVER_EVER_EN.finditer(text)]:
        if match.group("x").lower() not in _PRONOUNS:
            yield match.group("x")
    for match in _NEVER_AGAIN_NOT.finditer(text):
        yield from _NOT_BETWEEN.split(match.group("names"))
    for match in [*_DONE_WITH_EN.finditer(text), *_NEVER_AGAIN_FIRST_EN.finditer(text),
                  *_NEVER_AGAIN_DONE_EN.finditer(text), *_DONE_FOR_GOOD_EN.finditer(text),
                  *_DONE_WITH_BRAND_EN.finditer(text), *_FINISHED_WITH_EN.finditer(text)]:  # fmt: skip
        if match.group("x").lower() not in _PRONOUNS:
            yield match.group("x")
    for match in _NEVER_AGAIN_WITH_EN.finditer(text):
        if (match.group("x") or "").lower() not in _PRONOUNS:
            yield match.group("x") or match.group("y")
    for match in _BARE_NEVER_EN.finditer(text):
        spots = list(_STORY_SPOT_EN.finditer(text, 0, match.start()))
        if spots:  # (the thing done, not its booking: "a hot yoga class" swears off hot yoga)
            yield _BOOKED_AS_EN.sub("", spots[-1].group("x"))
    for match in _NO_FOOT_ON_EN.finditer(text):
        yield match.group("x")
    for match in _PARTED_WITH_EN.finditer(text):
        thing = match.group("x") or match.group("y")
        if thing.split()[0].lower() not in _PRONOUNS and thing.lower() not in ("we", "you", "they"):
            yield thing
    for match in BANNED_EN.finditer(text):
        if match.group("x").lower() not in _PRONOUNS:
            yield match.group("x")
    for match in _KEPT_OUT_EN.finditer(text):
        played = list(_PLAYED_EN.finditer(text, 0, match.start()))
        if played:
            yield played[-1].group("x")
    for match in NEVER_AGAIN_ZH.finditer(text):
        thing = match.group("act") or match.group("x")
        if thing in _POINTING_ZH:  # "叫的货拉拉，我这辈子再也不用它了": what was named just before
            named = list(_NAMED_BEFORE_ZH.finditer(text[: match.start()]))
            if named:
                yield named[-1].group("x") or named[-1].group("y")
            continue
        # ("再也不租二房东和什么长租公寓", "再也不进那种讲座、体验馆": two things; the kind pointed at is
        # the thing)
        thing = _KIND_TAIL_ZH.sub("", thing) or thing  # ("孔明灯这种东西": 孔明灯, not 东西)
        kind = _WHICH_ONE_ZH.sub("", thing)
        parts = re.split(r"和|跟|或者?|还有|以及|、", (kind if len(kind) >= 2 else thing).replace("什么", ""))
        yield from (part for part in parts if len(part) >= 2 and part not in _ANY_PLACE_ZH)
    for match in _OR_ELSE_ZH.finditer(text):
        if not _WHICH_ONE_ZH.match(match.group("x")):  # ("再去那家店我就是狗": which shop, said before)
            yield ("跟" if match.group("v") == "跟" else "") + match.group("x")  # (跟团: the going along)
    for match in _OR_ELSE_AT_ZH.finditer(text):
        yield match.group("x")
    for match in [*_THING_FIRST_ZH.finditer(text), *_POINTED_FIRST_ZH.finditer(text),
                  *_THING_THEN_VOW_ZH.finditer(text), *_KIND_NAMED_ZH.finditer(text)]:  # fmt: skip
        # ("过年去海南，这辈子再也不去了": where they go, 海南)
        spot = _KIND_OF_SPOT_ZH.match(match.group("x"))
        if spot:
            yield spot.group("x")
            continue
        # (a time said before the thing is no part of it: "这辈子八达岭我是再也不去了" swears off 八达岭)
        thing = _LEAD_TIME_ZH.sub("", match.group("x"))
        # (a vow said twice: "再也不坐索道缆车了，打死都不坐" swears off what follows the first one's verb)
        thing = _VOW_BEFORE_ZH.sub("", thing)
        thing = _GOING_TO_ZH.sub("", _WHICH_ONE_ZH.sub("", _SCORNED_ZH.sub("", thing)))
        if len(thing) < 2 or thing in _POINTING_ZH or thing in _ANY_PLACE_ZH or _FILLER_ZH.match(thing):
            continue
        listed = _listed_zh(thing)  # ("啥除草剂我这辈子都不再碰了": 除草剂)
        if listed != [thing]:
            yield from listed
            continue
        yield thing
        name = _KIND_OF_PLACE_ZH.sub("", thing)  # (a reply may say the name alone: 福寿康)
        if len(name) >= 2 and name != thing:
            yield name
    yield from (m.group("act") for m in _ACT_THEN_ZH.finditer(text))
    for match in _ANY_OF_KIND_ZH.finditer(text):
        yield from _listed_zh(match.group("x"))
    for match in _FOR_SOMEONE_ZH.finditer(text):
        tail = match.group("tail")
        last = _STORED_IN_ZH.search(tail) or _LAST_VERB_ZH.search(tail) or _DONE_TO_ZH.search(tail)
        if last:
            yield last.group("x")
    # (online shopping as a whole is 网购, below)
    yield from (m.group("x") for m in _BOUGHT_AT_ZH.finditer(text) if m.group("x") != "网上")
    if _ONLINE_ZH.search(text):
        yield "网购"
