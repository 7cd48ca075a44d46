"""More ways people state what they must or will not have, beyond "allergic to X" and "I don't eat X".

Each pattern names the thing in a group ``x``; ``constraints.parse_constraints`` turns it into a
constraint (a known topic when the words name one, else the phrase itself):

- symptoms: "Dairy makes me sick", "coffee keeps me awake", "我一喝牛奶就拉肚子" (``constraint_stomach``);
- avoiding: "I stay away from dairy", "I cut out sugar", "I refuse to eat liver", "我戒糖了", "我不沾酒";
- the thing first: "Raw onions are the one thing I won't eat", "Liver is off limits for me";
- giving something up ("I gave up red meat", "no more sugar for me", "I'm off carbs") counts only for a
  known topic, since "I gave up my job" is no constraint;
- being at odds with a known topic, said any other way ("Dairy and me really don't get along", "gluten
  doesn't sit well with me", "eggs are a no for me", "我跟乳制品合不来", "海鲜我碰不得"): only for a
  known topic named in the same sentence, since "my boss and I don't get along" is no constraint.
"""

from __future__ import annotations

import re

from voice_agent.conversation.constraint_mentions import (
    may_borrow_cause,
    without_asides_zh,
    without_passing_mentions,
)
from voice_agent.conversation.constraint_outing_mentions import NOT_EATEN, masked, near_reaction
from voice_agent.conversation.constraint_severe_terms import severe_term_topics
from voice_agent.conversation.constraint_stomach import STOMACH_ZH
from voice_agent.conversation.constraint_symptoms_en import SYMPTOM_EN, stimulant_story
from voice_agent.conversation.constraint_symptoms_zh import SYMPTOM_ZH
from voice_agent.conversation.constraint_terms import TOPICS, Topic
from voice_agent.conversation.constraint_topic_names import key_matches, named_topics
from voice_agent.conversation.not_refusing import felt
from voice_agent.text.cjk import HAN_CLASS, has_han

