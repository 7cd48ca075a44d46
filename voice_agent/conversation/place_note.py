"""A place the person told us about, named next to a turn that asks what to do around there.

"My parents … bought a little cottage just outside Keswick" and, weeks later, "We're going up to stay
with my folks over Easter, what is there to do round there?": the fact is in the memory block, yet a small
model answers "There are many things to do round there." The note after the turn names the place ("(Suggest
one specific thing to do in or near Keswick.)" / "（推荐一个长沙或附近具体可以去的地方。）"), as the
liking note does for what the person likes; when the model still gives no answer, the place is named
with the usual things to do there (``FALLBACK``) instead of "sorry".

A place is a capitalised name after "in", "near", "outside", "around", "to", "from" (English) or, in
Chinese, a province, a large city or a name with 市/县/区/镇 in "在长沙读/住/工作…", "老家是/在…",
"搬到…", in the person's own statements among the recalled records, the most relevant first. The turn
must ask about the surroundings ("round there", "nearby", "in the area", "附近", "周边", "转转"), or
something the place shapes though it is not named: what to pack or wear for a stay there ("要带哪些衣服",
its weather: "(按昆明那边的天气来准备。)") or when to ring someone of theirs who lives there ("What time
should I ring so I'm not waking her up?", its clock: "(Mind the time difference with Montreal.)"); nothing
otherwise. What is said of the place after a reply that named none of it, or instead of "sorry", fits
the same ask (``place_said``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from voice_agent.conversation.home_words import OWN_HOME, SETS_OFF_FROM, home_first
from voice_agent.conversation.local_needs import ASKS_VENUE, TO_THEIR_HOME_EN, TO_THEIR_HOME_ZH, asks_local
from voice_agent.conversation.meeting_point import ASKS_MEETING, meeting_point
from voice_agent.conversation.place_moves_en import (
    FOLK_FROM_EN,
    FOLK_NOW_EN,
    english_place_rank,
)
from voice_agent.conversation.place_names_zh import CITIES_ZH, CITY_RE, COUNTRIES_ZH, PROVINCES_ZH
from voice_agent.conversation.place_sayings import (
    FALLBACK,
    FALLBACK_CALL_TIME,
    FALLBACK_FROM,
    FALLBACK_PACKING,
    FALLBACK_POST,
    FALLBACK_ROUTE,
    FALLBACK_VENUE,
    NOTE,
    NOTE_CALL_TIME,
    NOTE_FROM,
    NOTE_PACKING,
    NOTE_POST,
    NOTE_ROUTE,
    NOTE_VENUE,
    NOTE_WHERE,
)
from voice_agent.conversation.revised_plans import without_revised
from voice_agent.conversation.sets_off import BOARDS_AT, LEAVES_HOME, SENDS_FROM_HOME
from voice_agent.conversation.trip_named import trip_named
from voice_agent.memory.records import MemoryRecord
from voice_agent.text.cjk import HAN_CLASS, has_han

ASKS_AROUND = re.compile(
    # (Hawaiian Pidgin and Caribbean speech: "Wat she can do ova dea?", "out dere")
    r"\b(?:(?:round|around|near|close to|up|down|over|out|ova)\s+"
    r"(?:there|here|them|where (?:they|we|i) live|dea|dere|deh)|"
    r"nearby|(?:while|when) (?:we're|we are|i'm|i am|they're|we get|i get) (?:\w+ )?"
    r"(?:there|down there|up there|over there)|"
    r"what (?:should|could|can|shall) (?:we|i) do (?:there|down there|up there|over there)|"
    r"in the area|locally|things to do|what(?:'s| is) there to do|places to (?:visit|go|see)|"
    # (near home: "somewhere close to home", "within walking distance")
    r"(?:close to|near) (?:home|ours|the house|our (?:house|place|flat))|(?:within )?walking distance|"
    # ("that aren't a trek from ours", "not too far from home")
    r"(?:a trek|a schlep|a hike|too far|far|miles|a drive) (?:away )?from (?:ours|home|us|the house)|"
    r"take (?:him|her|them|us|the kids|my \w+) (?:to see|out|round|around)|"
    r"show (?:him|her|them) (?:round|around)|"
    r"where (?:should|could|can|shall|do|would) (?:we|i) (?:take|bring) (?:him|her|them|the \w+|my \w+))\b|"
    # (克, 切: 去 in south-western speech; 哪点, 哪块: where; 耍: to have fun)
    # (离屋近: near home, in north-western and south-western speech; 走路就能到: walking distance)
    r"附近|周边|周围|这附近|本地|当地|转转|逛逛|离(?:屋|家|屋头|屋里|屋企|我家|我们家|住的地方)(?:里)?(?:近|不远)|"
    r"走路(?:就)?(?:能|可以)?(?:到|接送)|带(?:他|她|他们|她们)(?:去|克|切)哪|(?:去|克|切)哪点|哪点耍|哪里耍|"
    r"哪儿耍|(?:去|到)?哪(?:儿|里|些地方)(?:好)?(?:玩|逛|转)|玩(?:什么|啥|点啥|些什么)|好玩的|"
    r"(?:不想|别|不要|不用|莫)(?:跑|走|去)?(?:太|好|蛮)?远(?![离方门洋足])",  # ("不想跑太远": near home)
    re.IGNORECASE,
)
# A turn whose answer the place shapes though it asks nothing about the surroundings: what to pack or
# wear for a stay there (its weather), when to ring someone who lives there (its clock).
ASKS_PACKING = re.compile(
    r"\b(?:pack|packing|suitcase|luggage|what (?:should|do|shall|to) (?:i |we |they |the kids )?wear|"
    r"(?:clothes|clothing) (?:to|should|do) (?:i |we )?(?:bring|take|pack))\b|"
    r"\bpacking list\b|"
    r"带(?:哪些|什么|啥|些什么)?(?:衣服|行李)|(?:衣服|行李)(?:要|该|得)?带|穿什么|穿啥|收拾行李|行李箱|行李清单|行李单|"
    r"要带的东西",
    re.IGNORECASE,
)
ASKS_CALL_TIME = re.compile(
    r"\b(?:what time|when|which time)\b[^.?!]{0,60}\b(?:call|ring|phone|facetime|video ?call|skype|zoom)\b|"
    r"\b(?:call|ring|phone|facetime|video ?call)\b[^.?!]{0,60}\b(?:what time|when|wake|waking|asleep)\b|"
    r"(?:几点|什么时候|啥时候|哪个时间)[^。？！]{0,12}(?:打电话|打视频|视频|通话|联系)|"
    r"(?:打电话|打视频|视频通话|视频)[^。？！]{0,12}(?:几点|什么时候|啥时候|吵醒|睡觉)",
    re.IGNORECASE,
)
# whom the call is to: someone of the person's own (not "the plumber")
_SOMEONE_CALLED = re.compile(
    r"\b(?:her|him|them|my (?:\w+ )?(?:mum|mom|mother|dad|father|parents|folks|son|daughter|brother|sister|"
    r"friend|mate|gran\w*|boyfriend|girlfriend|partner|wife|husband|kids?|family|aunt\w*|uncle|cousin))\b|"
    # (a grandparent called by the word for one: "to see Nain on Saturday", "visit Gran")
    r"\b(?:nain|taid|nan|nana|nanna|nanny|gran|granny|grandma|grandad|grandpa|grandparents|mam|mum|dad)\b|"
    r"\[NAME:|[他她]|爸|妈|爷|奶|孩子|儿子|女儿|朋友|老公|老婆|舅|姨|姑|叔|伯|表姐|表哥|表妹|表弟",
    re.IGNORECASE,
)


# A turn asking how to get somewhere it does not name: "How long's the drive and where's a good place to
# stop on the way?", "best way to get from Bristol to her office", "我们从郑州出发，怎么去比较方便？". Read
# only when it goes to someone of the person's own ("to see my mum and dad", "her office", "姥姥姥爷"): the
# place they told us that person lives or works in is where the journey ends.
ASKS_ROUTE = re.compile(
    r"\b(?:how long(?:'s| is| will| does| would)? (?:the |it )?(?:drive|journey|trip|train|flight|take)|"
    r"(?:best|easiest|quickest|fastest|cheapest) way (?:for (?:us|me|them) )?to get|"
    r"how (?:do|should|would|can|shall) (?:i|we) get|how to get (?:there|to)\b|plan (?:me |us )?a route|"
    r"when (?:should|do|shall|must) (?:i|we) (?:leave|set off)|"
    r"where (?:should|can|do|could) (?:i|we) park|(?:stop|break) (?:on|along) the way|which route|"
    r"(?:plan|work out) the (?:route|journey|drive)|"
    r"how long (?:should|do|will|would|shall) (?:i|we) (?:allow|need|leave)|"
    r"which way (?:should|do|shall) (?:i|we) go)\b|"
    r"怎么(?:去|走|过去|回去|飞)|(?:坐|搭|乘)(?:地铁|高铁|火车|飞机|公交|大巴)[^，。？！]{0,4}(?:怎么|去|过去)|路线|多远|"
    r"多久能到|开多久|(?:要|得)多久|多长时间",
    re.IGNORECASE,
)
# A destination the turn names itself ("to Leeds", "去北京"): the journey is not to a remembered place.
_NAMED_DESTINATION = re.compile(
    rf"\b(?:to|into|for)\s+(?:[A-Z][a-z]{{2,}})|(?:去|到|回)(?:{HAN_CLASS}{{0,2}})?(?:市|县|区|镇|机场|站)|"
    # ("去黄山玩两天", not "去找她玩", "去看看姥姥")
    rf"去(?!哪|找|看|见|接|陪|探|趟)(?:{HAN_CLASS}){{2,4}}?(?:玩|旅游|旅行|逛|住|待|走走)|"
    # ("坐火车去乌鲁木齐看俺儿子": the town, then whom they visit there)
    rf"(?:坐|搭|乘|开车|飞)(?:{HAN_CLASS}){{0,2}}?[去到](?!哪|找|看|见|接|陪|探|趟)(?:{HAN_CLASS}){{2,5}}?(?:看|找|探|陪)"
)


def asks_route(user_text: str) -> bool:
    """Whether the turn asks how to get to someone of the person's own, naming no destination."""
    return _to_someone_of_theirs(ASKS_ROUTE, user_text)


