"""Diets: the topics each rules out, how to name it in a sentence, and what fits a fast."""

from __future__ import annotations

import functools
import re

from voice_agent.text.cjk import has_han

# Diets: the topics a diet rules out, with how to name it in a sentence.
DIETS: dict[str, tuple[tuple[str, ...], str, str, tuple[str, ...], str, str]] = {
    # key: (keys that state it, English adjective, Chinese phrase, topics ruled out, what to avoid in a
    # sentence: English, Chinese)
    "vegetarian": (("vegetarian", "veggie", "吃素", "素食", "素食者", "不吃荤", "吃斋", "肉边菜",
                    "长素", "长斋", "荤腥不沾", "荤腥一点不沾", "荤腥一点都不沾", "不沾荤腥", "不吃荤腥"),
                   "vegetarian", "吃素",
                   ("meat", "fish", "shellfish"), "meat and fish", "肉和鱼"),
    "vegan": (("vegan", "plant-based", "plant based", "纯素", "严格素食", "全素"), "vegan", "吃纯素",
              ("meat", "fish", "shellfish", "dairy", "eggs", "honey"), "animal products", "动物制品"),
    "pescatarian": (("pescatarian", "pescetarian", "鱼素"), "pescatarian", "只吃鱼素", ("meat",),
                    "meat", "肉"),
    # (and the blessing or the slaughter that makes it so: "done proper with the bismillah")
    # (回回: how Hui families in the north-west call themselves, "我们家是老回回")
    "halal": (("halal", "清真", "穆斯林", "回族", "回民", "回回", "bismillah", "zabiha", "zabihah",
               "dhabiha"),
              "keeping halal", "吃清真", ("pork", "alcohol"), "pork and alcohol", "猪肉和酒"),
    # (said the way a kosher home says it: "nothing treif comes through the door", "two sets of dishes")
    # (or the authority that certifies it: "if the butcher hasn't got the Beth Din's stamp on it")
    "kosher": (("kosher", "犹太洁食", "treif", "treyf", "trayf", "two sets of dishes", "milchig", "fleishig",
                "beth din", "hechsher", "kashrut", "glatt"),
               "keeping kosher", "吃犹太洁食", ("pork", "shellfish"),
               "pork and shellfish", "猪肉和贝类"),
    "sober": (("sober", "teetotal", "teetotaler", "don't drink", "do not drink", "don't drink alcohol",
               "quit drinking", "stopped drinking", "gave up drinking", "gave up alcohol",
               "不喝酒", "戒酒", "滴酒不沾"), "not drinking alcohol", "不喝酒", ("alcohol",), "alcohol",
              "酒"),
    "gluten-free": (("gluten-free", "gluten free", "无麸质"), "gluten-free", "不吃麸质", ("gluten",),
                    "gluten", "麸质"),
    "dairy-free": (("dairy-free", "dairy free", "无乳制品"), "dairy-free", "不吃乳制品", ("dairy",),
                   "dairy", "乳制品"),
    "keto": (("keto", "ketogenic", "low-carb", "low carb", "no carbs", "no carb", "carb-free", "zero carb",
              "生酮", "低碳水", "低碳饮食", "断碳"), "eating low-carb", "少吃碳水",
             ("carbs", "sugar"), "carbs and sugar", "主食和甜食"),
    "jain": (("jain", "jains", "耆那教", "耆那"), "keeping a Jain diet", "吃耆那教素食",
             ("meat", "fish", "shellfish", "eggs", "roots"), "meat, fish, eggs and root vegetables",
             "肉、鱼、蛋和根茎类蔬菜"),
    "pregnancy": (("pregnant", "expecting a baby", "my midwife", "morning sickness", "trimester",
                   "we're expecting", "i'm expecting", "the midwife told", "the midwife said",
                   "the midwife gave", "the midwife says", "antenatal class", "antenatal appointment",
                   "prenatal vitamins", "prenatal appointment", "prenatal yoga", "baby scan",
                   "week scan", "anomaly scan", "baby bump", "my obstetrician", "my ob-gyn", "怀孕", "孕期",
                   "孕妇", "怀了宝宝", "怀上了", "孕早期", "孕中期", "孕晚期", "产检"),
                  "pregnant", "怀孕",
                  ("alcohol", "raw"), "alcohol and raw food", "酒和生食"),
    # A fast rules out no food by name: when it applies, the reply is opened with it and the turn's note
    # says what fits it (``DIET_ADVICE``).
    "fasting": (("intermittent fasting", "intermittent fast", "16:8", "eating window",
                 "nothing to eat before", "don't eat before", "do not eat before", "skip breakfast",
                 "skipping breakfast", "轻断食", "间歇性断食", "间歇断食", "168断食", "16:8断食", "过午不食",
                 "不吃早饭", "不吃早餐"),
                "fasting", "在断食", (), "food outside your eating window", "进食时间以外的东西"),
    "ramadan": (("ramadan", "ramzan", "roza", "斋月", "封斋", "把斋"), "fasting for Ramadan", "在过斋月", (),
                "food or drink before sunset", "日落前的吃喝"),
    # A fast of another faith or none, told by its hours (the Bahá'í Fast, a vow): "nothing to eat or drink
    # from sunrise to sunset".
    "daylight-fast": (("sunrise to sunset", "sunrise till sunset", "sunrise until sunset", "dawn to dusk",
                       "dawn till dusk", "dawn until dusk", "sunup to sundown", "日出到日落", "从日出到日落"),
                      "fasting from sunrise to sunset", "白天在守斋", (), "food or drink before sunset",
                      "日落前的吃喝"),
    # Food a person can swallow safely (after a stroke, with new dentures): no dish of ours is sure to be.
    "soft": (("soft diet", "soft food", "soft foods", "pureed diet", "puréed diet", "minced and moist",
              "软食", "流食", "半流食", "吃软的", "只能吃软"), "on a soft diet", "只能吃软食", (),
             "hard, crunchy or chewy food", "硬的、脆的或嚼不动的东西"),
    # The Rastafari way of eating (natural food: no meat for most, no salt, no alcohol), named before the
    # low-salt diet its "no salt" also states: "Since you're keeping Ital", not "on a low-salt diet".
    "ital": (("ital", "i-tal", "ital diet", "ital food", "ital livity"), "keeping Ital", "吃Ital饮食",
             ("meat", "salt", "alcohol"), "meat, salt and alcohol", "肉、盐和酒"),
    "low-fat": (("low-fat", "low fat", "fat-restricted", "低脂", "低脂饮食", "少油少脂"), "on a low-fat diet",
                "吃低脂饮食", ("fat",), "fatty food", "油腻的东西"),
    "low-salt": (("low-salt", "low salt", "low-sodium", "low sodium", "salt-free", "no salt", "no added salt",
                  "少盐", "低盐", "低钠", "少吃盐", "控盐", "限盐", "盐要严格控", "heart failure", "心衰",
                  "心力衰竭"), "on a low-salt diet", "要低盐饮食",
                 ("salt",), "salty food", "咸的食物"),
}  # fmt: skip