_I = re.IGNORECASE
_WHO_EN = r"(?:me|him|her|us|them|my [a-z]+|his [a-z]+|her [a-z]+|our [a-z]+)"
_SUBJECT_EN = r"(?:i|he|she|we|they|my [a-z]+|our [a-z]+)"
_SYMPTOM_EN = re.compile(rf"\b(?:{SYMPTOM_EN})\b", _I)
# "Dairy makes me sick", "Coffee keeps me awake", "Caffeine makes my heart race", "Beans upset my stomach".
_CAUSES_EN = re.compile(
    rf"(?:^|[,;.!?]\s*|\b(?:think|find|know|noticed|says?|said|that)\s+)"
    rf"(?:eating\s+|drinking\s+|having\s+|too much\s+|even a little\s+)?"
    # (not a person who gave something: "The dietitian gave me a leaflet")
    rf"(?!(?:the |my |our |a |his |her )?(?:doctor|dietit|dietic|gp|nurse|consultant|specialist|pharmacist|"
    rf"physio|mum|mom|dad|wife|husband|partner|boss|friend|mate|teacher|nan|gran)\w*\s)"
    rf"(?P<x>[a-z][a-z -]{{1,30}}?)\s+"
    rf"(?:(?:absolutely|really|totally|completely|seriously|always|just)\s+)?"  # ("absolutely wreck me")
    rf"(?:gives?(?! up)|gave(?! up)|makes?|made(?!\s+(?:from|of|with|out|by)\b)|keeps?|kept|upsets?|upset|"
    rf"disagrees? with|doesn't agree with|"
    rf"mess(?:es|ed)? with|plays? havoc with|wrecks?|"
    rf"does not agree with|triggers?|triggered)\s+(?:{_WHO_EN}\b)?",
    _I,
)
# A list before the symptom: "apples, pears, honey, that sort of thing, leave me bloated".
_LIST_CAUSES_EN = re.compile(
    rf"(?:^|[:;.!?]\s*|\b(?:so|but|like|especially|things like)\s+)"
    rf"(?P<x>[a-z]+(?: [a-z]+)?(?:,\s*(?:and\s+)?[a-z]+(?: [a-z]+)?){{1,6}}),?\s*"
    rf"(?:(?:and\s+)?(?:that sort of thing|that kind of thing|stuff like that|the lot|all of them|etc),?\s*)?"
    rf"(?:all\s+)?(?:leave|leaves|left|give|gives|gave|make|makes|made|upset|upsets)\s+{_WHO_EN}\b",
    _I,
)
# "he breaks out in hives if he eats anything with sesame", "I get sick whenever I drink milk".
_WHEN_EN = re.compile(
    rf"\b(?:if|when|whenever|every time|each time)\s+{_SUBJECT_EN}\s+(?:eat|eats|ate|drink|drinks|drank|"
    rf"has|have|had|touch|touches|touched|tries|try)\s+(?:anything|something|food|foods|dishes)?\s*"
    rf"(?:with|containing|made with|that has)?\s*(?:any\s+|even a little\s+)?(?P<x>[a-z][a-z -]{{1,30}})",
    _I,
)
_AVOIDING_EN = re.compile(
    r"\b(?:stay|stays|staying|keep|keeps|keeping) away from|\b(?:steer|steers|steering) clear of|"
    r"\b(?:cut|cuts|cutting) out|\brefuses? to (?:eat|drink|touch|have)|\bwill never (?:eat|drink|touch)|"
    r"\b(?:won't|will not) (?:ever )?(?:eat|drink|touch|have)|"
    # someone else's rule: "The dietitian has me off the whole cabbage family"
    r"\b(?:has|have|had|got|gets|taken|took)\s+(?:me|him|her|us|them)\s+off(?:\s+of)?"
    r"(?:\s+the)?(?:\s+whole|\s+entire)?"
)
AVOIDING_EN = re.compile(rf"(?:{_AVOIDING_EN.pattern})\s+(?P<x>[a-z][a-z -]{{1,40}})", _I)
# Given up for a while, whatever it is: "I've given up chocolate for Lent", "off crisps for January".
GAVE_UP_FOR_EN = re.compile(
    r"\b(?:gave up|given up|giving up|give up|off)\s+(?!(?:my|his|her|our|their|the|a|an|work|school)\b)"
    r"(?P<x>[a-z][a-z -]{1,30}?)\s+for\s+(?:lent|january|"
    r"dry january|ramadan|a month|the month|this month|a (?:few )?weeks?|\w+ (?:days|weeks))\b",
    _I,
)
# Only for a known topic: "I gave up red meat", "I quit sugar", "no more sugar for me", "I'm off carbs".
GAVE_UP_EN = re.compile(
    r"\b(?:gave up|give up|given up|giving up|quit|quitted|stopped|stop|i'm off|i am off|he's off|she's off|"
    # (not a stop on the way: "anywhere nice to stop for a coffee")
    r"no more|swore off|sworn off)\s+(?!(?:for|at|by|off|in|to|on|somewhere|anywhere|than)\b)"
    # ("stopped drinking coffee" gave up coffee, not drink; "gave up drinking last year" gave up drink)
    r"(?:(?:drinking|eating|having|taking)\s+(?!(?:last|this|in|for|at|since|a|anymore|now|again|and)\b)"
    r"(?=[a-z]))?(?P<x>[a-z][a-z -]{1,40})",
    _I,
)
# Only for a known topic: "So wine is basically finished for me", "bread is off the table for him now"
# ("work is finished for me today" is no constraint).
FINISHED_FOR_EN = re.compile(
    r"(?:^|[,;:.!?]\s*|\b(?:so|and|but|now)\s+)(?P<x>[a-z][a-z -]{1,30}?)\s+(?:is|are)\s+"
    r"(?:(?:basically|totally|completely|pretty much|now|officially|just)\s+)?(?:finished|off the table|"
    r"off the menu|a thing of the past)\s+for\s+(?:me|us|him|her|them|my\s+\w+)\b",
    _I,
)
# A learner's "I am not like cucumber" (not to like): a constraint when the sentence also refuses ("never",
# "please no") or talks of food; "I am not like my sister" is none.
NOT_LIKE_EN = re.compile(
    r"\b(?:i|he|she|we|they)\s+(?:am|is|are|'m)\s+not\s+like\s+(?P<x>[a-z][a-z -]{1,40})", _I
)
NOT_LIKE_REFUSES_EN = re.compile(r"\bnever\b|\bplease,?\s+no\b|\bno,?\s+never\b", _I)
# "Raw onions are the one thing I won't eat", "Liver is off limits for me", "Olives are a no-go", "So reds
# are just off the list now", "Anything sparkly is a hard no in my house".
THING_FIRST_EN = re.compile(
    rf"(?:^|[,;:.!?]\s*)(?:(?:so|and|but|now)\s+)?(?P<x>[a-z][a-z -]{{1,30}}?)\s+(?:is|are)\s+"
    rf"(?:(?:the|a)\s+)?(?:(?:one|only)\s+)?"
    rf"(?:(?:[a-z]+\s+){{0,2}}?{_SUBJECT_EN}\s+(?:just\s+|really\s+|simply\s+|absolutely\s+|ever\s+)?"
    rf"(?:won't|will not|can't|cannot|don't|do not|never|refuse to)\s+(?:eat|drink|touch|stand|have)|"
    rf"(?:(?:just|now|totally|completely|basically|officially)\s+)?(?:off[ -]limits|off the list|"
    r"off the menu(?=\s+for\s+(?:me|us|him|her|them|my\s+\w+)\b))|a no[ -]go|"
    # ("broad beans are completely off, pods and all"; not "the match is off": said with how far)
    r"(?:completely|totally|strictly|absolutely)\s+off\b(?!\s+(?:work|school|sick|duty|the\s+hook))|"
    r"out of the question|(?:a|an)\s+(?:hard|absolute|big|firm|total)\s+no(?:[ -]no)?(?:\s+for\s+(?:me|us|"
    r"him|her|them|my\s+\w+)\b|(?=\s+(?:in|at)\s+(?:my|our|this|the)\s+(?:house|home|flat|household)\b)))",
    _I,
)
# One more thing ruled out beside a constraint: "she said aspirin's out too", "and shellfish is out as well".
OUT_TOO_EN = re.compile(
    r"(?:^|[,;:.!?]\s*|\b(?:said|says|and|so)\s+)(?P<x>[a-z][a-z -]{1,30}?)(?:'s|\u2019s|\s+is|\s+are)\s+"
    r"(?:out|off the list|a no[ -]go)\s+(?:too|as well)\b",
    _I,
)
# The thing first, then the person cannot do it, about food or drink: "but blue cheese I cannot do",
# "Olives I just can't stomach" (``FOOD_TALK`` must be in the text for "do": "Mornings I can't do" is
# no constraint on a reply).
THING_CANT_EN = re.compile(
    r"(?:^|[,;:.!?]\s*)(?:(?:but|and|except|apart from|though|just)\s+)?"
    r"(?P<x>[a-z]+(?:'s)?(?:[ -][a-z]+(?:'s)?){0,2}?)\s+"
    r"(?:i|he|she|we|they)\s+(?:just\s+|really\s+|simply\s+|honestly\s+|absolutely\s+)?"
    r"(?:can't|cannot|can not|won't|will not)\s+(?P<verb>do|stand|stomach|eat|drink|face|tahan|handle)\b"
    # (the verb ends its clause: not "honest to God I can't stand her books", whose thing is the object)
    r"(?=\s*(?:[.,;:!?\u2014\u2013)]|$)|\s+(?:at all|either|any ?more|and|but|so|though|because|very|much|"
    r"well|one bit|now|any|myself|properly|anyway|really|honestly|mate|lah|leh|one)\b)",
    _I,
)
# "I cannot be doing with mayonnaise", "can't abide coriander".
CANT_ABIDE_EN = re.compile(
    r"\b(?:can't|cannot|can not|couldn't|could not)\s+"
    r"(?:be doing with|abide|bear|tahan|bring myself to (?:eat|touch))\s+"  # (tahan: Singlish, bear)
    # the thing itself, up to the clause's end ("can't abide pink, never could"); not a pronoun or a
    # thought ("can't bear to think of it", "can't abide the thought")
    r"(?!(?:it|them|that|this|him|her|you|to|the thought|the idea|being|anyone|people)\b)"
    # (a sense of it: "cannot tahan the smell of coconut")
    r"(?:the\s+(?:smell|taste|texture|stink|whiff)\s+of\s+(?!(?:it|them|that|this)\b))?"
    r"(?P<x>[a-z]+(?:[ -][a-z]+){0,2}?)"
    r"(?=\s*(?:[.,;!?]|$|\b(?:and|or|never|at all|either|any more|one lah|one|lah|leh)\b))",
    _I,
)
# What sets a condition off, named as its trigger ("the worst trigger by a mile is anything fizzy",
# "my main trigger is red wine").
TRIGGER_EN = re.compile(
    r"\b(?:worst|main|biggest|big|real|only|one|known)\s+triggers?\b[^.;!?]{0,20}?\b(?:is|are|was|were)\s+"
    r"(?:anything\s+|any\s+|all\s+|definitely\s+)?(?P<x>[a-z]+(?:[ -][a-z]+){0,2}?)"
    r"(?=\s*(?:[.,;!?]|$|\band\b))",
    _I,
)
# The thing first: "the neurologist says chocolate's me trigger", "Red wine is my main trigger."
TRIGGER_FIRST_EN = re.compile(
    r"(?:^|\b(?:says?|said|that|thinks?|reckons?|and|but)\s+|[.!?,;]\s+)(?P<x>[a-z]+(?:[ -][a-z]+)?)"
    r"(?:'s|\s+is|\s+are)\s+"
    r"(?:my|me|his|her|the|our)\s+(?:main\s+|big\s+|biggest\s+|only\s+|worst\s+)?triggers?\b",
    _I,
)
FOOD_TALK = re.compile(r"\b(?:eat|eats|eating|ate|food|foods|taste|tastes|smell|smells|dish|dishes|drink|"
                       r"menu|gag|cheese|sauce)\b", _I)  # fmt: skip
