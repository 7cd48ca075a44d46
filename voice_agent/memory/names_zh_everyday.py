"""Everyday Chinese words whose first character is a surname: a run that is one of them, or starts with
one, is the word and never a person.

Shape rules read a surname and a character or two as a name, and jieba's dictionary tags many of these
words as names (师范, 祝福, 顾客, 胡同, 叶子 are ``nr``). Scrubbed, "项目经理叫亓慧琳" reached the model
as "[NAME]经理叫亓慧琳" (项目 before a title read as a surname with a given name) and "帮我写个简短的祝酒
词" lost its toast. The list holds words people say to an assistant: work and school (项目, 师范, 高中),
wishes (祝福, 祝酒词), 莫 as "don't" (莫急, 莫撞车), cities (高雄), places and things (江湖, 高铁,
房子, 钱包), family words (孙子, 岳母), plants and weather (柳树, 桂花, 雷阵雨); fruits and dishes
are in ``names_things_zh``. A word that is also a common given name or a whole name (高明, 海燕, 白雪,
黎明, 安静, 文明) is not listed: the finder judges it from where it stands.
"""

from __future__ import annotations


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words that start no name: a run that starts with one is the word ("祝酒词", "司机过来", "项目经理").
_NEVER_NAME_START = _words(
    """
    项目 项目组 全科 全职 全班 全校 全部 高管 高层 房产 房东 房租 房贷 房间 车间 包工头 司机 司仪
    司令 师范 师傅 师父 师生 师兄 师姐 党委 宣传 区域 单位 费用 付款 付费 成绩 成本 程序 管理 关系
    范围 纪律 纪念 家长 家具 应酬 平板 平台 乐队 祝酒 祝福 祝贺 祝寿 祝愿 祝词 贺卡 贺词 江湖 江边
    高铁 高速 高考 高数 高烧 高压 高血压 金额 金融 金币 方案 方法 方面 包裹 包包 车票 车站 车位
    车库 路口 路上 钱包 钱财 温泉 沙滩 沙发 顾客 顾问 胡同 胡说 孙女 岳父 岳母 毛巾 毛衣 毛病 白领
    张罗 陈列 卫生 温度 石头 和尚 童话 童鞋 蓝牙 黄牛 乔迁 冷气 冷饮 冷面 柴火 左边 左手 秋天
    夏令营 水果 花生 马路 马虎 熊猫 柏树 雷阵雨 托管 托管班 管班 温声 温柔 温和 温暖
    徐汇 杨浦 闵行 石景山 龙岗 秦淮 成华 沙坪坝 罗湖 黄浦 洪山 江汉 武侯 余杭 萧山
    全靠 全凭 全都 尤克 今早 今晚 今儿 明早 明晚 明儿 前晚 前儿
    恩仇 白毛 莫急 莫慌 莫怕 莫管 莫要 莫得 莫撞 莫搞 莫吵 莫闹 莫走 莫跑 莫哭 莫担心 孔网
    成屋 唐制 塞罕坝 石家庄 黄梅天 黄梅雨
    """
)
# Words that are also a whole name or start one (高中华, 许可, 温馨, 叶子涵): the word itself only.
_WORD_ONLY = _words(
    """
    全家 高级 高中 高一 高二 高三 高温 金牌 金条 黄金 方向 方便 明白 明星 康复 宁可 宁愿 许可 周全
    周末 周年 温馨 宫殿 童年 史诗 蓝天 苗条 花园 林子 柳树 桂花 梅花 兰花 杜鹃 丁香 雷雨 马上 卫星
    荣幸 叶子 孙子 胡子 包子 车子 单子 麦子 曲子 房子 管家 段子 杨树 夏天 杨絮 柳絮 杨柳 柳条 柳枝
    高雄 台中 台南 台东
    """
)
SURNAME_LED_WORDS = _NEVER_NAME_START | _WORD_ONLY


def everyday_run(run: str) -> bool:
    """Whether the surname-led ``run`` (a name candidate) is an everyday word ("项目", "师范") or starts
    with one that starts no name ("祝酒词", "司机过"): the word is the sentence's, not a person's."""
    if run in SURNAME_LED_WORDS:
        return True
    return any(run[:n] in _NEVER_NAME_START for n in range(2, len(run)))
