"""The rule words of a constraint in English and Chinese: "allergic to", "I don't eat", "never suggest",
"对…过敏", "不吃". Each pattern names the thing the rule is about as group ``x`` (``constraints`` reads
it)."""

from __future__ import annotations

import re

from voice_agent.text.cjk import HAN_CLASS

_I = re.IGNORECASE
# What "allergy" names besides a thing: "referred us to the allergy clinic", "an allergy test".
_SERVICE_EN = (
    r"(?:clinic|clinics|test|tests|testing|nurse|doctor|specialist|appointment|team|service|department|unit|"
    r"ward|season|medicine|meds|tablets?|injections?|shots?|kit|pen|card|band|bracelet|action plan|"
    r"sufferers?|symptoms?|reaction|referral|syndromes?)"
)
# (not one denied: "I'm intolerant to them, not allergic like")
ALLERGY_EN = re.compile(r"(?<!\bnot )\b(?:(?:allergic|allergy|allergies|sensitive|intolerant|intolerance)"
                        r"\s+(?:to\s+)?|"
                        r"anaphyla(?:xis|ctic)(?:\s+(?:reaction|shock))?\s+to\s+)"
                        # (how long, not to what: "lactose intolerant his whole life")
                        r"(?!(?:his|her|my|their|your|our)\s+(?:whole\s+)?li(?:fe|ves)\b|all\s+(?:his|her|my|their)\s+"
                        r"li(?:fe|ves)\b|since\b|for\s+(?:years|ages|decades)\b|like\b)"
                        rf"(?!{_SERVICE_EN}\b)(?P<x>[a-z][a-z -]{{1,40}})", _I)  # fmt: skip
ALLERGY_BEFORE_EN = re.compile(
    r"\b(?<!['’])(?P<x>[a-z]+(?:[ -][a-z]+)?)[ -](?:allergy|allergies|intolerance|intolerant|free diet)\b"
    rf"(?!\s+{_SERVICE_EN}\b)",
    _I,
)
AVOID_EN = re.compile(
    r"\b(?:can't|cannot|can not|must not|mustn't|shouldn't|should not|don't|do not|doesn't|does not|never|"
    r"won't|no longer)\s+(?:ever\s+)?(?:eat|eats|drink|drinks|touch|stand|like|likes|tolerate|tolerates|"
    # (a quantity is no thing kept off: "it's because I don't drink enough rooibos", "I don't eat much")
    # ("so I don't go near anything with codeine in it now")
    # (nor a pronoun: "some people just don't tolerate it and wrote it on my chart"; "a buzz" is caffeine,
    # read as a described kind)
    r"bear|(?:go near|touch|have|take|use|buy) anything with)\s+"
    r"(?!(?:enough|much|many|a lot|lots|nearly|half as|it|them|him|her|a buzz|a jolt)\b)"
    r"(?P<x>[a-z][a-z -]{1,40})", _I)  # fmt: skip
# "can't have" / "doesn't want" name a constraint only for a known topic ("my son can't have gluten"),
# not "I don't have time".
AVOID_HAVE_EN = re.compile(
    r"\b(?:can't|cannot|can not|must not|mustn't|shouldn't|should not|don't|do not|doesn't|does not|never|"
    r"won't|no longer)\s+(?:ever\s+)?(?:have|has|want|wants|take|takes|go near|come near|be near|be around|"
    r"risk)\s+(?:any\s+)?"
    # (not money nor time refused: "won't take a cent for it", "can't take a day off")
    r"(?!(?:a|one|a single|any)\s+(?:red\s+)?"
    r"(?:cent|penny|dime|quid|buck|bean|clue|day|minute|moment|second)\b)"
    r"(?P<x>[a-z][a-z -]{1,40})", _I)  # fmt: skip