# A thing the person is at odds with, named first, read only beside a bodily reaction ("Tomatoes and me
# have basically fallen out … I'm up half the night with heartburn"; "avocado and me don't mix … my lips
# blew up"): "My boss and I don't get along" names no reaction, so no constraint.
AND_ME_EN = re.compile(
    r"(?:^|[,;:.!?\u2014\u2013]\s*|\s-\s|\bthat\s+)(?!(?:my|his|her|our|their|your|the|he|she|they|we)\b)"
    r"(?P<x>[a-z]+(?:[ -][a-z]+)?)\s+and\s+(?:me|i)\s+"
    r"(?:(?:have|had|just|really|basically|totally|never|definitely|have never)\s+)*"
    r"(?:(?:don't|do not|didn't|never)\s+)?(?:mix|get along|get on|agree|(?:have\s+)?fallen out|fell out|"
    r"aren't friends|are not friends|see eye to eye)\b",
    _I,
)
# One thing refused for good: "no musicals. Ever.", "no karaoke, ever", "no more cruises ever again".
NO_EVER_EN = re.compile(r"\bno (?:more )?(?!one\b|body\b)(?P<x>[a-z][a-z -]{1,30}?)[.,!]*\s+ever\b", _I)
# "So that's it now, no mint for me, tidy." (not "no time for me", "no room for us": ``NOT_A_THING_EN``)
NO_FOR_ME_EN = re.compile(
    # ("a unit with no garden for her curry leaf plant": what has none, not a rule)
    r"(?<!\bwith )\bno (?:more )?(?P<x>[a-z][a-z -]{1,30}?)\s+for\s+(?:me|him|her|us|them|my\s+\w+)\b"
    # (not what a day went without: "so no bath for me this morning")
    r"(?!\s+(?:this (?:morning|afternoon|evening|week|weekend)|today|tonight|yesterday|last night)\b)"
    r"(?!\s+[a-z]+\s+(?:plant|plants|stuff|things|toys|car|bike|dog|cat)\b)(?![^.!?]*\?)",
    _I,
)
# The thing first, then a pronoun for it: "Coriander tastes like soap to me, I really can't have it",
# "Mushrooms? My son won't touch them."
THING_THEN_PRONOUN_EN = re.compile(
    r"(?:^|[.!?]\s*)(?!(?:honestly|frankly|seriously|really|well|ok|okay|yeah|yes|no|sorry|oh|actually|"
    r"and|but|so|look|listen|sadly|this|that|it|which|what)\b)(?P<x>[a-z]+(?:[ -][a-z]+){0,2}?)"
    r"(?:\s+(?:tastes?|smells?|is|are|makes?|gives?)\b[^.;!?]{0,40}?)?"
    rf"[,;?!.]\s*(?:{_SUBJECT_EN}\s+)?(?:just\s+|really\s+|simply\s+|honestly\s+|absolutely\s+)?"
    r"(?:won't|will not|can't|cannot|don't|do not|never)\s+(?:eat|drink|touch|stand|have|bear|do|stomach)\s+"
    r"(?:it|them)\b",
    _I,
)
# Disgust said by comparison: "Beetroot tastes like a mouthful of garden soil to me", "Coriander tastes
# like soap".
TASTES_FOUL_EN = re.compile(
    r"(?:^|[.!?]\s*)(?:(?:honestly|frankly|seriously|ugh|well)[, ]+)?(?P<x>[a-z]+(?:[ -][a-z]+)?)\s+"
    r"(?:tastes?|smells?|is|are)\s+(?:just\s+)?like\s+[^.!?]{0,40}?\b(?:soil|dirt|mud|soap|feet|sweat|"
    r"cardboard|rubber|medicine|garbage|rubbish|sewage|vomit|puke|rotten|mould|mold|gasoline|petrol)\b",
    _I,
)
# A thing called foul outright: "Honestly, pickles are the worst thing ever invented", "olives are
# disgusting" (read beside talk of food, or for a known topic: "Mondays are the worst" is no food).
DISGUSTS_EN = re.compile(
    r"(?:^|[.!?]\s*)(?:(?:honestly|frankly|seriously|ugh|urgh|god|well|can i just say|i have to say|"
    r"i must say|let me tell you|i'll be honest|to be honest)[,:]?\s+)?"
    r"(?!(?:my|his|her|our|their|your|the|this|that|it|he|she|they|we|i|you|mondays?|mornings?)\b)"
    r"(?P<x>[a-z]+(?:[ -][a-z]+)?)\s+(?:is|are)\s+(?:just\s+|absolutely\s+|literally\s+|so\s+)?"
    # ("mayonnaise is the most disgusting substance on earth")
    r"(?:the\s+(?:single\s+)?most\s+)?"
    r"(?:disgusting|vile|gross|revolting|foul|nasty|rank|minging|the worst(?:\s+thing)?)\b",
    _I,
)
FOOD_CONTEXT_EN = re.compile(
    r"\b(?:burgers?|sandwich(?:es)?|pizzas?|salads?|dinner|lunch|breakfast|meals?|restaurants?|menu|cook|"
    r"recipes?|plate|snacks?|taste|tastes|eat|eats|eating|ate|food)\b",
    _I,
)
_THING_CHAR = rf"(?:(?![我你他她它们在不没最])(?:{HAN_CLASS}))"  # a thing, not who or whether (他最近在忌口)
# The thing first, then the person cannot get it down: "苦瓜是我真的一口都咽不下去", "香菜我实在吃不下".
THING_FIRST_ZH = re.compile(
    # ("那个榴莲哦，我硬是遭不住": pointed at, with a particle)
    rf"(?:^|[，,。！？!?；;])(?:说实话|老实说|真的)?[，,]?(?:那个|这个)?(?P<x>{_THING_CHAR}{{1,6}}?(?:、{_THING_CHAR}{{1,6}}?)*)"
    r"(?:(?:那个|这个|那股|这股)?(?:味儿|味道|味|东西)|是|这东西|这种(?:东西|物事)|这些|啥的|什么的|之类的|嗰啲)?"
    r"(?:哦|啊|呀|嘛|呢|哇|噢|喔)?[，,]?"
    r"(?:我们|咱们|俺们|我|俺|额)(?:真的|实在|是|真真|真|从小|打小儿?|自小|一直|就是|根本|压根儿?|死活|就|都|也|一概|从来|向来|绝对)*"
    r"(?:(?:一辈子|这辈子)都?)?(?:一口都|一点都|连一口都)?"
    r"(?:咽不下去?|吃不下去?|喝不下去?|碰都不碰|不碰|不吃|不喝|吃不了|喝不了|碰不得|不敢碰|不敢吃|不敢喝|受不了|"
    r"接受不了|吃不惯|吃不来|喝不来|闻不了|闻不得|不进去?的|不去的|讨厌|吃不落|食唔落|吃唔落|吃不消|顶唔顺)"
)
# The one exception to eating anything: "我这个人什么都吃，就是苦瓜真的顶唔顺" (Cantonese), "唯独香菜不行"
EXCEPT_ZH = re.compile(
    rf"(?:就是|唯独|只有|除了)(?P<x>{_THING_CHAR}{{1,6}}?)(?:真的|真系|实在|是|就|我|都)*"  # (the thing)
    r"(?:顶唔顺|顶不顺|受唔了|受不了|接受不了|吃不来|吃不惯|不吃|唔食|不行|不得行|不中|碰不得)"
)
# Things the person must keep off, named first (a doctor's or a faith's rule, often a list): "香蕉、橙子、
# 土豆这些都得忌口", "辣的要忌口", "海鲜、啤酒之类的都不能碰".
KEEP_OFF_ZH = re.compile(
    # (or after who said so: "他讲我螃蟹、西瓜…这些寒性的东西一口都不要碰")
    rf"(?:^|[，,。！？!?；;：:]|(?:讲|说|叫|喊|嘱咐|交代)(?:我|俺|他|她)?)(?:像|比如|例如)?"
    rf"(?P<x>{_THING_CHAR}{{1,6}}?(?:、{_THING_CHAR}{{1,6}}?)*)"
    # (with what they share said after the list: "菠菜、苋菜、竹笋这些草酸高的一律别吃")
    # ("这一类的止痛药以后碰都莫碰")
    rf"(?:(?:这一?类|那一?类|这些|那些)的{_THING_CHAR}{{1,5}}?(?=(?:以后|往后|今后)?[碰吃喝沾]?[都也])|"
    rf"(?:这些|这类|之类的?|等等?|什么的|啥的|嗰啲)(?:{_THING_CHAR}{{1,5}}的)?|的)?(?:做的)?(?:东西|食物|水果|(?<=[的些类])菜|玩意儿?)?"
    # ("这些水果，我一口都不能碰", "布洛芬以后碰都别碰")
    r"(?:[，,]?(?:我|俺|他|她|孩子)?(?:以后|往后|今后)?(?:一口|一点|一啖|连一口|[碰吃喝沾])?(?=都|也))?"
    r"(?:以后|往后|今后)?(?:都|也|统统|通通|一律|一概)?(?:得|要|需要|必须|尽量)?"
    r"(?:忌口|戒口|忌(?=[，,。！？!?；;]|$)|少碰|别碰|不能碰|不能吃|不能喝|碰不得|吃不得|别吃|别喝|不要吃|不要喝|"
    # (莫恰: don't eat, in Hunan)
    r"不许吃|不许喝|不能沾|别沾|莫恰|莫吃|莫喝|莫沾|莫碰|甭吃|甭喝|不要碰|不准碰|"
    r"不许碰|(?:别|莫|不要|不能|甭)给(?:他|她|孩子|娃|宝宝|崽)(?:吃|喝)|"  # ("酸的、辣的…都莫给他吃")
    r"(?<=一律|一概|统统|通通)(?:不碰|不吃|不喝|不沾)|"  # (a rule: "油炸的东西一律不碰")
    r"唔好再?掂|唔好再?食|唔好再?饮|唔掂得)(?!的)"  # (Cantonese: 菊花茶、夏桑菊嗰啲都唔好再掂)
)
# A list of two things or more ruled out together: "酱油、蚝油都不行" (not "连周末也不行": one thing, time).
LIST_NOT_OK_ZH = re.compile(
    rf"(?:^|[，,。！？!?；;：:])(?P<x>{_THING_CHAR}{{1,6}}?(?:、{_THING_CHAR}{{1,6}}?)+)(?:这些|之类的?)?(?:都|也)(?:不行|不可以)"
)
# A thing dropped from a plan: "他就想要个滑板，自行车不要了" (the bike is off).
DROPPED_ZH = re.compile(
    rf"(?:^|[，,。！？!?；;：:])(?P<x>{_THING_CHAR}{{2,6}}?)(?:就|也|都)?(?:不要了|不买了|不订了)"
)
# "我跟茄子有仇" (at war with a thing: will not have it).
FEUD_ZH = re.compile(
    rf"(?:我|俺|额)(?:这辈子|从小|打小儿?|天生|就|真|算是|这个?(?:人|胃|肠胃|肚子|身体|身子骨?|嘴|体质)){{0,2}}(?:跟|和|与|同)"
    rf"(?P<x>{_THING_CHAR}{{1,6}}?)(?:硬是|就是|真的是|真是|真的|真系|简直|天生|是)?(?:前世|上辈子)?(?:有仇|结仇|结了仇|犯冲|犯相|八字不合|八字相冲|八字犯冲|过不去)"
)
# A list named first and refused at the end of its sentence: "滑雪、滑冰、雪圈这些冰上雪上的玩意儿，以后甭管谁
# 撺掇，千万别给我安排。"
LIST_REFUSED_ZH = re.compile(
    rf"(?:^|[，,。！？!?；;：:])(?P<x>{_THING_CHAR}{{1,6}}?(?:、{_THING_CHAR}{{1,6}}?)+)(?:这些|这类|之类|等)"
    r"(?=[^。！？!?]*?(?:别给我|不要给我|别再给我|甭给我|别再让我|不要再让我)(?:安排|推荐|报|约|弄|整))"
)
_SYMPTOM_ZH_RE = re.compile(SYMPTOM_ZH)
# "我一喝牛奶就拉肚子", "吃芒果会起疹子", "他碰了花生就过敏".
WHEN_ZH = re.compile(
    rf"(?:一|只要|每次|要是|如果)?(?:吃|喝|碰|闻|沾)(?:了|到|着)?(?:[一两几半][粒颗口块个片啖勺碗杯](?=.{{1,6}}?都))?"
    # (a body part touched is no thing: "芒果皮碰到手都会痒"; nor the smell pointed at: "闻到那阵味就想呕")
    rf"(?P<x>(?![完饱多几两半了过到着]|一[粒颗口块个片啖点些包杯碗勺瓶支袋]|[那这][阵股种]?味|"
    r"(?:手|脚|脸|嘴|皮肤|身上|眼睛?|鼻子)(?:就|会|都|也|便))"
    rf"(?:{HAN_CLASS}){{1,6}}?)"
    # ("吃一个汤圆都能胃胀反酸一宿": even one is too many)
    rf"(?:就|会|都会|都能|都得|便|也会|的话就|的话会|准|保准|准保){HAN_CLASS}{{0,3}}?(?:{SYMPTOM_ZH})"
)
# What the stomach cannot take: "糯米做的东西一点儿都消化不了", "油腻的他根本克化不动".
INDIGESTIBLE_ZH = re.compile(
    rf"(?P<x>(?:(?![我你他她们人])(?:{HAN_CLASS})){{1,6}}?)(?:做的东西|做的|的东西|类的东西|类)?"
    r"(?:一点儿?都|一点也|全都|都|根本|完全|压根)?(?:消化不了|消化不动|克化不动|不好消化)"
)
# The thing first: "糯米做的东西一吃就胀", "芒果我一吃就起疹子".
WHEN_AFTER_ZH = re.compile(
    # ("酸菜泡菜那些腌的东西一沾就烧心")
    # (not the hand that touches it: "向日葵这种，手碰一碰就起红疹")
    rf"(?!(?:手|脚|皮肤|脸|身上)(?:碰|摸|沾|一))"
    rf"(?P<x>{HAN_CLASS}{{1,6}}?)(?:(?:这些|那些|这类)(?:{HAN_CLASS}{{1,3}}的)?(?:东西)?|做的东西|做的|的东西|类的东西|类)?"
    r"(?<!不耐受)(?<!过敏)[，,]?(?:我|他|她|孩子)?"
    # ("凉茶我喝一包就要窜稀": how little it takes)
    r"(?:(?:一|只要|每次)(?:吃|喝|碰|沾)(?:了|到)?|(?:吃|喝|碰|沾)(?:了|到)?[一两几半][包杯碗口勺瓶支袋粒颗块个片])"
    rf"(?:就要|就会|就|都会|会|准)(?:{SYMPTOM_ZH}|胀|肿)"
)
# Its smell: "樟木那股味一闻就头痛".
SMELL_WHEN_ZH = re.compile(
    rf"(?P<x>{HAN_CLASS}{{1,6}}?)(?:那股|这股|那个|的){HAN_CLASS}?味儿?道?[，,]?(?:我|他|她)?一闻(?:到)?就(?:{SYMPTOM_ZH})"
)
# A list pointed back to: "荔枝、龙眼、芒果呢啲热气生果，我食几粒就喉咙痛" (食: 吃, ``dialect_zh``).
LIST_WHEN_ZH = re.compile(
    rf"(?:^|[，,。！？!?；;：:])(?:像|比如|例如)?(?P<x>{HAN_CLASS}{{1,5}}?(?:、{HAN_CLASS}{{1,5}}?)+)"
    rf"(?:这些|那些|这类|之类的?|呢啲|嗰啲)(?:{HAN_CLASS}{{1,5}})?[，,]?(?:我|他|她|孩子|俺)?(?:一|只要|每次)?"
    rf"(?:吃|喝|碰)(?:了|到)?(?:[几一两][粒颗口块个片啖包杯碗勺瓶支袋])?(?:就要|就会|就|都会|会|准)(?:{SYMPTOM_ZH}|胀|肿)"
)
# "咖啡让我心慌", "牛奶会让我拉肚子".
CAUSES_ZH = re.compile(
    rf"(?P<x>{HAN_CLASS}{{1,6}}?)(?:会|都会)?(?:让|令|使)(?:我|他|她|孩子|我们){HAN_CLASS}{{0,3}}?(?:{SYMPTOM_ZH})"
)
# (not 戒 of another word: "戒指" a ring, "猪八戒", "警戒线", "戒备"; Cantonese 戒咗/戒埋/戒晒 is 戒掉)
AVOIDING_ZH = re.compile(
    r"(?:(?<![八警告训惩])(?:戒了|戒(?:掉|咗|埋|晒|埋晒)了?|戒(?![指备律尺心严埋晒咗口]))|(?<!脚)不沾|远离|不碰|碰不了|碰不得|沾不了|沾不得|"
    r"(?:吃|喝)不(?:惯|来)(?![这那的甜辣咸酸苦]))"  # ("吃不惯菌子"; not "吃不惯这边的菜", a taste: TASTE_ZH)
    # (not "能不碰就别碰": said of the thing before; nor the verb's own ending, "统统要戒掉", "哪能戒得脱")
    r"(?!就别|就不|掉|得[脱掉了])啲?(?P<x>[^，。,.！？!?；;了的]{1,10})"
)
# Being at odds with something, said without a symptom or a verb of eating; read only with a known topic
# in the same sentence ("Dairy and me really don't get along", "我跟乳制品合不来").
AT_ODDS = re.compile(
    r"\b(?:(?:don't|do not|doesn't|does not|never) (?:really |quite |exactly )?(?:get along|get on|"
    r"agree with me|sit (?:well|right)|suit me|work for me|go down well|love me|like me)|"
    r"(?:are|is|aren't|isn't|are not|is not) not (?:my|our) friends?|not friends|"
    r"(?:a|an absolute|a hard|a big) no(?:-no)? for (?:me|us|him|her)|no good (?:for|with) (?:me|us)|"
    r"off the menu for (?:me|us|him|her)|"
    r"not good for (?:me|us)|bad news for (?:me|us)|hard on (?:me|my|us)|rough on (?:me|my|us)|"
    r"can't (?:handle|tolerate|digest|process|do)|cannot (?:handle|tolerate|digest|process|do)|"
    r"(?:months?|years?|weeks?|days?) off(?! (?:work|school|sick|college|uni)\b)|stay(?:ing)? away from|"
    # (not a machine that failed: "the block heater finally gave up at minus thirty-five")
    r"(?:quit|gave up|given up)(?! (?:at|in|halfway|the ghost)\b)|steer(?:ing)? clear of|"
    r"(?:could|would|can|will|might) (?:literally |actually |probably )?kill (?:me|him|her|them|us|my)|"
    r"nearly killed|(?:end|ended|ends|landed|land|put|puts|sent|sends) (?:him |her |me |us )?(?:up )?"
    r"(?:in|to) (?:the )?(?:hospital|a&e|er)|"
    r"(?:have|had|need) to (?:avoid|skip|stay off|watch out for|cut out)|(?:doctor|dietitian|nurse) "
    r"(?:said|says|told me) (?:no|to (?:avoid|skip|stop|cut))|my body (?:hates|rejects|can't))\b|"
    # (not how hot or tired one is: "这边夏天热得人受不了")
    r"合不来|碰不得|吃不得|喝不得|沾不得|吃不了|喝不了|(?<![得死])(?<!得人)受不了|不能吃|不能喝|不能碰|不敢吃|不敢喝|扛不住|"
    r"抗拒|(?:真的|实在|完全)?很?没办法(?:吃|喝|碰)?|恰不得|食唔得|饮唔得|顶唔顺|受唔了|唔食|"
    # (阿要命: Wu for "how annoying")
    r"不要再给我推荐|别再给我推荐|千万别推荐|(?<![得哩的阿])要(?:了(?:我|他|她|孩子)的)?命|"
    # (an intensifier counts only after fear or loathing: "怕哩要命", not "这边干得要命", so dry)
    r"(?:怕|烦|讨厌|恨|嫌弃)[得哩的]要命|进(?:了)?医院|进急诊",
    _I,
)