def _to_someone_of_theirs(asks: re.Pattern[str], user_text: str) -> bool:
    """Whether the turn asks ``asks`` about someone of the person's own and names no destination itself."""
    return bool(
        asks.search(user_text)
        and _SOMEONE_CALLED.search(user_text)
        and not _NAMED_DESTINATION.search(_SOMEONE_CALLED.sub(" ", user_text))
        and not _event_in_named_town(user_text)
    )


def _event_in_named_town(user_text: str) -> bool:
    """Whether the turn's own event is in a town it names: "My cousin's getting married in Glasgow in
    June" (not "setting off from my mum's in Macclesfield", where the journey starts)."""
    return any(
        m.group("prep") == "in"
        and m.group("place").split()[0] not in _NOT_PLACE_EN
        and "from" not in user_text[max(0, m.start() - 24) : m.start()]
        for m in _PLACE_EN.finditer(user_text)
    )


def asks_call_time(user_text: str) -> bool:
    """Whether the turn asks when to ring someone of the person's own."""
    return bool(ASKS_CALL_TIME.search(user_text) and _SOMEONE_CALLED.search(user_text))


# A turn asking where the person (or a plan of theirs) will be: "where do I tell her I'll be for
# Thanksgiving?", "我妈一直问我毕旅到底去哪里": the place they told us is the answer itself.
ASKS_WHERE = re.compile(
    r"\bwhere\b[^.?!]{0,40}\b(?:i'll|i will|we'll|we will|i'm|i am|we're|we are|be|going|staying|headed|"
    r"heading|is it|are we|am i)\b|(?:去|在|到)哪(?:里|儿)",
    re.IGNORECASE,
)
# A day or a month after a town is no part of it: "Priya's crashing in Banff Saturday night".
_NO_DAY = (
    r"(?!(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day|January|February|March|April|June|July|August|September|"
    r"October|November|December|Tonight|Tomorrow)"
)
_PLACE_EN = re.compile(
    r"\b(?P<prep>in|near|outside|around|to|from|into)\s+(?:(?:just|right)\s+)?"
    # ("Coimbatore only": no "on"; "settled in St Peter Port")
    # ("Dalneigh on the west side": "on" only inside a name, "Stoke on Trent")
    rf"(?P<place>(?:(?:St|Mt|Ft)\.? )?[A-Z][a-z]{{2,}}"
    rf"(?:[ -](?:{_NO_DAY}[A-Z][a-z]+|(?:upon|on|le|de)(?=[ -][A-Z]))){{0,2}})"
    r"\b"
    r"(?!\s+\d)"  # (a numbered part of a town: "a flat in Sector 35", "Block 4")
)
# A town named by an institution in it: "a midwife at the Royal Infirmary of Edinburgh", "the University of
# Leeds" (rank 1: named, not moved to).
_INSTITUTION_OF_EN = re.compile(
    r"\b(?:(?:Infirmary|Hospital|University|College|Institute|Clinic|Museum|Academy|Cathedral)\s+of|"
    r"KU|TU|UC|LMU)\s+(?P<place>[A-Z][a-z]{2,}(?:[ -][A-Z][a-z]+)?)\b"  # ("She's at KU Leuven", "TU Delft")
)
# A spot named with what it is, after "at": "the new tower at Parramatta Square" (not "I work at Google").
_AT_SPOT_EN = re.compile(
    r"\bat\s+(?P<place>[A-Z][a-z]{2,}(?: [A-Z][a-z]+)? (?:Square|Street|Road|Park|Quay|Wharf|Harbour|Bay|"
    r"Beach|Green|Market|Village|Lane|Avenue|Place|Plaza|Hill|Point|Heights|Common|Cross|Junction|Docks))\b"
)
# A district named with "the": "the new campus in the Financial District", "near the Jewellery Quarter".
_THE_DISTRICT_EN = re.compile(
    r"\b(?:in|near|around|outside)\s+the\s+(?P<place>[A-Z][a-z]{2,}(?: [A-Z][a-z]+){1,2})\b"
)
_NOT_PLACE_TEXT = (
    "Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June "
    "July August September October November December Easter Christmas Mum Mom Dad Granny Grandma "
    "Grandad Grandpa Mam Nan Nana Gran Nain Taid God English French Spanish German Chinese The This That My "
    "Our Your"
)
_NOT_PLACE_EN = frozenset(_NOT_PLACE_TEXT.split())
_PLACE_ZH = re.compile(
    # ("现在住光谷", "目前住在蛇口": where the home is now)
    rf"(?:(?P<lives>(?:现在|目前|如今)住(?:在|到)?(?!院|酒店|宾馆|旅馆|民宿|医院|不|得|着|的|了))|在|搬(?:到|回)了?|搬去|调到|改去|改到|老家(?:是|在)|来自|住在|回|"
    rf"交换到|外派到|派到|嫁到|留学到|(?:房子|房)?(?:买|安|租)在了?)"
    # (not the verb after "在": "现在租在南山蛇口" is 南山蛇口, not 租在南山蛇口)
    rf"(?!(?:租|买|安)在|住|搬)(?P<place>{HAN_CLASS}{{2,6}}?)(?P<unit>市|县|区|镇)?"
    # ("在黄岛那边", "在天通苑租了个一居": a spot no list knows, told as where the home is)
    r"(?:(?P<there>那边|那块|那一?片|这边|这块|一带|那一块|租了|租的|买了房|买的房|买了套|安了家|里头|里面|里边)|读|上学|上大学|念书|住|工作|上班|定居|长大|待|呆|生活|安家|买了房|买房|来|去|了|的|，|,|。|$)"
)
# The home said before "在": "新家在光谷", "我们家就在望京".
_HOME_BEFORE_ZH = re.compile(  # ("我现在租的房子在和平区睦南道")
    r"(?:新家|我家|我们家|俺家|咱家|新房子?|(?:租|买|住)的房子?|住的地方|住处|新居)(?:就|现在|目前)?$"
)
# A city visited, not lived in: "上次去台北住的那间商旅", "上礼拜在洛阳开会" (not "回去", "搬去").
_PAST_ZH = re.compile(r"上次|上回|上礼拜|上周|上星期|上个月|去年|前年|那年|那次|之前|以前")
_VISIT_BEFORE_ZH = re.compile(r"(?<![搬回调嫁派])[去在]$")
_VISIT_AFTER_ZH = re.compile(r"^(?:出差|开会|开了个?会|玩|旅游|旅行|度假|培训|考察|转机|看展|看演出)")
_TIME_ZH = re.compile(
    r"(?:这|下|上|本)?(?:周[一二三四五六日天末]|星期|礼拜)|(?:明天|后天|今天|今晚|明晚|下午|上午|晚上|早上|中午|\d|"
    r"[一二三四五六七八九十两]+(?:点|号|月|日))"
)
_MOVED_ZH = ("搬到", "搬回", "搬去", "调到", "改去", "改到", "交换", "外派", "派到", "嫁到", "留学")
_BESIDE_ZH = re.compile(r"(?:边上|旁边|附近|对面|周边|边|里|外|上|下|家|公司|单位|学校|小区)$")
_VERB_TAIL_ZH = re.compile(r"(?<=..)(?:买|住|待|呆|开|租|总部|分公司|总公司|分部|办事处)$")
_PROVINCE_END_ZH = re.compile(f"(?:{'|'.join(PROVINCES_ZH)})(?:省)?$")
_MAX_LOOKED_AT = 8
# The way to the person's own home: "the easiest way for them to get to us", "下了车怎么到我家".
# A trip away (not an evening out near home): "a week off in October, where should I go?", "出国玩".
_AWAY = re.compile(
    r"\b(?:trip|(?<!bank )holiday|vacation|weeks? off|getaway|abroad|road trip|fly|flight|travel\w*)\b|"
    r"旅游|旅行|出国|度假|自驾|假期",
    re.IGNORECASE,
)
# (a trip that ends at the person's home, or starts at its airport, is still about where they live)
_AIRPORT = re.compile(rf"\b(?:airports?|{TO_THEIR_HOME_EN})\b|机场|{TO_THEIR_HOME_ZH}", re.IGNORECASE)
# A town the turn names for itself, wherever it stands: "through downtown Toronto", "从成都出发".
_TOWN_IN_TURN_EN = re.compile(
    r"\b(?P<prep>in|near|to|from|around|through|across|downtown|central|visiting|into|via|on)\s+"
    # (a place the scrubber took for a name: "three nights on [NAME:…]")
    r"(?P<place>[A-Z][^\W\d_]{2,}|\[NAME:[0-9a-f]+\])"
)


