"""Dishes of a named cuisine, for a request to order or cook at a restaurant of that kind.

"同事要带我去食客家菜，仲要我来点菜" is a request for a dish, but the everyday options of a dinner
("番茄炒蛋配米饭") are no answer at a Hakka table, and the 0.5B model copies the option it is shown. When
the turn names a cuisine, the options are that cuisine's well-known dishes, each with what it is made of
for the constraint check (so 梅菜扣肉 is never offered to someone off fatty pork, nor pad thai to someone
allergic to peanuts).
"""

from __future__ import annotations

import re

from voice_agent.conversation.suggestion_option import RequestKind
from voice_agent.conversation.suggestion_option import option as _o

_I = re.IGNORECASE


def _cuisine(name: str, asked: str, en: tuple[str, ...], zh: tuple[str, ...]) -> RequestKind:
    """A cuisine's kind; each option is "dish|ingredient|ingredient…"."""
    return RequestKind(
        f"cuisine:{name}",
        re.compile(asked, _I),
        tuple(_o(*item.split("|")) for item in en),
        tuple(_o(*item.split("|")) for item in zh),
    )


CUISINES: tuple[RequestKind, ...] = (
    _cuisine(
        "hakka", r"\bhakka\b|客家",
        (
            "salt-baked chicken|chicken",
            "stuffed tofu (yong tau foo)|tofu|soy|pork",
            "lei cha (pounded tea rice)|tea",
        ),
        ("盐焗鸡|鸡肉", "客家酿豆腐|豆腐|猪肉", "擂茶|茶", "娘酒鸡|鸡肉|酒"),
    ),
    _cuisine(
        "cantonese", r"\bcantonese\b|\bdim sum\b|粤菜|广东菜|早茶|饮茶",
        ("white-cut chicken with ginger-scallion sauce|chicken", "steamed fish with ginger and scallion|fish",
         "char siu roast pork|pork|sugar", "steamed shrimp dumplings (har gow)|shrimp|shellfish|flour"),
        ("白切鸡|鸡肉", "清蒸鱼|鱼", "虾饺|虾|海鲜", "叉烧|猪肉|糖"),
    ),
    _cuisine(
        "sichuan", r"\bsichuan\b|\bszechuan\b|川菜|四川菜",
        ("mapo tofu|tofu|soy|spicy|pork", "kung pao chicken|chicken|peanut|nuts|spicy",
         "dry-fried green beans|spicy|pork"),
        ("麻婆豆腐|豆腐|辣|猪肉", "宫保鸡丁|鸡肉|花生|坚果|辣", "干煸四季豆|辣|猪肉"),
    ),
    _cuisine(
        "hunan", r"\bhunan(?:ese)?\b|湘菜|湖南菜",
        (
            "steamed fish head with chopped chillies|fish|spicy",
            "stir-fried pork with green peppers|pork|spicy",
        ),
        ("剁椒鱼头|鱼|辣", "农家小炒肉|猪肉|辣", "手撕包菜|辣"),
    ),
    _cuisine(
        "jiangnan",
        # (a meal in Suzhou, Hangzhou or Shanghai: "去苏州阳澄湖那边…点点啥好")
        r"\bshanghai(?:nese)? (?:food|restaurant|cuisine)\b|本帮菜|杭帮菜|苏帮菜|江浙菜|淮扬菜|"
        r"苏州|杭州|无锡|阳澄湖|上海",
        ("West Lake fish in vinegar sauce|fish|sugar", "Longjing tea shrimp|shrimp|shellfish|tea",
         "braised lion's head meatballs|pork"),
        (
            "松鼠鳜鱼|鱼|糖",
            "西湖醋鱼|鱼|糖",
            "清炒鸡头米|芡实",
            "龙井虾仁|虾|海鲜|茶",
            "太湖三白（白鱼、白虾、银鱼）|鱼|虾|海鲜",
        ),
    ),
    _cuisine(
        "dongbei", r"\bnorth-?eastern chinese\b|东北菜",
        (
            "sweet and sour crispy pork (guo bao rou)|pork|sugar|flour",
            "di san xian (potato, aubergine, pepper)|potato",
        ),
        ("锅包肉|猪肉|糖", "地三鲜|土豆|茄子", "小鸡炖蘑菇|鸡肉|蘑菇"),
    ),
    _cuisine(
        "italian", r"\bitalian\b|意大利菜|意餐",
        ("a margherita pizza|cheese|dairy|flour|gluten|tomato",
         "spaghetti alla puttanesca|pasta|gluten|fish|tomato",
         "a mushroom risotto|rice|mushroom|dairy|cheese", "grilled sea bass with lemon|fish"),
        ("玛格丽特披萨|芝士|奶|面粉", "意式烩饭|米饭|奶酪", "番茄意面|意面|面粉|番茄"),
    ),
    _cuisine(
        "indian", r"\bindian\b|印度菜",
        ("chicken tikka masala|chicken|dairy|spicy", "chana masala (chickpea curry)|chickpea|spicy",
         "dal tadka with rice|lentil|rice", "palak paneer|cheese|dairy|spinach"),
        ("印度烤鸡|鸡肉|辣", "鹰嘴豆咖喱|鹰嘴豆|辣", "黄扁豆汤配米饭|豆|米饭"),
    ),
    _cuisine(
        "thai", r"\bthai\b|泰国菜|泰餐",
        ("green curry with chicken|chicken|coconut|spicy",
         "pad thai|noodles|peanut|nuts|egg|shrimp|shellfish",
         "tom yum soup|shrimp|shellfish|spicy", "mango sticky rice|mango|coconut|rice"),
        ("绿咖喱鸡|鸡肉|椰子|辣", "冬阴功汤|虾|海鲜|辣", "芒果糯米饭|芒果|椰子|米饭"),
    ),
    _cuisine(
        "japanese", r"\bjapanese (?:food|restaurant|place|meal|dinner|lunch)\b|日料|日本料理|日本菜",
        ("chicken teriyaki with rice|chicken|soy|sugar", "a bowl of ramen|noodles|gluten|pork|egg",
         "vegetable tempura|flour|gluten|egg", "salmon sashimi|fish|raw"),
        ("照烧鸡饭|鸡肉|酱油|糖", "拉面|面|猪肉|鸡蛋", "天妇罗|面粉|鸡蛋", "三文鱼刺身|鱼|生"),
    ),
    _cuisine(
        "mexican", r"\bmexican\b|墨西哥菜",
        ("chicken fajitas|chicken|spicy", "bean and cheese burritos|beans|cheese|dairy|flour|gluten",
         "fish tacos|fish|corn", "guacamole with tortilla chips|avocado|corn"),
        ("鸡肉法士达|鸡肉|辣", "墨西哥卷饼|豆|奶酪|面粉", "牛油果酱配玉米片|牛油果|玉米"),
    ),
    _cuisine(
        "greek", r"\bgreek\b|希腊菜",
        ("a Greek salad|cheese|dairy|olive", "chicken souvlaki|chicken", "moussaka|aubergine|lamb|dairy"),
        ("希腊沙拉|奶酪|橄榄", "希腊烤肉串|鸡肉"),
    ),
    _cuisine(
        "korean", r"\bkorean\b|韩国菜|韩餐|韩料",
        ("bibimbap|rice|egg|beef|spicy", "bulgogi beef|beef|soy|sugar", "kimchi pancake|flour|gluten|spicy"),
        ("石锅拌饭|米饭|鸡蛋|牛肉|辣", "韩式烤牛肉|牛肉|酱油", "海鲜葱饼|海鲜|面粉"),
    ),
    _cuisine(
        "vietnamese", r"\bvietnamese\b|越南菜",
        ("a bowl of pho|noodles|beef", "fresh rice-paper rolls|rice|shrimp|shellfish|peanut|nuts",
         "banh mi|bread|gluten|pork"),
        ("越南牛肉河粉|米粉|牛肉", "越南春卷|米|虾|海鲜|花生"),
    ),
)  # fmt: skip


def cuisine_kind(user_words: str) -> RequestKind | None:
    """The cuisine the turn names ("客家菜", "a Thai place"), or None."""
    return next((kind for kind in CUISINES if kind.asked.search(user_words)), None)
