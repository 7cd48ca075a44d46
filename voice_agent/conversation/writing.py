"""A turn that asks for something written: a card, an e-mail, a message, a toast, 几句话, 一条微信 …

Its own words said back are never the thing asked for (``echo.open_request``), and the person it is for
may be named next to it (``name_note``).
"""

from __future__ import annotations

import re

WRITES_TO = re.compile(
    r"\b(?:write|draft|compose|word|put together)\b[^.?!]{0,60}\b(?:card|e-?mail|message|msg|note|letter|"
    r"text|txt|dm|speech|toast|invitation|poem|caption|vows)s?\b|"
    r"\b(?:stitch(?:ed)?|embroider(?:ed)?|engrave[d]?|monogram(?:med)?|personali[sz]ed?|print(?:ed)? on|"
    r"(?:put|write|pipe[d]?) on (?:the|a|her|his|their) "
    r"(?:cake|blanket|mug|card|banner|shirt|t-shirt|bracelet))\b|"
    r"(?:写|拟|发|回)[^。？！?!]{0,12}(?:几句|两句|一段|段话|小作文|贺卡|卡片|信|微信|短信|消息|讯息|信息|邮件|"
    r"通知|感谢|祝福|情话|文案|朋友圈|帖子|一版|稿子|致辞|发言稿)|"
    r"(?:绣|刻|印|写)[^。？！?!]{0,6}(?:名字|字)|(?:想|写|编)[一两几]句",
    re.IGNORECASE,
)