def _asks_venue(user_text: str) -> bool:
    """Whether the turn asks for a place to go near where the person is (an evening out, a lunch spot, the
    airport to fly from), naming no town of its own."""
    if not (ASKS_VENUE.search(user_text) or asks_local(user_text)):
        return False
    if _AWAY.search(user_text) and not _AIRPORT.search(user_text):
        return False
    return not names_own_place(user_text)


def names_own_place(user_text: str) -> bool:
    """Whether the turn names a town of its own ("奶奶下个月来上海我这儿住…带她出去逛逛"): a town they set
    off from is none ("fly out from Toronto … to get to us")."""
    named = [m.group("place") for m in _TOWN_IN_TURN_EN.finditer(user_text) if m.group("prep") != "from"]
    cities = [m for m in CITY_RE.finditer(user_text) if not _ORIGIN_ZH.search(user_text[: m.start()])]
    return bool(ranked_places(user_text) or cities or any(p not in _NOT_PLACE_EN for p in named))


_AWAY_ZH = re.compile(rf"(?:去|到|飞)(?:{'|'.join(COUNTRIES_ZH)}|{HAN_CLASS}{{1,4}}?(?:岛|镇|县|古城))")


def _asks(user_text: str) -> str:
    """What the turn asks of the place: "meet" (where to take or fetch someone: the spot itself), "call"
    (its clock), "packing" (its weather), "route" (the way there), "around" (things to do there), "venue"
    (a place to go near it), or "" (nothing the place shapes)."""
    if ASKS_MEETING.search(user_text):
        return "meet"
    if asks_call_time(user_text):
        return "call"
    if ASKS_PACKING.search(user_text):
        return "packing"
    if SENDS_FROM_HOME.search(user_text):
        return "post"
    # (when to leave home, or which station to board at: where they set off, whoever the turn names)
    if LEAVES_HOME.search(user_text) or BOARDS_AT.search(user_text):
        return "from"
    if asks_route(user_text):
        return "route"
    route = ASKS_ROUTE.search(user_text) is not None and not SETS_OFF_FROM.search(
        FOLK_FROM_EN.sub("", user_text)
    )
    if route and (names_own_place(user_text) or _AWAY_ZH.search(user_text)):  # ("去巴厘岛…怎么飞")
        return "from"
    if _asks_around(user_text) or _to_someone_of_theirs(_ITINERARY, user_text):
        return "around"
    if _asks_venue(user_text):
        return "venue"
    # (a way asked to somewhere of no town, "a route round the tile showrooms"; not a way to get a thing)
    return "from" if route and not _GETS_A_THING.search(user_text) else ""