DISLIKE_EN = re.compile(
    # (not "hate" as a noun's first word: "which for an Irishman is a hate crime")
    r"\b(?:(?<!\ba )(?<!\bthe )hate|hates|dislike|dislikes|detest|detests|can't stand|cannot stand|"
    # a dislike of long standing: "I've hated burpees since my NS days", "we have always hated caravans"
    r"(?:i've|i have|we've|we have)(?:\s+(?:always|long|honestly|just))?\s+hated|"
    r"cannae stand|can't stick|"
    r"cannot stick|can't thole|cannae thole|canna thole|"
    # ("I've never been able to thole the things": Scots thole, to bear)
    r"never (?:been able|could) (?:to )?(?:thole|stand|abide|bear)|"
    r"not a fan of|avoid|avoids|"
    r"keep off|keeps off|stay off|stays off|stay away from|keep away from|steer clear of|"
    # "I don't do fireworks" (not "I don't do much", "we don't do that": no thing, ``constraint_objects``)
    r"(?:i|we) (?:don't|do not|never) do(?!\s+(?:much|many|anything|that|this|it|well|so|a|an|any|enough|too|"
    r"the|what|whatever|things|stuff|nothing|everything|this|those|these|them|my|our|more|less)\b))\s+"
    # (the time spent on it is no thing: "I hate every flamin' second of 'em")
    r"(?!(?:every|each)\s+(?:\w+'?\s+)?(?:second|minute|moment|bit)\b)"
    r"(?P<x>[a-z][a-z -]{1,40})", _I)  # fmt: skip
NEVER_EN = re.compile(
    r"\b(?:never|don't ever|do not ever|don't|do not|please don't|stop)\s+(?:suggest|recommend|offer|serve|"
    r"give me|propose|mention|bring up|book|(?:talk|push|pressure|rope|drag|get|sign) me (?:into|up for)|"
    r"(?:ask|invite|take|drag|make|send) me(?: to)?(?: go)?)\s+(?:me\s+)?"
    r"(?:(?:going|a trip|trips|a visit|visits|outings?)\s+to\s+)?(?:the\s+|any\s+)?"  # "going to the cinema"
    r"(?P<x>[a-z][a-z -]{1,40})",
    _I,
)  # fmt: skip
# ("对咖啡因特别敏感" is a body that cannot take it; "对数字很敏感" is a knack, not a rule)
ALLERGY_ZH = re.compile(
    r"对(?!数字|价格|钱|时间|文字|色彩|颜色)(?P<x>[^，。,.！？!?；;]{1,12}?)"
    r"(?:严重|特别|很|非常|比较|有点儿?|极其|超级|格外)?(?:过敏|不耐受|敏感)"
)
ALLERGY_BEFORE_ZH = re.compile(  # 过敏原: a test; 抗过敏: a medicine; "坚果也容易交叉过敏": 也
    # (神经过敏: being jumpy, no allergy)
    rf"(?P<x>{HAN_CLASS}{{1,6}}?)(?<!神经)(?:[也都还]?(?:容易|可能|会)?交叉)?(?:(?<!抗)(?<!神经)过敏(?![原源性])|不耐受)"
)
# After what is kept off, a look told instead of a name: "…的那种紫颜色一串串的小花" (the head said last).
DESCRIBED_AFTER_ZH = re.compile(
    r"的?(?:那种|那一种|那类|这种)[^，。,.！？!?；;的]{2,12}的(?P<head>[^，。,.！？!?；;的]{1,3})(?=[，。,.！？!?；;]|$)"
)
# What a described thing is called when that word alone names it: "铺的那种毛毛糙糙的地毯" is 地毯;
# "那种紫颜色一串串的小花" (a flower, a thing, a taste) names no one thing.
_VAGUE_HEAD_ZH = re.compile(r"^(?:.?花儿?|东西|玩意儿?|味儿?|味道|颜色|样子|感觉|家伙|货|菜|人|事儿?|地方)$")


def described_head_zh(described: re.Match[str]) -> str | None:
    """The word a description (a ``DESCRIBED_AFTER_ZH`` match) ends in, when it names a thing of its own
    (two characters or more, not a vague word)."""
    head = described.group("head")
    return head if len(head) >= 2 and not _VAGUE_HEAD_ZH.match(head) else None


