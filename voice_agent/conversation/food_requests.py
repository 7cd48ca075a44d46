"""The words of a turn that asks about food or drink: one list for the constraint guidance after the turn
(``reminders.CONSTRAINT_TOPICS``, which adds requests for a recommendation) and for the opening that names
the constraint (``acknowledge``, food and drink only: "Suggest a board game" gets no "Since you're
vegan")."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from voice_agent.text.dialect_zh import CANTONESE_FOOD_TALK

if TYPE_CHECKING:
    from voice_agent.conversation.constraints import Constraint

FOOD_WORDS_EN = (
    r"eat|eating|food|cook|cooking|recipes?|bake|baking|cakes?|dinners?|lunch(?:es|box(?:es)?)?|breakfasts?|"
    r"brunch(?:es)?|snacks?|"
    r"desserts?|meals?|menu|restaurant|order|drinks?|bar|party|picnic|treats?|toppings?|pizza|dish(?:es)?|"
    r"suppers?|sandwich(?:es)?|tacos?|burritos?|soup|salad|cocktails?|café|cafe|coffee|tea|wine|beer|"
    r"fruits?|sauces?|grill|grilling|bbq|barbecue|stir-fry|side dish|ingredients?|smoothie|juice|beverage|"
    r"cuisine|curry|curries|stew|casserole|chilli|chili|pasta|risotto|noodles?|roast|pies?|burgers?|"
    r"biscuits?|cookies?|pudding|takeaway|takeout|fillings?|"
    # what an athlete eats on the way: "What should I pack as fuel for the drop bag?"
    r"fuel|fuelling|fueling|refuel|energy bars?|energy gels?|gels|sweets|"
    # a spread laid out for guests: "a grazing board for her book club night"
    r"grazing|platters?|charcuterie|cheese ?boards?|nibbles|canap[eé]s|buffet|finger food|spread|"
    # a sweet thing brought along: "turn up with a plate of something sweet", "the sweet tray for Diwali"
    r"something sweet|sweetmeats?|sweet (?:tray|table|plate|treats?|box)|(?:a|bring a) plate of|potluck|"
    r"pot-luck|bake sale|mithai|"
    # what keeps one awake is mostly drunk: "how do I stay awake on the night shift?"
    r"stay awake|keep (?:me|myself|us) awake|pick-me-up|perk (?:me|us) up|stay alert|"
    # a gift of what a place is known for: "a hamper of local specialities"
    r"hampers?|local special(?:i)?t(?:y|ies)|food parcels?|"
    # a night out's food: "where we grab a bite beforehand and what to get at the sweetie counter"
    r"(?:grab|get|have|catch|quick) a bite|a bite to eat|sweeties|sweetie (?:counter|shop)|candy|lollies|"
    r"popcorn|concessions? (?:stand|counter)|refreshments|munchies|grub|pick[- ]?(?:n|and|'n')[- ]?mix|"
    r"street food|food trucks?|nachos|hot ?dogs?|ice ?creams?"
)
FOOD_WORDS_ZH = (
    r"吃|喝|菜|饭|餐|外卖|粥|蛋糕|甜点|甜品|零食|早点|早饭|饮料|饮品|配料|主食|点心|聚会|酒|茶|咖啡|面|汤|水果|沙拉|酱|"
    rf"烤|火锅|食材|小吃|夜宵|拼盘|补给|能量胶|能量棒|提神|{CANTONESE_FOOD_TALK}|"
    # a gift of what a place is known for is mostly eaten or drunk: "寄一箱山西特产", "带点手信"
    r"特产|年货|伴手礼|手信|礼盒"
)

_FOOD_EN = re.compile(rf"\b(?:{FOOD_WORDS_EN})\b", re.IGNORECASE)
_FOOD_ZH = re.compile(FOOD_WORDS_ZH)


def names_food(text: str) -> bool:
    """Whether ``text`` names food or drink, in English or Chinese."""
    return bool(_FOOD_EN.search(text) or _FOOD_ZH.search(text))


def keeps_food_off(constraint: Constraint) -> bool:
    """Whether what ``constraint`` keeps off is food or drink (its words name some: sugar is cake)."""
    return names_food(" ".join([*constraint.terms_en, *(t.text for t in constraint.terms_zh)]))
