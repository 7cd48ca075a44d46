"""What each kind of constraint rules out, in English and Chinese: the term lists of the constraint guard.

A :class:`Topic` is one thing a person may have to avoid (nuts, meat, alcohol, cilantro…): the words that
name it when they state the constraint (``keys``), the words that mean a reply recommends it (``terms``),
and a short name for the sentence that explains a refusal. Chinese has no word boundaries, so a Chinese
term can carry contexts in which it means something else (肉 in 肉桂 is cinnamon, 鸡 in 鸡蛋 is an egg).
A diet (vegetarian, vegan, halal…) is a set of topics (``constraint_diets``).
"""

from __future__ import annotations

from voice_agent.conversation.constraint_outings import OUTINGS
from voice_agent.conversation.constraint_regimes import REGIME_CONDITIONS, REGIMES
from voice_agent.conversation.constraint_topic import Topic, ZhTerm
from voice_agent.conversation.constraint_topic import zh_terms as _zh
from voice_agent.conversation.constraint_zh_words import CHICKEN_ZH, FISH_ZH, FRIED_ZH, MEAT_ZH, ONE_ANIMAL_ZH

__all__ = ["CONDITIONS", "TOPICS", "Topic", "ZhTerm", "topic_for"]

TOPICS: dict[str, Topic] = {
    t.key: t
    for t in (
        Topic(
            "nuts", "nuts", "坚果",
            ("nut", "nuts", "tree nut", "tree nuts", "peanut", "peanuts", "groundnut", "groundnuts", "坚果",
             "花生", "果仁", "satay", "kaju", "badam"),  # (groundnut, kaju, badam: Nigerian, Indian English)
            ("nut", "peanut", "groundnut", "kuli-kuli", "kulikuli", "chikki", "yaji", "almond", "walnut",
             "hazelnut", "cashew", "pecan", "pistachio", "macadamia", "brazil nut", "pine nut", "nutella",
             "praline", "marzipan", "satay", "frangipane", "nougat", "gianduja", "peanut butter",
             "almond milk", "almond flour", "trail mix", "baklava", "pesto", "kaju", "badam", "pista"),
            _zh("坚果", "花生", "杏仁", "核桃", "榛子", "腰果", "开心果", "碧根果", "夏威夷果", "松子",
                "果仁", "巴旦木", "沙爹", "沙嗲", "果仁糖", "杏仁糖", "花生酱", "碧根", "仁酥"),
        ),
        Topic(
            "shellfish", "shellfish", "海鲜",
            ("shellfish", "seafood", "shrimp", "prawn", "prawns", "crab", "lobster", "海鲜", "虾", "贝类",
             "螃蟹"),
            ("shellfish", "seafood", "shrimp", "prawn", "crab", "lobster", "oyster", "mussel", "clam",
             "scallop", "crayfish", "langoustine", "squid", "calamari", "octopus", "scampi", "cockle"),
            _zh("海鲜", "虾", "蟹", "贝", "蚝", "牡蛎", "蛤", "扇贝", "龙虾", "鱿鱼", "章鱼", "生蚝", "青口"),
        ),
        Topic(
            "fish", "fish", "鱼",
            # ("no seafood", "海鲜不能吃": fish as well as shellfish, as a careful cook would read it)
            ("fish", "鱼", "seafood", "海鲜"),
            ("fish", "salmon", "tuna", "cod", "trout", "sardine", "anchovy", "anchovies", "mackerel", "sushi",
             "sashimi", "fish sauce", "halibut", "tilapia", "haddock", "herring", "sea bass", "hake"),
            _zh(FISH_ZH, "三文鱼", "金枪鱼", "寿司", "生鱼片", "鱼露"),
        ),
        Topic(
            "dairy", "dairy", "乳制品",
            ("dairy", "milk", "lactose", "cheese", "乳制品", "牛奶", "乳糖", "奶制品", "奶", "芝士", "奶酪",
             "起司", "dahi", "paneer"),  # (dahi, paneer: curd and cheese in Indian English)
            ("milk", "cheese", "butter", "cream", "yogurt", "yoghurt", "ice cream", "whey", "custard",
             "cheesecake", "mozzarella", "parmesan", "cheddar", "milkshake", "latte", "cappuccino",
             "ghee", "buttercream", "cream cheese", "sour cream", "creme", "gelato", "lactose", "dairy"),
            _zh(ZhTerm("奶", not_before=("豆", "椰", "杏仁", "燕麦", "喂", "吸", "挤", "母", "断"),
                       not_after=("奶", "嘴", "瓶", "油风")), "牛奶", "芝士",  # (奶油风: a style)
                "奶酪", "黄油", ZhTerm("奶油", not_before=("植物",), not_after=("风",)), "酸奶", "冰淇淋",
                "雪糕", "乳酪", "拿铁", "乳糖"),
        ),
        Topic(
            "eggs", "eggs", "鸡蛋", ("egg", "eggs", "鸡蛋", "蛋"),
            ("egg", "omelette", "omelet", "mayonnaise", "mayo", "meringue", "custard", "quiche", "frittata",
             "eggnog", "aioli"),
            _zh("鸡蛋", ZhTerm("蛋", not_after=("白质",), not_before=("皮",)), "蛋黄酱", "荷包蛋", "煎蛋",
                "蛋挞", "蛋糕"),
        ),
        Topic(
            "gluten", "gluten", "麸质",
            ("gluten", "wheat", "celiac", "coeliac", "麸质", "小麦", "面筋", "乳糜泻"),
            ("gluten", "wheat", "bread", "pasta", "flour", "barley", "rye", "couscous", "noodle", "spaghetti",
             "pizza", "croissant", "bagel", "cracker", "beer", "seitan", "semolina", "breadcrumb",
             "sandwich", "toast", "roti", "naan", "chapati", "paratha", "puri", "dumpling", "pastry",
             "pastries", "muffin", "pancake", "waffle", "ramen", "udon", "biscuit", "cookie", "cake"),
            _zh("麸质", "小麦", "面包", "面条", "面粉", "大麦", "黑麦", "意面", "披萨", "面筋", "饺子",
                "馒头", "包子", "烧饼", "煎饼", "馄饨", "拉面", "蛋糕", "饼干"),
        ),
        Topic(
            "soy", "soy", "大豆",
            ("soy", "soya", "soybean", "soybeans", "大豆", "黄豆", "豆制品"),
            ("soy", "soya", "tofu", "edamame", "tempeh", "miso", "soy sauce", "soybean", "soy milk"),
            _zh("大豆", "黄豆", "豆腐", "豆浆", "酱油", "毛豆", "味噌", "腐竹"),
        ),
        # Pulses and fruits that people react to, with the dishes made of them ("guac", "hummus", "dal").
        Topic(
            "avocado", "avocado", "牛油果",
            ("avocado", "avocados", "guac", "guacamole", "牛油果", "鳄梨"),
            ("avocado", "guacamole", "guac", "avo toast", "avocado toast"),
            _zh("牛油果", "鳄梨"),
        ),
        Topic(
            "chickpeas", "chickpeas", "鹰嘴豆",
            ("chickpea", "chickpeas", "chick peas", "garbanzo", "garbanzos", "hummus", "houmous", "falafel",
             "鹰嘴豆"),
            ("chickpea", "chick pea", "garbanzo", "hummus", "houmous", "falafel", "chana", "channa",
             "chole"),
            _zh("鹰嘴豆"),
        ),
        Topic(
            "lentils", "lentils", "小扁豆",
            ("lentil", "lentils", "dal", "dhal", "daal", "扁豆", "小扁豆"),
            ("lentil", "dal", "dhal", "daal", "masoor"),
            _zh("小扁豆", "兵豆"),
        ),
        Topic(
            "citrus", "citrus fruit", "柑橘类水果",
            ("citrus", "citrus fruit", "citrus fruits", "柑橘", "柑橘类"),
            ("citrus", "orange", "lemon", "lime", "grapefruit", "clementine", "tangerine", "satsuma",
             "mandarin", "yuzu", "lemonade", "limeade", "orange juice", "marmalade", "key lime"),
            _zh("柑橘", "橙子", "橙汁", "柠檬", "青柠", "橘子", "桔子", "柚子", "西柚", "金桔", "砂糖橘",
                "沃柑"),
        ),
        Topic(
            "fava", "broad beans", "蚕豆",
            ("broad bean", "broad beans", "fava", "fava bean", "fava beans", "蚕豆", "胡豆", "罗汉豆"),
            ("broad bean", "fava", "fava bean", "ful medames"),
            _zh(ZhTerm("蚕豆", not_after=("病",)), "胡豆", "罗汉豆", "兰花豆", "豆瓣酱", "郫县豆瓣",
                "怪味豆"),
        ),
        # painkillers by their brand names too ("I took a couple of Nurofen … I'm allergic to ibuprofen")
        Topic(
            "ibuprofen", "ibuprofen", "布洛芬",
            ("ibuprofen", "nurofen", "advil", "motrin", "brufen", "布洛芬", "芬必得"),
            ("ibuprofen", "nurofen", "advil", "motrin", "brufen", "ibuleve"),
            _zh("布洛芬", "芬必得"),
        ),
        Topic(
            "aspirin", "aspirin", "阿司匹林",
            ("aspirin", "disprin", "阿司匹林"),
            ("aspirin", "disprin", "anadin"),
            _zh("阿司匹林"),
        ),
        Topic(
            "clothes", "clothes", "衣服",
            ("clothes", "clothing", "衣服", "服装", "衣物"),
            ("clothes", "clothing", "shirt", "sweater", "jumper", "necktie", "jacket", "hoodie", "cardigan"),
            _zh("衣服", "毛衣", "衬衫", "领带", "外套", "夹克", "西装", "T恤", "卫衣", "羊毛衫", "裤子"),
        ),
        Topic(
            "sesame", "sesame", "芝麻",
            ("sesame", "芝麻", "tahini", "benniseed", "benne seed", "gingelly", "til seed"),
            ("sesame", "tahini", "hummus", "halva", "benniseed", "gingelly", "til oil", "til seed"),
            _zh("芝麻", "麻酱", "芝麻酱"),
        ),
        Topic(
            "meat", "meat", "肉",
            # (Indian English: "no non-veg this month")
            ("meat", "肉", "荤", "non-veg", "nonveg", "non-vegetarian", "non vegetarian"),
            ("meat", "chicken", "beef", "pork", "bacon", "ham", "lamb", "mutton", "steak", "sausage",
             "turkey", "duck", "veal", "salami", "pepperoni", "prosciutto", "chorizo", "meatball", "burger",
             "hamburger", "brisket", "ribs", "venison", "goose", "gelatin", "gelatine", "lard", "broth",
             "hot dog", "jerky", "pâté", "pate", "meatloaf", "kebab", "ground beef", "mince"),
            _zh(MEAT_ZH, CHICKEN_ZH, "牛排", "培根", "火腿", "香肠", "排骨", "鸭", "鹅", "腊肠", "肉丸",
                "汉堡", "牛肉", "猪肉", "羊肉", "鸡肉", "烤鸭", "腊肉", "肉末", "肉松", "火锅底料",
                *(f"{a}肉" for a in ONE_ANIMAL_ZH)),
        ),
        Topic(
            "pork", "pork", "猪肉",
            ("pork", "pig", "猪肉", "猪", "大肉"),  # (大肉: pork, as Hui families in the north-west say it)
            ("pork", "bacon", "ham", "sausage", "salami", "pepperoni", "prosciutto", "chorizo", "lard",
             "pancetta", "spare ribs", "gelatin", "gelatine"),
            _zh("猪肉", ZhTerm("猪", ("似个", "像个"), ("圈", "场", "棚", "窝", "倌", "八戒")), "培根",
                "火腿", "腊肉", "腊肠", "猪油", "叉烧", "排骨", "红烧肉", "东坡肉", "大肉"),  # (圈: a sty)
        ),
        # Porridge, whatever it is called ("Mum made me eat porridge… can't stand the stuff": oatmeal too).
        Topic(
            "porridge", "porridge", "燕麦粥",
            ("porridge", "oatmeal", "燕麦粥"),
            ("porridge", "oatmeal", "overnight oats", "rolled oats", "instant oats", "oat porridge"),
            _zh("燕麦粥", "麦片粥"),
        ),
        Topic(
            "alcohol", "alcohol", "酒",
            ("alcohol", "drink", "drinking", "booze", "grog", "wine", "beer", "酒", "喝酒", "小烧", "二锅头"),
            ("alcohol", "wine", "beer", "cocktail", "whisky", "whiskey", "vodka", "rum", "gin", "tequila",
             "champagne", "prosecco", "sake", "liqueur", "brandy", "cider", "margarita", "mojito",
             "sangria", "mimosa", "bourbon", "martini", "ale", "lager", "spirits"),
            _zh(ZhTerm("酒", not_after=("店", "精灯", "窝", "席"), not_before=("无醇", "不含")),
                "啤酒", "红酒", "白酒", "葡萄酒", "鸡尾酒", "香槟", "威士忌", "伏特加", "黄酒", "米酒",
                "清酒"),
        ),
        Topic(
            "fizzy", "fizzy drinks", "碳酸饮料",
            ("fizzy", "fizzy drinks", "fizzy drink", "carbonated", "carbonated drinks", "sparkling",
             "fizz", "soda", "sodas", "pop", "碳酸饮料", "碳酸", "汽水", "气泡水"),
            ("fizzy", "carbonated", "sparkling", "soda", "soda water", "cola", "coke", "pepsi", "sprite",
             "fanta", "tonic", "tonic water", "seltzer", "prosecco", "champagne", "cava", "beer", "lager",
             "pint", "cider", "ginger beer", "ginger ale", "kombucha", "fizz"),
            _zh("碳酸", "汽水", "可乐", "雪碧", "苏打水", "气泡水", "啤酒", "香槟", "芬达"),
        ),
        Topic(
            "flying", "flying", "坐飞机",
            ("fly", "flying", "flights", "flight", "plane", "planes", "aeroplane", "airplane", "坐飞机",
             "飞机", "航班"),
            ("fly", "flying", "flight", "plane", "airplane", "aeroplane", "airport", "airline", "jet",
             "ryanair", "easyjet", "layover", "direct flight"),
            _zh("飞机", "航班", "机场", "机票", "坐飞机", "飞过去", "飞到"),
        ),
        Topic(
            "mayonnaise", "mayonnaise", "蛋黄酱",
            ("mayo", "mayonnaise", "aioli", "salad cream", "蛋黄酱", "沙拉酱", "美乃滋"),
            ("mayo", "mayonnaise", "aioli", "salad cream", "garlic mayo", "tartare sauce", "tartar sauce",
             "remoulade", "coleslaw"),
            _zh("蛋黄酱", "沙拉酱", "美乃滋", "千岛酱"),
        ),
        Topic(
            "sweet_potato", "sweet potato", "红薯",
            ("sweet potato", "sweet potatoes", "yam", "yams", "红薯", "地瓜", "番薯", "紫薯", "山芋", "甘薯",
             "白薯", "红苕"),
            ("sweet potato", "yam", "sweet potato fries"),
            _zh("红薯", "地瓜", "番薯", "紫薯", "山芋", "甘薯", "白薯", "红苕"),
        ),
        Topic(
            "boats", "boats", "坐船",
            ("boat", "boats", "ferry", "ferries", "cruise", "cruises", "sailing", "seasick", "坐船", "晕船",
             "游船", "轮渡", "渡轮", "游轮", "船"),
            ("boat", "ferry", "cruise", "sailing", "yacht", "kayak", "kayaking", "canoe", "canoeing", "raft",
             "rafting", "speedboat", "catamaran", "gondola", "punt", "punting", "boat trip", "river cruise"),
            _zh(ZhTerm("船", not_after=("长",)), "轮渡", "渡轮", "游轮", "竹筏", "筏", "漂流", "快艇",
                "皮划艇", "游艇", "帆船", "乘船", "坐船"),
        ),
        Topic(
            "cilantro", "cilantro", "香菜",
            ("cilantro", "coriander", "香菜", "芫荽"),
            ("cilantro", "coriander"),
            _zh("香菜", "芫荽"),
        ),
        Topic(
            "garlic", "garlic", "大蒜",
            ("garlic", "大蒜", "蒜", "蒜头", "生蒜"),
            ("garlic", "aioli", "garlicky", "toum"),
            _zh("大蒜", "蒜", "蒜蓉", "蒜泥", "蒜苗", "蒜薹", "蒜头"),
        ),
        Topic(
            "spicy", "spicy food", "辣的",
            ("spicy", "spicy food", "chili", "chilli", "hot food", "辣", "吃辣", "海椒", "剁椒"),
            ("spicy", "chili", "chilli", "jalapeño", "jalapeno", "sriracha", "hot sauce", "cayenne",
             "habanero", "vindaloo", "szechuan", "sichuan", "curry", "wasabi", "harissa", "kimchi"),
            _zh(ZhTerm("辣", not_before=("不", "微", "免", "去")), "麻辣", "火锅", "辣椒", "川菜", "湘菜",
                "剁椒", "水煮鱼", "麻婆", "海椒", "红油", "小米辣", "朝天椒"),
        ),
        # Sour and acidic food (reflux, ulcers): "一沾酸的准坏事儿，醋、山楂、酸菜"; 酸奶 and 酸痛 are not it.
        Topic(
            "sour", "sour food", "酸的",
            ("sour food", "sour things", "anything sour", "acidic food", "anything acidic", "酸的", "吃酸",
             "酸东西", "酸味"),
            ("vinegar", "pickle", "pickled", "lemon", "lime", "sour", "sauerkraut", "tamarind", "ceviche",
             "hot and sour", "sweet and sour", "kimchi", "grapefruit"),
            _zh(ZhTerm("酸", not_before=("胃", "反", "尿", "叶", "氨基", "乳", "碳", "硫", "盐", "心"),
                       not_after=("奶", "痛", "疼", "软", "楚", "水")),
                "醋", "山楂", "酸菜", "柠檬", "泡菜", "酸梅", "话梅", "糖醋", "酸辣", "老陈醋", "酸汤"),
        ),
        # Cold food and drink: "一沾冰的就闹肚子", "cold drinks set my teeth off"; "去冰" / "no ice" is fine.
        Topic(
            "cold", "iced or cold drinks", "冰的和冷饮",
            ("ice", "iced", "icy", "cold drink", "cold drinks", "cold food", "anything cold", "冰的", "冰",
             "冷饮", "凉的", "冰镇", "冷的"),
            ("iced", "ice cream", "frozen", "slushie", "slushy", "frappe", "frappuccino", "cold brew",
             "milkshake", "on the rocks", "with ice", "gelato", "sorbet", "popsicle", "ice lolly"),
            _zh(ZhTerm("冰", not_before=("去", "不加", "少", "免", "无", "不要", "别加", "别放", "滑", "溜",
                                        "北"),
                       not_after=("箱", "岛", "糖", "川", "山", "雪奇缘", "球", "上", "场", "城")),
                "冷饮", "冷萃", "冻柠", "冻奶茶", "沙冰", "雪糕", "凉茶"),
        ),
        # Narrower than "meat": "I gave up red meat" still allows chicken and fish, "我不吃羊肉" beef.
        Topic(
            "red meat", "red meat", "红肉",
            ("red meat", "红肉"),
            ("red meat", "beef", "steak", "pork", "lamb", "mutton", "veal", "venison", "brisket", "ribs",
             "bacon", "ham", "sausage", "hamburger", "cheeseburger", "beef burger", "meatball", "salami",
             "pepperoni", "chorizo", "prosciutto", "mince", "ground beef", "hot dog", "hot link",
             "burnt ends", "tri-tip", "pulled pork", "pork butt", "boston butt", "bratwurst", "kielbasa",
             "prime rib", "chuck roast", "wild hog", "goat", "deer"),
            _zh("红肉", "牛肉", "猪肉", "羊肉", "牛排", "排骨", "培根", "火腿", "香肠", "羊排", "肥牛",
                "腊肉", "汉堡"),
        ),
        Topic(
            "beef", "beef", "牛肉",
            ("beef", "牛肉"),
            ("beef", "steak", "brisket", "veal", "hamburger", "cheeseburger", "beef burger", "roast beef",
             "ground beef", "meatball", "bolognese"),
            _zh("牛肉", "牛排", "牛腩", "肥牛", "牛杂", "牛腱", "牛丸"),
        ),
        Topic(
            "lamb", "lamb", "羊肉",
            ("lamb", "mutton", "羊肉"),
            ("lamb", "mutton", "lamb chop", "rack of lamb", "shepherd's pie", "gyro", "haggis", "hogget",
             "scotch pie", "irish stew"),
            _zh("羊肉", "羊排", "涮羊", "羊蝎子", "羊肉串", "烤全羊", "手抓羊", "羊腿"),
        ),
        Topic(
            "chicken", "chicken", "鸡肉",
            ("chicken", "鸡肉", "鸡"),
            ("chicken", "chicken wing", "nugget", "drumstick", "rotisserie", "chicken breast", "coq au vin",
             "chicken soup", "chicken stock", "chicken broth"),
            # 田鸡 is a frog, 火鸡 a turkey (both meat, but no chicken); 鸡眼, 鸡骨草 and 鸡皮疙瘩
            # (goosebumps) are no food of it, nor what is no meat either (``CHICKEN_ZH``: 鸡蛋, 鸡枞)
            _zh(ZhTerm("鸡", not_before=("田", "火", "铁公", "落汤"),
                       not_after=(*CHICKEN_ZH.not_after, "骨草", "眼", "冠花", "毛蒜皮", "皮疙瘩")),
                "鸡肉", "鸡翅", "鸡腿", "炸鸡", "鸡胸", "鸡汤"),
        ),
        Topic(
            "coffee", "coffee", "咖啡",
            ("coffee", "咖啡"),
            ("coffee", "espresso", "latte", "cappuccino", "americano", "mocha", "macchiato", "cold brew",
             "flat white", "frappuccino"),
            _zh("咖啡", "拿铁", "美式", "卡布奇诺", "摩卡", "浓缩"),
        ),
        Topic(
            "caffeine", "caffeine", "咖啡因",
            ("caffeine", "caffeinated", "咖啡因", "提神的"),  # ("凡是提神的东西我是吃不消的")
            ("caffeine", "coffee", "espresso", "latte", "cappuccino", "americano", "mocha", "macchiato",
             "cold brew", "flat white", "black tea", "green tea", "matcha", "chai", "earl grey",
             "english breakfast", "oolong", "energy drink", "cola", "red bull", "yerba mate", "mate",
             "builder's tea", "builders' tea", "builders tea", "cup of tea", "cuppa", "coke", "pepsi",
             "pro plus", "monster energy"),
            _zh("咖啡因", "咖啡", "拿铁", "美式", "浓茶", "红茶", "绿茶", "抹茶", "奶茶", "可乐", "能量饮料",
                "乌龙", "普洱", "功能饮料"),
        ),
        Topic(
            "sugar", "sugar", "糖",
            ("sugar", "sweets", "diabetes", "diabetic", "糖", "糖尿病", "甜食", "甜点", "甜品", "甜的"),
            ("sugar", "candy", "soda", "syrup", "honey", "dessert", "cake", "cookie", "chocolate",
             "ice cream", "lemonade", "donut", "doughnut", "pastry", "brownie", "cupcake", "milkshake",
             "juice"),
            # (糖尿病, 血糖: the condition and its measure, not sugar suggested)
            _zh(ZhTerm("糖", not_before=("无", "代", "低", "控", "降", "血"), not_after=("尿",)), "蛋糕",
                "甜点", "甜品", "巧克力", "冰淇淋", "饼干", "蜂蜜", "可乐", "奶茶", "果汁"),
        ),
        Topic(
            "mushrooms", "mushrooms", "蘑菇",
            ("mushroom", "mushrooms", "fungi", "蘑菇", "菌菇", "菌类", "野生菌", "khumbi", "khumb"),
            ("mushroom", "truffle", "shiitake", "portobello", "porcini", "chanterelle", "morel", "enoki",
             "wood ear", "oyster mushroom", "khumbi", "khumb", "guchhi"),
            # fungi a cook puts beside mushrooms: 木耳, 银耳, 竹荪 (an allergy to 菌菇 names them too)
            _zh("蘑菇", "香菇", "菌菇", "松露", "金针菇", "平菇", "杏鲍菇", "木耳", "银耳", "竹荪", "松茸",
                "牛肝菌", "鸡枞", "茶树菇", "猴头菇", "口蘑", "野生菌", "菌子", "菌汤"),
        ),
        # Keto / low-carb: the starchy staples a reply would put on the plate ("晚上不吃主食").
        Topic(
            "carbs", "carbs", "主食",
            ("carb", "carbs", "carbohydrate", "carbohydrates", "starch", "starchy food", "主食", "碳水",
             "碳水化合物", "淀粉"),
            ("bread", "toast", "pasta", "rice", "potato", "noodle", "cereal", "oatmeal", "oat", "porridge",
             "pancake", "waffle", "bagel", "muffin", "croissant", "granola", "tortilla", "sandwich", "pizza",
             "couscous", "fries", "french toast", "baguette", "spaghetti", "crackers", "hash brown"),
            _zh("米饭", "白饭", "面条", "馒头", "面包", "包子", "饺子", "粥", "土豆", "红薯", "油条", "烧饼",
                "炒饭", "米粉", "年糕", "意面", "披萨", "燕麦", "面食", "花卷", "吐司", "煎饼", "手抓饼",
                "主食", "碳水", "拉面", "盖饭", "炒面", "汤面", "馄饨"),
        ),
        # The cabbage family (brassicas, a dietitian's rule for a gut that cannot take them).
        Topic(
            "brassicas", "the cabbage family", "十字花科蔬菜",
            ("cabbage family", "brassicas", "brassica", "cruciferous", "十字花科"),
            ("cabbage", "broccoli", "broccolini", "cauliflower", "kale", "sprout", "brussels sprout",
             "bok choy", "pak choi", "collard", "kohlrabi", "coleslaw", "colcannon", "sauerkraut", "rocket",
             "arugula", "watercress", "savoy"),
            _zh("卷心菜", "包菜", "圆白菜", "西兰花", "西蓝花", "花菜", "菜花", "花椰菜", "羽衣甘蓝", "甘蓝",
                "芥蓝", "白菜", "小白菜", "娃娃菜", "油菜", "上海青", "芥菜", "萝卜", "酸菜"),
        ),
        # Root vegetables (a Jain diet: nothing that grows underground).
        Topic(
            "roots", "root vegetables", "根茎类蔬菜",
            ("root vegetables", "root vegetable", "grows underground", "grow underground", "根茎类", "根茎"),
            ("onion", "garlic", "potato", "potatoes", "carrot", "beetroot", "radish", "turnip", "ginger",
             "leek", "shallot", "yam", "sweet potato", "parsnip", "fries", "hash brown", "mash"),
            _zh("洋葱", "大蒜", "蒜", "土豆", "马铃薯", "胡萝卜", "萝卜", ZhTerm("姜", not_after=("黄",)),
                "红薯", "山药", "芋头", "薯条"),
        ),
        # Nightshades (arthritis, autoimmune diets): tomatoes, potatoes, peppers, aubergines.
        Topic(
            "nightshades", "nightshades", "茄科蔬菜",
            ("nightshade", "nightshades", "茄科"),
            ("tomato", "potato", "pepper", "bell pepper", "chili", "chilli", "jalapeno", "eggplant",
             "aubergine",
             "paprika", "cayenne", "tomatillo", "goji", "ketchup", "salsa", "marinara", "fries", "hash brown",
             "mashed potato", "potato salad", "shakshuka", "ratatouille"),
            _zh("番茄", "西红柿", "土豆", "马铃薯", "辣椒", "青椒", "甜椒", "茄子", "枸杞", "薯条"),
        ),
        # Flavour enhancers (MSG sensitivity).
        Topic(
            "msg", "MSG", "味精",
            ("msg", "monosodium glutamate", "味精", "味素", "鸡精", "鸡粉"),
            ("msg", "monosodium glutamate", "stock cube", "bouillon cube", "seasoning powder",
             "accent seasoning"),
            _zh("味精", "味素", "鸡精", "鸡粉", "浓汤宝", "高汤块"),
        ),
        # Smoked and cured food (a stomach that cannot take it).
        Topic(
            "smoked", "smoked food", "烟熏食品",
            ("smoked", "烟熏", "熏制", "熏的", "腊味", "腊肉"),
            ("smoked", "kipper", "kippers", "smoked salmon", "smokies"),
            _zh("烟熏", "熏肉", "熏鱼", "熏鸡", "熏制", "腊肉", "腊肠", "腊鱼", "腊味", "腊鸭", "腊排骨"),
        ),
        # Edible insects.
        Topic(
            "insects", "insects", "昆虫",
            ("insect", "insects", "bugs", "silkworm", "silkworms", "虫子", "昆虫", "蚕蛹", "蚂蚱", "知了",
             "蝉蛹"),
            ("insect", "cricket", "grasshopper", "silkworm", "mealworm", "larva", "larvae", "chapulines"),
            _zh("蚕蛹", "蚂蚱", "知了", "蝉蛹", "蝎子", "昆虫", "蚂蚁", "竹虫"),
        ),
        Topic(
            "lupin", "lupin", "羽扇豆",
            ("lupin", "lupini", "lupine", "lupins", "tremoço", "tremoços", "羽扇豆"),
            ("lupin", "lupini", "lupine", "tremoço", "tremoco", "lupin flour"),
            _zh("羽扇豆"),
        ),
        Topic(
            "okra", "okra", "秋葵",
            ("okra", "okro", "秋葵"),
            ("okra", "okro", "gumbo", "bhindi", "lady's finger", "ladies' fingers", "ogbono"),
            _zh("秋葵"),
        ),
        # Raw or undercooked food (pregnancy, a weak stomach): what is served raw.
        Topic(
            "raw", "raw or undercooked food", "生食",
            ("raw food", "raw fish", "raw meat", "undercooked", "生的", "生食", "没熟透", "半生", "生冷"),
            ("sushi", "sashimi", "tartare", "carpaccio", "ceviche", "oysters", "raw fish", "raw meat",
             "rare steak", "runny egg", "soft-boiled egg", "undercooked"),
            _zh("刺身", "生鱼片", "寿司", "生蚝", "醉虾", "生腌", "溏心蛋", "半熟", "三分熟", "生鸡蛋",
                "鱼生", "生牛肉",
                ZhTerm("生的", not_before=("花", "学", "医", "先", "天", "发", "产", "出", "陌"))),
        ),
        # Low-salt / low-sodium: the salty foods a reply would suggest.
        Topic(
            "salt", "salty food", "咸的",
            ("salt", "salty", "salty food", "sodium", "盐", "咸", "咸的", "钠"),
            ("salt", "salty", "salted", "chips", "crisps", "pretzel", "jerky", "pickle", "salami",
             "soy sauce", "bacon", "ham", "instant noodle", "ramen", "cured meat", "prosciutto", "pepperoni",
             "anchovy", "anchovies", "salted nuts", "olives", "feta", "cup noodle", "popcorn"),
            _zh(ZhTerm("盐", not_before=("少", "低", "无", "控", "减")), ZhTerm("咸", not_before=("不",)),
                "咸菜", "榨菜", "酱菜", "泡菜", "腌", "腊肉", "咸鱼", "火腿", "方便面", "薯片", "咸鸭蛋",
                "腐乳", "酱油", "香肠", "腊肠", "辣条", "牛肉干", "咸蛋"),
        ),
        # Fried food (a coach's or a doctor's rule: "油炸的东西一律不碰", "nothing deep-fried"): deep-fried
        # dishes, not a stir-fry (its "fried" is left to the words that name a deep-fried dish).
        Topic(
            "fried", "fried food", "油炸的",
            ("fried", "fried food", "fried foods", "deep-fried", "deep fried", "deep-fried food",
             "fried stuff", "greasy food", "fry-ups", "油炸", "油炸的", "炸的", "油炸食品", "油炸的东西",
             "炸的东西", "油腻的"),
            ("deep-fried", "deep fried", "fried chicken", "fried fish", "fried food", "fries", "french fries",
             "tempura", "fritter", "onion rings", "doughnut", "donut", "fish and chips", "churros",
             "spring roll", "samosa", "pakora", "hash brown", "chicken nuggets", "nuggets", "schnitzel",
             "battered"),
            _zh(FRIED_ZH, "薯条", "油条", "天妇罗", "甜甜圈", "春卷", "麻花", "油饼", "锅包肉"),
        ),
        # Gout (high uric acid): what a doctor rules out is food high in purines.
        Topic(
            "purine", "high-purine food", "高嘌呤的东西",
            ("purine", "purines", "high-purine food", "high purine food", "嘌呤", "高嘌呤", "高嘌呤的东西"),
            ("offal", "liver", "kidney", "kidneys", "sweetbread", "organ meat", "anchovy", "anchovies",
             "sardine", "mackerel", "herring", "mussel", "scallop", "shellfish", "seafood", "beer", "gravy",
             "bone broth", "meat stock"),
            _zh("内脏", "猪肝", "鸡肝", "鸭肝", "腰子", "腰花", "肥肠", "大肠", "猪肚", "毛肚", "海鲜",
                "啤酒", "浓汤", "老火汤", "肉汤", "高汤", "火锅", "沙丁鱼", "凤尾鱼", "生蚝", "扇贝", "贝类",
                "蛤蜊", "带鱼", "鱼子"),
        ),
        *OUTINGS,
        *REGIMES,
    )
}  # fmt: skip


