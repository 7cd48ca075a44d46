"""Chinese person names, where the sentence says it is one.

No Chinese NER ships in a registry package that loads offline here, and the UD-Chinese parser has no
entity labels. Names are therefore found where the words around them say so:

- after a naming cue: 我叫张伟, 我的名字是欧阳娜娜, 她叫李华, 名叫…, 姓名是…;
- before a title: 李明老师, 王芳女士, 陈建国先生, 赵医生 is not taken (a surname alone names nobody),
  nor 项目经理 or 全科医生 (an everyday word before the title).

A name is a common surname (single or compound, ``names_zh_surnames``) and one or two given-name
characters (``names_zh_everyday``: no everyday word that a surname starts), which stop at punctuation
and at characters that end a name in speech (的, 了, 是, 在 …). Once found, a name is known to the
conversation, and later mentions are scrubbed without a cue (``writepath.KnownNames``).
"""

from __future__ import annotations

import re

from voice_agent.memory.names_zh_everyday import everyday_run
from voice_agent.memory.names_zh_surnames import COMPOUND_SURNAMES, SINGLE_SURNAMES
from voice_agent.text.cjk import HAN_CLASS, is_han

__all__ = ["COMPOUND_SURNAMES", "NOT_GIVEN", "SINGLE_SURNAMES", "chinese_name_spans", "cued_any_spans"]

_SURNAMES = "".join(sorted(SINGLE_SURNAMES))
_COMPOUND = "|".join(sorted(COMPOUND_SURNAMES))
# Characters that end a name in running speech rather than belong to it.
_NOT_GIVEN = "的了是在和与跟给到从对把被就也都还很又再不没有吗呢吧啊呀哦嗯说讲去来我你他她它们这那个"
NOT_GIVEN = _NOT_GIVEN
_GIVEN = rf"{HAN_CLASS}(?<![{_NOT_GIVEN}])"
_SURNAME = rf"(?:{_COMPOUND}|[{_SURNAMES}])"
_NAME = rf"{_SURNAME}{_GIVEN}(?:{_GIVEN})?"
_WHO = r"(?:我|他|她|我们|孩子|儿子|女儿|老公|老婆|妈妈|爸爸|朋友)"
_CUE = rf"{_WHO}?(?:叫做|叫|名叫|的名字是|的名字叫|名字是|名字叫|姓名是|姓名叫)"
_TITLE = r"(?:老师|先生|女士|小姐|同学|医生|大夫|经理|教授|律师|阿姨|叔叔|师傅)"
_CUED = re.compile(rf"{_CUE}[ \t：:]?(?P<cued>{_NAME})")
_TITLED = re.compile(rf"(?P<titled>{_SURNAME}(?:{_GIVEN}){{1,2}}?){_TITLE}")
# Words said before a titled person whose first character is also a surname (谢, 祝): "谢谢王丽老师" names
# 王丽, not 谢王丽; "谢谢笪老师" names nobody the list knows.
_LEAD_WORDS = ("谢谢", "感谢", "多谢", "祝贺", "恭喜", "拜托", "麻烦")


def chinese_name_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the Chinese person names ``text`` marks as names (cue or title)."""
    if not any(is_han(ch) for ch in text):
        return []
    spans = {m.span("cued") for m in _CUED.finditer(text) if not everyday_run(m["cued"])}
    for m in _TITLED.finditer(text):
        start, end = _after_lead_word(text, m.start("titled")), m.end("titled")
        taken = any(a <= start < b for a, b in spans)
        if end - start >= 2 and not taken and not everyday_run(text[start:end]):
            spans.add((start, end))  # not "项目经理", "全科医生": an everyday word before the title
    return sorted(spans)


def _after_lead_word(text: str, start: int) -> int:
    """``start`` moved past a lead word ("谢谢", "祝贺") the name's first character belongs to, onto a
    surname; a start that no surname follows is the end of the text (no name)."""
    for word in _LEAD_WORDS:
        at = text.rfind(word, max(0, start - len(word) + 1), start + len(word))
        if at != -1 and at <= start < at + len(word):
            after = at + len(word)
            surname = (
                text[after : after + 2] in COMPOUND_SURNAMES or text[after : after + 1] in SINGLE_SURNAMES
            )
            return after if surname else len(text)
    return start


# A naming cue strong enough to take a name of any shape after it: a transliterated name (阿依古丽,
# 买买提, 迪丽努尔·艾尔肯) has no surname, and the dictionary splits it at random.
_STRONG_CUE = re.compile(
    r"(?:(?:名字|姓名|大名|小名|全名|外号|绰号|昵称)(?:叫做|叫|是)|名叫|叫做"
    r"|(?:我|他|她|孩子|儿子|女儿|同学|同事|朋友|邻居|室友|护士|医生|老师|闺蜜|闺女|同桌|发小|表姐|表妹"
    r"|表哥|表弟|堂姐|堂妹|侄女|侄子|外甥|外甥女|孙子|孙女|妹妹|姐姐|哥哥|弟弟)叫)"
)
_RUN = re.compile(rf"(?:{HAN_CLASS}(?<![{_NOT_GIVEN}])){{2,6}}(?:·{HAN_CLASS}{{2,6}})?")


def cued_any_spans(text: str) -> list[tuple[int, int]]:
    """Runs of two to six characters (two parts joined by "·" too) right after a strong naming cue
    ("她名叫玛丽亚", "名字叫迪丽努尔·艾尔肯"); the caller drops the everyday words ("他叫外卖")."""
    spans = []
    for cue in _STRONG_CUE.finditer(text):
        m = _RUN.match(text, cue.end())
        if (
            m
            and m.group()[0] not in "什啥谁哪乜咩么"
            and not (m.end() < len(text) and is_han(text[m.end()]) and text[m.end()] not in _NOT_GIVEN)
        ):
            spans.append(m.span())
    return spans
