"""A trip the turn names for itself, so a remembered place does not shape its answer.

"下个月我们一家三口去冲绳玩五天…你帮我排排行程" or "The missus and I have eight days in Osaka … write us
a packing list": the things to do and the weather are those of Okinawa and Osaka, not of Shenyang or Bali
where the person once told us they live or lost a suitcase. A note naming the remembered place ("(推荐一个
沈阳或附近具体可以去的地方。)", "(Pack for the weather in Bali.)") steers a small model's whole reply away
from the trip asked about.
"""

from __future__ import annotations

import re

from voice_agent.text.cjk import HAN_CLASS

# (not someone's home, "去我姐那儿住", "去闺女那儿住", nor a walk, "去爬爬山")
_NOT_A_TOWN = rf"(?!哪|找|看|见|接|陪|探|趟|家|屋|我|你|他|她|俺|咱|爬|逛|走|{HAN_CLASS}{{0,3}}那)"
# "去冲绳玩五天", "在吉隆坡转机", "去普陀山烧香", "去乌兰布统草原住两宿", "去越南芽庄玩", "去南澳岛睇"
_TRIP_ZH = re.compile(
    rf"(?:去|到|飞|在){_NOT_A_TOWN}{HAN_CLASS}{{2,6}}?"
    r"(?:山|湖|岛|海|古镇|古城|景区|草原|转机|玩|旅游|旅行|度假|度蜜月|自驾|出差|滑雪|住(?:几|两|三|四|五|一)|待(?:几|两|三|四|五|一))"
)


def trip_named(user_text: str, *, asks: str, names_town: bool, asks_route: bool) -> bool:
    """Whether the turn plans a trip to a place it names itself (``names_town``: an English or Chinese
    town read from the turn), for an ask that place would shape: things to do "around" there, or what to
    pack for its weather (not a turn that also asks the way, whose start is the person's home), or where
    to meet in it ("a proper day of fishing around Brissie", not where the traffic was)."""
    if asks in ("around", "meet") and names_town:  # (a spot to meet in the town the turn names)
        return True
    if asks not in ("around", "packing") or (asks == "packing" and asks_route):
        return False
    return names_town or _TRIP_ZH.search(user_text) is not None