# What fits a diet that rules out no food by name, said as the turn's note instead of "without …", and
# the suggestion said for it after the safe sentence (``DIET_SUGGESTION``): no food example of ours is
# sure to fit a fast or a soft diet, so none is offered.
DIET_SUGGESTION: dict[str, tuple[str, str]] = {
    "diet:soft": (
        "I'd suggest something soft and moist, like a fish pie with smooth mash or a slow-cooked stew.",
        "建议做软烂湿润的，比如炖得烂烂的土豆炖肉，或者蒸水蛋、豆腐羹。",
    ),
    "diet:fasting": (
        "I'd stick to water, black coffee or plain tea before your eating window.",
        "进食时间以前，建议只喝白水、黑咖啡或清茶。",
    ),
    "diet:ramadan": (
        "I'd keep the meal for after sunset, and suggest meeting for iftar instead.",
        "建议把这顿饭放到日落以后，一起吃开斋饭。",
    ),
    "diet:daylight-fast": (
        "I'd keep the meal for after sunset, and plan the daytime around things that aren't food.",
        "建议把这顿饭放到日落以后，白天安排些不用吃喝的活动。",
    ),
}
DIET_ADVICE: dict[str, tuple[str, str]] = {
    "diet:soft": (
        "Suggest only soft, moist food: nothing hard, crunchy, chewy or stringy.",
        "只推荐软烂、湿润的食物，不要硬的、脆的、嚼不动的。",
    ),
    "diet:fasting": (
        "I'm fasting: before my eating window, suggest only water, black coffee or plain tea.",
        "我在断食：进食时间以前，只推荐白水、黑咖啡或清茶。",
    ),
    "diet:ramadan": (
        "I'm fasting for Ramadan: nothing to eat or drink before sunset; suggest something for after it.",
        "我在过斋月：日落前不吃不喝，推荐日落以后吃的东西。",
    ),
    "diet:daylight-fast": (
        "Nothing to eat or drink from sunrise to sunset; suggest food for after sunset only.",
        "日出到日落不吃不喝，吃的只推荐日落以后的。",
    ),
}
# A diet with a name for what fits it: the suggestion says it ("I'd suggest a vegan cake.", "我建议选清真的
# 午饭"), the words a cook or a shop would look for, not only what it leaves out.
DIET_FITS: dict[str, tuple[str, str]] = {
    "diet:vegetarian": ("vegetarian", "素食的"),
    "diet:vegan": ("vegan", "纯素的"),
    "diet:halal": ("halal", "清真的"),
    "diet:kosher": ("kosher", "犹太洁食的"),
    "diet:gluten-free": ("gluten-free", "无麸质的"),
    "diet:dairy-free": ("dairy-free", "不含乳制品的"),
    "diet:low-fat": ("low-fat", "低脂的"),
    "spicy": ("mild", "不辣的"),  # (what a cook keeps it: "keeping it mild", not only "without spicy food")
}