def at_odds_topics(text: str) -> list[Topic]:
    """The known topics a sentence says the person is at odds with (``AT_ODDS``, or a bodily reaction
    named beside them: "fish of any sort and his throat starts closing up"), none for a question."""
    if text.rstrip().endswith(("?", "？")):
        return []
    sentences = [p for p in _SENTENCE.split(text) if p.strip()]
    at_odds = [i for i, p in enumerate(sentences) if _at_odds(p)]
    if not at_odds:
        return []
    # A story: the thing is named in the sentence of the reaction, else in the one before or after it
    # ("It was the lupini beans … I had a couple handfuls and my lips puffed right up").
    # (a place or pastime only in the reaction's own sentence, close to it: ``constraint_outing_mentions``)
    # (not what replaced it: "一靠近猫就打喷嚏…，最后决定改养狗了" is no reaction to dogs)
    sentences = [_REPLACED_BY.split(p, maxsplit=1)[0] for p in sentences]
    topics: list[Topic] = []
    for i in at_odds:
        named = [t for t in _topics_of(sentences[i]) if _reacted_to(t, sentences[i])]
        named = (
            named
            or ([TOPICS["caffeine"]] if stimulant_story(sentences[i]) else [])
            or severe_term_topics(sentences[i], SEVERE)
        )
        for near in (i - 1, i + 1):
            if not named and 0 <= near < len(sentences) and may_borrow_cause(sentences, i, near):
                named = [t for t in _topics_of(sentences[near]) if _reacted_near(t, sentences[i])]
        topics += [t for t in named if t not in topics]
    return topics


