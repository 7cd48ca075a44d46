"""Whether a reply used what the person told us they like, and a sentence that ties it in when not.

Asked "what should I play in the car?" by someone who said "我平时最爱听周杰伦的歌", the 0.5B default model
often names any song ("开车时放点《我爱你》好。"), though the liking is restated right before the turn and in
the guidance after it. The reply check cannot know that before the reply ends, and holding the first
sentence back would delay the first audio of every clean reply. So the reply is said as it comes, and
when it ends without one distinctive word of the liking (a word of the liking that the question itself
does not use: "周杰伦", "jazz", "Miyazaki"; not "music", "like" or "songs"), one short sentence follows
that says the liking back with a suggestion along those lines.
"""

from __future__ import annotations

import functools
import re

from voice_agent.conversation.constraints import ConstraintSet
from voice_agent.conversation.liking_cuts import POINTS_AHEAD, first_commas
from voice_agent.conversation.liking_offers import OFFERED_LIKING
from voice_agent.conversation.recall_answer import said_back
from voice_agent.text.cjk import HAN_CLASS, HAN_RE, is_han
from voice_agent.text.placeholders import PLACEHOLDER_RE, PLACEHOLDER_SHAPE_RE
from voice_agent.text.sentences import sentences_of

_I = re.IGNORECASE
_WORD_EN = re.compile(r"[a-z][a-z'-]{2,}", _I)
_HAN_RUN = re.compile(rf"{HAN_CLASS}+")
# Words of a liking that say how much, not what ("I really love …", "我平时最爱听…").
_LIKING_TEXT_EN = (
    "favourite favorite love loves loved like likes liked prefer prefers enjoy enjoys fan fans huge big "
    "really all the time always could would watch listen listening read eat drink over and again day "
    "long anything everything stuff things thing just honestly basically kind sort type whole lot much "
    "very about into crazy the and with for that this those these from them they their when what you "
    "your mine our ours have has had get got can any some more most best ever never good great i'm i've "
    "music song songs movie movies film films book books novel novels show shows food dishes "
    # everyday words a reply uses whatever it is about ("Let me know", "even", "now")
    "know now even own was were are been let make made take took days day week weeks year old new last "
    "next here there then also still well which where while will"
)
_LIKING_WORDS_EN = frozenset(_LIKING_TEXT_EN.split())
_LIKING_CHARS_ZH = frozenset("我你他她们的了是很最特别爱喜欢听看吃喝平时常都也就还再一个些点歌曲首部好")
# A liking said as enthusiasm rather than with "like" or "love": "I could watch it over and over",
# "I can't get enough of …", "我平时最爱听…", "怎么看都看不腻".
ENTHUSIASM = re.compile(
    r"\b(?:could|can) (?:watch|listen to|eat|read|play|drink|hear)\b[^.!?]{0,40}?\b(?:over and over|"
    r"again and again|all day|forever|every day|on repeat)\b|\bcan(?:'t|not| never) get enough of\b|"
    r"\bnever (?:get|grow) tired of\b|\b(?:obsessed with|crazy about|really into|big fan of|huge fan of)\b|"
    # "we're completely hooked"
    r"\b(?:i'm|we're|i am|we are|he's|she's|they're)\s+(?:\w+\s+)?(?:hooked|obsessed)\b|"
    r"\b(?:sucker|weakness|soft spot) for\b|\ban? (?:right |proper |real )?(?:devil|demon|fiend) for\b|"
    r"\bcan(?:'t|not) resist\b|\b(?:addicted|hooked) (?:to|on)\b|"
    r"\b(?:mad|nuts|wild|passionate|potty) about\b|\b(?:been|i'm|i am|always|he's|she's) mad for\b|"
    # "give me a cha-cha … and I'm happy as Larry", "hand me a book about K2 and I'm happy as a clam"
    r"\b(?:i'm|i am|he's|she's|we're|i'd be|i'll be) (?:as )?happy as (?:larry|a (?:pig|clam|sandboy|lark|"
    r"king|kid|child|dog))\b|"
    # "gie me a glitter ball … and the Bee Gees and I'm a happy man", "… and I'm a lekker happy oke"
    r"\b(?:i'm|i am|he's|she's) (?:a|one) (?:\w+ )?happy (?:man|woman|camper|chap|chappie|lad|lass|oke|bloke|"
    r"guy|gal|lady|fella|boy|girl|bunny)\b|"
    # "I'm daft on pottery", "I'll stand there an hour", "一进博物馆就奔青铜器去", "能趴那跟前瞅一下午"
    r"\b(?:i'm|i am|he's|she's|we're|they're|always been)\s+(?:\w+\s+)?(?:daft|mad|potty|barmy) on\b|"
    r"\b(?:i'll|i'd|i could|i can|he'll|she'll|he'd|she'd) (?:happily |gladly )?"
    r"(?:stand|sit|spend|stay|stare|potter|browse|wander) (?:there |about |around |in there )?(?:for )?"
    r"(?:an hour|hours|all day|half the day|the whole day|all afternoon|all morning)\b|"
    r"一进[^，。！？,]{1,8}就(?:奔|直奔|冲|往)|"
    r"能[^，。！？,]{0,10}(?:瞅|看|瞧|待|泡|逛)(?:上)?(?:一|半|大半)(?:上午|下午|整天|天)|"
    r"(?:看|听|读|去|逛)过(?:了)?(?:十来|几十|好几十|上百|不下十|无数)(?:回|次)|"
    r"\b(?:keen on|partial to|go-to)\b|\bnever (?:miss|skip)\b|"
    # what the person would rather have: "I'm not a novel person one, …; give me biographies and memoirs",
    # "I don't want no glass-box hotel…, give me creaky floorboards", "put on the old ballads … and I'm gone"
    r"\bnot (?:a|an|much of an?|really an?) [a-z]+ (?:person|man|woman|guy|girl|fan)\b"
    r"[^.!?]{0,60}?\bgive me\b|"
    r"\b(?:don't|do not) want (?:no|any)\b[^.!?]{0,80}?\bgive me\b|"
    r"\b(?:give|hand|pass|chuck|throw|play|put on|stick on) (?!(?:me )?(?:a|an|one|two|five|ten|the|half an) "
    r"(?:minutes?|sec(?:ond)?s?|moment|mo|tick|few|hour|shout|ring|call|bell|break|chance|nod)\b)"
    r"[^.!?]{0,140}?\band (?:i'm|i am) (?:sweet as|gone|in heaven|in my element|made up|away with it)\b|"
    # (Wu 欢喜: to like, "从小就欢喜桂花香"; not 欢欢喜喜)
    r"(?:就|最|顶|老|蛮|交关|邪气|老早)欢喜(?!得|的样子)|"
    r"\b(?:my|his|her|our) (?:jam|thing|guilty pleasure)\b|\bi adore\b|"
    # "he's darts daft" (not "she's going mad", "I'm a bit crazy"), "won't wear owt else", "happiest"
    r"\b(?:he's|she's|i'm|we're|they're|he is|she is|i am|we are|they are) (?:(?:absolutely|totally|"
    r"completely|proper|properly|really|so|utterly) )?(?!(?:going|getting|a|bit|quite|hopping|raving|stark|"
    r"barking|driving|just|not|very|being|gone|half|fairly|pretty)\b)[a-z]{3,}(?<!ing)(?<!ly) "
    r"(?:daft|mad|crazy|obsessed|barmy|potty)\b|"
    r"\bwon't (?:wear|eat|drink|watch|read|listen to|play) (?:anything|owt|much|nothing) else\b|"
    r"\b(?:happiest|in (?:her|his|my|their|our) element)\b|"
    # what someone wears every day: "he lives in retro football shirts" (not "lives in Leeds", "in a flat")
    r"\blives? in (?!(?:a|an|the|my|his|her|our|their|fear|hope|denial|sin|squalor|poverty)\b)(?-i:[a-z])|"
    # "哈利波特迷得都魔怔了", "就好谍战这一口", "他就稀罕能用的"
    r"迷得|魔怔|好[^，。！？不]{1,6}这一?口|(?:就是?|最|特别?|专)好一口|稀罕(?!死)|(?:眼睛|两眼|眼)都?(?:放光|发光|发亮)|"
    r"\b(?:(?:his|her|my|their) eyes light up|lights up (?:when|at|whenever))\b|"
    # who the person is by what they take: "I'm a cask ale man through and through", "I've always been an
    # offal man", "I'm a bath person" (not "a grown man", "a busy woman", "a family man")
    r"\b(?:i'm|i am|i've always been|i have always been|always been|he's|she's|he is|she is) (?:a|an) "
    r"(?!(?:old|young|grown|busy|married|single|divorced|big|tall|short|fat|thin|little|lucky|happy|simple|"
    r"working|family|nice|good|decent|poor|rich|sick|new|free|wise|proud|strong|weak|lonely|practical|"
    r"patient|private|quiet|shy|modest|ordinary|normal|real|honest|lazy|fit|healthy|regular|different|"
    r"better|grumpy|stubborn|sensible|kind|generous|hard|difficult|fair|bad|funny|local|company|"
    r"wee|grand|great|nervous|anxious|sensitive)\b)"
    r"(?-i:[a-z][\w'-]*(?: [a-z][\w'-]*)?)(?<!ed)(?<!ly)(?<!ful)(?<!ous)(?<!ive)(?<!ing)(?<!est) "
    r"(?:man|woman|girl|guy|person|lad|lass|gal|boy)\b(?! (?:of|who|with|in|from|at|and)\b)|"
    # "Green is my colour lah", "gin is my drink"; "无辣不欢", "无肉不欢"
    r"\b(?:is|are) (?:my|his|her|our) (?:colou?rs?|drink|tipple|poison|style|look|sport|cuisine|genre|"
    r"era|decade)\b|无[^，。！？,]不欢|"
    # ("Northern Soul and old Motown, that's my music and always has been", "I've been a soul girl since I
    # was fifteen")
    r"\b(?:that's|that is|those are|it's) (?:my|his|her|our) (?:music|sound|drink|food|sport|genre|era|"
    r"style|scene|team)\b|\b(?:i've|i have|she's|he's) been an? [a-z]+(?: [a-z]+)? "
    r"(?:girl|boy|man|woman|kid|head|"
    r"fan) (?:since|all my life|all her life|all his life|for)\b|"
    # "My big hobby is woodworking", "a passion of mine"
    r"\b(?:my|his|her|our) (?:(?:big|biggest|main|great|real|one|only|favou?rite) )?(?:hobby|hobbies|passion|"
    r"obsession|pastime) (?:is|are|has been|was)\b|\b(?:hobby|passion|obsession) of (?:mine|his|hers|ours)\b|"
    # "the biggest stray kids stan ever", "a massive Arsenal fan", "i stan them"
    r"\b(?:biggest|number one|massive|huge|total|die-?hard|proper) (?:[\w'-]+ ){0,3}(?:stan|fan|fangirl|"
    r"fanboy|nerd|geek|buff|tragic|nut|addict|anorak)\b|\bi (?:literally )?stan\b|"
    # who the person is by what they do: "She's a proper birder", "he's a keen cyclist" (not "a proper
    # Londoner", "a real worrier")
    r"\b(?:i'm|i am|he's|he is|she's|she is|we're|they're) (?:a|an) (?:keen|avid|proper|real|passionate|"
    r"dedicated|serious|big|huge|massive|mad|obsessive) (?-i:[a-z]+(?:er|ist|ie|head|buff|nerd|geek|"
    r"fan|lover|junkie|enthusiast))(?<!worrier)(?<!whinger)(?<!moaner)(?<!sleeper)\b|"
    # what keeps them going: "only thing keeping me sane is crocheting", "my happy place", "我的快乐源泉"
    r"\b(?:keeping|keeps|kept) (?:me|him|her|us) (?:sane|going(?! (?:crazy|mad|nuts|insane|up)))\b|"
    # ("it's still the only music that gets me properly moving")
    r"\bthe only (?:music|sound|thing|band|singer) that (?:gets|got|keeps) (?:me|him|her|us) (?:\w+ )?"
    r"(?:moving|going|dancing|up)\b|"
    r"\b(?:my|his|her) (?:happy place|therapy)\b|"
    r"快乐源泉|精神支柱|续命|治愈(?:我|了我)|"
    # going again and again: "这个月第五场了" (a show, a match; not "第三次了，又被罚款")
    r"(?:这个月|这月|今年|这周|这礼拜|这星期)都?第(?:[二三四五六七八九十]+|\d+)场了|"
    # coming back to it again and again: "I've read it five times", "I rewatched it twice this year",
    # "grew up on Motown", "can't stop listening to …", "never gets old", "看了不下十遍", "从小跟着他听粤剧"
    r"\b(?:i've|i have|we've|we have|i'd|he's|she's)(?: \w+ly| already| probably| like)? (?:watched|seen|"
    r"read|played|heard|listened to)\b[^.!?]{0,30}?\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|"
    r"a dozen|dozens of|a hundred|hundreds of|countless|so many|a million) times\b|"
    r"\b(?:i've|i have|we've|we have|he's|she's)(?: \w+ly| already| probably)? (?:watched|seen|read|played|"
    r"heard|listened to)\b[^.!?]{0,30}?\btwice\b|"
    r"\b(?:i|we|i've|we've)(?: \w+ly| already| probably)? re-?(?:watched|read|played)\b|"
    r"\bkeep re-?(?:watching|reading|playing)\b|\bgrew up (?:on|with|listening to|watching|reading)\b|"
    r"\bcan(?:'t|not) stop (?:listening|watching|reading|playing|eating)\b|\bnever gets old\b|"
    r"(?:看|听|读|玩|刷|重温)(?:了|过)(?:不下|至少|好几|无数)?(?:[三四五六七八九十]|几十|上百|\d{2,})[一二三四五六七八九十]*遍|"
    r"(?:翻来覆去|反复|一遍又一遍|一遍遍)(?:地)?(?:看|听|读|玩)|单曲循环|循环(?:播放|着听)|"
    r"(?:从小|打小)[^，。！？]{0,10}(?:听|看|读|玩)|"
    # it is part of the person's life: "has been on repeat since I was fifteen", "most of what I play is
    # …", "螺蛳粉是我的命", "雷打不动要追", "一提武侠我就来劲", "不吃…浑身不得劲" (not "can't live without" or
    # "离不开": said of glasses and inhalers too)
    r"\b(?:been|had|got|have|has|keep|kept|put)(?: \w+)? on repeat\b|\bi live for\b|"
    r"\bis (?:my|our) (?:life|religion)\b|"
    r"\b(?:most|all|half|\w+ percent) of what (?:i|we) (?:play|listen to|watch|read|eat|cook)\b|"
    r"是我的(?:命|最爱|精神食粮)|精神食粮|雷打不动[^，。！？]{0,4}(?:追|看|听|玩|吃)|浑身不得劲|浑身不对劲|"
    # ("没辣子吃啥都没味儿", "顿顿得有一勺油泼辣子", "去哪都要带着我那套小盖碗")
    r"没[^，。！？,]{1,4}(?:吃|喝)(?:啥|什么|嘛|么子)都没(?:味|劲)|顿顿(?:都)?(?:得有|要有|离不了|少不了)|"
    r"(?:去哪|走到哪)(?:儿)?都(?:要|得)(?:带|揣)|"
    # ("一餐饭冇得辣椒就吃不下去", "去哪里都是越辣越好")
    r"(?:没|冇得|没有)[^，。！？,]{1,4}就吃不下|越辣越好|"
    # a habit the person keeps for its own sake: "Saturday mornings you'll find me at the reservoir",
    # "it made my whole month", "没啥别的爱好，就好听相声", "累是累，乐在其中", "不听两段都睡不着觉"
    r"\byou'll (?:always |usually )?find (?:me|us) (?:at|in|on|down|up|out)\b|"
    # a pastime kept up whatever the weather: "She swims in the Serpentine every single morning, all year
    # round" (not a habit of calling: "She rings us every Sunday without fail")
    r"\b(?:swims?|swimming|runs?|running|cycles?|cycling|rides?|riding|walks?|hikes?|hiking|climbs?|"
    r"climbing|plays?|playing|trains?|training|dances?|dancing|paints?|painting|fish(?:es|ing)?|surfs?|"
    r"surfing|rows?|rowing|golf|bike|biking)\b[^.!?]{0,60}\b(?:every single (?:morning|day|evening|night|"
    r"week|weekend)|without fail|religiously|all year round|(?:come )?rain or shine)\b|"
    r"\bmade my (?:whole |entire )?(?:day|week|month|year)\b(?! worse)|"
    # the hours the person keeps: "I'm a total morning person", "a proper night owl"
    r"(?<!never been a )(?<!not a )(?<!n't a )(?<!never a )(?<!not really a )(?<!n't really a )"
    r"\b(?:morning person|early bird|early riser|night owl)\b|"
    # never without it: "I dey carry my own bottle of pepper sauce everywhere", "I put hot sauce on
    # everything", "啥菜都要加辣" (not what is carried for health: "my own inhaler everywhere")
    r"\b(?:carry|carries|carrying|take|takes|bring|brings|pack|packs) (?:my|his|her|our|their) own "
    r"(?:[\w-]+ ){0,6}?(?:sauce|pepper|peppers|chill?ies|chill?i|spices?|seasoning|mustard|ketchup|"
    r"condiments?|tea ?bags|tea|coffee|beans|scotch bonnets?)\b[^.!?]{0,50}?\b(?:everywhere|wherever)\b|"
    r"\b(?:i|he|she|we|they)(?: \w+){0,2}? (?:put|puts|pour|pours|sprinkle|sprinkles|add|adds|slather|"
    r"slathers|douse|douses) [^.!?]{0,50}?"
    r"\b(?:on|over) (?:everything|anything|every (?:meal|dish))\b|"
    r"(?:什么|啥)(?:菜|饭)?都(?:要|得)(?:加|放|蘸|拌)|"
    # "There is nothing like standing on a ridge at Kedong", "my fourth year in a row", "I still play most
    # evenings"; "彻底入了骑行的坑", "一门心思就想钓鱼", "二刷", "一天写不够二十张宣纸手就痒"
    r"\bthere(?:'s| is) nothing (?:quite )?like\b|\b(?:my|our) \w+ (?:year|season) in a row\b|"
    r"\bstill (?:play|paint|sing|dance|ride|swim|run|fish|knit|sketch|climb|surf) (?:most|every) "
    r"(?:evenings?|mornings?|days?|weekends?|nights?)\b|"
    r"入了?[^，。！？]{0,6}的?坑|入坑|一门心思|(?<![一两])[二三四五六七八九十]刷|"
    r"(?:写|练|画|弹|骑|跑|钓|拉|唱)不够[^，。！？]{0,8}?手(?:就|都)?痒|"
    # a pastime kept up for years: "I've been birdwatching since my NUS days", "she's been quilting for
    # decades"
    r"\b(?:i've|i have|we've|we have|he's|she's|he has|she has) been (?:\w+ly )?(?:birdwatching|birding|"
    r"fishing|angling|knitting|crocheting|quilting|sewing|painting|sketching|drawing|climbing|bouldering|"
    r"cycling|running|swimming|surfing|gardening|baking|sailing|hiking|tramping|dancing|singing|skating|"
    r"skateboarding|rowing|camping|golfing|brewing|homebrewing|woodworking|carving|spotting|trainspotting|"
    r"(?:playing|collecting|making|doing|shooting|restoring) [a-z]+) "
    r"(?:since|for (?:years|ages|decades|donkey's years|\d+ years|[a-z]+ years))\b|"
    # ("就一个爱好，逛旧货市场", "放假就是背着大炮去拍鸟")
    r"(?:爱好|喜好)[，,]?(?:就是|是)|就一个爱好|(?:没|没有|冇)(?:啥|什么)?(?:别的|其他)(?:嗜好|爱好)[，,](?=.)|(?:放假|周末|一有空|有空|一得闲)就是[^，。！？]{0,6}?去(?!加班|上班|医院|看病|补课|干活|打工)|就好(?:那种|这种|那一?口|这一?口|往|泡|听|看|吃|喝|玩|钓|打|下|唱|拍|跑|逛|集|养|种|收|写|画|弹|拉|做|织|绣|练|摆)|乐在其中|乐此不疲|倒背如流|"
    # "就爱吼两嗓子秦腔", "一唱就是一上午"
    r"就爱(?:听|看|吃|喝|玩|钓|打|下|唱|拍|跑|逛|吼|写|画|弹|拉|跳|种|养|骑|泡)|"
    r"一(?:唱|玩|钓|看|写|画|弹|练|下|逛|泡|打)就是(?:一|半|大半)(?:上午|下午|整天|天|晚上|宿|夜)|"
    # going without it is what hurts: "一天不写个两三个钟头手就痒痒", "周末不拉个一百公里浑身难受"
    r"不(?:听|看|玩|吃|喝|写|练|画|弹|骑|跑|拉|钓|唱|跳|下|盘)[^，。！？]{0,8}?(?:都|就)?(?:睡不着|手(?:就|都)?痒|"
    r"浑身难受|浑身不得劲|难受|心里发慌|心慌)|"
    r"一(?:提|说|听到?)[^，。！？]{0,6}就来劲|"
    # (a day or three without it: "一天不吃就像少了点啥子", "三天不吃酸，走路打蹿蹿"; 离不得: needs it)
    r"[一两三几]天不(?:吃|喝)[^。！？]{0,8}?(?:少了|打蹿|打偏|不香|没味|难受|想得慌|不得劲)|离不得|"
    r"我[^，。！？!?不没别]{0,4}(?:喜欢|最爱|爱听|爱看|爱吃|爱喝|爱玩|爱下|爱打|爱唱|爱跳|爱钓|爱拍|爱弹|爱画)|"
    r"(?:哪儿|哪里|哪都|啥都)(?:都)?不(?:去|干|想)[^。！？]{0,3}[，,]?就|(?:看|听|吃|玩)不腻|"
    r"百(?:听|看|吃|玩|读)不厌|(?:超|特|最)爱|爱死了?|(?:老|铁|忠实)?(?:(?<![血辣])粉丝(?![汤煲条包粉])|歌迷|影迷|书迷|球迷)|[^不]迷上",
    _I,
)
FITS_LIKED = {"zh": "我建议选一个和这个相关的{thing}。", "en": "I'd suggest {thing} along those lines."}
FITS_LIKED_ANY = {"zh": "选择", "en": "something"}
_MASS_NOUNS = frozenset(("music", "food", "tea", "coffee", "wine", "beer", "art", "advice", "furniture",
                        "clothing", "jewellery", "jewelry", "tv", "entertainment", "fun"))  # fmt: skip