AVOID_ZH = re.compile(
    r"(?:不能吃|不可以吃|不能喝|(?<!要)(?<![一两三几]天)不吃|(?<!要)(?<![一两三几]天)不喝|不碰|不敢吃|不敢喝|不敢碰|吃不得|恰不得|喝不得|碰不得|忌口|忌(?![口着])|讨厌|膈应|不喜欢|不爱吃|"
    r"唔食|唔吃|唔饮|唔掂|(?<![不唔])怕(?:吃|食)|"  # "𠊎最怕食肥猪肉" (not "不怕吃辣")
    # "我这人最怕早起" (not "最怕冷": one character matches too much; nor "最怕我妈唠叨": a person)
    r"(?:最|顶)怕(?![我你他她人别老])(?=[^，。,.！？!?；;了的吃食、]{2})|"  # (顶怕: Shanghainese 最怕)
    # what a baby's food must not have added: "辅食也不能加盐、不能加糖"
    r"(?:不能|不可以|不要|别|不许|不准|千万别|唔好)(?:加|放)|"  # Cantonese: "就系唔食鸡"
    # (吃不来: cannot take it, in Sichuan and the south-west; 闻不了: the smell of it)
    r"不爱(?![惜护国])|受不了|吃不消|不待见|吃不了|吃不来|喝不来|闻不了|闻不得|闻不惯|"
    # loathing: "我最烦茼蒿", "我是真烦这种网红神曲", "这辈子最烦的菜就是茼蒿" (not 麻烦, 心烦, 厌烦)
    r"(?:最|真的?|特别|超|好|老|就)烦(?:死了?)?(?:这种|那种|这些|那些|这类)?|"
    # (顶顶, 顶: Shanghainese 最; "我顶顶吃不消的就是看动物表演")
    # ("我这辈子最怕、最烦的就是跳舞", "最膈应的事儿就是唱歌")
    r"(?:最|顶顶|顶)(?:烦|讨厌|怕|恨|受不了|吃不消|看不惯|膈应)(?:、最(?:烦|讨厌|怕|受不了|膈应))?"
    r"(?:的(?:菜|东西|歌|曲子|音乐|电影|片子|节目|书|运动|颜色|味道|事儿?|人)?(?:就是|是)|就是)《?|"
    # "别给我推荐…", "甭给额安排自驾、包车…" (甭, 莫: don't; 俺, 额: I, in northern speech)
    r"(?:千万|以后|再也)?(?:别|甭|莫|不要)再?给(?:我|俺|额|咱)(?:推荐|安排|介绍|报|整|弄)?|"
    r"不要推荐|永远不要推荐|别推荐|(?:别再|不要再)推荐|"
    # (a thing of two characters or more after it: "啥舞都不要叫我跳" names no thing of its own)
    r"(?:别再|不要再|别|不要)(?:(?:叫|约|带|喊|拉)我去?|让我去)(?=[^，。,.！？!?；;了的]{2}))"
    # "白天不吃不喝", "不喝好几天", "早上不吃东西": no thing named after the verb
    # ("那只猫这两天又不吃饭": no meal is a thing kept off)
    r"(?![不没]|好?几[天周年]|[一二两三四五六七八九十]+(?:天|周|个月|年|顿)|一整[天晚周年]|半天|"
    # (nor "能不碰就别碰": said of the thing before)
    r"(?:安排|推荐|介绍)?(?:东西|饭|水|事儿?|事情|活儿?)(?:[，。,.！？!?；;了啊呀]|$)|就别|就不|"
    # (a particle after 烦 ends the sentence: "衣服晒了三天都不干，好烦喔")
    r"[喔啊呀哦噢呢啦咯嘛吧哟咧](?:[，。,.！？!?；;~～]|$))"
    # (what is watched, not the watching: "最吃不消的就是看动物表演" keeps 动物表演 off)
    # (nor what follows "still": "最怕看牙都肯听她的" is of 看牙)
    r"(?:去?看(?=(?:(?!都[肯会要还能])[^，。,.！？!?；;了的]){3}))?"
    r"(?P<x>(?:(?!都[肯会要还能])[^，。,.！？!?；;了的]){1,14})"
)


def says_milder(stated: str) -> bool:
    """Whether an allergy shape's words tell of a body that cannot take a thing rather than an allergy
    ("intolerant to", "不耐受", "对咖啡因特别敏感")."""
    return "intoleran" in stated.lower() or "不耐受" in stated or "敏感" in stated