def topic_for(phrase: str) -> Topic | None:
    """The topic a phrase names ("tree nuts" → nuts, "香菜" → cilantro), or None."""
    cleaned = phrase.strip().lower()
    for topic in TOPICS.values():
        if cleaned in topic.keys:
            return topic
    return None


# Conditions that imply a constraint without naming what to avoid.
CONDITIONS: dict[str, tuple[str, str]] = {
    "celiac": ("gluten", "intolerance"), "coeliac": ("gluten", "intolerance"),
    "乳糜泻": ("gluten", "intolerance"),
    "蚕豆病": ("fava", "allergy"), "g6pd": ("fava", "allergy"), "favism": ("fava", "allergy"),
    "diabetic": ("sugar", "avoid"), "diabetes": ("sugar", "avoid"), "糖尿病": ("sugar", "avoid"),
    "blood sugar": ("sugar", "avoid"), "血糖": ("sugar", "avoid"), "控糖": ("sugar", "avoid"),
    "gout": ("purine", "avoid"), "痛风": ("purine", "avoid"), "高尿酸": ("purine", "avoid"),
    "尿酸高": ("purine", "avoid"),
    "少糖": ("sugar", "avoid"), "少吃糖": ("sugar", "avoid"), "少油": ("fried", "avoid"),
    "hypertension": ("salt", "avoid"), "high blood pressure": ("salt", "avoid"), "高血压": ("salt", "avoid"),
    "恐高": ("heights", "avoid"), "恐高症": ("heights", "avoid"), "afraid of heights": ("heights", "avoid"),
    "fear of heights": ("heights", "avoid"), "scared of heights": ("heights", "avoid"),
    # alpha-gal (a tick bite): the body reacts to the meat of mammals, not to poultry or fish
    "alpha-gal": ("red meat", "allergy"), "alpha gal": ("red meat", "allergy"),
    "α-gal": ("red meat", "allergy"),
    "claustrophobic": ("caves", "avoid"), "claustrophobia": ("caves", "avoid"),
    "幽闭恐惧": ("caves", "avoid"), "幽闭症": ("caves", "avoid"),
    "怕狗": ("dogs", "avoid"), "恐狗": ("dogs", "avoid"), "afraid of dogs": ("dogs", "avoid"),
    "scared of dogs": ("dogs", "avoid"), "terrified of dogs": ("dogs", "avoid"),
    "petrified of dogs": ("dogs", "avoid"), "fear of dogs": ("dogs", "avoid"),
    "cynophobia": ("dogs", "avoid"),
    "坐月子": ("confinement", "avoid"), "月子里": ("confinement", "avoid"),
    "月子期间": ("confinement", "avoid"), **REGIME_CONDITIONS,
}  # fmt: skip