LIKED_TIE = {
    "en": "{told} Something along those lines would suit you too.",
    "zh": "{told}选个这方面的也很合适。",
}


def distinctive_words(liked: str, turn: str) -> set[str]:
    """The words of the liking that say what is liked and that the turn does not use: English words
    of three letters or more, Chinese character pairs without liking or function characters."""
    turn_lower = turn.lower()
    words = {w.lower().strip("'-") for w in _WORD_EN.findall(liked)}
    english = {w for w in words if w not in _LIKING_WORDS_EN and w.rstrip("s") not in turn_lower}
    pairs: set[str] = set()
    for run in _HAN_RUN.findall(liked):
        for i in range(len(run) - 1):
            pair = run[i : i + 2]
            if not any(ch in _LIKING_CHARS_ZH for ch in pair) and pair not in turn:
                pairs.add(pair)
    return english | pairs


def uses_liking(said: str, liked: str, turn: str) -> bool:
    """Whether ``said`` names something distinctive of the liking (True when the liking has nothing
    distinctive to look for: then there is nothing to add)."""
    if PLACEHOLDER_RE.search(liked):  # a name the reply may carry refilled: it cannot be compared
        return True
    # (the sentence that says the liking, not the whole story it was told in: "…NEPA took light for
    # three days… I dey carry my own bottle of pepper sauce everywhere")
    wanted = distinctive_words(_liking_sentence(liked), turn)
    if not wanted:
        return True
    lowered = said.lower()
    return any(_mentions(lowered, word) for word in wanted)