# (nor what is had instead: "…running to the loo, so now I take my filter coffee black")
_REPLACED_BY = re.compile(
    r"改(?:养|成|为|去|买|吃|喝|用|坐)|换成|所以现在(?:只|都)?(?:喝|吃)|\bswitched to\b|"
    r"\b(?:so|and)\s+(?:now|these days|nowadays)\s+I\s+(?:only\s+|just\s+|always\s+)?"
    r"(?:take|drink|have|eat|order|get|use|stick to|go for)\b",
    _I,
)


def _reacted_near(topic: Topic, sentence: str) -> bool:
    """(a place or pastime named a sentence away only for a refusal: "stairs are a different matter
    altogether. I can't do them."; not for a story's symptom: "…like a sad dog. … I'm sick, full stop.")"""
    if topic.key not in NOT_EATEN or has_han(sentence):
        return True
    return any(_BACK_TO_IT.match(sentence, m.end()) for m in AT_ODDS.finditer(sentence))


_BACK_TO_IT = re.compile(r"\s+(?:\w+\s+)?(?:them|it|those|that|any of (?:them|it))\b", _I)


def _reacted_to(topic: Topic, sentence: str) -> bool:
    if has_han(sentence):
        return not _only_in_a_dish_zh(topic, sentence)
    if topic.key not in NOT_EATEN:
        return True
    lowered = masked(sentence).lower()
    named = [m.span() for key in topic.keys for m in key_matches(lowered, key)]
    reactions = [m.span() for m in (*_SYMPTOM_EN.finditer(lowered), *AT_ODDS.finditer(lowered))]
    return near_reaction(named, reactions)