# "I don't drink coffee" is not "I don't drink": a drink named after the verb is that drink only.
DRINKS_SOMETHING_ELSE = re.compile(
    r"\b(?:don't|do not|doesn't|does not|stopped|quit|gave up|given up)\s+drink(?:ing)?\s+"
    r"(?!alcohol|booze|wine|beer|liquor|spirits|at all|anymore|"
    r"any more|much|a lot|and\b|or\b)[a-z]"
)


def mentions_diet(lowered: str, key: str) -> bool:
    """Whether ``lowered`` names the diet word ``key`` as the person's diet (not a product: "some
    gluten-free breads")."""
    if key in DIETS["daylight-fast"][0] and not _FASTING_NEAR.search(lowered):
        return False  # hours alone are no fast: "I'd stand in a river from dawn to dusk for a salmon"
    if has_han(key):  # (not a street or quarter named after it: "去回民街咥了一碗羊肉泡馍")
        return any(
            not _PLACE_AFTER_ZH.match(lowered, m.end())
            and not (key.startswith("低") and _LOW_PRODUCT.match(lowered, m.end()))
            for m in re.finditer(re.escape(key), lowered)
        )
    # ("butter on his veggies": vegetables, not a vegetarian)
    plural = "" if key == "veggie" else "(?:s|es)?"
    for match in _diet_word(key, plural).finditer(lowered):
        if _FALLBACK_BEFORE.search(lowered, 0, match.start()):  # ("halal … or just eat vegetarian")
            continue
        if _LIKE_BEFORE.search(lowered, 0, match.start()):  # ("bloated until like pregnant")
            continue
        if key == "pregnant" and _NEWS_OF_BEFORE.search(lowered, 0, match.start()):
            continue
        if key.startswith("low") and _LOW_PRODUCT.match(lowered, match.end()):  # ("some low-fat yoghurt")
            continue
        if not (key.endswith("free") and _PRODUCTS.match(lowered, match.end())
                and _SOME_BEFORE.search(lowered, 0, match.start())):  # fmt: skip
            return True
    return False


# What makes sunrise-to-sunset hours a fast: not eating or drinking, said with them.
_FASTING_NEAR = re.compile(
    r"\b(?:fast|fasts|fasting|fasted|nothing to eat|no food|not eating|eat or drink|eating or drinking|"
    r"food or drink|food or water|no water|abstain\w*)\b|斋|禁食|不吃|不喝|吃喝|不进食"
)