def _mentions(said: str, word: str) -> bool:
    if re.match(r"[a-z]", word):
        stem = word[:-1] if len(word) > 4 and word.endswith("s") else word
        return re.search(rf"(?<![a-z]){re.escape(stem)}", said) is not None
    return word in said


def liking_tie(liked: str, said: str, turn: str, language: str, constraints: ConstraintSet) -> str:
    """The sentence said after a reply (``said``) that named nothing distinctive of ``liked``: the liking
    said back with a suggestion along those lines, or "" when it was used, or would not read well here
    (another language, too long, a constraint it would break)."""
    if not said or uses_liking(said, liked.strip(), turn):
        return ""
    told = _told(liked, language, constraints)
    return LIKED_TIE[language].format(told=told) if told else ""


def liked_fallback(liked: str, requested: str, language: str, constraints: ConstraintSet) -> str:
    """Said instead of a reply when the model gave none: the liking said back with a suggestion of the
    kind asked for along its lines ("You told me your favourite music is jazz. I'd suggest a concert
    along those lines."), or "" when it would not read well here."""
    told = _told(liked, language, constraints)
    if not told:
        return ""
    return (
        told
        + ("" if language == "zh" else " ")
        + FITS_LIKED[language].format(thing=_liked_thing(requested, language))
    )