_GETS_A_THING = re.compile(r"\bway to get (?:the|a|an|my|your|some|more|better|rid)\b", re.I)


def _asks_around(user_text: str) -> bool:
    """Whether the turn asks about the surroundings (``ASKS_AROUND``): not a "附近的" that only says where
    a thing it names is ("去小区附近的周末农夫市集买菜…你帮我定个六菜一汤的菜单"), in a turn asking where
    or what of nothing."""
    found = list(ASKS_AROUND.finditer(user_text))
    if any(not user_text.startswith("附近的", m.start()) for m in found):
        return True
    return bool(found) and _ASKS_WHAT_ZH.search(user_text) is not None


_ASKS_WHAT_ZH = re.compile(r"哪|推荐|什么地方|啥地方|好玩|有什么|有啥")


# Days planned with someone of the person's own ("去找[NAME]玩…排个三天的行程", "plan our days with my
# brother"): things to do where they live. (A trip somewhere the turn names is not theirs to place.)
_ITINERARY = re.compile(r"\bitinerar(?:y|ies)\b|行程|攻略", re.IGNORECASE)


_NOTES = {
    "meet": NOTE_WHERE,
    "call": NOTE_CALL_TIME,
    "packing": NOTE_PACKING,
    "route": NOTE_ROUTE,
    "from": NOTE_FROM,
    "post": NOTE_POST,
    "around": NOTE,
    "venue": NOTE_VENUE,
    "": NOTE_WHERE,
}
_SAID = {"meet": NOTE_WHERE, "call": FALLBACK_CALL_TIME, "packing": FALLBACK_PACKING, "route": FALLBACK_ROUTE,
         "from": FALLBACK_FROM, "post": FALLBACK_POST, "around": FALLBACK, "venue": FALLBACK_VENUE,
         "": FALLBACK}  # fmt: skip


