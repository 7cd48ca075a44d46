"""The Chinese place names the place note knows without a unit after them (Chinese names carry no
capital): provinces, large and prefecture cities, county-level cities, and countries a place abroad is
named after ("交换到日本福冈了")."""

from __future__ import annotations

import re

# (a place is also a name with 市/县/区/镇 after it: ``place_note``)
CITIES_TEXT = (
    "北京 上海 天津 重庆 广州 深圳 杭州 南京 苏州 无锡 宁波 温州 成都 武汉 长沙 西安 郑州 "
    "济南 青岛 大连 沈阳 长春 哈尔滨 石家庄 太原 呼和浩特 合肥 福州 厦门 南昌 南宁 桂林 "
    "海口 三亚 贵阳 昆明 大理 丽江 拉萨 兰州 西宁 银川 乌鲁木齐 香港 澳门 台北 珠海 佛山 "
    "东莞 汕头 扬州 常州 绍兴 嘉兴 烟台 洛阳 开封 徐州 泉州 潮州 黄山 景德镇 张家界 九江 "
    "宜昌 襄阳 绵阳 乐山 遵义 唐山 保定 秦皇岛 威海 舟山 河北 山西 辽宁 吉林 黑龙江 江苏 "
    "浙江 安徽 福建 江西 山东 河南 湖北 湖南 广东 海南 四川 贵州 云南 陕西 甘肃 青海 台湾 "
    "内蒙古 广西 西藏 宁夏 新疆 台中 台南 高雄 台东 花莲 垦丁 宜兰 新竹 嘉义 基隆 屏东 澎湖 北海 惠州 "
    "中山 湛江 泰安 曲阜 敦煌 西双版纳 香格里拉 九寨沟 峨眉山 婺源 凤凰 阳朔 平遥 乌镇 周庄 千岛湖 "
    "长白山 呼伦贝尔 喀什 伊犁 延边 稻城 "
    # (prefecture cities whose names are no everyday word: not 安康, 普洱, 四平, 大庆)
    "柳州 鹤岗 株洲 岳阳 常德 衡阳 湘潭 宜宾 泸州 南充 德阳 自贡 攀枝花 赣州 上饶 芜湖 蚌埠 安庆 阜阳 "
    "淮南 马鞍山 镇江 南通 盐城 淮安 连云港 泰州 宿迁 湖州 金华 台州 丽水 衢州 漳州 莆田 龙岩 宁德 "
    "揭阳 梅州 江门 茂名 肇庆 清远 韶关 河源 阳江 潍坊 淄博 临沂 济宁 日照 聊城 滨州 东营 枣庄 菏泽 "
    "新乡 安阳 南阳 许昌 平顶山 商丘 信阳 周口 驻马店 焦作 濮阳 漯河 三门峡 十堰 荆州 荆门 黄石 孝感 "
    "黄冈 咸宁 随州 恩施 邯郸 邢台 沧州 廊坊 衡水 张家口 承德 大同 运城 临汾 晋城 忻州 包头 鄂尔多斯 "
    "赤峰 通辽 鞍山 抚顺 本溪 丹东 锦州 营口 盘锦 铁岭 葫芦岛 齐齐哈尔 牡丹江 佳木斯 宝鸡 咸阳 渭南 "
    "汉中 延安 榆林 天水 酒泉 张掖 嘉峪关 克拉玛依 吐鲁番 玉林 梧州 钦州 防城港 百色 六盘水 毕节 "
    "铜仁 曲靖 玉溪 昭通 儋州 昆山 义乌 江阴 张家港 常熟 慈溪 晋江 顺德 "
    # (county-level cities, the same way)
    "宜兴 溧阳 诸暨 余姚 海宁 桐乡 瑞安 乐清 温岭 太仓 丹阳 如皋 启东 石狮 福清 增城 从化 台山 开平 普宁 "
    "寿光 青州 诸城 胶州 平度 即墨 莱西 龙口 荣成 滕州 邹城 巩义 新郑 登封 浏阳 醴陵 韶山 都江堰 彭州 "
    "涿州 迁安 瓦房店 延吉 绥芬河 满洲里 二连浩特 格尔木 库尔勒 阿克苏 伊宁 石河子 景洪 腾冲 瑞丽 凯里 "
    "都匀 兴义 仁怀 琼海 万宁"
)
CITIES_ZH = frozenset(CITIES_TEXT.split())
# A place abroad is named after its country: "交换到日本福冈了", "派到澳大利亚悉尼".
COUNTRIES_TEXT = (
    "日本 韩国 美国 英国 法国 德国 意大利 西班牙 葡萄牙 澳大利亚 澳洲 新西兰 加拿大 新加坡 泰国 "
    "马来西亚 越南 俄罗斯 荷兰 瑞士 瑞典 挪威 丹麦 芬兰 爱尔兰 比利时 奥地利 希腊 土耳其 埃及 迪拜 "
    "阿联酋 印度 印尼 菲律宾"
)
COUNTRIES_ZH = tuple(COUNTRIES_TEXT.split())
# Any of the cities, for a regex: the longest first, so a longer name wins over one it starts with.
CITY_PATTERN = "|".join(sorted(CITIES_ZH, key=len, reverse=True))
# (not a road named after a city: "青岛的香港东路", "上海的南京路")
CITY_RE = re.compile(f"(?:{CITY_PATTERN})(?![东西南北中]?(?:路|大道|大街|街))")
PROVINCES_ZH = (
    "河北", "山西", "辽宁", "吉林", "黑龙江", "江苏", "浙江", "安徽", "福建", "江西", "山东", "河南", "湖北",
    "湖南", "广东", "海南", "四川", "贵州", "云南", "陕西", "甘肃", "青海", "内蒙古", "广西", "西藏", "宁夏",
    "新疆",
)  # fmt: skip