def _told(liked: str, language: str, constraints: ConstraintSet) -> str:
    """The liking said back in the second person, or "" when it is empty, too long, in the other
    language, or would break a constraint said back."""
    liked = _liking_sentence(liked.strip())
    if not liked or len(liked) > _MAX_TOLD or bool(HAN_RE.search(liked)) != (language == "zh"):
        return ""
    told = said_back(liked, language)
    return told if told and constraints.check(told) is None else ""


def _liking_sentence(liked: str) -> str:
    """The sentence of ``liked`` that says the liking ("Honestly, I'm a sucker for an old-fashioned
    whodunnit." of a longer story), or the whole text when no one sentence does; a run-on with no
    punctuation cut to the stretch around its liking word (``_around_liking``)."""
    sentences = sentences_of(liked)
    sentence = liked
    if len(sentences) >= 2:
        liking = [part.strip() for part in sentences if says_liking(part)]
        # (one that names what is liked before one that says only "it": "Me, I've been a soul girl since
        # I was fifteen…, Northern Soul and old Motown, that's my music" before "Our Shannon's started at
        # the nursery and she loves it")
        sentence = next(
            (part for part in liking if not _LIKES_IT.search(part)), liking[0] if liking else liked
        )
    if HAN_RE.search(sentence) and len(sentence) > _MAX_TOLD_ZH:
        return _clauses_of_liking_zh(sentence) or sentence[:_MAX_TOLD]
    if len(sentence) <= _MAX_TOLD:
        return sentence
    # (a long sentence cut at a dash or a semicolon: "…absolutely mad for birdwatching — keeps a pair of
    # binoculars in the glovebox at all times and …")
    parts = [c.strip() for c in _CLAUSE_BREAK.split(sentence)]
    # (a liking's clause, or the one after it: "what's kept me sane since I retired: chuck me in a freezing
    # tarn … and I'm grinning all day")
    clauses = [c for i, c in enumerate(parts) if says_liking(c) or (i and POINTS_AHEAD.search(parts[i - 1]))]
    # (the one that names most of what is liked: not "I'll tell you what keeps me sane come winter though"
    # before "hand me a book about … the South Pole or … K2 and I'm happy as a clam")
    clause = max(clauses, key=lambda c: len(distinctive_words(c, "")), default="")
    if len(clause) > _MAX_TOLD:  # (its own comma parts: "…everywhere, even to my colleague's wedding in
        # Abuja, and I go pour am on jollof, on eggs" of "…, on anything")
        clause = _commas_of_liking(clause).rstrip(".") or first_commas(clause, _MAX_TOLD)
    if clause and len(clause) <= _MAX_TOLD:
        return clause.rstrip(",;:") + ("" if HAN_RE.search(clause) else ".")
    return _commas_of_liking(sentence) or _around_liking(sentence)


