"""A turn that needs something near where the person lives: a service, a shop or an errand.

"I'd like a piano teacher we can walk to after school", "my GP surgery's shut … what are my options for
getting more tonight?", "deposit some cash at the bank, get a new EFTPOS card sorted, and find a JP …
plan my morning so I'm not running all over the place": the answer depends on the neighbourhood the person
told us they moved to ("we're in Bishopston now, just off the Gloucester Road"), though the turn names no
place. ``place_note`` reads such a turn, and one asking for a place to go near home (``ASKS_VENUE``), as
one asking for a venue near home (``NOTE_VENUE``).
"""

from __future__ import annotations

import re

# Someone or somewhere local the person goes to: a teacher, a doctor, a chemist, a bank.
_PROVIDER_EN = (
    r"(?:teachers?|tutors?|coach(?:es)?|instructors?|dentists?|doctors?|gps?|surgery|clinics?|vets?|"
    r"pharmac(?:y|ies|ist)|chemists?|physios?|opticians?|plumbers?|electricians?|cleaners?|hairdressers?|"
    r"barbers?|salons?|jps?|notary|solicitors?|banks?|post office|launderettes?|laundromats?|"
    r"dry cleaners?|childminders?|nurser(?:y|ies)|creches?|babysitters?|nannies|nanny|mechanics?|garages?|"
    r"locksmiths?|gyms?|pools?|swimming pool|playgroups?|after-school club|classes|lessons|"
    r"supermarkets?|shops?|groceries|urgent care|walk-in centre|a&e|out-of-hours|"
    # (a specialist, someone to mind a pet or a child, a school for lessons: "a good orthodontist", "a dog
    # walker or doggy daycare", "a guzheng teacher or music school")
    r"(?:orthodont|physiotherap|therap|podiatr|chiropod|optometr|audiolog|dermatolog|florist|counsell?or)\w*|"
    r"(?:dog |pet |cat |house |baby)?(?:walkers?|sitters?)|groomers?|kennels?|catter(?:y|ies)|"
    r"(?:doggy |dog |child |pet )?day ?cares?|tailors?|cobblers?|accountants?|lawyers?|"
    r"(?:music|dance|driving|swimming|language|art|drama|ballet|coding|tuition|cram|martial arts) "
    r"(?:schools?|class(?:es)?|lessons|academ(?:y|ies)|centres?|centers?))"
)
ASKS_LOCAL = re.compile(
    # ("find a good one" after the provider: "a teacher we can walk to … how do I find a good one")
    rf"\b(?:find|finding|recommend|pick|choose|get to|look for|looking for|need) (?:a |an |the |some )?"
    rf"(?:(?:good|local|decent|nearby|cheap|reliable|\w+) ){{0,2}}{_PROVIDER_EN}\b|"
    r"\b(?:we|i|she|he|they|you) (?:can|could) (?:walk|cycle|pop) (?:to|over|round|in)\b|"
    r"\bwalking distance\b|\bon (?:my|our) doorstep\b|\bclose to (?:us|me|the flat|the house)\b|"
    r"\b(?:options|where) (?:for|to|can i|could i|do i|should i) (?:get|getting|buy|buying|find|finding) "
    r"(?:more|some|a|an|it|them|one)\b|"
    r"\bopen (?:tonight|now|late|on a sunday|on sundays|this evening|over the weekend)\b|"
    r"\b(?:out of|after) hours\b|\berrands?\b|\brunning (?:all )?(?:over|around|round) the place\b|"
    r"\bacross town\b|\bwhere would you (?:suggest|recommend)\b|"
    r"\bsomewhere (?:green|quiet|local)\b|"
    r"\bwhere (?:can|could|do|should) (?:i|we) (?:recycle|donate|dump|drop off|sell|get rid of|fix|repair)\b|"
    # (Chinese: a service to find nearby, within walking distance)
    r"(?:找|推荐|挑)(?:个|家|一家|一个)?(?:好点的|靠谱的|近点的|附近的)?"
    r"(?:老师|家教|牙医|医生|诊所|药店|药房|兽医|宠物医院|理发店|托儿所|幼儿园|培训班|兴趣班|银行|健身房|游泳馆)|"
    r"走路(?:就)?能到|走着就能到|就近|办事|跑腿|买药|"
    # ("哪儿能回收或者捐掉")
    r"(?:哪儿|哪里|哪|啥地方|什么地方)(?:能|可以|好)(?:回收|捐|买|修|办|换|寄|扔|卖|处理)",
    re.IGNORECASE,
)


