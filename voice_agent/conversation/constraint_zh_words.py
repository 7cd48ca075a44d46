"""Chinese food words that also sit inside words meaning something else: 肉 in 肉桂 is cinnamon, 鸡 in 鸡蛋
is an egg, 鱼 in 闲鱼 is an app, 炸 in "又吼又炸的课" is noise. Each carries the contexts in which it names
no food (``ZhTerm``), for the topics of ``constraint_terms``."""

from __future__ import annotations

from voice_agent.conversation.constraint_topic import ZhTerm

# 鹅肉 / 驴肉 name one animal's meat (a rule about it is not about all meat); the meat topic lists them.
ONE_ANIMAL_ZH = ("鹅", "鸭", "驴", "兔", "狗", "马", "鹿", "蛙", "蛇")
MEAT_ZH = ZhTerm(
    "肉",
    # (黄肉, 椰肉, 桂圆肉: a fruit's flesh, "青皮黄肉的热带水果")
    not_before=("果", "肌", "素", "人造", "植物", "假", "黄", "椰", "桂圆", "龙眼", *ONE_ANIMAL_ZH),
    not_after=("桂", "豆蔻", "松"),
)
# (鸡枞, 鸡油菌, 鸡腿菇 are mushrooms, 鸡头米 a water-lily seed)
CHICKEN_ZH = ZhTerm("鸡", not_after=("蛋", "尾酒", "毛菜", "枞", "纵", "油菌", "腿菇", "头米"))
# (鱿鱼, 墨鱼, 鲍鱼, 甲鱼 are no fish, 闲鱼 is an app; 鱼香 is a sauce with none in it)
FISH_ZH = ZhTerm("鱼", not_before=("鲸", "鱿", "墨", "鲍", "甲", "章", "鳄", "闲"), not_after=("腥草", "香"))
# (炸 of noise, not of food: "又吼又炸的课", "炸耳朵", "炸场", "炸街", "炸锅", "炸毛", "炸裂")
FRIED_ZH = ZhTerm(
    "炸",
    not_before=("爆", "轰", "油炸酱", "吼又", "吵"),
    not_after=("酱", "弹", "药", "的课", "耳", "场", "街", "锅", "毛", "裂"),
)