_LIKES_IT = re.compile(
    r"\b(?:loves?|loved|likes?|liked|enjoys?|enjoyed|adores?|adored)\s+(?:it|them|that|this)\b\W*$", re.I
)
_LEADING_LINK = re.compile(r"^(?:because|cause|'cause|and|but|so|since)\s+", re.IGNORECASE)


def _commas_of_liking(sentence: str) -> str:
    """Of a long English sentence, the comma-separated parts from the one that says the liking on, as
    many as fit ``_MAX_TOLD`` ("I'm a total morning person, yaar, up at 4:45, yoga at 5:30, and whenever
    I fly I always take the earliest morning flight."); "" when no part says one, or it is too long."""
    if HAN_RE.search(sentence):
        return ""
    parts = [part.strip() for part in sentence.rstrip(".!?").split(", ")]
    at = next((i for i, part in enumerate(parts) if says_liking(part)), -1)
    if at < 0:
        return ""
    told = _LEADING_LINK.sub("", parts[at])
    for part in parts[at + 1 :]:
        if len(told) + 2 + len(part) > _MAX_TOLD:
            break
        told = f"{told}, {part}"
    return told + "." if len(told) <= _MAX_TOLD else ""


_CLAUSE_BREAK = re.compile(r"\s+[—–-]{1,2}\s+|;\s*|:\s+|——|；")
_MAX_TOLD_ZH = 40
_MAX_POINTED_ZH = 60
# A liking that points back at what it is: "喜欢那种…的东西", "就爱这样的".
_POINTS_BACK_ZH = re.compile(r"(?:喜欢|爱|迷)(?:的)?(?:就是)?(?:那种|这种|这样|那样|这些|那些|这类|那类)")
_CLAUSE_ZH = re.compile(r"[，,；;]")
# A liking whose clause says that there is one, and the clauses after it what it is.
_HABIT_WORDS_ZH = r"习惯|传统|个爱好"
_POINTS_ON_ZH = re.compile(rf"(?:{_HABIT_WORDS_ZH}|(?<=[就可特老])魔怔|着迷|上瘾)(?:了|啦)?$")
_HABIT_ZH = re.compile(rf"(?:{_HABIT_WORDS_ZH})$")  # (told over the clauses after it)