def _only_in_a_dish_zh(topic: Topic, sentence: str) -> bool:
    """Whether a smell is reacted to and the topic is named only inside a dish named after something else:
    "香椿炒蛋…我闻到那股味道就想吐", "韭菜盒子、韭菜鸡蛋饺子…那个味儿一闻就犯恶心" (the 香椿, the 韭菜)."""
    if not _SMELT_ZH.search(sentence):
        return False
    spans = [m.span() for key in topic.keys if has_han(key) for m in re.finditer(re.escape(key), sentence)]
    return bool(spans) and all(
        sentence[max(0, start - 1) : start] == "炒"
        or (start > 0 and has_han(sentence[start - 1]) and _DISH_AFTER_ZH.match(sentence, end) is not None)
        for start, end in spans
    )


_SMELT_ZH = re.compile(r"闻|味道|味儿|气味")
_DISH_AFTER_ZH = re.compile(r"饺子|馅|盒子|饼|包子|面|汤|卷")


def _at_odds(text: str) -> bool:
    return bool(AT_ODDS.search(text) or has_symptom(text) or any(map(felt, _SYMPTOM_ZH_RE.finditer(text))))


def _topics_of(text: str) -> list[Topic]:
    """The known topics a sentence names, leaving out what it only mentions (``constraint_mentions``)."""
    text = without_passing_mentions(text)
    return named_topics(without_asides_zh(text).lower()) or named_topics(text.lower())


