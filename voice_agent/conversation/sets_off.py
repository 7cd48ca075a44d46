"""Where a turn's journey or parcel starts: at the person's home, whatever town the turn names.

"Which station should we get on at?" for a train to Auckland, "what time should I leave?" for a pilates
class across town, "How should I post it?" for a lens sold to a buyer in Manchester: ``place_note`` answers
these with the home the person told us about.
"""

from __future__ import annotations

import re

# When to leave home: "我跟健身搭子约了…在静安寺附近一家普拉提馆…你帮我算算几点出门".
LEAVES_HOME = re.compile(
    r"[几啥]点出门|(?:啥|什么)时候出门|提前(?:多久|好久|多长时间)出门|"
    r"\bwhat time (?:should|do|must) (?:i|we) (?:leave|set off|head out)\b|"
    r"\bwhen (?:should|do) (?:i|we) (?:leave|set off)\b|\bleave (?:the house|home)\b",
    re.IGNORECASE,
)
# Where to board for a journey the turn names: "take the Northern Explorer up to Auckland … Which station
# should we get on at?", "最近的高铁站是哪个".
BOARDS_AT = re.compile(
    r"\bwhich (?:station|stop|airport|terminal|port) (?:should|do|would|can|could|shall) (?:we|i) "
    r"(?:get on|board|leave|go|fly|depart|catch|get)|\b(?:nearest|closest) (?:train |bus |railway )?"
    r"(?:station|airport|stop)\b|\bwhere (?:should|do|can|could) (?:we|i) (?:get on|board|catch)\b|"
    r"哪(?:个|一个)(?:站|车站|火车站|高铁站)(?:上车|坐车|出发)|在哪(?:儿|里)?上车|"
    r"最近的(?:站|车站|火车站|高铁站|机场)",
    re.IGNORECASE,
)
# Something to send from home: "How should I post it … is there any paperwork?", "寄过去要多少钱".
SENDS_FROM_HOME = re.compile(
    r"\bhow (?:should|do|can|would|shall|best to) (?:i |we )?(?:post|ship|courier|mail) "
    r"(?:it|them|this|these|that|those|the|a|an|my|our)\b|"
    r"\bhow (?:should|do|can|would|shall) (?:i|we) send (?:the |a |my |our )?(?:parcel|package|box)\b|"
    r"怎么寄|寄(?:过去|回去|到)[^，。？！?]{0,8}(?:多少钱|多久|怎么)|邮费",
    re.IGNORECASE,
)
