"""Chinese words the name finder must not take for a person: foods, drinks, woods and counted animals.

jieba's dictionary tags some everyday foods as person names (沙拉, 龙虾, 汤圆, 曲奇, 朱古力 are ``nr``), and
a surname-led run of unknown characters reads as a name by its shape (马卡龙, 舒芙蕾, 车厘子; 黄焖 in 黄焖鸡).
Scrubbed, "周末想给老婆做个水果沙拉" reaches the LLM as "做个水果[NAME:…]", and a salad question has no salad.
A run is a thing, not a person, when it is a known food word (a fruit, which can be a pet name too,
unless a person's act follows it: "桃子说…"), when a dish word follows it directly (黄焖|鸡, 马拉|糕,
华夫|饼: a name is not followed by 鸡, 糕 or 汤), or when it is what someone eats or drinks and the
clause ends with it ("想吃杨梅。", "来一份凯撒沙拉"; "吃张伟做的菜" keeps 张伟 a name).
"""

from __future__ import annotations

import re

from voice_agent.text.dialect_zh import cantonese

# Words for a shop or an institution: a name run into one is the place's ("福寿康大药房", "李记面馆"), not a
# person's, and a place sworn off is often said with one ("那家福寿康大药房").
SHOP_WORDS_ZH = (
    "大?药房|大?药店|超市|面馆|饭馆|饭店|酒店|酒楼|餐厅|医院|诊所|门诊|公司|银行|商场|百货|宾馆|茶楼|火锅店|"
    "书店|花店|健身房|理发店"
)
# Foods and drinks that a surname starts (the ones that read as names).
FOODS_ZH = frozenset(
    (
        "沙拉", "沙拉酱", "凯撒沙拉", "龙虾", "小龙虾", "汤圆", "罗宋汤", "朱古力", "曲奇", "卡布奇诺",
        "沙茶", "沙茶酱", "金桔", "桑葚", "杨桃", "马卡龙", "舒芙蕾", "沙琪玛", "萨其马", "车厘子",
        "蒙布朗", "司康", "戚风", "马提尼", "何首乌", "康师傅", "黄桃", "华夫饼", "马拉糕", "黄焖鸡",
        "白切鸡", "宫保鸡丁", "提拉米苏", "马蹄", "龙眼", "龙井", "毛尖", "毛豆", "毛肚", "金针菇",
        "方便面", "白粥", "黄瓜", "白菜", "石榴", "柚子", "麻糬", "麻糍", "胡萝卜", "红萝卜", "白萝卜",
        "桂圆", "章鱼", "马苏里拉", "安慕希", "钟薛高", "费列罗", "卫龙", "康乃馨", "柯基", "史努比",
        "黄酒", "米酒", "白酒",
    )
)  # fmt: skip
# Fruits, nuts and dishes jieba tags as names or a surname starts (李子, 梅子, 栗子 are ``nr``; 毛血旺
# reads as 毛 + a given name). Some are pet names too (桃子, 梅子), so one is a person only when a person's
# act follows it ("桃子说她晚点到"); "对桃子过敏", "李子和梅子都很酸", "杨梅也不错" are fruit.
FRUITS_ZH = frozenset(
    (
        "桃子", "李子", "梅子", "杏子", "栗子", "板栗", "柚子", "橘子", "桔子", "柿子", "梨子", "枣子",
        "榛子", "杨梅", "杨桃", "黄桃", "蜜桃", "水蜜桃", "油桃", "蟠桃", "核桃", "胡桃", "金桔", "凤梨",
        "樱桃", "荔枝", "龙眼", "枇杷", "山楂", "李子干", "梅干", "话梅", "毛血旺", "麻婆豆腐", "钟水饺",
        "龙抄手", "赖汤圆", "胡辣汤", "羊肉串", "东坡肉", "水煮鱼", "罗汉果", "杨枝甘露", "年糕", "包子",
        "牛柳",
    )
)  # fmt: skip
_PERSON_ACT_AFTER = re.compile(
    r"^(?:说|讲|问|告诉|打电话|打了|发微信|让|叫我|刚|已经|过来|来了|回来|回家|今天|明天|昨天|早上|晚上)"
)
# ... or a person's role or 叫 right before it ("我同事杨梅明天来", "我侄女叫梅子").
_PERSON_ROLE_BEFORE = re.compile(
    r"(?:同事|同学|朋友|邻居|室友|闺蜜|女儿|儿子|闺女|老婆|老公|妹妹|姐姐|哥哥|弟弟|表姐|表妹|堂姐|堂妹"
    r"|侄女|外甥女|孙女|宝宝|叫|名叫|叫做|小名是|名字是)$"
)
_DISH_AFTER = re.compile(r"^[鸡鸭糕饼汤酱粥羹煲屑]")
_EATEN_BEFORE = re.compile(
    r"(?:吃|喝|尝尝|尝|品尝|点了?|来|买了?)(?:一|两|几|半)?(?:份|碗|杯|盘|个|块|串|盒|瓶|点|些|斤)?$"
)
_CLAUSE_ENDS = re.compile(r"^(?:$|[，。,.！？!?；;、\s]|和|或|吧|了|呢|吗|啊)")


