"""A person swearing off something for good, in Chinese: "以后过年我是再也不开车回老家了", "打死也不自驾了",
"再也不坐大巴了", "这辈子再坐顺风车我就不姓王". The thing is the activity itself (开车) or what the verb takes
(大巴); read by ``constraint_never_again`` beside the English shapes."""

from __future__ import annotations

import re
from collections.abc import Iterator

from voice_agent.conversation.negation import TREATMENTS_ZH
from voice_agent.memory.names_things_zh import SHOP_WORDS_ZH
from voice_agent.text.cjk import HAN_CLASS

# (not relief: "再也不用每天早上挤地铁了" is no longer having to, "再也不用担心")
_SWORN_OFF_ZH = (
    # ("我以后都不会再吃任何减肥药了")
    r"(?:再也不|打死(?:我|俺)?(?:也|都)?不|说什么也不|死活不|这辈子都?不|这辈子再不|"
    # (a clause of its own on whoever comes for the person: "…的地方，八抬大轿来抬我都不去了")
    r"(?<=[，,])[^，,。！!？?；;]{0,6}?(?:抬|绑|押|架|拽)(?:我|俺)(?:去)?(?:都|也)不|"
    # (or a home: "屋企以后都不会再买洗衣凝珠", "我们屋头以后都不会再…")
    r"(?<=[我俺们家企头])(?:以后|往后|今后|从此)?(?:都|也|是)?(?:不会|绝不会?|绝对不会?)(?=再))"
    r"(?!用(?:每天|天天|每周|早上|晚上|再|挤|排队|早起|加班|通勤|跑|等|熬|担心|操心|花|交|付|看|为|办|挨|受|忍|吃苦))"
    r"(?:会|想|要|敢|得)?再?"
)
# What a vow stakes on one's own name if it is broken: "就不姓王", "就是狗", "就是瓜娃子".
_ON_MY_NAME_ZH = (
    r"就(?:不姓|是狗|是猪|是小狗|不是人|跟你姓|倒着走|把名字倒过来|是瓜娃子|是傻子|是傻瓜|是憨包|"
    r"是孙子|是王八|是憨子)"
)
# A vow on one's own name: "这辈子再坐顺风车我就不姓王", "再去那家店我就是狗".
# ("以后出门再住民宿我就是瓜娃子", "这辈子我再跟团，我名字倒过来写")
_OR_ELSE_ZH = re.compile(
    # ("这辈子再睡帐篷我就是小狗", "再唱那首歌我就不姓王")
    r"再(?:也)?(?P<v>坐|乘|搭|去|吃|喝|用|买|租|找|请|点|住|报|碰|信|玩|穿|戴|跟|飞|开|踏进|踏入|迈进|进|睡|骑|唱|"
    r"看|听)"
    # ("这辈子我再踏进4S店半步我就不姓赵")
    r"(?P<x>[^，。,.！？!?；;了的]{1,10}?)(?:半步|一步)?[，,]?"
    r"(?:我|俺|老子)?(?:" + _ON_MY_NAME_ZH + r"|(?:就|把)?名字倒过来写)"
)
# (where it was bought: "这辈子再在直播间买衣裳我就是憨子": 直播间)
_OR_ELSE_AT_ZH = re.compile(
    r"再(?:也)?在(?P<x>[^，。,.！？!?；;了的在]{2,8}?)(?:里|上)?(?:买|下单|抢|订|囤)[^，。,.！？!?；;]{0,6}?[，,]?"
    r"(?:我|俺|老子)?" + _ON_MY_NAME_ZH
)
# "再也不开车回老家了", "打死也不自驾了", "这辈子再也不坐大巴了", "再也不去那种地方了" (a pointing word is no
# thing).
_NEVER_AGAIN_THING_ZH = (
    # ("这辈子再也不在网上露脸了", "再也不通过啥中介、家政公司找人了")
    r"(?:在(?:外面|外头|人前|镜头前|公开场合|朋友圈)|在网上(?=露脸|出镜|开直播))?(?:自己|自个儿|亲自)?"
    # (the one it is done with first: "再也不把它送宠物店寄养了")
    r"(?:把(?:它|他|她|它们|孩子|狗狗?|猫咪?|娃)(?=送|放|寄|交|留|关))?"
    r"(?:(?P<act>开车|自驾|坐船|坐飞机|坐夜车|夜(?:骑|跑|爬|钓|泳)|(?:骑|走|开)夜路|开夜车|爬山|露营|喝酒|抽烟|熬夜|熬通宵|通宵|刷夜|蹦极|潜水|滑雪|露脸|出镜|开直播|"
    # ("这辈子再也不骑车了", "再也不漂头发了")
    r"骑(?:电动|摩托|自行|单|共享单|电瓶)?车|骑马|骑骆驼|(?:漂|烫|染)(?:头发|发)|纹身|爬梯子|"
    + TREATMENTS_ZH
    + r")"
    # (a treatment had done: "医生喊我以后莫再采耳了")
    # (办: signed up for, "这辈子再也不办合约机了")
    r"|(?:坐|乘|搭|住|去|吃|喝|用|报|找|点|买|租|请|雇|种|养|穿|戴|抹|涂|喷|碰|信|玩|进|装|睡|约|参加|飞|搞|赶|开|送|办|上(?![他她你我俺咱人家当班课学])(?=.{2})|"
    # (into the water: "这辈子再也不下游泳池了")
    r"下(?=(?:游泳)?[池水海河湖江])|"
    r"通过(?:啥|什么)?)"
    # (a kind described: "那种整人的堵门游戏"; not whose it was: "他家的")
    r"(?P<x>[^，。,.！？!?；;了的]{1,10}?(?:的[^，。,.！？!?；;了的]{2,8}?)??))"
    r"(?=[了啦啊，。,.！？!?；;]|的(?:房子|东西|车|店|平台|软件|app|APP)|回|去|过|找人|请人|$)"
)
NEVER_AGAIN_ZH = re.compile(_SWORN_OFF_ZH + _NEVER_AGAIN_THING_ZH)
# Told not to any more, by a doctor or a parent: "医生叫我以后别再吃海鲜了", "医生喊我莫再采耳了",
# "大夫不让我再喝酒了".
_TOLD_NOT_AGAIN_ZH = re.compile(
    r"(?:(?:喊|叫|让|要|嘱咐|交代|告诉|劝|说|讲)(?:我|俺|他|她|孩子|娃)(?:以后|往后|今后)?(?:千万|最好|一定|可)?"
    r"(?:别|不要|莫|甭|不能|不准|不许|不得)再?|不(?:让|准|许)(?:我|俺|他|她|孩子|娃)(?:以后|往后)?再)"
    r"(?:会|想|要|敢|得)?" + _NEVER_AGAIN_THING_ZH
)
# The thing named at the clause's start, then sworn off with no pause: "网上平台约的保洁再也不约了".
_THING_THEN_VOW_ZH = re.compile(
    r"(?:^|[，,。！!？?；;])(?!这辈子|以后|往后|打死|从此|从今)(?P<x>[^，,。！!？?；;我你他她咱俺]{2,14}?)"
    # ("夜车我是再也不坐了"; "吊床这玩意儿我这辈子再也不上去了")
    r"(?:这玩意儿?|那玩意儿?|这东西|那东西)?(?:我们|我|俺|咱)?(?:是|真的|是真的|真是)?(?:这辈子|以后|往后|打死)?"
    + _SWORN_OFF_ZH
    # ("梯子我是再也不上了")
    + r"(?:去|来|用|找|坐|买|点|住|报|叫|进|约|请|碰|吃|喝|玩|睡|开|赶|上|躺)(?:去|来)?"
    r"(?:了|啦|[，,。！!？?；;]|$)"
)
# A kind of thing named, then sworn off with a clause between: "隐形眼镜这种东西，不管日抛月抛，这辈子再也不往
# 眼睛里放了", "这辈子两个轮子的东西再也不碰了".
# Brought to the door instead of fetched: "再也不叫人送了", "不点外卖了", "不让跑腿送".
_BROUGHT_ZH = re.compile(
    r"(?:会|想|要|敢|得)?再?(?:(?:叫|让|找)(?:人|外卖|快递|跑腿|骑手)?(?:送|寄)|(?:点|叫)外卖)"
)
_KIND_NAMED_ZH = re.compile(
    r"(?:^|[，,。！!？?；;]|这辈子|以后|往后)(?!这辈子|以后|往后)(?P<x>[^，,。！!？?；;我你他她咱俺]{2,10}?)"
    r"(?:的|这种|那种|这类|那类)"
    r"(?:东西|玩意儿?)[，,]?(?:[^，,。！!？?；;]{0,12}[，,])?(?:我们|我|俺|咱)?是?(?:这辈子|以后|往后)?"
    + _SWORN_OFF_ZH
)
# A list named, then sworn off with a clause between: "发胶、啫喱、发蜡，凡是往头上抹的定型玩意儿，我这辈子
# 再也不给她用了".
_LIST_THEN_VOW_ZH = re.compile(
    r"(?:^|[，,。！!？?；;：:])(?P<x>[^，,。！!？?；;：:我你他她]{1,6}(?:、[^，,。！!？?；;：:我你他她]{1,6})+)[，,]"
    r"(?:[^，,。！!？?；;]{0,20}[，,])?(?:我们|我|俺|咱)?(?:这辈子|以后|往后)?"
    + _SWORN_OFF_ZH
    + r"(?:给|让)?(?:她|他|孩子|娃|我)?(?:用|吃|喝|碰|买|抹|涂|喷|穿|戴)(?:了|啦|[，,。！!？?；;]|$)"
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
    # ("我闺女给我买了个冲牙器")
    rf"(?:叫|用|坐|找|订|买|选|点|约|请)(?:的|了)(?:那家|这家|那个|这个|个|台|只|把|款|套)?"
    rf"(?P<x>{HAN_CLASS}{{2,6}}?)(?=[，,。；;！!]|$)|"
    # (or thrown out: "我当场就把那学步车扔了，这辈子都不得再用那玩意儿")
    rf"把(?:那|这)?(?:个|台|辆|张|把)?(?P<y>{HAN_CLASS}{{2,6}}?)(?:给)?(?:扔|卖|退|砸|送人)"
)

