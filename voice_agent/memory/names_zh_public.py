"""Chinese names of public, historical and fictional figures: a run the name finder takes that lies wholly
inside one of them is the figure, talked about, and no private person.

Keyed, "打小儿我就好…郭靖黄蓉、李寻欢、楚留香" reached the model as "[NAME]蓉、[NAME]、楚留香" and the
wuxia fan's taste was lost; "在孔夫子旧书网买书" lost the shop. The list holds writers, poets, thinkers,
historical and novel characters people name when they talk about books, films and places; a real private
person who shares such a name is rare beside the everyday talk of the figure.
"""

from __future__ import annotations

import re


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_FIGURES = _words(
    """
    孔子 孔夫子 老子 庄子 孟子 墨子 韩非子 孙子兵法 司马迁 李白 杜甫 白居易 王维 苏轼 苏东坡 李清照 辛弃疾
    陆游 陶渊明 屈原 曹雪芹 罗贯中 施耐庵 吴承恩 蒲松龄 鲁迅 老舍 巴金 冰心 茅盾 沈从文 钱钟书 杨绛 张爱玲
    徐志摩 林徽因 胡适 朱自清 余光中 三毛 琼瑶 金庸 古龙 梁羽生 温瑞安 黄易 莫言 余华 刘慈欣 王小波 路遥
    贾平凹 阿来 迟子建 诸葛亮 曹操 刘备 关羽 张飞 赵云 孙权 周瑜 吕布 貂蝉 孙悟空 猪八戒 沙和尚 唐僧 林黛玉
    贾宝玉 薛宝钗 王熙凤 宋江 武松 林冲 鲁智深 李逵 潘金莲 包拯 包青天 岳飞 秦始皇 花木兰 武则天 郭靖 黄蓉
    杨过 小龙女 令狐冲 任盈盈 张无忌 赵敏 周芷若 乔峰 萧峰 段誉 虚竹 王语嫣 韦小宝 胡斐 袁承志 洪七公
    欧阳锋 黄药师 周伯通 东方不败 岳不群 李寻欢 楚留香 陆小凤 花满楼 西门吹雪 白素贞 许仙 梁山伯 祝英台
    牛郎 织女 嫦娥 孙中山 毛泽东 周恩来 邓小平 雷锋 梅兰芳 齐白石 徐悲鸿 李小龙 成龙
    """
)
_FIGURE_RE = re.compile("|".join(sorted(_FIGURES, key=len, reverse=True)))


# Someone the person knows, or names, right before it: "我同事成龙明天来", "儿子叫李白" (a private person).
_PERSON_BEFORE = re.compile(
    r"(?:叫|叫做|名叫|名字是|名字叫|同事|同学|朋友|老公|老婆|丈夫|妻子|媳妇|对象|男朋友|女朋友|儿子|女儿|孙子|孙女|"
    r"[表堂]?[哥姐弟妹]|爸|妈|叔|姨|舅|婶|侄子|外甥|老板|上司|领导|邻居|室友|客户|老师|医生|教练|学生|"
    r"先生|女士|小姐)$"
)


def inside_public_figures(text: str, span: tuple[int, int]) -> bool:
    """Whether every character of ``text[span]`` belongs to a public figure's name said in ``text``
    ("郭靖黄" of "郭靖黄蓉" is two figures, not a person), none of them right after a word for someone
    the person knows ("我同事成龙": a colleague who shares the name)."""
    if _PERSON_BEFORE.search(text, 0, span[0]):
        return False
    covered = [False] * len(text)
    for m in _FIGURE_RE.finditer(text):
        if _PERSON_BEFORE.search(text, 0, m.start()):
            continue
        covered[m.start() : m.end()] = [True] * (m.end() - m.start())
    return all(covered[span[0] : span[1]])