def place_said(user_text: str, place: str, language: str) -> str:
    """What is said of the place the person told us about, for this turn: when to ring (its clock), what
    to pack (its weather), else the usual things to do there."""
    return _SAID[_asks(user_text)]["zh" if language == "zh" else "en"].format(place=place)


def shaped_by_place(user_text: str) -> bool:
    """Whether the turn's answer depends on where a place the person told us about is."""
    return bool(_asks(user_text))


def recalled_place(user_text: str, records: Sequence[MemoryRecord], *, where: bool = False) -> str:
    """The place the person told us about, for a turn that asks about its surroundings (``where``: or
    asks where they will be); "" when the turn does not, or no statement of theirs among the first
    recalled names a place."""
    asks = _asks(user_text)  # (read once: it reads the turn's own places)
    if not (asks or (where and ASKS_WHERE.search(user_text))):
        return ""
    town = names_own_place(user_text)  # (a trip the turn names: ``trip_named``)
    if trip_named(user_text, asks=asks, names_town=town, asks_route=bool(ASKS_ROUTE.search(user_text))):
        return ""  # (things to do in, or the weather of, the town the turn names, not one remembered)
    # (not the place of a plan changed since: "(The place is Rylands.)" for a nikah moved to Claremont)
    current = without_revised(list(records), constraints_stand=False)
    looked_at = [record for record in current[:_MAX_LOOKED_AT] if record.role != "assistant"]
    if asks in ("from", "post"):  # (where the person sets off is their own home, not their mum's)
        looked_at = [record for record in looked_at if OWN_HOME.search(record.text)]
    if asks == "meet":  # the spot to go to, before the town the story is set in
        spots = [spot for spot in map(meeting_point, (r.text for r in looked_at)) if spot]
        if spots:
            return spots[0]
    # (the first recalled, unless a later one says where they moved: "He wen move to Hilo" beats "Befo he
    # stay by us in Kalihi", a clause of the same story)
    # (a place the turn itself names is where the journey starts, not where it ends: "从上海过去" after
    # "我刚调到上海" leaves "就在南靖书洋镇" of the wedding)
    named = [  # (with its statement, a statement's first place: ``home_first``)
        (rank, place, "" if i else record.text)
        for record in looked_at
        for i, (rank, place) in enumerate(ranked_places(record.text))
        if place not in user_text and (rank == 0 or asks != "from")  # (a home moved to)
    ]
    if not named and asks in ("venue", "from", "post"):  # (their home, pinned though not recalled first)
        named = [(0, home, "") for home in _pinned_homes(current[_MAX_LOOKED_AT:]) if home not in user_text]
    return home_first(named)


