"""Kinds of thing to do or keep that a person asks for: a restaurant, a pet, a film, a book, an outing (the
``suggestion_kinds`` that are no food). An option names what it is (``contains``) in the words the
constraint check knows, so "养只小泰迪" is never offered to someone afraid of dogs."""

from __future__ import annotations

import re

from voice_agent.conversation.suggestion_option import RequestKind
from voice_agent.conversation.suggestion_option import option as _o

_I = re.IGNORECASE

PASTIMES: tuple[RequestKind, ...] = (
    # Where to eat out: "推荐推荐去哪种馆子？", "which restaurant should I take her to?" (not "what to cook")
    RequestKind(
        "restaurant",
        re.compile(
            r"^restaurants?$|"
            r"\b(?:which|what kind of|what sort of|a good|a nice|a quiet) (?:restaurant|place to eat|pub)\b|"
            r"\bwhere (?:should|could|can|shall) (?:we|i) (?:eat|go for (?:dinner|lunch|a meal))\b|"
            r"(?:哪|什么|啥)(?:种|家|个)?(?:馆子|饭馆|餐馆|饭店|餐厅)|下馆子|出去吃|去哪(?:儿|里)?吃",
            _I,
        ),
        (
            _o("a quiet family-run restaurant with a set menu and a table booked by the window"),
            _o("a long-established local restaurant known for its home cooking"),
        ),
        (
            _o("一家开了多年的老字号饭馆，环境安静，提前订个包间"),
            _o("一家口碑好的本地家常菜馆，点几个清淡的拿手菜"),
        ),
    ),
    # A pet for company: "俺寻思养个啥小活物儿做个伴儿", "what pet should we get for the kids?"
    RequestKind(
        "pet",
        re.compile(
            # (not "宠物名嗰栏" or "the pet's name": a pet already kept)
            r"^(?:an? )?pets?$|\b(?:(?:what|which|a|new) (?:kind of )?pet|"
            r"(?:get|getting|adopt|adopting) an? (?:pet|animal|furry friend))\b|"
            r"(?:什么|啥|哪种|养个|养只|养)宠物|小活物|养(?:个|只|点|条)?(?:啥|什么|哪种|哪样)",
            _I,
        ),
        (
            _o("a cat from a rescue centre, an older one that likes a lap", "cat"),
            _o("a pair of budgies", "bird"),
            _o("a tank of goldfish", "fish"),
            _o("a pair of guinea pigs"),
        ),
        (
            _o("养只性子温顺的猫", "猫"),
            _o("养一对虎皮鹦鹉", "鸟"),
            _o("养一缸金鱼", "鱼"),
            _o("养只乌龟"),
        ),
    ),
    RequestKind(
        "film",
        re.compile(r"\b(?:films?|movies?)\b|电影|片子", _I),
        (
            _o("Paddington 2, a warm family comedy"),
            _o("The Martian, a science fiction film"),
            _o("Spirited Away, an animated film"),
        ),
        (
            _o("《疯狂动物城》，一部轻松的动画片"),
            _o("《流浪地球》，一部国产科幻片"),
            _o("《你好，李焕英》，一部温情喜剧"),
        ),
    ),
    RequestKind(
        "book",
        # (not 书 of another thing: "书包" a schoolbag, "证书", "说明书", "书法", "书桌")
        re.compile(
            # (not "book" as a verb: "which treatments to book", "book me a table")
            r"\b(?:books|novels?|read)\b|(?<!\bto )(?<!\bi )(?<!\bwe )(?<!\byou )\bbook\b"
            r"(?! (?:a|an|the|in|it|them|us|me|tickets?|flights?|treatments?|tables?|rooms?|appointments?|"
            r"slots?|sessions?|early|ahead|now|online)\b)|(?<![秘证明请情保协])书(?![包桌房架柜法记面信])|小说",
            _I,
        ),
        (
            _o("The Martian by Andy Weir"),
            _o("A Man Called Ove by Fredrik Backman"),
            _o("The Hobbit by J.R.R. Tolkien"),
        ),
        (_o("刘慈欣的《三体》"), _o("余华的《活着》"), _o("东野圭吾的《解忧杂货店》")),
    ),
    # Something to be sponsored for: "a charity challenge … everyone has to pick something to get sponsored
    # for" (asked as "what should I do?", yet no outing).
    RequestKind(
        "fundraiser",
        re.compile(
            r"\b(?:charity|sponsored|sponsorship|fundrais\w*|raise money)\b|募捐|义卖|筹款|公益跑|慈善", _I
        ),
        (
            # (a walk first: the challenge most people can do, whatever their health)
            _o("a sponsored walk", "walking", "walk"),
            _o("a bake sale at work", "baking", "bake"),
            _o("a sponsored swim, lengths of the local pool", "swimming", "swim"),
            _o("a sponsored silence for a day"),
        ),
        (
            _o("参加爱心徒步", "徒步"),
            _o("办一场爱心义卖，卖自己做的点心", "烘焙"),
            _o("组织一次游泳接力募捐", "游泳"),
        ),
    ),
    RequestKind(
        "outing",
        re.compile(r"\b(?:outdoors?|activit(?:y|ies)|outings?)\b|户外|活动|出去玩", _I),
        (
            _o("a picnic in the park"),
            _o("a bike ride along the river"),
            _o("a walk around a lake"),
            _o("a hike in the hills", "hiking", "hike"),
        ),
        (_o("去公园野餐"), _o("沿着河边骑自行车"), _o("去湖边散步、划船"), _o("去郊外爬山", "爬山", "登山")),
    ),
)  # fmt: skip

# Something to do in the evening ("what could we do on her first evening?", "after work on Friday"): no
# picnic in the park. Asked for only as what to do (``suggestions.request_kind``): "What should I cook
# tonight?" asks for a dish.
EVENING = RequestKind(
    "evening",
    re.compile(r"\b(?:evenings?|tonight|night|after work)\b|晚上|今晚|下班后", _I),
    (
        _o("dinner at a favourite local restaurant, then a film", "cinema", "film"),
        _o("a comedy show, then a late dinner"),
        _o("an evening at the bowling alley", "bowling"),
    ),
    (_o("找家口碑好的馆子吃晚饭，再去看场电影", "电影"), _o("去看一场话剧"), _o("去江边散散步，看看夜景")),
)
