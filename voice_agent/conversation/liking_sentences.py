"""The one sentence of a remembered fact that says what is liked, and whose liking it is.

A fact told in passing carries more than the liking ("…台北这礼拜每天下午都在下雷阵雨…对了，我妈最近
迷上跳国标舞"): a suggestion asked for is shaped by the sentence that says the liking, not by the whole
story, and a liking of someone else's (the person's mother, partner, child) shapes it only when the
turn is about that someone ("what should I get my mum for her birthday?")."""

from __future__ import annotations

import re

from voice_agent.conversation.likings import says_liking
from voice_agent.text.sentences import sentences_of

__all__ = ["liking_sentence", "someone_elses"]

_KIN_EN = (
    r"mum|mom|mam|mother|dad|father|wife|husband|partner|boyfriend|girlfriend|son|daughter|kid|kids|"
    r"sister|brother|nan|gran|granny|grandma|grandpa|grandad|grandmother|grandfather|uncle|aunt|auntie|"
    r"cousin|niece|nephew|flatmate|roommate|boss|neighbour|neighbor|friend|mate|grandson|granddaughter|"
    r"grandkids?|missus|hubby|in-laws|(?:mother|father|brother|sister|son|daughter)-in-law"
)
_KIN_ZH = (
    r"爸|妈|老公|老婆|媳妇儿?|婆婆|公公|岳父|岳母|老丈人|丈母娘|老伴儿?|那口子|堂客|婆娘|男人|屋里人|老头子?儿?|老太婆|"
    r"儿子|女儿|闺女|嫚儿?|细伢子|伢子|娃|崽|仔|囡囡|孩子|小孩|爷爷|奶奶|姥姥|姥爷|外公|外婆|"
    r"哥|姐|弟|妹|舅|姨|叔|婶|姑|表哥|表姐|表弟|表妹|男朋友|女朋友|对象|室友|老板|邻居|朋友|同事|"
    r"老汉|老爷子|老太太|老妈|老爸|阿嬷|阿公|阿婆|阿爸|阿妈|阿爷|孙子|孙女|外孙女?"
)
# A sentence whose subject is someone of the person's: "Oh, and my mum's just got into salsa", "对了，我妈
# 最近迷上跳国标舞", "然后我老公最近迷上拼乐高", "我屋那口子最近迷上跳广场舞咧" (not "我妈说我…": there the
# person is talked of).
_SOMEONE_ELSE = re.compile(
    rf"^\W*(?:(?:oh|and|also|btw|by the way|plus|anyway|meanwhile|then),?\s+)*(?:my|our)\s+(?:\w+\s+)?"
    rf"(?P<en>{_KIN_EN})(?:'s|s)?\b(?!\s+(?:says?|said|thinks?|reckons?)\b)|"
    rf"^\W*(?:(?:然后|对了|还有|哦|噢|另外|顺便说一句|顺便|说起来|话说)[，,]?\s*)?(?:我们|我哋|我|俺们|俺|阿拉|咱们|咱|额)(?:屋里|屋头|屋|家|那)?(?:的)?"
    rf"(?:大|小|二)?(?P<zh>{_KIN_ZH})(?!说|觉得|讲)",
    re.IGNORECASE,
)
# (in Chinese the person as the one who does something, not as someone compared or talked to: "行程比我还满")
_ME = re.compile(r"\b(?:I|I'm|I've|me too)\b|(?<![比跟给让叫把被和同替陪带帮])(?:我|俺)(?![家们屋])")


def liking_sentence(text: str) -> str:
    """The first sentence of ``text`` that says a liking (``says_liking``), or ``text`` when none alone
    does (the liking is spread over sentences)."""
    return next((sentence for sentence in sentences_of(text) if says_liking(sentence)), text)


def someone_elses(sentence: str, user_text: str) -> bool:
    """Whether ``sentence`` says someone else's liking (the person's mother, partner, child…) and the turn
    ``user_text`` does not name that someone (a "we" is not enough: "我们一家四口要去露营" is no turn
    about the husband's new Lego hobby)."""
    match = _SOMEONE_ELSE.match(sentence)
    if match is None:
        return False
    # (the person goes on about themself: "我外公是广东人，我从小跟着他听粤剧" is the person's liking)
    if _ME.search(sentence, match.end()):
        return False
    kin = match.group("en") or match.group("zh")
    named = rf"\b{re.escape(kin)}" if match.group("en") else re.escape(kin)
    return re.search(named, user_text, re.IGNORECASE) is None