_SENTENCE = re.compile(r"(?<=[.!?。！？])\s*")


SEVERE = re.compile(
    r"throat|anaphyla|epi-?pen|breathe|hives|welts|swell|puffy|lips? (?:\w+ )?(?:blew|blown|went|puffed) up|"
    r"chest (?:locked|seized) (?:up|tight)|"
    # (not a figure of speech: "the 110 on a Saturday would've killed me anyway", "my feet are killing me")
    r"(?<!would've )(?<!would have )(?<!'d have )\bkill(?!ing me\b)|hospital|\ba&e\b|"
    r"喉咙|呼吸困难|休克|(?<![得哩的])要(?:了(?:我|他|她|孩子)的)?命|医院|急诊",
    _I,
)


def has_symptom(text: str) -> bool:
    """Whether ``text`` names a bodily reaction (English): "hives", "makes me sick"."""
    return _SYMPTOM_EN.search(text) is not None


# Who does something, or when, is no cause: "my cousin Priya keeps sending me links at 2am", "Every summer
# when Mom makes aamras".
_NO_CAUSE_EN = re.compile(
    r"\b(?:when|whenever|if|because|cousin|sister|brother|son|daughter|aunt|auntie|uncle|neighbou?r|"
    r"colleague|boss|kid|kids|grandson|granddaughter|nephew|niece|flatmate|roommate|landlord|he|she|they)\b",
    _I,
)


