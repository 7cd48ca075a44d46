"""Foods a gut or a custom rules out, beyond ``constraint_terms``'s main list: onions (with garlic, the
usual fructan trigger of IBS: "onion and garlic absolutely wreck me"), glutinous rice (糯米: hard to digest
for a weak stomach, and it is in most festival food: 粽子, 汤圆, 年糕) and the month of confinement after a
birth (坐月子: nothing cold, raw, iced or spicy, no crab and no alcohol); and the families a reaction rules
out (``constraint_families``). Each is a :class:`Topic` like a food's (``constraint_terms`` lists it)."""

from __future__ import annotations

from voice_agent.conversation.constraint_families import FAMILIES
from voice_agent.conversation.constraint_topic import Topic, ZhTerm
from voice_agent.conversation.constraint_topic import zh_terms as _zh

REGIMES: tuple[Topic, ...] = (
    Topic(
        "onion", "onion", "洋葱",
        ("onion", "onions", "shallot", "shallots", "洋葱"),
        ("onion", "onions", "shallot", "shallots", "onion powder", "french onion", "onion rings",
         "caramelised onion", "caramelized onion", "red onion", "spring onion", "leek", "leeks"),
        _zh("洋葱", "红葱头", "葱头", "洋葱圈"),
    ),
    Topic(
        "glutinous rice", "glutinous rice", "糯米",
        ("glutinous rice", "sticky rice", "mochi", "糯米", "江米", "黏米"),
        ("glutinous rice", "sticky rice", "mochi", "zongzi", "tangyuan", "rice dumpling", "nian gao",
         "rice cake", "tang yuan"),
        _zh("糯米", "江米", "粽子", "汤圆", "元宵", "年糕", "糍粑", "青团", "麻薯", "麻糬", "八宝饭",
            "驴打滚", "糯米糍", "艾窝窝", "粢饭"),
    ),
    Topic(
        "confinement", "cold, raw or spicy food", "生冷辛辣",
        ("坐月子", "月子里", "月子期间", "postpartum confinement", "confinement month", "doing the month"),
        ("ice cream", "iced", "cold drink", "cold drinks", "sushi", "sashimi", "raw fish", "spicy", "chilli",
         "chili", "hot sauce", "crab", "beer", "wine", "cocktail", "salad"),
        _zh(ZhTerm("冰", not_before=("滑", "溜"), not_after=("箱", "糖")), "冷饮", "凉拌", "生鱼", "刺身",
            "辣", "螃蟹", "大闸蟹", "啤酒", "冰镇", "雪糕", "冰淇淋", "冰激凌", "火锅", "凉菜", "寿司"),
    ),
    # Cooling remedies (寒凉, 凉性): what a "cold" stomach (脾胃虚寒) cannot take, by the Chinese reckoning
    # that a sore throat or 上火 is treated with: herbal teas and granules that clear heat.
    Topic(
        "cooling remedies", "cooling herbal remedies", "凉性的药和凉茶",
        ("寒凉", "凉性", "性凉", "清热解毒", "凉茶", "板蓝根", "夏桑菊", "cooling herbs", "cooling herbal"),
        ("herbal tea", "chrysanthemum tea", "cooling tea", "cooling herbs", "honeysuckle", "banlangen",
         "wong lo kat", "mung bean soup", "bitter melon"),
        _zh("凉茶", "板蓝根", "夏桑菊", "菊花茶", "金银花", "王老吉", "加多宝", "清热解毒", "绿豆汤", "苦瓜",
            "黄连", "蒲公英", "胖大海", "下火", "降火", "去火", "双黄连", "黄芩", "牛黄解毒"),
    ),
    # Fat (a low-fat diet after pancreatitis, a gallbladder, a cholesterol scare; a dog's too): the rich,
    # fatty or greasy things a reply would suggest.
    Topic(
        "fat", "fatty food", "油腻的东西",
        ("fatty food", "fatty foods", "fatty", "greasy", "high-fat", "high fat", "肥肉", "油腻", "高脂",
         "荤油", "猪油"),
        ("butter", "cream", "double cream", "whipped cream", "cheese", "cream cheese", "bacon", "sausage",
         "lard", "dripping", "pork belly", "pork crackling", "salami", "pepperoni", "mayonnaise", "mayo",
         "peanut butter", "fatty", "greasy", "fry-up", "deep-fried", "fried chicken", "chips", "crisps",
         "pastry", "gravy"),
        _zh("肥肉", "五花肉", "红烧肉", "猪油", "黄油", "奶油", "芝士", "奶酪", "油炸", "炸鸡", "肥牛",
            "肥肠", "扣肉", "腊肉", "香肠", "培根", "蛋黄酱", "油腻", "荤油", "地三鲜"),
    ),
    # Honey: an animal product a vegan keeps off (``constraint_diets``), and a thing of its own.
    Topic(
        "honey", "honey", "蜂蜜",
        ("honey", "蜂蜜"),
        ("honey", "honeycomb", "manuka", "mead", "honey-glazed", "honey glazed"),
        _zh("蜂蜜", "蜂蜜水", "蜂蜜柚子茶", "蜂巢蜜"),
    ),
    *FAMILIES,
)  # fmt: skip

# Conditions whose diet is low in fat (``constraint_terms.CONDITIONS``): the pancreas, the gallbladder.
REGIME_CONDITIONS: dict[str, tuple[str, str]] = {
    "pancreatitis": ("fat", "avoid"), "gallstones": ("fat", "avoid"), "gallbladder": ("fat", "avoid"),
    "胰腺炎": ("fat", "avoid"), "胆结石": ("fat", "avoid"), "胆囊炎": ("fat", "avoid"),
    "胆囊切除": ("fat", "avoid"), "切了胆囊": ("fat", "avoid"), "胆囊切了": ("fat", "avoid"),
}  # fmt: skip
