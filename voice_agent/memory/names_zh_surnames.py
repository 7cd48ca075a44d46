"""Chinese surnames, in three tiers by how safely their character alone says "a person starts here".

The traditional list of surnames (about 440 single and 60 compound ones) holds many characters that
are everyday words too (水, 花, 有, 那, 东方, 第五, 百里), and a finder that read every one of them as the
start of a name would scrub half of every sentence. So:

- ``SINGLE_SURNAMES``: the common surnames (covering the large majority of people) and the rare ones
  whose character starts almost no everyday word (阚, 亓, 禤, 仉, 笪, 郗): a surname by its shape alone,
  wherever the sentence puts a person;
- ``RARE_SURNAMES``: the rare ones of those: a rare surname followed by a given name is a name even with
  no cue at all ("新老师阚雨桐", "我细佬禤家明");
- ``ALL_SINGLE_SURNAMES``: the whole traditional list and the modern surnames it lacks; the ones that
  are everyday words too (揭, 花, 水) count only where the sentence says a name follows ("叫揭志强",
  "全名花木兰") or when the speaker said the character is a surname ("姓揭").

Compound surnames likewise: ``COMPOUND_SURNAMES`` by their shape, ``ALL_COMPOUND_SURNAMES`` with the
ones that are everyday words (东门, 百里, 第五, 司空, 微生) too, for cues only.
"""

from __future__ import annotations

# The most common single-character surnames (the large majority of people).
_COMMON = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁"
    "任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付傅方白邹孟熊秦邱江尹薛闫阎段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃"
    "武戴莫孔向汤常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮"
    "柯纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉"
    "缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫寇"
    "桑郎甄丛仲虞敖巩明佘池查麻苑迟邝"
)
# Rare surnames whose character starts almost no everyday word: safe by shape alone.
_RARE = "阚亓禤仉笪郗郈佴邴昝郤钭郦訾蒯璩嵇邰逄缑隗蔺郜羿庹冼殳逯鄢胥庾竺芮酆荀贲郏扈谯宓厍晁谌"
# Less rare surnames that start few everyday words: safe by shape, but not with no cue at all.
_UNCOMMON = "萧奚粟匡狄桓禹裘阙慕濮禄戈弘茹"
# The rest of the traditional list and common modern surnames it lacks, whose character is an
# everyday word as well (水, 花, 揭, 计): a surname only where a cue says a name follows.
_WORDLIKE = (
    "水云昌凤花廉乐皮元平湛伏谈茅强危支经干宣郁杭洪诸钮滑羊於惠家封储汲糜松井富乌巴弓牧山蓬班仰秋伊"
    "暴厉戎祖束幸韶蓟薄印宿怀从鄂索咸籍赖屠阴能苍双闻莘贡劳扶堵宰雍寿通燕冀浦别充鱼容慎终暨居衡步都"
    "满国广利蔚越夔隆沃融勾那空毋乜养鞠须丰巢相后荆红权盖益公督晋楚法汝钦帅亢况有琴墨哈年爱言福揭练"
    "植区敬银卿尧计贝习宦东候降"
)
# Characters of the list that are function words first (有, 那, 都, 从; Cantonese 乜 "what"): never
# read as a surname without the speaker saying so ("姓那").
_FUNCTION_CHARS = frozenset("有那都从后能和于相经通年国公别须言诸终越爱空元利计强广干家法平东水乜")

_COMPOUND = (
    "欧阳 司马 诸葛 上官 慕容 东方 皇甫 令狐 公孙 夏侯 尉迟 长孙 宇文 司徒 端木 南宫 独孤 澹台 呼延 轩辕 "
    "万俟 闻人 赫连 淳于 太叔 申屠 钟离 宗政 公冶 仲孙 鲜于 闾丘 亓官 司寇 颛孙 巫马 公西 漆雕 壤驷 "
    "公良 拓跋 宰父 谷梁 梁丘 左丘 商牟 伯赏 段干 东郭 归海 公羊"
)
# Compound surnames that are everyday words too: 西门 (the west gate), 百里, 第五 (fifth), 微生 (微生物).
_WORDLIKE_COMPOUND = "单于 司空 百里 东门 西门 南门 第五 乐正 濮阳 微生 羊舌 夹谷"

RARE_SURNAMES = frozenset(_RARE)
SINGLE_SURNAMES = frozenset(_COMMON + _RARE + _UNCOMMON)
ALL_SINGLE_SURNAMES = SINGLE_SURNAMES | frozenset(_WORDLIKE)
COMPOUND_SURNAMES = frozenset(_COMPOUND.split())
ALL_COMPOUND_SURNAMES = COMPOUND_SURNAMES | frozenset(_WORDLIKE_COMPOUND.split())


def cued_surname(chars: str) -> int:
    """Length of the surname ``chars`` starts with where a cue says a name follows (叫, 全名): 2 for a
    compound one, 1 for a single one, 0 for none or for a function word (那, 都)."""
    if chars[:2] in ALL_COMPOUND_SURNAMES:
        return 2
    if chars[:1] in ALL_SINGLE_SURNAMES and chars[:1] not in _FUNCTION_CHARS:
        return 1
    return 0


def function_char(char: str) -> bool:
    """A surname character that is first of all a function word (有, 那, 都)."""
    return char in _FUNCTION_CHARS
