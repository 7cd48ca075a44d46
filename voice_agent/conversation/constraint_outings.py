"""Places, activities and animals a person keeps off (not food): caves, gambling, zoos, stairs, heights,
dogs, temples. Each is a
:class:`Topic` like a food's: the words that name it in a rule, and the words that mean a reply suggests it.
"""

from __future__ import annotations

from voice_agent.conversation.constraint_topic import Topic, ZhTerm
from voice_agent.conversation.constraint_topic import zh_terms as _zh

OUTINGS: tuple[Topic, ...] = (
    # Caves and anything underground (claustrophobia): "caves, tunnels, anything underground, never again".
    Topic(
        "caves", "caves", "山洞",
        ("cave", "caves", "caving", "tunnel", "tunnels", "underground", "confined spaces", "enclosed spaces",
         "山洞", "溶洞", "洞穴", "地下"),
        ("cave", "caves", "caving", "cavern", "grotto", "glowworm", "glow-worm", "black water rafting",
         "black-water rafting", "potholing", "spelunking", "lava tube", "underground", "catacomb",
         "mine tour", "tunnel"),
        _zh("山洞", "溶洞", "洞穴", "地下河", "地宫", "地下", "隧道", "钻洞"),
    ),
    # The cinema ("please don't ever suggest going to the cinema"): a film on a big screen, whatever it is
    # called.
    Topic(
        "cinema", "the cinema", "电影院",
        ("cinema", "cinemas", "the cinema", "the movies", "the pictures", "movie theater", "movie theatre",
         "电影院", "影院", "看电影"),
        ("cinema", "film", "movie", "imax", "screening", "multiplex", "picture house", "drive-in"),
        _zh("电影院", "影院", "看电影", "看场电影", "电影", "IMAX"),
    ),
    # Gambling (a person in recovery).
    Topic(
        "gambling", "gambling", "赌博",
        ("gambling", "gamble", "pokies", "betting", "casino", "casinos", "赌博", "赌钱", "赌场"),
        ("casino", "pokies", "poker machine", "slot machine", "slots", "betting", "sportsbook", "punting",
         "blackjack", "roulette", "gambling", "bookie", "bookmaker", "sweepstake"),
        _zh("赌场", "赌博", "老虎机", "博彩", "赌钱", "下注", "百家乐"),
    ),
    # Animals kept for show (zoos, aquariums, circuses).
    Topic(
        "zoos", "zoos", "动物园",
        ("zoo", "zoos", "aquarium", "aquariums", "circus", "动物园", "海洋馆", "水族馆", "马戏",
         "海洋公园"),
        ("zoo", "aquarium", "circus", "dolphin show", "sea world", "seaworld", "marine park",
         "safari park",
         "petting zoo"),
        _zh("动物园", "海洋馆", "水族馆", "马戏", "海豚表演", "海洋公园", "海洋王国", "野生动物园",
            "海狮表演"),
    ),
    # Stairs (a hip, a knee, a wheelchair): "since my hip went I can't do stairs. Not a single flight."
    Topic(
        "stairs", "stairs", "爬楼梯",
        ("stairs", "staircase", "steps", "flight of stairs", "flights of stairs", "climbing stairs",
         "楼梯", "爬楼", "爬楼梯", "台阶", "走楼梯"),
        ("stairs", "staircase", "upstairs", "stairway", "flight of stairs", "walk-up",
         "hike", "hiking", "rooftop", "second floor", "top floor", "mezzanine", "loft",
         "basement", "cellar", "downstairs"),
        _zh("楼梯", "爬楼", "台阶", "爬山", "登山", ZhTerm("楼上", not_before=("电梯到",)), "顶楼",
            "阁楼", "地下室"),
    ),
    # Heights (恐高, vertigo): high places and what lifts you off the ground.
    Topic(
        "heights", "heights", "高的地方",
        ("heights", "high places", "vertigo", "恐高", "高的地方", "高处", "怕高"),
        ("glass bridge", "glass walkway", "glass skywalk", "skywalk", "cable car", "gondola", "chairlift",
         "ferris wheel", "observation deck", "viewing platform", "rooftop", "bungee", "zip line", "zipline",
         "skydiving", "paragliding", "hot air balloon", "tower", "cliff walk"),
        _zh("玻璃栈道", "玻璃桥", "栈道", "索道", "缆车", "摩天轮", "观景台", "蹦极", "高空", "天门山",
            "悬崖", "天梯", "百龙天梯", "滑翔", "热气球", "跳伞", "过山车", "天空步道"),
    ),
    # Dogs (a fear, a bite, an allergy to their hair): "俺这人怕狗，怕哩要命", "terrified of dogs".
    Topic(
        "dogs", "dogs", "狗",
        ("dog", "dogs", "puppy", "puppies", "狗", "狗狗", "小狗"),
        ("dog", "dogs", "puppy", "puppies", "doggy", "doggo", "canine", "labrador", "retriever", "poodle",
         "terrier", "spaniel", "beagle", "dachshund", "corgi", "husky", "chihuahua", "pug", "bulldog",
         "collie", "sheepdog", "greyhound", "whippet", "schnauzer", "shih tzu", "dog park", "dog cafe"),
        _zh(ZhTerm("狗", not_before=("热",)), "犬", "泰迪", "柯基", "金毛", "哈士奇", "柴犬", "拉布拉多",
            "博美", "比熊", "萨摩耶", "边牧", "二哈", "阿拉斯加", "狗咖"),
    ),
    # Temples and their rites (another faith's, or none): "庙里我们是不进去的，烧香拜佛、求签算命这些，
    # 我们一概不碰", "we don't set foot in temples".
    Topic(
        "temples", "temples", "寺庙",
        # (incense alone is a smell kept off, not the temples: "burning his incense sticks … I cannot stand
        # that smell" for a shop window)
        ("temple", "temples", "shrine", "shrines", "庙", "寺", "烧香", "拜佛", "上香", "求签"),
        ("temple", "shrine", "pagoda", "monastery", "incense", "joss stick", "fortune sticks", "buddhist"),
        _zh(ZhTerm("寺", not_before=("清真",)), "庙", "烧香", "上香", "拜佛", "求签", "灵隐", "禅院", "道观",
            "香火"),
    ),
    # Driving a long way oneself (a bad road trip, a back, a jam): "以后过年我是再也不开车回老家了",
    # "打死也不自驾了", "I'm never driving to Cornwall again". A lift or a taxi is not the person driving.
    Topic(
        "driving", "driving", "开车",
        ("driving", "drive", "road trip", "road trips", "开车", "自驾", "驾车", "自己开"),
        ("drive there", "drive down", "drive up", "driving", "road trip", "self-drive", "car hire",
         "hire a car", "rent a car", "rental car", "by car"),
        _zh("开车", "自驾", "驾车", "自己开", "租车", "开过去", "开回去", "开回", "走高速"),
    ),
    # Buying online (a wardrobe that came as thin as paper): "这辈子再也不在网上买家具了".
    Topic(
        "online shopping", "buying online", "网购",
        ("online shopping", "shopping online", "buying online", "网购", "网上买", "在网上买", "网上购物",
         "网上下单"),
        ("online", "amazon", "ebay", "website", "order it online", "buy it online"),
        _zh("网购", "网上买", "网上下单", "网上购物", "淘宝", "京东", "拼多多", "天猫", "电商", "闲鱼"),
    ),
    # Sleeping outdoors: "We are never, ever going camping again."
    Topic(
        "camping", "camping", "露营",
        ("camping", "camp", "tent", "tents", "campsite", "glamping", "露营", "帐篷", "野营"),
        ("camping", "campsite", "camp site", "campground", "a tent", "tents", "bell tent", "pitch",
         "glamping", "wild camp"),
        _zh("露营", "帐篷", "营地", "野营", "扎营"),
    ),
    # Flying through the night: "flew back on the red-eye … I am never doing an overnight flight again".
    Topic(
        "overnight flights", "overnight flights", "红眼航班",
        ("overnight flight", "overnight flights", "red-eye", "red-eyes", "redeye", "red eye", "night flight",
         "night flights", "红眼航班", "红眼班机", "夜航", "夜班飞机", "凌晨航班", "凌晨的航班"),
        ("red-eye", "redeye", "red eye flight", "overnight flight", "night flight", "fly overnight",
         "flying overnight", "overnight service"),
        _zh("红眼航班", "红眼班机", "夜航", "夜班飞机", "凌晨航班", "凌晨的航班", "半夜起飞"),
    ),
    # High places above the sea (altitude sickness): "这辈子海拔高过两千米的地方，八抬大轿来抬我都不去了".
    Topic(
        "high altitude", "high altitude", "高海拔的地方",
        ("high altitude", "altitude", "高原", "高海拔", "海拔高", "海拔"),
        ("high altitude", "high-altitude", "tibet", "lhasa", "everest base camp", "cusco", "la paz",
         "altiplano", "ladakh", "leh"),
        _zh("高原", "高海拔", "西藏", "拉萨", "稻城", "亚丁", "色达", "理塘", "川西", "新都桥", "康定",
            "香格里拉", "玉龙雪山", "纳木错", "珠峰", "青海湖", "318", "四姑娘山", "海螺沟"),
    ),
    # Coaches and buses (travel sickness): "我再也不坐大巴了，晕得要死".
    Topic(
        "coaches", "coaches", "大巴",
        # (not "coach" alone: a sports coach)
        ("coach trip", "coach trips", "coach travel", "coaches", "bus", "buses", "大巴", "中巴", "长途车",
         "客车", "班车"),
        ("by coach", "coach trip", "coach tour", "coach travel", "bus", "buses", "national express",
         "megabus", "flixbus", "shuttle bus"),
        _zh("大巴", "中巴", "长途车", "客车", "班车", "巴士", "汽车站", "客运站"),
    ),
)  # fmt: skip
