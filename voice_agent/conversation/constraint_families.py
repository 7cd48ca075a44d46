"""Things a reaction rules out by family, as an allergist or a nurse names them: the daisy family
(chamomile is one: "GP said it's the daisy family, same lot as ragweed"), mango and its urushiol kin
("the allergist said it's the same urushiol family as poison ivy"), tropical fruit told of by its look and
not named, the sugar alcohols of sugar-free sweets ("Maltitol, apparently … so it's defo the
sweeteners"), and eucalyptus with the chest rubs and inhalant oils made of it (Vicks, Olbas). Each is a
:class:`Topic` like a food's (``constraint_terms`` lists it): the person names the family or one member,
and a reply that offers any member breaks the rule ("a cup of chamomile tea" to someone who reacts to the
daisy family).
"""

from __future__ import annotations

from voice_agent.conversation.constraint_topic import Topic
from voice_agent.conversation.constraint_topic import zh_terms as _zh

FAMILIES: tuple[Topic, ...] = (
    Topic(
        "daisy family", "chamomile and the daisy family", "洋甘菊这类菊科植物",
        ("daisy family", "compositae", "asteraceae", "chamomile", "camomile", "ragweed", "洋甘菊", "菊科"),
        ("chamomile", "camomile", "echinacea", "arnica", "calendula", "feverfew", "yarrow", "mugwort",
         "ragweed", "wormwood", "dandelion tea", "sleepytime"),
        _zh("洋甘菊", "甘菊", "菊科", "金盏花", "紫锥菊", "山金车", "蒲公英茶"),
    ),
    Topic(
        "mango", "mango", "芒果",
        ("mango", "mangoes", "mangos", "aamras", "urushiol", "芒果"),
        ("mango", "mangoes", "mangos", "aamras", "amras", "mango lassi", "amchur", "amchoor", "mango sorbet",
         "alphonso", "kesar"),
        _zh("芒果", "杨枝甘露", "芒果班戟", "芒果布丁", "芒果干"),
    ),
    # A fruit told of by its look and not named ("青皮黄肉、中间一块扁扁大核嘅热带水果", "that tropical fruit
    # with the big flat stone"): every tropical fruit is ruled out, as no one can say which it was.
    Topic(
        "tropical fruit", "tropical fruit", "热带水果",
        ("tropical fruit", "tropical fruits", "热带水果", "熱帶水果"),
        ("mango", "mangoes", "pineapple", "papaya", "passion fruit", "lychee", "durian", "guava", "jackfruit",
         "dragon fruit", "rambutan", "mangosteen", "starfruit", "tropical fruit"),
        _zh("芒果", "菠萝", "凤梨", "木瓜", "百香果", "荔枝", "榴莲", "番石榴", "芭乐", "菠萝蜜", "火龙果",
            "红毛丹", "山竹", "杨桃", "热带水果", "杨枝甘露"),
    ),
    Topic(
        "sugar alcohols", "sweeteners", "代糖",
        ("sugar alcohol", "sugar alcohols", "maltitol", "sorbitol", "xylitol", "erythritol", "sweetener",
         "sweeteners", "sugar-free sweets", "木糖醇", "麦芽糖醇", "山梨糖醇", "赤藓糖醇", "代糖"),
        ("maltitol", "sorbitol", "xylitol", "erythritol", "isomalt", "mannitol", "sugar alcohol",
         "sugar-free sweets", "sugar-free gum", "sugar-free mints", "sugar-free gummies", "sugar-free gummy",
         "sugar-free chocolate", "sugar-free candy", "sugar free sweets", "sugar free gum",
         "sugar free mints", "sweetener"),
        _zh("木糖醇", "麦芽糖醇", "山梨糖醇", "赤藓糖醇", "代糖", "无糖糖果", "无糖口香糖"),
    ),
    Topic(
        "eucalyptus", "eucalyptus", "桉树",
        ("eucalyptus", "eucalyptol", "桉树", "桉叶", "桉油", "尤加利"),
        ("eucalyptus", "eucalyptol", "vicks", "vaporub", "vapour rub", "vapor rub", "olbas", "karvol",
         "menthol and eucalyptus", "eucalyptus oil", "steam inhalation oil"),
        _zh("桉树", "桉叶", "桉油", "尤加利", "维克斯", "通鼻油"),
    ),
)  # fmt: skip
