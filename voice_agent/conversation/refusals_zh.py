"""A thing kept off, refused in Chinese words that name it: "不放鞭炮", "不坐网约车", "不吹蜡烛"; and a
statement said back with the thing it keeps off after it: "因为你最受不了的就是榴莲，所以不放榴莲，"."""

from __future__ import annotations

import re

from voice_agent.conversation.constraints import Constraint
from voice_agent.conversation.food_requests import keeps_food_off
from voice_agent.conversation.negation import ACTIVITY_ZH, DOING_ZH
from voice_agent.text.cjk import has_han


def not_doing_zh(noun: str, source: str) -> str:
    """ "No doing" the thing: the activity itself when it is one ("不吹蜡烛"), else the verb the person
    used with it (``source``: "鞭炮、烟花一律不准再放" → "不放鞭炮", "再也不让她坐网约车" → "不坐网约车"),
    else "不种" for a plant, else "不用"."""
    if (len(noun) >= 3 and noun[0] in DOING_ZH) or ACTIVITY_ZH.fullmatch(noun):
        return f"不{noun}"
    n = re.escape(noun)
    done = re.search(rf"([{DOING_ZH}])(?:再|过|了)?{n}", source) or re.search(
        rf"{n}(?:、[^，。,.！？!?；;]{{1,8}}?)*[^，。,.！？!?；;]{{0,4}}?不(?:准|许|让|会|能)?再?([{DOING_ZH}])",
        source,
    )
    if done:
        return f"不{done.group(1)}{noun}"
    # (a plant, or what someone grew: "楼下嬢嬢种了一大盆" of 夜来香 → "不种夜来香")
    grown = re.search(rf"{n}[^。！？!?]{{0,40}}[种栽]了", source)
    if _PLANT_ZH.search(noun) or grown:
        return f"不种{noun}"
    return f"不去{noun}" if _PLACE_ZH.search(noun) else f"不用{noun}"  # (a place: "不去KTV", "不去酒吧")


_PLACE_ZH = re.compile(
    r"(?:KTV|ktv|酒吧|夜店|网吧|迪厅|舞厅|游乐场|游乐园|鬼屋|密室|商场|夜市|庙会|澡堂|洗浴中心)$"
)
_PLANT_ZH = re.compile(r"(?<=.)(?:花|草|树|兰|菊|竹|藤)$")


# The thing already refused in what is said back: "再也不坐网约车", "没有花生", "别放香菜".
# (not 受不了, 吃不得, 忍不住: those say the reaction, not the refusal)
_REFUSED_ZH = r"(?:不(?![了得住惯来])|别|没有|无|甭|免)[^，。,.！？!?；;]{0,4}"
# Words of eating in the person's statement: what it keeps off is food. (Narrower than
# ``food_requests.names_food``, which reads a turn's topic: its 面, 烤 and 聚会 would find food in a story's
# 上面, 烤火 or 同学聚会.)
# (its smell makes them retch: "隔远闻到那阵味就想呕", of 榴莲)
_EATEN_ZH = re.compile(r"吃|喝|食|味|菜|饭|汤|零食|水果|想呕|想吐")


def eaten_zh(constraint: Constraint) -> bool:
    """Whether what ``constraint`` keeps off is food: its words name some, or the person's words are of
    eating it ("闻到都脑壳疼，莫讲吃了", "榴莲我从小就讨厌,闻到就想吐,吃一口都不行的")."""
    if _NOT_FOOD_ZH.search(constraint.noun_zh):  # (hair wax smells too: "发蜡…枕头都一阵味")
        return False
    return keeps_food_off(constraint) or _EATEN_ZH.search(constraint.source) is not None


# Things no one eats, whatever the words around them say of smells (and a thing done: "跟黄牛买一张票").
_NOT_FOOD_ZH = re.compile(
    r"票|跟|买|坐|住|玩|唱|发蜡|发胶|发泥|啫喱|摩丝|香水|香薰|喷雾|油漆|洗发|护发|染发|烫发|化妆|口红|粉底|指甲|纹身|首饰|衣|鞋|袜|帽"
)


def none_of_it_zh(said: str, constraint: Constraint) -> str:
    """``said`` (the person's words said back) with the thing it keeps off refused after it: food left
    out ("所以不放榴莲"), else the thing not done (:func:`not_doing_zh`); as it was when the words do not
    name the thing, refuse it already, or the thing has no Chinese name."""
    noun = constraint.noun_zh
    # (only words that name the thing: "因为你爸查出来痛风了，" says the reason, not the thing)
    # (a Latin name counts when the Chinese words say it: "最腻歪的就是KTV")
    named = has_han(noun) or (has_han(said) and re.fullmatch(r"[A-Za-z]{2,8}", noun) is not None)
    if not noun or not named or noun not in said or re.search(_REFUSED_ZH + re.escape(noun), said):
        return said
    refused = f"不放{noun}" if eaten_zh(constraint) else not_doing_zh(noun, constraint.source)
    return f"{said.rstrip('，, ')}，所以{refused}，"