def _pinned_homes(records: Sequence[MemoryRecord]) -> list[str]:
    """The homes the person's pinned statements say they moved to or made, latest first: "we've finally
    got the keys and moved into the new flat in Jesmond" for a dog walker "near me" when the recalled
    clauses were the telly dropped on the stairs and the chippy."""
    statements = [r for r in records if r.pinned and OWN_HOME.search(r.text)]
    ordered = sorted(statements, key=lambda r: r.created_at, reverse=True)
    return [
        places[0][1]
        for places in map(ranked_places, (r.text for r in ordered))
        if places and places[0][0] == 0
    ]


def place_note(user_text: str, records: Sequence[MemoryRecord], language: str) -> str:
    """The note naming that place (``recalled_place``): what to do around it, or, for a turn asking
    where, the place itself; "" when there is none."""
    place = recalled_place(user_text, records, where=True)
    if not place:
        return ""
    return _NOTES[_asks(user_text)]["zh" if language == "zh" else "en"].format(place=place)


# The town a district is in, right after it: "into Canton in Cardiff".
_IN_TOWN_EN = re.compile(
    r"\s+(?P<side>on the (?:north|south|east|west|(?:north|south)-?(?:east|west)) side of|in)\s+"
    r"(?P<town>[A-Z][a-z]{2,}(?: [A-Z][a-z]+)?)\b"
)
_ORIGIN_ZH = re.compile(r"(?:从|来自|离开过?|把)$")
# What follows a city the person moved to: "跑大理来了", "到成都安家", "在昆明定居".
_SETTLED_ZH = re.compile(r"^(?:来了|来啦|定居|安家|落户|扎根|住下|报到|读书|上学|上大学|念书|读大学)")