# A diet's word as the way out when the person's own diet cannot be kept: "I only eat halal … even overseas
# I will find the halal-certified place or just eat vegetarian".
_FALLBACK_BEFORE = re.compile(r"\bor (?:else |just |simply |otherwise )?(?:eat|go|have|order|get)\s+$")
# A diet's word as a likeness: "bloated until like pregnant", "I look pregnant in this dress".
_LIKE_BEFORE = re.compile(r"\b(?:like|as if|as though|looks?|looked|looking)\s+(?:i'm\s+|i am\s+|i was\s+)?$")
# Someone else's pregnancy told as news, not a diet of the person's household: "And my sister's pregnant
# with twins, so Mum's over the moon" (a wife's or a partner's is cooked for: it stays).
_NEWS_OF_BEFORE = re.compile(
    r"\b(?:my (?:\w+ )?(?:sister|sister-in-law|cousin|niece|friend|mate|colleague|neighbou?r|daughter-in-law|"
    r"brother's (?:wife|girlfriend|partner))|\[name:[0-9a-f]+\])(?:'s| is| was| has been| just got)\s+"
    r"(?:just |now |finally |also |only )?$"
)
_PLACE_AFTER_ZH = re.compile(r"街|巷|区|坊|小吃|美食|饭馆|餐厅")
# A product sold low in something, not the person's diet: "low-fat yoghurt", "低脂牛奶", "低盐酱油".
_LOW_PRODUCT = re.compile(
    r"[ -](?:yog(?:h)?urts?|milk|version|spread|mayo|mayonnaise|cheese|crisps|chips|snacks?|soy sauce|"
    r"biscuits?|cookies|ice cream|bacon|stock)\b|(?:牛奶|酸奶|奶|版|酱油|零食|饼干|芝士|奶酪)"
)


@functools.lru_cache(maxsize=256)
def _diet_word(key: str, plural: str) -> re.Pattern[str]:
    # (not "non-vegetarian": Indian English for someone who eats meat)
    # (nor a thing of vegetables: "the veggie patch", "a veggie burger")
    return re.compile(rf"(?<![a-z])(?<!non-)(?<!non ){re.escape(key)}{plural}(?![a-z]){_NOT_A_DIET}")


_NOT_A_DIET = (
    r"(?![ -](?:patch|patches|garden|gardens|bed|beds|plot|plots|box|boxes|burger|burgers|sausages?|"
    r"stir-fry|soup|curry|tray|drawer|stall)\b)"
)


# "they even sneak the flour into some gluten-free breads": products named, not the person's diet.
_PRODUCTS = re.compile(r"\s+[a-z]+s\b")
_SOME_BEFORE = re.compile(r"\b(?:some|those|these|into|of|the|in)\s+$")


# ("I don't keep kosher", "we never kept halal")
_NO_LONGER = r"(?:not|no longer|never been|stopped|quit|(?:don't|do not|never|didn't) keep|never kept)"


def negated_statement(lowered: str, keys: tuple[str, ...]) -> bool:
    """ "I'm not vegetarian anymore", "我不再吃素了": the diet is named to say it no longer holds."""
    for key in keys:
        if re.search(rf"\b{_NO_LONGER}\s+(?:being\s+|doing\s+|going\s+|eating\s+)?(?:on\s+|a\s+|on a\s+)?"
                     rf"{re.escape(key)}",
                     # (not asked: "要看有没有清真标")
                     lowered) or re.search(rf"(?<!有)(?:不再|不是|没有?|不){re.escape(key)}",
                                           lowered):  # fmt: skip
            return True
        # ("no halal meat at all, it's jhatka or nothing", "he won't eat kosher food"): a kind refused
        if re.search(
            rf"\b(?:no|won't eat|will not eat|doesn't eat|does not eat|don't eat|do not eat|"
            rf"never eats?)\s+{re.escape(key)}\s+(?:meat|food|chicken|lamb|beef)\b",
            lowered,
        ):
            return True
    return False


def something_without(kind: str, noun: str) -> str:
    """What to suggest instead, in general words: "something nut-free" for an allergy or an intolerance
    named in one word (the word a label uses: "nickel-free", "caffeine-free"), else "something without
    spicy food", and "something else, with no camping" for a thing kept off."""
    if kind == "avoid":  # (said as "no …", as a person would put it: "something else, with no camping")
        return f"something else, with no {noun}"
    if re.fullmatch(r"[a-z]+", noun):
        single = noun[:-1] if noun.endswith("s") and not noun.endswith(("ss", "us")) else noun
        return f"something {single}-free"
    return f"something without {noun}"