# The last character of a two-character food or plant word that no given name ends in (香椿, 木耳, 菌菇,
# 冬笋, 莲藕): jieba tags several of them as names. Characters names do use (梅, 兰, 菊, 莲, 桃, 杏) are not
# here, and a doubled pet name (豆豆) is no food word.
_FOOD_END = frozenset("菇耳椿笋藕菜瓜薯椒蒜葱韭芹菌茄枣粽糕饼面粉汤酱醋肉虾蟹螺蛋麦梨橙柑茶奶糬糍")
# ... and of a wood or a skin reaction said with an allergy (松木, 柏木, 杉木; 风团): jieba tags 松木 and 柏木
# as names, and a scrubbed "一沾[NAME]屑就起风团" loses the allergy.
_MATERIAL_END = frozenset("木团疹")
_DIET_END = frozenset("素斋荤")


# An animal counted as one ("一只柯基", "那只两个月大嘅柯基", "养了条金毛的"): a person is counted
# with 个 or 位, so a run after 只, 条, 头 or 匹 (with a numeral or 这 / 那 before it, and only a
# modifier ending in 的 / 嘅 between) is a breed or a pet's kind. "这只猫是张三的" keeps 张三: the
# words between end in no 的.
_COUNTED_ANIMAL = re.compile(r"[一两二三四五六七八九十几这那][只头匹条](?:[^，。,.!?！？；;\s]{0,8}[的嘅])?$")


# No given name goes on with eating or drinking: a run of a surname and 吃, 喝, 碰 or 沾 is a word and a verb
# ("尽量莫吃" in Hunan and Sichuan speech is "try not to eat it"; "你爱喝就喝").
_VERB_SECOND = re.compile(r"^.[吃喝碰沾]")
# Cantonese words that a surname starts (in Cantonese speech only, and not after a role: 仲 is a surname
# too): 仲 ("still", "仲出晒风团"), 成 of "whole" ("成身汗", "成日"), 部 counting a vehicle ("等部车").
_CANTONESE_WORD = re.compile(r"^(?:仲|成[身日晚个班世朝]|部[车机手电])")
# 路 after a verb of going about it: "兜路行" (take the long way), "带路", "问路".
_BEFORE_LU = frozenset("兜带问识揾认探开让走")
# A verb of making small, then 成: the 成 of "into" ("剁成末藏饺子馅里", "切成丁"), no surname.
_COOKED = frozenset("烧炖煮泡做炒蒸拌烤煎炸焖卤腌")
_CUT_BEFORE_CHENG = frozenset("剁切磨打碾压捣捏搓揉做变煮烤蒸炸熬煎拌撕掰折")


def is_thing(text: str, start: int, end: int) -> bool:
    """Whether the run ``text[start:end]`` (a surname-led run, or a given name read from its place)
    names a food, a drink or an animal counted as one, rather than a person."""
    if _COUNTED_ANIMAL.search(text[max(0, start - 12) : start]):
        return True
    run = text[start:end]
    cantonese_word = _CANTONESE_WORD.match(run) and not _PERSON_ROLE_BEFORE.search(text, 0, start)
    if (cantonese_word and cantonese(text)) or (
        run[:1] == "路" and text[max(0, start - 1) : start] in _BEFORE_LU
    ):
        return True
    if _VERB_SECOND.match(run) or (run[:1] == "成" and text[max(0, start - 1) : start] in _CUT_BEFORE_CHENG):
        return True
    if run[-1:] in _DIET_END and text[max(0, start - 2) : start].endswith(("吃", "茹", "持")):
        return True  # a diet eaten: "跟着阿嬷吃全素的", "吃长斋"
    after = text[end:]
    if run in FRUITS_ZH:
        person = _PERSON_ACT_AFTER.match(after) or _PERSON_ROLE_BEFORE.search(text, 0, start)
        if not person:
            return True
    if run in FOODS_ZH or any(text[start : end + extra] in FOODS_ZH for extra in (1, 2)):
        return True
    if run[:-1] in FOODS_ZH and run[-1] in _COOKED:  # "黄酒烧的菜": a food and how it is cooked
        return True
    if len(run) == 2 and run[0] != run[1] and (run[1] in _FOOD_END or run[1] in _MATERIAL_END):
        return True
    if _DISH_AFTER.match(after):
        return True
    return bool(_EATEN_BEFORE.search(text[max(0, start - 6) : start])) and bool(_CLAUSE_ENDS.match(after))
