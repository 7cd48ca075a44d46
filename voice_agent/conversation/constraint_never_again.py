"""A person swearing off something for good, in their own words: "We are never, ever going camping
again", "I'm never connecting through Heathrow again"; "以后过年我是再也不开车回老家了", "打死也不自驾了",
"再也不坐大巴了". The thing is the activity itself ("camping", 开车) or what the verb takes (Heathrow, 大巴).
Each thing is read by ``constraints`` as its words say it (a known topic, else the phrase)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from voice_agent.conversation.constraint_never_again_zh import sworn_off_zh
from voice_agent.conversation.constraint_no_items import NOT_A_THING_EN
from voice_agent.conversation.constraint_vow_anyone_zh import vowed_against_anyone_zh

_I = re.IGNORECASE
# "I am never, ever connecting through Heathrow again", "we're never going camping again", "I'm never
# flying with them again" (a pronoun is no thing: ``clean_object`` drops it).
NEVER_AGAIN_EN = re.compile(
    r"\b(?:i|we|he|she|they)(?:'m|'re|'s|\s+am|\s+are|\s+is|\s+will|'ll)?\s+never,?\s+(?:ever,?\s+)?"
    r"(?:be\s+)?(?:(?:going|go)\s+(?=[a-z]+ing\b))?"
    # (someone taken along: "I am never putting her on the bus again")
    # (what is eaten, drunk or used: "I am never touching tequila again")
    # (where: "I am never, ever eating in a revolving restaurant again" swears off revolving restaurants)
    r"(?:(?:touching|drinking|eating|having|ordering|using|buying|booking|wearing|trying)\s+"
    r"(?:(?:in|at)\s+(?:an?\s+|the\s+|any\s+)?|the\s+|any\s+)?"
    r"(?P<obj>[a-z][a-z' -]{1,30}?)(?=\s+again\b)|"
    r"(?P<act>[a-z]+ing)\b(?:\s+(?:her|him|them|the kids|my \w+|our \w+))?"
    r"(?:\s+(?:through|via|with|on|at|in|to|into|by|from)\s+"
    r"(?:the\s+|(?:one|any) of (?:those|them|these)\s+)?"
    r"(?P<x>[a-z][a-z' -]{1,30}?))?|(?:going\s+(?:to|back to)|visiting|setting foot in)\s+(?:the\s+)?"
    r"(?P<place>[a-z][a-z' -]{1,30}?))\s+again\b",
    _I,
)
# "never, ever" said of a thing, with no "again": "he is never, ever doing Schoolies at Surfers Paradise".
NEVER_EVER_EN = re.compile(
    r"\b(?:i|we|he|she|they)(?:'m|'re|'s|\s+am|\s+are|\s+is|\s+will|'ll)?\s+never,?\s+ever,?\s+"
    r"(?:be\s+)?(?:doing|going to|going on|setting foot in|touching|eating|drinking|using|booking|buying)\s+"
    r"(?:the\s+|a\s+|an\s+|another\s+|any\s+)?(?P<x>[A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*){0,2}?)"
    r"(?=\s*(?:[.,;!?]|$|\s+(?:at|in|on|with|while|again|ever|until|till)\b))",
    _I,
)
# Someone swearing off: "I'm never", "we are not", "she will never, ever".
_SWEARS_EN = (
    # ("that dog is never going into kennels again")
    r"\b(?:i|we|he|she|they|(?:that|this|the|my|our) (?:dog|cat|pup|puppy|kid|child|baby|horse))"
    r"(?:'m|'re|'s|\s+am|\s+are|\s+is|\s+will|'ll)?\s+(?:never,?\s+(?:ever,?\s+)?|not\s+)"
)
# Any verb and what it takes, with "again" later in the clause: "We are never hiring a van and doing it
# ourselves again", "I am never putting snail bait in that garden again" (the object: a word or two).
NEVER_VERB_AGAIN_EN = re.compile(
    rf"(?:{_SWEARS_EN}|(?:^|[.;:!?]\s*)never,?\s+(?:ever,?\s+)?)"  # ("Never, ever getting acrylics again")
    # ("one of them gas stoves", "getting in one of those buggies")
    r"(?P<verb>[a-z]+ing)\s+(?:(?:in|into|on|onto)\s+)?(?:(?:one|any) of (?:them|those|these|the)\s+)?"
    r"(?:(?:a|an|the|any|some|that|those|this|these|our|my)\s+)?"
    r"(?P<obj>[a-z][a-z'-]+(?:\s+[a-z][a-z'-]+)?)\b"
    # ("I am not frying a turkey as long as I live")
    r"(?=[^.!?;]{0,50}?\b(?:again|as long as (?:i|we|he|she|they) (?:live|lives)|"
    # ("I am never renting a storage unit or a lock-up for anything ever", "not … for any money")
    r"for the rest of (?:my|our) li(?:fe|ves)|ever|in (?:my|our|his|her) li(?:fe|ves)|for any money|"
    r"for love (?:or|nor) money|(?:not )?if (?:you|they) paid me)\b)",
    _I,
)
# The plain verb after a modal: "I'd never put on a pair of heels again as long as I live", "I will never
# touch Jägermeister again, not even a sip", "we'll never book that hotel again" (the verbs of
# ``_TAKING_VERBS``, what they take being the thing).
NEVER_BASE_AGAIN_EN = re.compile(
    r"\b(?:i|we|he|she|they)(?:'d|'ll|\s+would|\s+will|\s+shall|'m|\s+am|'re|\s+are)\s+never,?\s+(?:ever,?\s+)?"
    r"(?:going to\s+|gonna\s+)?"
    # ("I'll never pay for phone insurance again", "I'll never sign up for a gym contract again")
    # ("I swore I'd never put fake tan on Saoirse again")
    r"(?:touch|drink|eat|have|order|use|buy|book|wear|try|put on|put down|put out|lay down|scatter|spread|"
    r"put(?!\s+(?:my|our|his|her|their|your)\b)|"
    r"apply|spray|take|ride|hire|rent|get|choose|climb|"
    r"board|get on|step on|step into|pay for|sign up for|sign up to|take out|fall for)\s+"
    # ("I'd never buy a bag of peat compost again")
    r"(?:(?:a pair of|a (?:bag|bottle|box|pack|packet|tin|jar|pint|glass|sack|can|tub|carton) of|another|"
    r"any more|any|a|an|the|that|those|these|one of (?:those|them|these))\s+)?"
    r"(?P<obj>[^\W\d_][\w'-]*(?:\s+[^\W\d_][\w'-]*)?)\b"
    r"(?=[^.!?;]{0,50}?\b(?:again|as long as (?:i|we|he|she|they) (?:live|lives)|"
    # ("I am never renting a storage unit or a lock-up for anything ever")
    r"for the rest of (?:my|our) li(?:fe|ves)|ever|in (?:my|our|his|her) li(?:fe|ves))\b)",
    _I,
)
# Someone put on or into the thing sworn off: "booking Dad on the hospital patient transport", "putting her
# in that nursery".
_SOMEONE_ON_EN = re.compile(
    r"(?:(?:my|our|the)\s+)?(?:dad|mum|mom|mam|mother|father|nan|nana|gran|granny|grandad|grandma|grandpa|"
    r"him|her|them|kids|children|baby|husband|wife|son|daughter|the kids)\s+"
    r"(?:on|onto|into|in|through|with)\s+"
    r"(?:(?:the|a|an|that|those|any)\s+)?(?P<x>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){0,3}?)(?=\s+again\b)",
    _I,
)
# "Never again" before the verb: "I will never again host a pool party for little kids".
_NEVER_AGAIN_BASE_EN = re.compile(
    r"(?:\b(?:i|we|he|she|they)(?:'ll|'d|\s+will|\s+would|\s+shall|'m|\s+am|'re|\s+are)?\s+never\s+again\s+"
    r"|"
    # (inverted: "never again will I sleep in a couchette")
    r"\bnever\s+again\s+(?:will|shall|would|do|am)\s+(?:i|we|he|she|they)\s+)"
    r"(?:be\s+)?(?:(?:sleep(?:ing)?|stay(?:ing)?|travel(?:l?ing)?) (?:in|on|at)|"
    r"host(?:ing)?|throw(?:ing)?|book(?:ing)?|hav(?:e|ing)|hold(?:ing)?|organi[sz](?:e|ing)|"
    r"us(?:e|ing)|buy(?:ing)?|hir(?:e|ing)|rent(?:ing)?|tak(?:e|ing)|try|trying|order(?:ing)?|eat(?:ing)?|"
    r"drink(?:ing)?|wear(?:ing)?|rid(?:e|ing)|board(?:ing)?|climb(?:ing)?|go(?:ing)? (?:to|on)|"
    r"get(?:ting)? (?:in|on)|bring(?:ing)? (?:home|back|in|into (?:the|my|our) (?:house|home|flat)))\s+"
    r"(?:(?:a|an|the|any|another|that|those|one of those)\s+)?(?P<obj>[a-z][\w'-]*(?:\s+[a-z][\w'-]*)?)\b",
    _I,
)
_ONE_OF = re.compile(r"\bone of (?:those|these|them)\b", _I)
_ONE_OF_THOSE_EN = re.compile(
    r"\bone of (?:those|these|them)\s+(?P<x>[a-z][\w-]*(?:\s+(?!(?:behind|on|in|at|for|from|with|that|which|"
    r"and|off|up|again)\b)[a-z][\w-]*){0,2})",
    _I,
)
_NOT_A_THING_EN = frozenset((
    "in", "on", "at", "into", "and", "or", "to", "with", "for", "from", "up", "out", "down", "back", "off",
    "again", "ever", "it", "them", "him", "her", "that", "there", "anything", "something", "myself",
    "ourselves", "yourself", "himself", "herself", "themselves", "foot", "so", "like", "this",
    "things", "stuff", "ones",  # ("picking one of those things up again": named before, not here)
))  # fmt: skip
# Verbs whose object is the thing itself (hired, bought, used, put down): "frying a turkey" swears off the
# frying, not turkey, so other verbs name no thing here.
_TAKING_VERBS = frozenset((
    "hiring", "renting", "buying", "using", "putting", "booking", "ordering", "eating", "drinking", "having",
    "trying", "wearing", "taking", "visiting", "choosing", "picking", "leasing", "subletting", "signing",
    "joining", "downloading", "installing", "planting", "growing", "spraying", "feeding", "giving", "sending",
    "running", "organising", "organizing", "hosting",
    "reheating", "microwaving", "touching", "getting", "doing", "riding", "letting",
))  # fmt: skip
# A road, pass or place never travelled again: "I am not going over the Bealach na Bà as long as I live".
NEVER_GOING_EN = re.compile(
    # ("I will never transit through Addis Ababa again in this life")
    _SWEARS_EN + r"(?:going|driving|walking|cycling|riding|flying|"
    r"(?:transit|connect|rout|fly|travel)(?:ing)?|changing planes|travelling|traveling)\s+"
    r"(?:over|through|via|up|down|near|along|across|back to|to|into|on)"
    # ("I am never driving on the 401, not for a test, not for a job")
    r"\s+(?:the\s+)?(?P<x>(?:\d{2,4}\b|[^\W\d_][\w'-]*)(?:\s+[^\W\d_][\w'-]*){0,3}?)"
    r"(?=\s+(?:again\b|as long as (?:i|we|he|she|they) (?:live|lives)|for the rest of)|"
    r",\s+not (?:for|even|ever)\b)",
    _I,
)
# Names sworn off in a list: "Never again, not Viagogo, not StubHub, none of them touts' sites".
_NAME_EN = r"[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2}"
_NEVER_AGAIN_NOT = re.compile(
    rf"\b[Nn]ever again[,:]?\s+not\s+(?P<names>{_NAME_EN}(?:,\s+not\s+{_NAME_EN})*)"
)
_NOT_BETWEEN = re.compile(r",\s+not\s+")
# "Never again" said alone after a story ("…at that trampoline park … snapped both bones in her forearm.
# I'm telling you, never again"), or "never going back": what is sworn off is the place or the outing the
# story happened at.
_BARE_NEVER_EN = re.compile(r"\bnever (?:again\b(?![,:]?\s+not\s)|(?:going|go|setting foot) back\b)", _I)
# "I am officially done with SkipTheDishes" (not "done with the gym for today"), and "never again" said
# first: "Never again am I using Evri", "Never again will we fly with them".
_DONE_WITH_EN = re.compile(
    r"\b(?i:i|we)(?:'m|'re|\s+am|\s+are)\s+(?i:officially|so|completely|totally|well and truly)\s+"
    r"done with\s+(?:the\s+)?(?P<x>[A-Za-z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})\b"
    r"(?!\s+(?i:for|till|until|by|today|tonight|now|this)\b)"
)
# A brand with no adverb, when its kind or what replaces it follows: "I'm done with Airbnb and all those
# rent-a-stranger's-house sites", "I'm done with Ryanair, it's trains only from now on".
_DONE_WITH_BRAND_EN = re.compile(
    r"\b(?i:i|we)(?:'m|'re|\s+am|\s+are)\s+done with\s+(?P<x>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})"
    r"(?=\s+and all (?:those|these|the|of)\b|,\s+(?i:it's|it is)\b[^.!?]{0,30}\bonly\b)"
)
# ("Never again, mate, I'm done with those small speedboats bashing across open water")
_NEVER_AGAIN_DONE_EN = re.compile(
    r"\bnever again\b[^.!?]{0,30}?\b(?i:i|we)(?:'m|'re| am| are) done with (?:those |these |the |any |all )?"
    r"(?P<x>[a-z][\w'-]*(?: [a-z][\w'-]*){0,2}?)(?= [a-z]+ing\b|\s*[.,;!?]|$)",
    _I,
)
# "never again: no trampoline parks, no trampolines at friends' houses".
_NO_ITEM = r"[a-z0-9][\w'-]*(?:\s+[a-z][\w'-]*)?"  # (one or two words: "3D", "moving seats")
_NEVER_AGAIN_NO_EN = re.compile(
    r"\bnever again[,:;.!]?\s+no\s+(?!(?:way|chance|thanks|more|doubt|problem|kidding|joke|sir|siree)\b)"
    rf"(?P<x>{_NO_ITEM})(?=\s*[,.;!?]|\s+(?:at|in|on|for)\b)",
    _I,
)
# ...and the list it starts: "never again, no 3D, no moving seats, not for any money".
_AND_NO_EN = re.compile(rf",\s+no\s+(?P<x>{_NO_ITEM})(?=\s*[,.;!?])", _I)
# "I've sworn off automatic car washes for good", "we swore off cruises after that".
_SWORN_OFF_EN = re.compile(
    # (or someone of theirs: "Dad's sworn off buffets for life")
    r"\b(?:i|we|he|she|they|dad|mum|mom|mam|nan|gran|grandad|grandpa|grandma)(?:'ve|'s| have| has)?\s+"
    r"(?:well and truly\s+|completely\s+)?swor(?:e|n) off\s+"
    r"(?:the\s+|those\s+|all\s+)?"
    r"(?P<x>[a-z][\w'-]*(?: [a-z][\w'-]*){0,2}?)(?=\s+(?:for good|forever|for life|after|since|because|"
    r"completely|altogether|ever since)\b|\s*[.,;!?]|$)",
    _I,
)
# A thing there will never be again at what the person runs: "there will never be another bouncy castle or
# any of them inflatables at anything we organise".
_NEVER_ANOTHER_EN = re.compile(
    r"\bthere(?:'ll| will|'s| is)\s+never\s+(?:be\s+)?(?:another|any more|anymore|a single|one more)\s+"
    # (at or in what is theirs, or again: not "there will never be another Beatles")
    r"(?P<x>[a-z][\w'-]*(?: [a-z][\w'-]*){0,2}?)(?=(?:\s+or\b[^.;!?]{0,40}?)?\s+(?:(?:at|in|under)\s+"
    r"(?:anything|any|this|our|my|the house)\b|(?:ever )?again\b))",
    _I,
)
# ("that's it, I'm done with heels forever")
_DONE_FOR_GOOD_EN = re.compile(
    # ("that's me done with cable cars and chairlifts for life")
    r"(?:\b(?:i|we)(?:'m|'re| am| are)|\bthat's (?:me|us)) (?:\w+ )?done with "
    r"(?:those |these |the |any |all )?"
    r"(?P<x>[a-z][\w'-]*(?: [a-z][\w'-]*){0,3}?)\s+(?:forever|for good|for life|for ever|from now on)\b",
    _I,
)
# "I have finished with boats.", "I'm done with cruises.": a kind of thing, plural, that ends the clause.
_FINISHED_WITH_EN = re.compile(
    r"\b(?:i|we)(?:'ve| have|'m| am|'re| are)\s+(?:(?:well and truly|officially|completely|so) )?"
    r"(?:finished|done) with (?P<x>[a-z][\w'-]*[a-z]s)(?=\s*(?:[.;!?]|,\s+(?:and|so|mate|honestly)\b|$))",
    _I,
)
_NEVER_AGAIN_FIRST_EN = re.compile(
    r"\bnever again (?:am|will|do|shall|are|is)\s+(?:i|we|he|she|they)\s+(?:be\s+)?(?:using|use|booking|book|"
    r"ordering from|order from|flying with|fly with|going to|go to|shopping at|shop at|staying at|stay at|"
    r"eating at|eat at|buying from|buy from)\s+(?:the\s+)?(?P<x>[A-Za-z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2})\b",
    _I,
)
# "never again with those paint-and-sip nights", "never again for me in a tunnel", "no more recorders in
# this house".
_NEVER_AGAIN_WITH_EN = re.compile(
    r"\bnever again(?:,? for (?:me|us|him|her))?,? (?:with (?:those|these|the|that|any)?|(?:in|on|at) "
    r"(?:a|an|the|that|those|these|one of those))\s*(?P<x>[a-z][\w'-]*(?:[ -][a-z][\w'-]*){0,2}?)"
    r"(?:\s+(?:nights?|evenings?|things?|sessions?|places?))?(?=\s*(?:[.,;!?]|$))|"
    r"\bno more (?P<y>[a-z][\w'-]*(?: [a-z][\w'-]*)?) (?:in|under) (?:this|my|our|the) "
    r"(?:house|home|roof|flat)\b",
    _I,
)
_BOOKED_AS_EN = re.compile(r"(?<=\w)\s+(?:class|session|course|workshop)$", _I)
_STORY_SPOT_EN = re.compile(
    r"\b(?:at|to|in|on)\s+(?:that|a|an|the|this|one of those)\s+(?P<x>(?:[a-z]+[ -]){0,2}(?:park|centre|"
    r"center|venue|class|club|camp|session|restaurant|bar|pub|hotel|resort|cruise|tour|ride|course|gym|studio|"
    r"arcade|spa|hostel|festival|market|workshop|retreat|theme park|escape room|bus|coach|boat|ferry|"
    r"sleeper|red-eye))\b",
    _I,
)
# A house rule: "slime is banned from this house for life", "glitter's banned in our house".
BANNED_EN = re.compile(
    r"(?:^|[.,;:!?]\s*|\b(?:so|and|but|now|telling you|honestly)\s+)"
    r"(?P<x>[a-z]+(?:[ -][a-z]+){0,2}?)(?:'s|\s+is|\s+are)\s+"
    r"(?:now\s+|officially\s+|totally\s+|completely\s+)?"
    r"banned\s+(?:from|in|at)\s+(?:this|our|my|the)\s+(?:house|home|flat|household|kitchen|car)\b",
    _I,
)
# A foot never set on a thing again: "I'm not setting foot on a boat for anything", "she won't set foot in a
# lift ever again", "I am not getting behind the wheel of a hire van ever again".
_NO_FOOT_ON_EN = re.compile(
    r"\b(?:i|we|he|she|they)(?:'m|'re|'s|'d|\s+am|\s+are|\s+is|\s+will|'ll|\s+won't|\s+will not|\s+would)?\s+"
    r"(?:never,?\s+|not\s+)?(?:ever,?\s+|again\s+)?(?:(?:setting|set|putting|put)\s+(?:a\s+)?foot\s+(?:on|in|into|aboard)|"
    r"(?:getting|get)\s+behind\s+the\s+wheel\s+of)\s+"
    # ("I'd never again put a foot on anything that floats": a boat)
    r"(?:(?:a|an|another|any|one of those)\s+(?P<x>[a-z]+(?:[ -][a-z]+)?)|(?P<floats>anything that floats))"
    r"(?=\s+(?:again|ever|for anything|as long as|for love nor money|across|over|to|from)\b|\s*[.,;:!?]|$)",
    _I,
)
_ROUTE_AFTER_EN = re.compile(r"\s+(?:across|over|to|from)\b", _I)
_NOT_EN = re.compile(r"\b(?:never|not|won't)\b", _I)
# A thing the person has parted with: "so lavender and I are finished", "me and red wine are done".
_PARTED_WITH_EN = re.compile(
    r"(?:^|[.,;:!?]\s*|\b(?i:so|and|but|now|honestly)\s+)(?P<x>[a-z]+(?: [a-z]+)?) and (?:I|me) (?:are|'re) "
    r"(?:finished|done|through|over)\b|"
    r"\b(?:[Mm]e|I) and (?P<y>[a-z]+(?: [a-z]+)?) (?:are|'re) (?:finished|done|through|over)\b"
)
# Verbs whose -ing form is a pastime or a way of travelling: the thing itself ("camping", "cruising").
_ACTIVITY_VERBS = frozenset((
    "camping", "glamping", "caravanning", "skiing", "hiking", "cruising", "sailing", "driving", "flying",
    "cycling", "clubbing", "bowling", "karaoke", "busking", "hitchhiking", "backpacking", "fishing",
    "skating", "swimming", "diving", "running", "climbing", "gambling", "drinking", "smoking",
))  # fmt: skip
_PRONOUNS = frozenset(("them", "him", "her", "it", "that", "there", "those", "you", "things", "ones"))
# A thing kept out of the home for good, pointed at: "I swore that game never comes into my house again".
_KEPT_OUT_EN = re.compile(
    r"\b(?:that|this) (?:game|board game|card game|thing|one) (?:will )?never (?:comes?|goes?|gets?|"
    r"is coming|is going|sets? foot) (?:back )?(?:in|into|inside|through|near) (?:my|our|this|the) "
    r"(?:house|home|flat|door)",
    _I,
)
# One of a thing named before, never got into again: "I won't get in one ever again".
_ONE_AGAIN_EN = re.compile(
    r"\b(?:i|we|he|she|they)(?:\s+won't|\s+will not|\s+will never|'ll never|'m never|\s+am never|"
    r"\s+are never|'re never)\s+(?:get|getting|go|going|step|stepping|ride|riding|set foot)\s+"
    r"(?:in|into|on|onto|near)\s+(?:one|another|them|one of them)\s+(?:ever\s+)?again\b",
    _I,
)
_RIDDEN_EN = re.compile(
    r"\b(?:that|a|an|the|this|one of those)\s+(?P<x>lift|elevator|escalator|cable car|gondola|chairlift|"
    r"plane|helicopter|boat|ferry|taxi|cab|bus|coach|train|tram|roller ?coaster|hot air balloon|canoe|kayak|"
    r"jet ski|speedboat|car)s?\b",
    _I,
)
# What was played or brought out before it: "we pulled out Monopoly after lunch" (a name, capitalised).
_PLAYED_EN = re.compile(
    r"\b(?:played|playing|pulled out|got out|brought out|broke out|dug out|bought|opened)\s+"
    r"(?:a\s+game\s+of\s+)?"
    r"(?P<x>(?-i:[A-Z][\w'-]*)(?:\s+(?-i:[A-Z][\w'-]*)){0,2})"
)


# A thing never let near the person again: "I swore I would never let bleach anywhere near my head again".
_NEVER_LET_NEAR_EN = re.compile(
    r"\b(?:never|won't|will not|wouldn't|would not)\s+(?:ever\s+)?(?:let|allow|put|bring)\s+"
    # (someone let near with a thing: "never let anyone near me or mine with a piercing gun again")
    r"(?:(?:anyone|anybody|someone|somebody|them|him|her|people)\s+(?:anywhere\s+)?near\s+"
    r"(?:me|us|my \w+|our \w+|him|her|them)(?:\s+or\s+(?:mine|ours|my \w+|our \w+))?\s+with\s+"
    r"(?:a\s+|an\s+|the\s+|any\s+)?(?P<y>[a-z][\w'-]*(?:\s+(?!again\b)[a-z][\w'-]*)?)|"
    r"(?:a\s+|an\s+|any\s+|the\s+|another\s+)?"
    r"(?!(?:anyone|anybody|someone|somebody|them|him|her|people|that|this|it)\b)"
    r"(?P<x>[a-z][\w'-]*(?:\s+(?!any\s?where\b)[a-z][\w'-]*)?)\s+"
    r"(?:anywhere\s+|any\s?where\s+)?near\s+(?:my|me|our|us|his|her|him|them|the)\b)|"
    # (no one coming near with it: "no one is ever coming near my neck with a straight razor again")
    r"\b(?:no one|no-one|nobody)(?:'s|\s+is|\s+will|'ll)?\s+(?:ever\s+)?(?:again\s+)?(?:coming|going|getting|"
    r"come|go|get)\s+(?:anywhere\s+)?near\s+(?:me|us|my \w+|our \w+|him|her|them)\s+with\s+"
    r"(?:a\s+|an\s+|the\s+|any\s+)?(?P<z>[a-z][\w'-]*(?:\s+(?!again\b)[a-z][\w'-]*)?)",
    _I,
)
# Two things sworn off at once: "a spa or a hot tub".
_EITHER = re.compile(r"\s+(?:or|nor)\s+(?:an?\s+|the\s+|any\s+)?", _I)


# Riding told as throwing a leg over it, and a ride told by its wheels: "I'd never again throw a leg over
# anything with two wheels and an engine" swears off motorbikes.
_LEG_OVER_EN = re.compile(
    r"\bnever\b[^.!?]{0,40}?\b(?:throw|swing|get|put|cock)(?:ing)? (?:a |my |his |her )?leg over\s+"
    r"(?:a |an |the |any |another )?(?P<x>[a-z]+(?: (?!with\b|again\b)[a-z]+)?)",
    _I,
)
_WHEELS_EN = re.compile(r"\s+with two wheels(?P<engine> and an? (?:engine|motor))?", _I)


def _ridden(text: str) -> Iterator[str]:
    for match in _LEG_OVER_EN.finditer(text):
        if match.group("x").lower() not in ("anything", "something", "one"):
            yield match.group("x")
        elif wheels := _WHEELS_EN.match(text, match.end("x")):  # (else nothing is named)
            yield "motorbike" if wheels.group("engine") else "bike"


def never_again(text: str) -> Iterator[str]:
    """The things sworn off ("Heathrow", "camping", 开车, 大巴), in the person's words."""
    near = [m.group("x") or m.group("y") or m.group("z") for m in _NEVER_LET_NEAR_EN.finditer(text)]
    ridden = list(_ridden(text))  # ("never again throw a leg over X": X, not the leg)
    sworn = [thing for thing in _sworn_off(text) if not (ridden and thing.lower() == "leg over")]
    for thing in [*sworn, *near, *ridden]:
        if _ONE_OF.fullmatch(thing):  # (pointing back, with nothing named: no thing)
            continue
        for one in _EITHER.split(thing):
            # (a closing 了 is no part of the thing: "再也不得去啥子农家乐了" swears off 农家乐)
            yield one[:-1] if one.endswith("了") and len(one) > 2 else one