TO_THEIR_HOME_EN = r"get (?:to|out to|over to) (?:us|ours|our place|my place)"
TO_THEIR_HOME_ZH = r"(?:到|来|回)(?:我|我们|咱|俺)家"
# A turn asking for a place to go that is near where the person lives or works: "Give me a couple of
# spots for drinks … somewhere near yours", "a few good spots for a farewell lunch … walk to from work",
# "从哪个机场飞合适", "推荐几个地方，别离公司太远", "看完还得回家" (home is where the evening ends).
ASKS_VENUE = re.compile(
    r"\b(?:(?:a|some|few|couple of|good|nice|best|any|decent|cheap|cosy|cozy|quiet|local|two|three) "
    r"(?:spots?|venues?|restaurants?|pubs?|bars?|caf(?:e|é)s?|bistros?|tea ?rooms?|tea houses?|tea shops?|"
    r"coffee shops?|diners?)|"
    r"(?:places?|somewhere) (?:to|for|around|nearby|close by|we could|i could|within walking)|"
    r"where (?:should|could|can|shall|would|do) (?:i|we) (?:go|eat|get|grab|find|take|shop|buy|meet|head|"
    r"look|watch|see|fly|swim|train|drink)|"
    r"which (?:airport|station|cinema|gym|market|pub|restaurants?|places?|spots?)|"
    # the way to the person's home, or between home and work: "the easiest way for them to get to us"
    rf"{TO_THEIR_HOME_EN}|commut(?:e|ing)|"
    r"near (?:me|us|mine|ours|yours|home|work|the office|my place|our place|where i live|where we live)|"
    # ("somewhere close to where I'm staying", "handy for where we're renting")
    r"(?:close to|near|near to|not far from|handy for|handy to|walkable from) where (?:i'm|i am|we're|we are|"
    r"i'll be|we'll be|i|we) (?:\w+ )?(?:staying|living|live|based|crashing|renting|stopping|kipping)|"
    r"(?:close to|walk(?:ing distance)? (?:(?:her|him|them) )?(?:to )?(?:from )?|get back to|back (?:to|at)) "
    r"(?:home|work|the office|mine|ours|my place|our place))\b|"
    # a day out near home, within a drive of it, or the hospital to get to: "a good day out with them,
    # ideally within half an hour's drive", "how we get to the hospital when labour starts"
    r"\b(?:days? out|within (?:half an hour|an hour|a \w+ drive|\w+ (?:minutes|mins|hours?))"
    r"(?:'s)?(?: drive)?|"
    r"(?:get|go|drive) (?:\w+ )?to (?:the )?hospital|which hospital)\b|"
    r"(?:推荐|找|有没有|有啥|有什么|去哪|哪儿|哪里|哪些|几个)[^。？！?]{0,16}(?:地方(?![^。？！?，,]{0,3}(?:容易|注意|扣分|出错))|馆子|餐厅|饭店|饭馆|酒吧|去处|店|医院|诊所|门诊|牙科)|"
    r"找哪(?:儿|里|家)|推荐(?:一?下|几个|个)?去哪|"
    # (a day out within a drive of home: "开车一个钟头以内", "车程一小时")
    r"开车[^。？！?，,]{0,6}(?:以内|之内|以里|能到)|车程|(?:出去|出门)玩一天|(?:铺子|店|摊)?(?:开|选|租)在哪|"
    r"哪(?:个|家)(?:机场|车站|火车站|高铁站|站|商场|医院|餐厅|饭店|馆子|店|市场|菜市场|超市)|"
    rf"(?:怎么|咋|如何){TO_THEIR_HOME_ZH}|通勤|"
    r"离(?:家|公司|单位|学校|住的地方)|(?:还得|还要|得|要)回(?:家|去)",
    re.IGNORECASE,
)


def asks_local(user_text: str) -> bool:
    """Whether the turn needs a service, a shop or an errand near where the person lives."""
    return ASKS_LOCAL.search(user_text) is not None