def symptom_matches(text: str) -> list[re.Match[str]]:
    """The things ``text`` says cause a reaction, English and Chinese."""
    zh = (WHEN_ZH, CAUSES_ZH, WHEN_AFTER_ZH, STOMACH_ZH, LIST_WHEN_ZH, INDIGESTIBLE_ZH, SMELL_WHEN_ZH)
    found = [match for pattern in zh for match in pattern.finditer(text)]
    if has_symptom(text):
        found += [m for m in _CAUSES_EN.finditer(text) if not _NO_CAUSE_EN.search(m.group("x"))]
        found += list(_WHEN_EN.finditer(text))
        found += list(_LIST_CAUSES_EN.finditer(text))
    return found


# "anything with garlic", "food containing gluten", "dishes made with peanuts": the thing is what follows.
CARRIER_EN = re.compile(
    r"^(?:any|all|some)?\s*(?:anything|something|food|foods|dishes|dish|stuff|things|meals|products)\s+"
    r"(?:with|containing|made with|that has|that have|that contains?|cooked in|fried in)\s+(?:any\s+)?",
    _I,
)
# "那个膻味", "这种东西", "这动静": pointing back at something already named, not naming a new thing.
POINTING_ZH = re.compile(r"^[这那]一?(?:个|种|些|样|套|出|动静|声音|声儿|响动|玩意儿?)")