def _clauses_of_liking_zh(sentence: str) -> str:
    """Of a long Chinese sentence, the clause that says the liking, after the clause before it when that
    one is short (who it is: "我家闺女今年十二，哈利波特迷得都魔怔了"); "" when no clause says one."""
    clauses = [c.strip() for c in _CLAUSE_ZH.split(sentence.rstrip("。！!？?")) if c.strip()]
    at = next((i for i, clause in enumerate(clauses) if says_liking(clause)), -1)
    if at < 0:
        return ""
    before = clauses[at - 1] if at > 0 and len(clauses[at - 1]) <= 12 else ""
    if _POINTS_BACK_ZH.search(clauses[at]):  # (what "那种…的东西" points at was named before: "连纸篓
        # 都是竹编藤编的，…，我就是喜欢那种天然的、有手工味道的东西")
        start = at
        while start > 0 and len("，".join(clauses[start - 1 : at + 1])) <= _MAX_POINTED_ZH:
            start -= 1
        before = "，".join(clauses[start:at])
    # (a liking too short to say what is liked: "可魔怔了，一天到晚嘴里就是055驱逐舰"; one that says what
    # follows: "我有个坚持了十几年的习惯，每到一个新地方，头一件事就是…", "一到夏天就魔怔，就迷拍蝴蝶")
    end = at + 1 if len(clauses[at]) <= 8 or _POINTS_ON_ZH.search(clauses[at]) else at
    while (end < len(clauses) and _HABIT_ZH.search(clauses[at])
           and len("，".join(clauses[at : end + 2])) <= _MAX_POINTED_ZH):  # fmt: skip
        end += 1
    return "，".join(c for c in (before, *clauses[at : end + 1]) if c) + "。"