def _sworn_off(text: str) -> Iterator[str]:
    for match in NEVER_AGAIN_EN.finditer(text):
        act = (match.group("act") or "").lower()
        thing = match.group("obj") or match.group("x") or match.group("place")
        if thing:  # ("never flying with them again": that airline, not flying; unknown here)
            if _ONE_OF.fullmatch(thing):  # ("never going through one of those again": named before)
                named = list(_ONE_OF_THOSE_EN.finditer(text, 0, match.start()))
                yield from [named[-1].group("x")] if named else []
            elif thing.lower() not in _PRONOUNS:
                yield thing
        elif act in _ACTIVITY_VERBS:
            yield act
    for match in [*NEVER_VERB_AGAIN_EN.finditer(text), *NEVER_BASE_AGAIN_EN.finditer(text),
                  *_NEVER_AGAIN_BASE_EN.finditer(text)]:  # fmt: skip
        verb = match.groupdict().get("verb")
        if verb and (verb.lower() not in _TAKING_VERBS or NEVER_AGAIN_EN.match(text, match.start())):
            continue
        someone = _SOMEONE_ON_EN.match(text, match.start("obj"))
        if someone:  # ("never booking Dad on the hospital patient transport again": the transport)
            yield someone.group("x")
            continue
        words = []
        for word in match.group("obj").split():
            if word.lower() in _NOT_A_THING_EN:
                break
            words.append(word)
        if words and " ".join(words).lower() not in NOT_A_THING_EN:  # ("never have a chance again")
            yield " ".join(words)
        elif not words and _ONE_OF.search(match.group(0)):
            # ("slapped on one of those seasickness patches … I'm never, ever putting one of those on
            # again": the thing named the same way before)
            named = list(_ONE_OF_THOSE_EN.finditer(text, 0, match.start()))
            if named:
                yield named[-1].group("x")
    for match in [*NEVER_GOING_EN.finditer(text), *NEVER_EVER_EN.finditer(text)]:
        if match.group("x").lower() not in _PRONOUNS:
            yield match.group("x")
    for match in _NEVER_AGAIN_NOT.finditer(text):
        yield from _NOT_BETWEEN.split(match.group("names"))
    for match in [*_DONE_WITH_EN.finditer(text), *_NEVER_AGAIN_FIRST_EN.finditer(text),
                  *_NEVER_AGAIN_DONE_EN.finditer(text), *_DONE_FOR_GOOD_EN.finditer(text),
                  *_DONE_WITH_BRAND_EN.finditer(text), *_FINISHED_WITH_EN.finditer(text),
                  *_SWORN_OFF_EN.finditer(text), *_NEVER_AGAIN_NO_EN.finditer(text),
                  *_NEVER_ANOTHER_EN.finditer(text)]:  # fmt: skip
        if match.group("x").lower() not in _PRONOUNS:
            yield match.group("x")
    for match in _NEVER_AGAIN_NO_EN.finditer(text):
        more = _AND_NO_EN.match(text, match.end("x"))
        while more:
            yield more.group("x")
            more = _AND_NO_EN.match(text, more.end("x"))
    for match in _NEVER_AGAIN_WITH_EN.finditer(text):
        if (match.group("x") or "").lower() not in _PRONOUNS:
            yield match.group("x") or match.group("y")
    for match in _BARE_NEVER_EN.finditer(text):
        spots = list(_STORY_SPOT_EN.finditer(text, 0, match.start()))
        if spots:  # (the thing done, not its booking: "a hot yoga class" swears off hot yoga)
            yield _BOOKED_AS_EN.sub("", spots[-1].group("x"))
    for match in _NO_FOOT_ON_EN.finditer(text):
        # (a crossing said after the thing is a vow only beside one: "Never again … will I set foot on a boat
        # across the Irish Sea", not "I set foot on a boat to Skye and loved it")
        if not _ROUTE_AFTER_EN.match(text, match.end()) or _NOT_EN.search(
            text, max(0, match.start() - 60), match.end()
        ):
            yield "boat" if match.group("floats") else match.group("x")
    for match in _PARTED_WITH_EN.finditer(text):
        thing = match.group("x") or match.group("y")
        if thing.split()[0].lower() not in _PRONOUNS and thing.lower() not in ("we", "you", "they"):
            yield thing
    for match in BANNED_EN.finditer(text):
        if match.group("x").lower() not in _PRONOUNS:
            yield match.group("x")
    for match in _KEPT_OUT_EN.finditer(text):
        played = list(_PLAYED_EN.finditer(text, 0, match.start()))
        if played:
            yield played[-1].group("x")
    for match in _ONE_AGAIN_EN.finditer(text):  # ("stuck in that lift … I won't get in one ever again")
        ridden = list(_RIDDEN_EN.finditer(text, 0, match.start()))
        if ridden:
            yield ridden[-1].group("x")
    yield from sworn_off_zh(text)
    yield from vowed_against_anyone_zh(text)
