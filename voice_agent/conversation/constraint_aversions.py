"""Things kept off in Chinese shapes the rule patterns do not read: what a person cannot bear the sight
or smell of ("一看到茄子就撇起个嘴巴", "现在一看见毛肚、鸭肠、黄喉、脑花这些就反胃": no body reacts to a thing
seen, so it is a dislike, ``avoid``, not an intolerance), and a list named first and then refused as a
habit ("葱、蒜、韭菜这些她说是五辛也不碰"), or one kind of thing refused as a habit
("宫斗宅斗的一概不看"). A list is each item of it (``constraints._object_constraints`` with the person's
own words)."""

from __future__ import annotations

import re

from voice_agent.text.cjk import HAN_CLASS

__all__ = [
    "ALL_BUT_ONE_ZH",
    "DIET_TALK_ZH",
    "EVEN_KEPT_OFF_ZH",
    "HABIT_REFUSED_ZH",
    "LIST_ALL_OFF_ZH",
    "LIST_KEPT_OFF_ZH",
    "SIGHT_AVERSION_ZH",
    "TASTE_ZH",
    "TOPIC_FIRST_ZH",
]

_ITEM = rf"(?![我你他她它人要])(?:{HAN_CLASS}){{1,6}}?"
# (or of what merely talking of it does: "讲到榴莲我真的会起鸡皮疙瘩，那个味道根本就是瓦斯外泄加臭袜子"; not
# goosebumps of joy: "说到那场演唱会我就起鸡皮疙瘩，太燃了")
SIGHT_AVERSION_ZH = re.compile(
    rf"(?:(?:一|只要|每次|每回)(?:看见|看到|见到|瞅见|闻到|闻见)|(?:讲到|说到|提到|一提到?|一提起|一想到)|"
    # ("现在饮茶见到有人点凉瓜炒蛋我都要坐远点")
    r"(?:看见|看到|见到)(?:有人|别人|人家)(?:点|吃|喝|端)了?)"
    rf"(?P<x>{_ITEM}(?:、{_ITEM})*)"
    r"(?:这些|那些|这类|之类的?|这种|那种)?(?:东西)?(?:我|俺)?(?:真的|真|简直|立马|马上)?(?:就|都)?(?:会|要)?"
    r"(?:撇|皱眉|反胃|恶心|想吐|犯恶心|倒胃口|没胃口|起鸡皮疙瘩|发怵|躲|坐远|绕道|绕着走)"
    r"(?![^。！？!?]{0,12}(?:感动|激动|燃|好听|太美|震撼|开心|兴奋|过瘾))"
)
_THING = r"(?:(?![我你他她它们在不没最])" + HAN_CLASS + r")"
# Two things or more, then who or what they are called, then a habit of not touching them.
LIST_KEPT_OFF_ZH = re.compile(
    rf"(?:^|[，,。！？!?；;：:])(?:像|比如|连|还有)?(?P<x>{_THING}{{1,6}}?(?:、{_THING}{{1,6}}?)+)"
    # (after "these", who called them what: "这些她说是'五辛'"; else only who: "她")
    r"(?:(?:这些|那些|这类|之类的?|什么的|啥的)[^，,。！？!?；;不没]{0,8}?|[她他我俺]?)"
    r"(?:都|也|全都|一概|从来)(?:一律|一概|统统|全都)?(?:不|没)(?:碰|吃|沾|喝)"
)
# One thing refused with 连 in a diet's telling: "她吃长素…连鸡蛋都不吃" (eggs). Only beside words of a diet
# or a rule: "他连早饭都不吃" alone is a busy morning, not a rule.
# (or a clause of its own after the diet: "…，鸡蛋也不碰")
EVEN_KEPT_OFF_ZH = re.compile(
    rf"(?:连|(?<=[，,。；;：:]))(?P<x>(?:(?!连){_THING}){{1,5}}?)(?:我|俺)?(?:都|也)(?:不|没)敢?(?:吃|碰|沾|喝|点)"
)
# (or of what happened after it: "喝一瓶拉一回……后来连生椰拿铁都不敢碰了")
# (or of a body that swelled or a throat that closed: "嘴巴肿得像两根香肠，喉咙发紧…连杨枝甘露都不敢点")
DIET_TALK_ZH = re.compile(
    r"素|荤|斋|忌口|过敏|戒|清真|不耐受|拉肚子|拉稀|跑厕所|[吃喝]\S{0,3}就?[拉吐]|肿|喉咙|打针|急诊"
)
# A list, then "all of it" kept off after a comma: "辣的、酒、浓茶、咖啡、油炸的、生冷的，统统别碰".
LIST_ALL_OFF_ZH = re.compile(
    rf"(?:^|[，,。！？!?；;：:])(?P<x>{_THING}{{1,6}}?(?:、{_THING}{{1,6}}?)+)[，,]?(?:统统|一律|一概|全都|全部)都?"
    # ("拍视频、开直播、出镜，一律不碰")
    r"(?:(?:别|不要|不能|不许|甭|莫)(?:碰|吃|喝|沾)|不(?:碰|沾|搞|做|接))"
)
# A taste the person is not used to: "就是吃不惯甜口的菜" (sweet food, read as "甜的").
TASTE_ZH = re.compile(r"(?:吃不惯|受不了|吃不来|不爱吃)(?P<taste>[甜辣咸酸])口(?:味)?的?")
# A known food named first, then kept off with no one said to keep it off (read for known topics only:
# "今天不吃" names none): "猪肉一口不沾", "香菜坚决不吃", "牛肉他从来不吃", "鱿鱼、虾蟹这些统统不行".
TOPIC_FIRST_ZH = re.compile(
    rf"(?:^|[，,。！？!?；;：:])(?P<x>{_THING}{{1,6}}?(?:、{_THING}{{1,6}}?)*)(?:这些|这类|之类的?|啥的|什么的)?"
    # ("猪身上的东西一口都没沾过": the animal's parts, whatever they are)
    r"(?:身上的东西|身上的)?(?:他|她|他们|她们|我们|俺们|咱们|两口子|老两口|我|俺)?"
    r"(?:一口|一点|一滴|从来|坚决|统统|一律|一概|也|都|压根儿?|根本|向来|绝对|是)*"
    r"(?:不沾|不吃|不碰|不喝|不行|不能吃|吃不了|不(?:让|准|许)(?:碰|吃|沾|喝)|(?<=[口滴来都])没(?:沾|碰)过)(?![了过完饱])"
)
# A kind of thing refused as a habit whatever it is, named first (own words, no known topic needed):
# "宫斗宅斗的一概不看", "格子衬衫他从来不穿".
HABIT_REFUSED_ZH = re.compile(
    rf"(?:^|[，,。！？!?；;：:])(?P<x>{_THING}{{2,8}}?)(?:的|这些|这类|之类的?|那种)?(?:[他她我俺]们?)?"
    r"(?:一概|一律|统统|从来|坚决|压根儿?|向来)都?不(?:看|听|穿|戴|去|玩|用|碰)"
)
# Everything eaten but one thing: "俺这人啥都能吃，就是饭店老爱往碗里撒的那一撮香菜，闻着跟臭大姐一个味儿",
# "我什么都吃，唯独苦瓜" (what the one thing is said to be like is no part of it).
ALL_BUT_ONE_ZH = re.compile(
    r"(?:啥|什么|么子|乜嘢|乜都|咩)都(?:能|敢|爱|肯|可以)?(?:吃|食|喝)[^，,。！？]{0,4}[，,]\s*"
    r"(?:就是|只是|唯独|除了|就|偏偏)(?:[^，,。！？]{0,16}的)?(?:那|这)?(?:一?[撮把点些个种样根])?"
    rf"(?P<x>{_THING}{{1,6}}?)(?=[，,。！？!?]|$)"
)