_MAX_TOLD = 160
# Where a run-on says the liking: "…lately i've been like super into astronomy you know like i got…"
_LIKING_AT = re.compile(
    r"\b(?:favou?rite|love[sd]?|like[sd]?|prefer|enjoy|fan of|crazy about|into|hooked on|obsessed with|"
    r"addicted to|passionate about|mad about|big on)\b|最喜欢|喜欢|最爱|迷上|迷",
    re.IGNORECASE,
)


def _around_liking(text: str) -> str:
    """At most ``_MAX_TOLD`` characters of a run-on: from a little before its liking word (at a word
    start) to a word end; "" when it names no liking word."""
    found = sorted([*_LIKING_AT.finditer(text), *ENTHUSIASM.finditer(text)], key=lambda m: m.start())
    match = next((m for m in found if says_liking(text[: m.end() + 40])), None)
    if match is None:
        return ""
    start = max(0, match.start() - 40)
    if not HAN_RE.search(text):
        # (from the comma part it is in: "I'm not a novel person one, …", not "…birthday, but I tell her")
        comma = max(text.rfind(", ", 0, match.start()), text.rfind("; ", 0, match.start()))
        start = comma + 2 if comma >= start else start
        while start > 0 and not text[start - 1].isspace():
            start -= 1
    end = min(len(text), start + _MAX_TOLD)
    if not HAN_RE.search(text) and end < len(text):
        end = text.rfind(" ", start, end)
    return text[start:end].strip()


def _liked_thing(requested: str, language: str) -> str:
    """What the fallback suggests along the liking's lines: "a film", "some music", "something"."""
    if language == "zh" or not requested:
        return requested or FITS_LIKED_ANY[language]
    if requested.lower() in _MASS_NOUNS or (requested.endswith("s") and not requested.endswith("ss")):
        return f"some {requested}"
    return f"{'an' if requested[0].lower() in 'aeiou' else 'a'} {requested}"


