"""Chinese words the name finder must not take for a person: foods, drinks and counted animals.

jieba's dictionary tags some everyday foods as person names (沙拉, 龙虾, 汤圆, 曲奇, 朱古力 are ``nr``), and
a surname-led run of unknown characters reads as a name by its shape (马卡龙, 舒芙蕾, 车厘子; 黄焖 in 黄焖鸡).
Scrubbed, "周末想给老婆做个水果沙拉" reaches the LLM as "做个水果[NAME:…]", and a salad question has no salad.
A run is a thing, not a person, when it is a known food word, when a dish word follows it directly
(黄焖|鸡, 马拉|糕, 华夫|饼: a name is not followed by 鸡, 糕 or 汤), or when it is what someone eats or drinks
and the clause ends with it ("想吃杨梅。", "来一份凯撒沙拉"; "吃张伟做的菜" keeps 张伟 a name).
"""

from __future__ import annotations

import re

# Foods and drinks that a surname starts (the ones that read as names); 杨梅 is left to context, since
# 杨梅 is also a person's name.
FOODS_ZH = frozenset(
    (
        "沙拉", "沙拉酱", "凯撒沙拉", "龙虾", "小龙虾", "汤圆", "罗宋汤", "朱古力", "曲奇", "卡布奇诺",
        "沙茶", "沙茶酱", "金桔", "桑葚", "杨桃", "马卡龙", "舒芙蕾", "沙琪玛", "萨其马", "车厘子",
        "蒙布朗", "司康", "戚风", "马提尼", "何首乌", "康师傅", "黄桃", "华夫饼", "马拉糕", "黄焖鸡",
        "白切鸡", "宫保鸡丁", "提拉米苏", "马蹄", "龙眼", "龙井", "毛尖", "毛豆", "毛肚", "金针菇",
        "方便面", "白粥", "黄瓜", "白菜", "石榴", "柚子", "麻糬", "麻糍",
    )
)  # fmt: skip
_DISH_AFTER = re.compile(r"^[鸡鸭糕饼汤酱粥羹煲]")
_EATEN_BEFORE = re.compile(
    r"(?:吃|喝|尝尝|尝|品尝|点了?|来|买了?)(?:一|两|几|半)?(?:份|碗|杯|盘|个|块|串|盒|瓶|点|些|斤)?$"
)
_CLAUSE_ENDS = re.compile(r"^(?:$|[，。,.！？!?；;、\s]|和|或|吧|了|呢|吗|啊)")


# The last character of a two-character food or plant word that no given name ends in (香椿, 木耳, 菌菇,
# 冬笋, 莲藕): jieba tags several of them as names. Characters names do use (梅, 兰, 菊, 莲, 桃, 杏) are not
# here, and a doubled pet name (豆豆) is no food word.
_FOOD_END = frozenset("菇耳椿笋藕菜瓜薯椒蒜葱韭芹菌茄枣粽糕饼面粉汤酱醋肉虾蟹螺蛋麦梨橙柑茶奶糬糍")


# An animal counted as one ("一只柯基", "那只两个月大嘅柯基", "养了条金毛的"): a person is counted
# with 个 or 位, so a run after 只, 条, 头 or 匹 (with a numeral or 这 / 那 before it, and only a
# modifier ending in 的 / 嘅 between) is a breed or a pet's kind. "这只猫是张三的" keeps 张三: the
# words between end in no 的.
_COUNTED_ANIMAL = re.compile(r"[一两二三四五六七八九十几这那][只头匹条](?:[^，。,.!?！？；;\s]{0,8}[的嘅])?$")


def is_thing(text: str, start: int, end: int) -> bool:
    """Whether the run ``text[start:end]`` (a surname-led run, or a given name read from its place)
    names a food, a drink or an animal counted as one, rather than a person."""
    if _COUNTED_ANIMAL.search(text[max(0, start - 12) : start]):
        return True
    run = text[start:end]
    after = text[end:]
    if run in FOODS_ZH or any(text[start : end + extra] in FOODS_ZH for extra in (1, 2)):
        return True
    if len(run) == 2 and run[0] != run[1] and run[1] in _FOOD_END:
        return True
    if _DISH_AFTER.match(after):
        return True
    return bool(_EATEN_BEFORE.search(text[max(0, start - 6) : start])) and bool(_CLAUSE_ENDS.match(after))