# A pointing word, then sworn off: "这玩意儿我这辈子一口都不喝" (what it points at was named before).
_POINTER_THEN_VOW_ZH = re.compile(
    r"(?:^|[，,。！!？?；;])(?:这玩意儿?|那玩意儿?|这东西|那东西)(?:我们|我|俺|咱)?(?:这辈子|以后|往后)?是?"
    r"(?:一口|一次|一回|一滴|一下)?再?(?:都|也)(?:再)?不(?:会|想|要|敢)?再?(?:喝|吃|碰|用|去|坐|买|穿|戴|尝)"
)
# What a story was about, named before: "刷着个纪录片，讲那个猫屎咖啡，".
_TALKED_ABOUT_ZH = re.compile(
    rf"(?:讲|说|介绍|拍)(?:的)?(?:那个|这个|那种|这种)(?P<x>{HAN_CLASS}{{2,6}}?)(?=[，,。；;！!]|$)"
)
# Buying online sworn off, whatever was bought: "这辈子再也不在网上买家具了".
_ONLINE_ZH = re.compile(_SWORN_OFF_ZH + r"在?(?:网上(?:买|购物|下单)|网购)")

# Swearing off what is done to or for someone: "再也不把豆豆送出去寄养了" (寄养), "以后再也不给他吃小龙虾了"
# (小龙虾): the thing after the last verb of going, eating or using, else the verb phrase's own activity.
_FOR_SOMEONE_ZH = re.compile(
    _SWORN_OFF_ZH + r"(?:把|让|给|带|叫|送)(?P<tail>[^，。,.！？!?；;了]{2,14}?)(?=[了啦啊，。,.！？!?；;]|$)"
)
# (who a thing is sold or lent to: "再也不把东西卖给熟人了" swears off 卖给熟人)
_SOLD_TO_ZH = re.compile(r"(?P<x>(?:卖|借|租|转|转卖)给[^，。,.！？!?；;了]{1,4})$")
# Things banned from the home, listed before the ban: "冷焰火、烟花棒、仙女棒介类喷火星子的玩意儿，这辈子
# 再也不许进我们家门".
_BANNED_HOME_ZH = re.compile(
    r"(?P<x>[^，,。！？!?；;]{2,30}?)[，,]\s*(?:我们家|我家|俺家)?(?:这辈子|以后|往后|从此)?(?:再也|永远)?"
    r"不(?:许|准|让)再?(?:进|进入|带进|拿进|踏进)(?:我们|我|俺|咱)?家门?"
)
# Things the family's rule bans from now on, listed before it: "鞭炮、烟花一律不准再放".
_RULE_BANS_ZH = re.compile(
    r"(?:^|[，,。！!？?；;])(?P<x>[^，,。！!？?；;我你他她咱俺]{2,20}?)(?:以后|往后|从此|这辈子)?"
    r"(?:一律|统统|全都|一概|通通)(?:都)?不(?:准|许|让)再?(?P<v>放|用|买|碰|吃|喝|抽|玩|带|进|坐|开|养|搞|请)"
    rf"(?P<obj>(?:(?!了){HAN_CLASS}){{0,6}})"
)
_KIND_AFTER_LIST_ZH = re.compile(r"(?:介类|这类|那类|之类|这些|那些|这种|那种|等等|什么的).*$")
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
    # (two things listed: "再也不让她一个人坐网约车、出租车了")
    r"(?:吃|喝|坐|乘|去|住|用|买|玩|报|碰|上)(?:这种|那种|这类|那类)?"
    r"(?P<x>[^吃喝坐乘去住用买玩报碰上、]{1,6}(?:、[^吃喝坐乘去住用买玩报碰上、]{2,6})*)$"
)