# A statement of what the person likes (not a question; "I don't like" is a constraint, not this).
PREFERENCE = re.compile(
    r"^(?![^.!?]*\b(?:don't|do not|doesn't|not|never|hate)\b)(?![^.!?]*\?)[^?]*"
    r"(?:\b(?:favou?rite|love|loves|likes|prefer|prefers|enjoy|enjoys|fan of|crazy about|"
    r"(?:i|we|you|they|he|she|kids|(?:really|also|just|still|both|all|actually|genuinely|do)) like|"
    # ("got into knitting", not "got into an under-11s team")
    r"(?:i'm|i am|we're|we are|really|totally|big|so|very|getting|got|super|pretty|hugely|seriously|"
    r"been) into(?<!got into)|"
    r"got into(?! (?:a|an|the|trouble|university|uni|college|school|bed|debt|his|her|my|their|our)\b)|"
    r"hooked on|obsessed with|addicted to|passionate about|mad (?:about|for)|nuts about|wild about|"
    r"can't get enough of|big on|lives? for|"
    # ("rose-mad", "horse-daft", "F1 fever", "completely lost to cycling", "rather be near a horse")
    r"[a-z]+-(?:mad|daft|crazy|obsessed|barmy|potty)|(?-i:(?:got|has|have) (?:[A-Z0-9]\w* ){1,2}fever)|"
    r"(?:completely|totally|utterly) lost to|rather be (?:near|with|on|at|in|by) (?:a|the|her|his|my)\b|"
    # what the person always asks for: "I always ask at the counter for the nicest commemorative stamps",
    # "I always go for the window", "just send me a voice note"
    r"always (?:ask|asks|go|goes|opt|opts)\b[^.!?]{0,25}?\bfor|always (?:insist|insists) on|"
    r"(?:just|only|always) (?:send|leave|drop) (?:me|us) (?:a |an )?(?:voice|audio) "
    r"(?:notes?|messages?|memos?))\b)|"
    r"^(?![^。！？]*(?:不喜欢|不爱|讨厌))[^？?]*(?:最喜欢|喜欢|最爱|爱看|爱听|爱吃|爱喝|偏爱|是[^，。]{0,4}迷|"
    r"就爱(?!干净)|爱(?:玩|拼|做|搞|逛|钓|种|画|跑|打|踢|唱|跳|拍)|"  # "没别的爱好，就爱拼乐高"
    r"(?:就|只)认准?(?![识为得出字路错死命栽怂输账])|认准了?|"  # "喝茶就认熟普" (not 认识, 认为, 认错)
    # "最近特别迷露营", "迷上了钓鱼", "入坑了"
    # "血迷手冲咖啡" (north-eastern: crazy about)
    # ("没别的爱好，就迷无人机", "最迷王文娟的林妹妹")
    r"(?:特别|很|超|贼|巨|非常|有点|可|最近|血|老|死|真|就|最)迷(?![路糊信茫惑])|迷上|爱上了|着迷|热衷|沉迷|入坑|"
    # grown up with it, sung at the drop of a hat: "听越剧听到大的", "张嘴就能来两句"
    r"(?:听|看|唱|玩)[^，。！？]{1,6}(?:听|看|唱|玩)到大|张嘴就(?:能)?来|"
    # ("跟桂花是真的有缘分", "魂都被勾走了", "沾点桂花我都觉得好吃一倍", "百吃不厌")
    r"(?:跟|和|同)(?![他她你我人])[^，。！？]{1,6}有缘(?!没)|魂都(?:被|给)?勾走|好吃一倍|百吃不厌|怎么吃都吃?不腻|"
    # a habit kept for years, only ever that one: "我有个坚持了十几年的习惯", "喝咖啡一直都只要燕麦奶的"
    r"(?:坚持|保持)了?[^，。！？]{0,6}的(?:习惯|传统)|(?:一直|从来|向来)都?只(?:要|喝|吃|用|点|买|认))|"
    + ENTHUSIASM.pattern
    + "|"
    + OFFERED_LIKING.pattern,
    re.IGNORECASE,
)


@functools.lru_cache(maxsize=8192)
def says_liking(text: str) -> bool:
    """Whether ``text`` says what the person likes (``PREFERENCE``), read with each placeholder as one
    short word: "I could listen to old [NAME:…] records all day", "我是[NAME:…]的老歌迷了". Never a text
    that speaks ill of something ("Beetroot tastes like a mouthful of garden soil to me"): suggesting
    something along its lines would be the one thing the person does not want. Read sentence by
    sentence: "ugh mocks all week. only thing keeping me sane is crocheting" likes crocheting (the "ugh"
    is about exams)."""
    return any(
        not SPEAKS_ILL.search(part)
        and not _EVERYONE_ELSE.match(part)
        and PREFERENCE.search(PLACEHOLDER_SHAPE_RE.sub(_short_name, part))
        for sentence in sentences_of(text) or [text]
        for part in _CONTRAST.split(sentence)  # ("…and I'm happy as Larry, whereas them gym bikes bore me")
    )


_CONTRAST = re.compile(r",?\s+whereas\s+|，?而(?:那些|那种|这些)")


# What everyone around likes is not the person's liking: "Everybody here is nuts about pickleball" (and
# the next sentence: "I tried it once and I can't stand it").
_EVERYONE_ELSE = re.compile(
    r"^\W*(?:(?:and|but|so|well|honestly|apparently),?\s+)?(?:everybody|everyone|people|folks|"
    r"the locals|all the \w+|half the \w+|the whole \w+)\b|^\W*(?:大家|别人|人家|这边的人|本地人)",
    re.IGNORECASE,
)


# Words of disgust, fear, dislike or frustration: a text with one is no liking, whatever else it says.
SPEAKS_ILL = re.compile(
    r"\b(?:hate[sd]?|can't stand|cannot stand|can't bear|vile|disgusting|gross|awful|horrible|terrible|"
    r"revolting|nasty|yuck|foul|(?-i:rank)|soil|dirt|soap|gag|puke|sick|scared|terrified|afraid|phobia|dread|"
    r"loathe|detest|never again|not for me|no thanks|ugh|still (?:don't|can't|didn't))\b|"
    r"讨厌|恶心|受不了|难吃|难听|难看|难闻|害怕|怕死|吓人|反感|烦死|不喜欢|不爱|没法接受|接受不了|"
    r"(?:没|不)(?:看|听|读)懂|(?:看|听|读)不懂|还是(?:不|没)",
    re.IGNORECASE,
)


def _short_name(match: re.Match[str]) -> str:
    return "某人" if is_han(match.string[match.start() - 1 : match.start()]) else "Someone"