def named_place(text: str) -> str:
    """The place ``text`` says the person lives or went to, or "": a place moved to wins ("packed up the
    house in Geelong and moved up to Cairns" → Cairns), one come from loses ("从广州跑过来的" → the other),
    else the first named."""
    return ranked_place(text)[1]


def ranked_place(text: str) -> tuple[int, str]:
    """``named_place`` with its rank: 0 a place moved to, 1 one only named; (2, "") for none."""
    places = ranked_places(text)
    return places[0] if places else (2, "")


def ranked_places(text: str) -> list[tuple[int, str]]:
    """Every place ``text`` names where someone is, best first (``ranked_place``'s ranks), or [] when it
    names none or only places come from."""
    found: list[tuple[int, int, str]] = []  # (rank: 0 moved to, 1 named, 2 come from; position; place)
    for match in _PLACE_ZH.finditer(text):
        place = _VERB_TAIL_ZH.sub("", match.group("place"))  # ("在海南琼海买了套小房子", "调到北京总部")
        if _TIME_ZH.match(place):  # (a time moved to is no place: "给我改到周五下午两点了")
            continue
        marker = match.group(0)[:2]
        # (a home rented or bought there ranks with a place moved to: "在天通苑租了个一居",
        # "把房子买在了昆山花桥")
        home = marker[0] in "房买安租" or (match.group("there") or "").startswith(("租", "买", "安"))
        home = home or bool(match.group("lives")) or bool(_HOME_BEFORE_ZH.search(text, 0, match.start()))
        # (a spot no list knows, said with a unit, as where the home is, or as where they moved:
        # "搬到了光谷软件园"; not a spot told by what it is next to: "在古城边上", "在公司附近")
        spot = bool(match.group("unit") or match.group("there") or marker in _MOVED_ZH or home)
        spot = spot and not place.startswith(("这", "那", "哪")) and not _BESIDE_ZH.search(place)
        # (a city named after its province: "搬到湖北恩施去了" is 湖北恩施, not all of 湖北)
        if place in CITIES_ZH or place.startswith((*COUNTRIES_ZH, *PROVINCES_ZH)) or spot:
            rank = 0 if marker in _MOVED_ZH or home else 2 if marker == "来自" else 1
            found.append((rank, match.start(), place + (match.group("unit") or "")))
    for city in CITY_RE.finditer(text):  # a large city said without 在 / 搬到 ("考上了哈尔滨这边的…")
        # (come from, its province said between: "从黑龙江鹤岗过来的")
        before = _PROVINCE_END_ZH.sub("", text[max(0, city.start() - 6) : city.start()])
        # (or its people: "我们成都人哪见过这种阵仗" is where they come from)
        origin = _ORIGIN_ZH.search(before[-3:]) or text.startswith("人", city.end())
        settled = _SETTLED_ZH.match(text[city.end() :])
        visit = _PAST_ZH.search(text, max(0, city.start() - 10), city.start()) and (
            _VISIT_BEFORE_ZH.search(before) or _VISIT_AFTER_ZH.match(text[city.end() :])
        )
        found.append(
            (2 if origin or (visit and not settled) else 0 if settled else 1, city.start(), city.group(0))
        )
    for match in _PLACE_EN.finditer(text):
        place = match.group("place")
        if place.split()[0] in _NOT_PLACE_EN:
            continue
        said_at = english_place_rank(text[max(0, match.start() - 60) : match.start()], match.group("prep"))
        if said_at is not None:  # (None: "into" that is no move)
            found.append((said_at, match.start(), place))
    found += [(0, m.start(), m.group("place")) for m in FOLK_NOW_EN.finditer(text)]
    found += [(1, m.start(), m.group("place")) for m in _INSTITUTION_OF_EN.finditer(text)]
    found += [(1, m.start(), m.group("place")) for m in _AT_SPOT_EN.finditer(text)]
    found += [
        (1, m.start(), m.group("place"))
        for m in _THE_DISTRICT_EN.finditer(text)
        if m.group("place").split()[0] not in _NOT_PLACE_EN
    ]
    # (only come from: where they are is unsaid)
    # (of one rank, a town before a whole province: "他是福建人…就在南靖书洋镇" is 南靖书洋镇)
    broad = frozenset(PROVINCES_ZH) | frozenset(COUNTRIES_ZH)
    # (a spot inside a large city before the city: "在青岛买了房，在黄岛那边" is 黄岛)
    ordered = sorted(found, key=lambda f: (f[0], f[2] in broad, f[2] in CITIES_ZH, f[1]))
    places = [(rank, place) for rank, _, place in ordered if rank < 2]
    if places and not has_han(places[0][1]):  # (with the town it is in: "Canton in Cardiff")
        rank, pos, top = next(found for found in ordered if found[0] < 2)
        town = _IN_TOWN_EN.match(text, text.find(top, pos) + len(top))
        # ("Dalneigh on the west side of Inverness": the town said with the side, named nowhere else)
        if town and (town.group("side") != "in" or any(p == town.group("town") for _, p in places[1:])):
            places[0] = (rank, f"{top}, {town.group('town')}")
    # (said with its city just before it: "回了他老家宜昌，在伍家岗那边买了套房" is 宜昌伍家岗; not
    # "在固安买了房，北京的房价实在够不着")
    if places and has_han(places[0][1]) and places[0][1] not in CITIES_ZH:
        at = next(pos for rank, pos, place in ordered if place == places[0][1])
        cities = [
            p for r, pos, p in ordered if r < 2 and p in CITIES_ZH and p not in broad and 0 < at - pos <= 10
        ]
        if cities and cities[0] not in places[0][1]:
            places[0] = (places[0][0], cities[0] + places[0][1])
    return places