# The thing named first, then sworn off: "解放路那家福寿康大药房，我这辈子再也不去了！" (what follows the last
# "那家" is the thing; the street before it only says where).
_THING_FIRST_ZH = re.compile(
    r"(?:^|[，,。！!？?；;：:])(?P<x>[^，,。！!？?；;：:]{2,16}?)[，,]"
    # (its kinds between: "吓人的片子，鬼也好僵尸也好，这辈子再也不看了")
    r"(?:(?P<also>[^，,。！!？?；;]{1,14}也好)[，,])?(?:我|我们|俺|咱)?(?:这辈子|以后|往后)?是?"
    + _SWORN_OFF_ZH
    # ("这种折腾人的体力游戏，我这辈子再也不玩儿了")
    # ("甭管什么船，我是再也不上了")
    + r"(?:去|来|用|找|坐|买|点|住|报|叫|进|沾|玩|上|看|听|唱|骑|睡)儿?(?:了|啦|[，,。！!？?；;]|$)"
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
# A thing named first, then an oath on one's name if had again: "这辈子两只轮子的东西我再碰一碰就不姓沈".
_THING_OR_ELSE_ZH = re.compile(
    r"(?:^|[，,。！!？?；;])(?:这辈子|以后|往后)?(?P<x>[^，,。！!？?；;我你他她咱俺]{2,10}?)(?:我|俺|老子)再"
    r"(?P<v>碰|坐|骑|用|吃|喝|去|进|踏进|上)(?:一(?P=v)|一下|一次|半步|一步)?[，,]?(?:我|俺|老子)?"
    + _ON_MY_NAME_ZH
)
# Where the story was, for an oath that points back at it: "在KTV包房里…再踏进那玩意儿一步" (KTV).
_BEEN_IN_ZH = re.compile(rf"在(?P<x>[A-Za-z]{{2,6}}|{HAN_CLASS}{{2,4}}?)(?:包房|包间|里头|里面|里)")
# A ride told by its wheels: "两只轮子的东西" (a bicycle, an e-bike).
_TWO_WHEELS_ZH = re.compile(r"^两(?:个|只)轮(?:子)?的(?:东西|玩意儿?|车)$")
# What names no one thing before a list ("啥水滴筹、轻松筹"), and the kind after it ("这些筹款平台").
# (啥子: Sichuan 啥; "甭管什么船": any boat)
_ANY_LEAD_ZH = re.compile(r"^(?:(?:甭管|不管|管它|管他)(?:是)?)?(?:啥子|啥|什么|任何|所有的?|一切)")
_KIND_AFTER_ZH = re.compile(r"这些|那些|这类|那类")
_RIDDEN_ZH = ("船", "车")


def _listed_zh(thing: str) -> list[str]:
    """The things a sworn-off phrase names: "啥水滴筹、轻松筹这些筹款平台" → 水滴筹, 轻松筹, 筹款平台."""
    parts = _KIND_AFTER_ZH.sub("、", _ANY_LEAD_ZH.sub("", thing)).split("、")
    # (a boat of any kind is riding one: "甭管什么船，我是再也不上了" swears off 坐船)
    return [part if len(part) >= 2 else "坐" + part for part in parts if len(part) >= 2 or part in _RIDDEN_ZH]


# A thing pointed at with scorn: "那破存款机" is the cash machine.
_SCORNED_ZH = re.compile(r"^(?:那|这)(?:破|烂)(?=.{2})")
_ANY_PLACE_ZH = frozenset(("地方", "那儿", "那里", "这儿", "这里", "那边", "这边", "店", "那地儿"))
_KIND_OF_PLACE_ZH = re.compile(rf"(?:{SHOP_WORDS_ZH})$")
_KIND_TAIL_ZH = re.compile(r"(?:这种|那种|这类|那类|之类的?)(?:东西|玩意儿?)?$")
_WHICH_ONE_ZH = re.compile(r"^.*?(?:那家|这家|那个|这个|那种|这种)")
_GOING_TO_ZH = re.compile(r"^.*(?:去|到|回)(?=.{2})")


# The service a thing is sent for, after where it is sent: "送宠物店洗澡" (宠物店).
_SENT_FOR_ZH = re.compile(r"(?<=..)(?:去|过去)?(?:洗澡|洗|寄养|美容|修理?|保养|托管|剪毛|剪|干洗|培训)$")
# Sending a thing in the hold, sworn off: "这辈子再也不得托运琴了" (the checking in, not the guitar).
_CHECKED_IN_ZH = re.compile(_SWORN_OFF_ZH + r"(?:把[^，。,.！？!?；;]{1,6})?托运")


def sworn_off_zh(text: str) -> Iterator[str]:
    """The things a Chinese statement swears off, in the person's words."""
    if _CHECKED_IN_ZH.search(text):
        yield "托运"
    for match in [*NEVER_AGAIN_ZH.finditer(text), *_TOLD_NOT_AGAIN_ZH.finditer(text)]:
        thing = match.group("act") or match.group("x")
        if thing in _POINTING_ZH:  # "叫的货拉拉，我这辈子再也不用它了": what was named just before
            named = list(_NAMED_BEFORE_ZH.finditer(text[: match.start()]))
            if named:
                yield named[-1].group("x") or named[-1].group("y")
            continue
        # ("再也不租二房东和什么长租公寓", "再也不进那种讲座、体验馆": two things; the kind pointed at is
        # the thing)
        thing = _KIND_TAIL_ZH.sub("", thing) or thing  # ("孔明灯这种东西": 孔明灯, not 东西)
        # (where a thing is sent for a service: "再也不送宠物店洗澡了" swears off 宠物店)
        thing = _SENT_FOR_ZH.sub("", thing) if match.group(0).endswith("送" + thing) else thing
        kind = _WHICH_ONE_ZH.sub("", thing)
        parts = re.split(r"和|跟|或者?|还有|以及|、", (kind if len(kind) >= 2 else thing).replace("什么", ""))
        yield from (part for part in parts if len(part) >= 2 and part not in _ANY_PLACE_ZH)
    for match in _OR_ELSE_ZH.finditer(text):
        if match.group("x") in _POINTING_ZH:  # ("在KTV包房里…再踏进那玩意儿一步，我就是狗": the place it was)
            been = list(_BEEN_IN_ZH.finditer(text, 0, match.start()))
            yield from [been[-1].group("x")] if been else []
        elif not _WHICH_ONE_ZH.match(match.group("x")):  # ("再去那家店我就是狗": which shop, said before)
            yield ("跟" if match.group("v") == "跟" else "") + match.group("x")  # (跟团: the going along)
    for match in _OR_ELSE_AT_ZH.finditer(text):
        yield match.group("x")
    for match in _THING_OR_ELSE_ZH.finditer(text):
        thing = _LEAD_TIME_ZH.sub("", match.group("x"))
        yield from ("骑车", "自行车") if _TWO_WHEELS_ZH.match(thing) else [thing]
    for match in _POINTER_THEN_VOW_ZH.finditer(text):
        before = text[: match.start()]
        named = [*_NAMED_BEFORE_ZH.finditer(before), *_TALKED_ABOUT_ZH.finditer(before)]
        if named:
            pointed = max(named, key=lambda m: m.start())
            yield next(thing for thing in pointed.groups() if thing)
    for match in [*_THING_FIRST_ZH.finditer(text), *_POINTED_FIRST_ZH.finditer(text),
                  *_THING_THEN_VOW_ZH.finditer(text), *_KIND_NAMED_ZH.finditer(text),
                  *_LIST_THEN_VOW_ZH.finditer(text)]:  # fmt: skip
        # (sworn off having it brought: "蛋糕这种东西再也不叫人送了" is no vow about cake, but about 外卖)
        if _BROUGHT_ZH.match(text, match.end()):
            yield "外卖"
            continue
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
        also = match.groupdict().get("also") or ""
        yield from (kind for kind in also.split("也好") if len(kind) >= 1 and kind not in _POINTING_ZH)
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
        last = (
            _STORED_IN_ZH.search(tail)
            or _SOLD_TO_ZH.search(tail)
            or _LAST_VERB_ZH.search(tail)
            or _DONE_TO_ZH.search(tail)
        )
        if last:
            yield from (thing for thing in last.group("x").split("、") if thing)
    for match in _BANNED_HOME_ZH.finditer(text):
        listed = re.split(r"[、和跟]", _KIND_AFTER_LIST_ZH.sub("", match.group("x")))
        yield from (thing for thing in listed if 2 <= len(thing) <= 8)
    for match in _RULE_BANS_ZH.finditer(text):
        # (the thing after the verb when there is one: "家里以后一律不准再抽烟" bans 抽烟, not 家里)
        obj = match.group("obj")
        yield from [match.group("v") + obj] if obj else _listed_zh(match.group("x"))
    # (online shopping as a whole is 网购, below)
    yield from (m.group("x") for m in _BOUGHT_AT_ZH.finditer(text) if m.group("x") != "网上")
    if _ONLINE_ZH.search(text):
        yield "网购"
