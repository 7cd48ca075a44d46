"""The kinds of thing a person asks for, each with the words that ask for it and specific options in
English and Chinese (what each option is made of, for the constraint check): the data of
:mod:`suggestions`."""

from __future__ import annotations

import re

from voice_agent.conversation.suggestion_option import Option, RequestKind
from voice_agent.conversation.suggestion_option import option as _o
from voice_agent.conversation.suggestion_pastimes import PASTIMES
from voice_agent.conversation.suggestion_remedies import ENERGY, MEDICINE
from voice_agent.text.cjk import HAN_CLASS

__all__ = ["KINDS", "Option", "RequestKind"]


_I = re.IGNORECASE
_SPONGE = ("egg", "flour", "butter", "sugar", "cake")
_WARM_DRINKS_EN = (
    _o("a cup of chamomile tea"), _o("a mug of ginger and lemon tea"), _o("a cup of rooibos tea"),
    _o("a glass of warm soy milk", "soy"), _o("a cup of hot chocolate", "milk", "sugar", "chocolate"),
)  # fmt: skip
_DRINKS_ZH = (
    _o("一杯菊花茶"), _o("一杯柠檬姜茶"), _o("一杯温豆浆", "豆浆"), _o("一杯大麦茶", "大麦"),
    _o("一杯热牛奶", "牛奶"),
)  # fmt: skip

KINDS: tuple[RequestKind, ...] = (
    # Food for a baby ("做几样辅食", "weaning foods for a nine-month-old"): no grown-up dish, and never
    # honey, salt or sugar, whatever constraints were told.
    RequestKind(
        "baby food",
        re.compile(
            r"\b(?:baby food|baby's food|weaning|purees?|purées?|first foods|for (?:the|my|our) baby|"
            r"(?:\d+|six|seven|eight|nine|ten|eleven)[- ]month[- ]old)\b|辅食|婴儿|宝宝(?:吃|的饭|的餐)",
            _I,
        ),
        (
            _o("a smooth sweet potato purée, with nothing added", "sweet potato"),
            _o("mashed avocado and banana, with nothing added", "avocado", "banana"),
            _o("a carrot and butternut squash purée, with nothing added", "carrot", "squash"),
            _o("a porridge of baby rice and pear, with nothing added", "rice", "pear"),
        ),
        (
            _o("不加盐不加糖的南瓜泥", "南瓜"),
            _o("不加盐不加糖的胡萝卜米糊", "胡萝卜", "米"),
            _o("不加盐不加糖的山药小米粥", "山药", "小米"),
            _o("不加盐不加糖的西兰花土豆泥", "西兰花", "土豆"),
        ),
    ),
    ENERGY,  # keeping going through a long shift, before drinks and snacks (suggestion_remedies)
    # Several dishes for guests ("点几个菜", "摆两桌请亲眷", "a few dishes for the in-laws"): one dish for
    # dinner is no answer to a table of them.
    RequestKind(
        "feast",
        re.compile(
            r"\b(?:a few|some|what|which|several|couple of|two or three) (?:\w+ )?dishes\b|\bdinner party\b|"
            r"\bfeast\b|"
            # guests coming for a meal: "Jed and his parents are coming to our house this Sunday for lunch"
            r"\b(?:in-laws|parents|guests|relatives|family|friends|visitors|folks)\b"
            r"[^.?!]*\b(?:coming|come|visiting|over)\b[^.?!]*\b(?:lunch|dinner|supper|cook|eat)\b|"
            # meeting a new partner over a meal: "her new fella on Saturday, first time I'm meetin' him.
            # Whit should I make fur the dinner?"
            r"^(?=[\s\S]*\bnew (?:fella|boyfriend|girlfriend|partner|man|husband|wife)\b)"
            r"(?=[\s\S]*\b(?:coming|comin'|visiting|meeting|meetin')(?!\w))[\s\S]*\b(?:lunch|dinner|supper)\b|"
            rf"几[个道只样盘](?:{HAN_CLASS}{{0,2}})?菜|[两几三四五]桌|一桌菜|摆酒|请客|家宴|年夜饭|团圆饭|寿宴",
            _I,
        ),
        (
            _o(
                "a roast chicken with roast potatoes, a green salad and an apple crumble",
                "chicken",
                "potato",
                "flour",
                "butter",
                "sugar",
            ),
            _o(
                "a baked salmon with new potatoes, green beans and a lemon tart",
                "fish",
                "potato",
                "egg",
                "flour",
                "butter",
            ),
            _o(
                "a vegetable lasagne, a green salad and garlic bread",
                "pasta",
                "cheese",
                "flour",
                "garlic",
                "dairy",
            ),
            _o("a chickpea and spinach curry with rice and a mango salad", "chickpea", "spicy", "spinach"),
        ),
        (
            _o("红烧肉、清蒸鱼、白灼虾和蒜蓉西兰花", "猪肉", "鱼", "虾", "蒜"),
            _o("白切鸡、蒸水蛋、干煸豆角和冬瓜汤", "鸡肉", "鸡蛋", "辣"),
            _o("可乐鸡翅、番茄炒蛋、清炒时蔬和玉米排骨汤", "鸡肉", "鸡蛋", "排骨", "猪肉", "糖"),
            _o("地三鲜、家常豆腐、清炒时蔬和香菇青菜", "土豆", "茄子", "豆腐", "香菇"),
        ),
    ),
    # Juice from a juicer, a smoothie: fruit and vegetables to put in.
    RequestKind(
        "juice",
        re.compile(r"\b(?:juices?|juicer|smoothies?)\b|果汁|榨汁|榨(?:点|些|杯)|蔬果汁|奶昔", _I),
        (
            _o("an apple and carrot juice", "apple", "carrot"),
            _o("an orange and ginger juice", "orange", "ginger", "citrus"),
            _o("a banana and spinach smoothie", "banana", "spinach"),
        ),
        (
            _o("苹果胡萝卜汁", "苹果", "胡萝卜"),
            _o("猕猴桃雪梨汁", "猕猴桃", "梨"),
            _o("香蕉牛奶", "香蕉", "牛奶"),
            _o("西瓜汁", "西瓜"),
        ),
    ),
    # What to take at a buffet: "massive buffet. What should I go for on my plate?"
    RequestKind(
        "buffet",
        re.compile(r"\bbuffets?\b|\bon my plate\b|自助餐|自助", _I),
        (
            _o("grilled chicken with rice and a salad", "chicken"),
            _o("rice with a vegetable curry and some salad", "spicy"),
            _o("grilled fish with salad and roast potatoes", "fish", "potato"),
        ),
        (
            _o("烤鸡肉配米饭和一份沙拉", "鸡肉"),
            _o("米饭配清炒时蔬和番茄炒蛋", "鸡蛋"),
            _o("清蒸鱼配蔬菜", "鱼"),
        ),
    ),
    # How to get somewhere far: "从呼市走，你帮我看看咋走合适？", "how should we get down to Cornwall?"
    RequestKind(
        "route",
        re.compile(
            r"\bhow (?:should|do|can|could|would|shall) (?:i|we) (?:best )?get "
            r"(?:there|down|up|over|across)\b|"
            r"\b(?:best|easiest|cheapest|quickest) way to get (?:her |him |them |us |the kids )?"
            r"(?:there|down|up|over)\b|(?-i:\broute\b)|"  # (not a road's name: "the Round Island Route")
            r"\bget(?:ting)? (?:\w+ )?(?:over|across) (?:there|to)\b|"
            r"咋走|怎么走|怎样走|咋去|怎么去|怎么过去|咋过去|坐啥去|坐什么去|"
            # ("怎么回去比较好", "咋回老家合适")
            r"(?:怎么|咋|怎样)(?:回去|回来|回家|回老家|过来)",
            _I,
        ),
        (
            _o("the train, with a night's stop halfway if it is a long way", "train"),
            _o("driving, with breaks every couple of hours", "car", "driving"),
            _o("a direct flight", "flying", "plane"),
        ),
        (
            _o("坐高铁或者火车卧铺过去，路远的话中途在大城市歇一晚", "火车"),
            _o("自驾过去，每两个钟头歇一歇", "开车"),
            _o("坐直飞航班", "坐飞机", "飞机"),
        ),
    ),
    # Where to hold a do: "a bit of a do for my eightieth… where do you think we should have it?"
    RequestKind(
        "venue",
        re.compile(
            r"\bwhere (?:should|could|shall|can|would|do you think) (?:we|i) (?:should )?"
            r"(?:have|hold|host|do|throw)\b|"
            r"\bvenues?\b|(?:在|去)哪(?:儿|里)?(?:办|摆|请客|聚)|场地|办在哪",
            _I,
        ),
        (
            _o("a ground-floor function room at a local pub"),
            _o("a private room at a family restaurant"),
            _o("the village hall, with tea and cake", "cake", "flour", "sugar"),
        ),
        (_o("一楼有包间的饭店"), _o("酒店的宴会厅"), _o("在家里办，请厨师上门做菜")),
    ),
    RequestKind(
        "cake",
        re.compile(r"\bcakes?\b|蛋糕", _I),
        (
            _o("a strawberry sponge cake", *_SPONGE, "cream"),
            _o("a lemon olive-oil cake", "egg", "flour", "sugar"),
            _o("a vegan chocolate cake made with oat milk", "flour", "sugar", "chocolate"),
            _o("a flourless chocolate cake", "egg", "sugar", "chocolate", "butter"),
        ),
        (
            _o("草莓奶油蛋糕", "鸡蛋", "面粉", "奶油", "糖"),
            _o("柠檬戚风蛋糕", "鸡蛋", "面粉", "糖"),
            _o("用燕麦奶做的巧克力蛋糕", "面粉", "糖", "巧克力"),
            _o("无面粉的巧克力蛋糕", "鸡蛋", "糖", "巧克力"),
        ),
    ),
    RequestKind(
        "dessert",
        re.compile(
            r"\b(?:desserts?|sweets?|treats?|puddings?)\b|甜点|甜品|糖水", _I
        ),  # 糖水: Cantonese sweet soup
        (
            _o("a mango sorbet", "sugar"),
            _o("baked apples with cinnamon"),
            _o("a bowl of fresh berries"),
            _o("a dark chocolate mousse", "chocolate", "egg", "cream", "sugar"),
        ),
        (_o("芒果西米露", "芒果", "糖"), _o("红豆沙", "糖"), _o("肉桂烤苹果"), _o("一碗新鲜的草莓和蓝莓")),
    ),
    RequestKind(
        "snack",
        re.compile(r"\bsnacks?\b|零食|小吃|加餐|饿", _I),
        (
            _o("cucumber and carrot sticks"),
            _o("an apple with a few rice cakes"),
            _o("a boiled egg", "egg"),
            _o("a handful of almonds", "nuts"),
            _o("cheese cubes with grapes", "cheese"),
        ),
        (
            _o("黄瓜条和小番茄"),
            _o("一个苹果"),
            _o("一个水煮蛋", "鸡蛋"),
            _o("一小把杏仁", "坚果"),
            _o("一块奶酪", "奶酪"),
        ),
    ),
    RequestKind(
        "bar",
        # (聚会, 同事 ask for a drink only beside one: "有几个同事要来，整几个川菜" asks for dishes)
        # (a drink ordered out: "at some fancy restaurant…, what should I order to drink?")
        re.compile(
            r"\b(?:bar|pub|cocktails?|(?:order|get|have) to drink)\b|"
            r"\b(?:restaurant|party|wedding|reception|celebration|braai)\b(?=[^.?!]*\bdrink)|"
            r"酒吧|(?:聚会|同事)(?=[^。？?]*(?:喝|饮|酒))",
            _I,
        ),
        (_o("a mocktail"), _o("sparkling water with lime"), _o("a ginger ale", "sugar"), _o("an iced tea")),
        (_o("柠檬气泡水"), _o("一杯鲜榨橙汁", "果汁"), _o("酸梅汤", "糖"), _o("一杯冰红茶", "红茶", "糖")),
    ),
    RequestKind(
        "soup",
        # (汤, except a stock named as an ingredient, 鸡汤, and 汤圆, sweet dumplings)
        re.compile(r"\b(?:soups?|broth|stew)\b|(?<![鸡鱼])汤(?!圆)", _I),
        (
            _o("a tomato and red lentil soup"),
            _o("a leek and potato soup", "cream", "dairy"),
            _o("a miso soup with tofu and spring onion", "soy", "tofu"),
            _o("a chicken and vegetable broth", "chicken"),
        ),
        (
            _o("玉米胡萝卜排骨汤", "排骨", "猪肉"),
            _o("番茄豆腐汤", "豆腐"),
            _o("冬瓜海带汤", "海带"),
            _o("番茄蛋花汤", "鸡蛋"),
        ),
    ),
    RequestKind(
        "drink",
        # (not the evening meal: "a quick pasta sauce for tea tonight", "what's for tea?")
        re.compile(
            r"\b(?:drinks?|beverages?|(?<!for )(?<!for my )(?<!for our )tea(?! tonight| time)|thirsty)\b|"
            r"饮品|饮料|喝",
            _I,
        ),
        _WARM_DRINKS_EN,
        _DRINKS_ZH,
    ),
    RequestKind(
        "topping",
        re.compile(r"\btoppings?\b|配料|浇头|小料|(?:搭|配|加)(?:点|些)?(?:啥|什么)料", _I),
        (
            _o("sliced avocado with lime"),
            _o("pickled red onions"),
            _o("grated cheese", "cheese"),
            _o("sweetcorn and peppers"),
        ),
        (_o("葱花和青菜"), _o("一个煎蛋", "鸡蛋"), _o("香菇肉末", "香菇", "肉"), _o("榨菜丝")),
    ),
    RequestKind(
        "breakfast",
        re.compile(r"\b(?:breakfast|brunch)\b|早餐|早饭|早点", _I),
        (
            _o("oatmeal with banana and berries", "oats"),
            _o("avocado on toast", "bread"),
            _o("scrambled eggs with spinach", "egg"),
            _o("a fruit smoothie with oats", "oats"),
        ),
        (
            _o("小米粥配一个蒸红薯"),
            _o("燕麦粥配香蕉", "燕麦"),
            _o("一碗白粥配青菜"),
            _o("鸡蛋饼", "鸡蛋", "面粉"),
        ),
    ),
    RequestKind(
        "sauce",
        re.compile(
            r"\b(?:sauces?|dressings?|dips?)\b|酱汁|调料|蘸料|(?<![果橙])汁儿?(?:怎么|咋)调|料汁|调味", _I
        ),
        (
            _o("a ginger, garlic and lime sauce", "garlic"),
            _o("a honey and soy glaze", "soy", "honey"),
            _o("a tomato and basil sauce"),
        ),
        (_o("葱姜蒜调的酱汁", "大蒜", "葱", "姜"), _o("番茄酱汁"), _o("酱油加醋的蘸料", "酱油")),
    ),
    RequestKind(
        "fruit",
        re.compile(r"\bfruits?\b|水果|果盘", _I),
        (_o("strawberries, blueberries and banana"), _o("apple and pear slices"), _o("melon and grapes")),
        (_o("草莓、蓝莓和香蕉"), _o("苹果和梨"), _o("哈密瓜和葡萄")),
    ),
    RequestKind(
        "grill",
        re.compile(r"\b(?:grill|grilling|bbq|barbecue|smoker|cookout)\b|烧烤|烤肉", _I),
        (
            _o("chicken skewers with peppers"),
            _o("salmon fillets with lemon"),
            _o("corn on the cob"),
            _o("vegetable skewers with zucchini and mushrooms", "mushroom"),
        ),
        (_o("烤玉米"), _o("烤鸡翅"), _o("烤蔬菜串"), _o("烤鱼"), _o("烤羊肉串")),
    ),
    RequestKind(
        "starter",
        re.compile(
            r"\b(?:starters?|appeti[sz]ers?|canap[eé]s?|entr[eé]es?|nibbles|hors d'oeuvres?|first course)\b|"
            r"前菜|开胃菜|开胃|凉菜|冷盘",
            _I,
        ),
        (
            _o("a tomato and basil bruschetta", "bread", "gluten"),
            _o("a chilled cucumber and mint soup"),
            _o("melon with prosciutto", "ham", "pork"),
            _o("a roasted beetroot and orange salad"),
        ),
        (_o("凉拌黄瓜", "醋", "蒜"), _o("白灼菜心"), _o("皮蛋豆腐", "鸡蛋", "豆腐"), _o("冬瓜汤")),
    ),
    RequestKind(
        "salad",
        re.compile(r"\bsalads?\b|沙拉|色拉|凉拌", _I),
        (
            _o("a potato salad", "potato", "egg", "mayonnaise"),
            _o("a tomato and mozzarella salad", "tomato", "cheese", "dairy"),
            _o("a pasta salad with roasted peppers", "pasta", "pepper", "gluten"),
            _o("a chickpea and carrot salad", "chickpea", "carrot"),
        ),
        (
            _o("土豆沙拉", "土豆", "鸡蛋", "蛋黄酱"),
            _o("凉拌木耳", "木耳", "蒜"),
            _o("水果沙拉", "水果"),
            _o("鸡胸肉蔬菜沙拉", "鸡肉"),
        ),
    ),
    RequestKind(
        "side",
        # ("what shall I serve with the lamb?", "what goes with it?"; not "five-a-side", nor "the golf side
        # of it")
        re.compile(
            r"\b(?:side dish(?:es)?|(?<!-)(?<!other )(?<!my )(?<!your )(?<!our )(?<!this )(?<!that )"
            r"(?<!the )(?<!his )(?<!her )sides?(?!-)(?! of (?:it|things|the|this|that|my|our|your|their)\b)|"
            r"vegetables?|veggies?|veg|serve (?:\w+ )?with|go(?:es)? (?:well )?with|"
            r"accompan\w+|stir-?fry (?:\w+ )?with)\b|"
            r"配菜|素菜|蔬菜|配(?:点|些)?(?:什么|啥)|一起炒",
            _I,
        ),
        (
            _o("roasted carrots with thyme"),
            _o("steamed green beans with lemon"),
            _o("garlic broccoli", "garlic"),
        ),
        (_o("蒜蓉西兰花"), _o("清炒菠菜"), _o("凉拌黄瓜")),
    ),
    RequestKind(
        "lunch",
        re.compile(r"\blunch\b|午饭|午餐", _I),
        (
            _o("a chicken salad wrap", "chicken", "bread"),
            _o("a bowl of lentil soup"),
            _o("a rice bowl with vegetables and tofu", "soy"),
        ),
        (_o("一碗番茄鸡蛋面", "鸡蛋", "面条"), _o("一份蔬菜盖饭"), _o("一碗清汤米线")),
    ),
    RequestKind(
        "hotpot",
        re.compile(r"hot ?pot|火锅", _I),
        (
            _o("a tomato broth hot pot with beef and tofu", "beef", "soy"),
            _o("a mushroom broth hot pot", "mushroom"),
            _o("a clear broth hot pot with vegetables"),
        ),
        (
            _o("番茄锅底，涮牛肉和豆腐", "牛肉", "豆腐"),
            _o("菌菇清汤锅", "菌菇"),
            _o("清汤锅，涮蔬菜和鱼片", "鱼"),
        ),
    ),
    *PASTIMES,  # pets, films, books, outings (suggestion_pastimes)
    RequestKind(
        "filling",
        re.compile(r"\b(?:tacos?|burritos?|wraps?|sandwich(?:es)?|fillings?)\b|馅|饺子|包子", _I),
        (
            _o("grilled chicken with lettuce, tomato and a squeeze of lime", "chicken"),
            _o("black beans with sweetcorn, avocado and salsa", "beans"),
            _o("spiced beef mince with grated cheese and lettuce", "beef", "cheese"),
        ),
        (_o("猪肉白菜馅", "猪肉"), _o("韭菜鸡蛋馅", "鸡蛋"), _o("香菇青菜馅", "香菇")),
    ),
    RequestKind(
        "pizza",
        re.compile(r"\bpizzas?\b|披萨|比萨", _I),
        (
            _o("a margherita pizza with tomato and basil", "cheese", "flour"),
            _o("a roasted vegetable pizza with peppers and olives", "cheese", "flour"),
            _o("a chicken and pesto pizza", "chicken", "cheese", "flour", "nuts"),
        ),
        (_o("番茄罗勒玛格丽特披萨", "芝士", "面粉"), _o("彩椒蔬菜披萨", "芝士", "面粉")),
    ),
    RequestKind(
        "curry",
        re.compile(r"\bcurr(?:y|ies)\b|咖喱", _I),
        (
            _o("a chickpea and spinach curry", "spicy"),
            _o("a chicken tikka masala", "chicken", "dairy", "spicy"),
            _o("a mild sweet potato and lentil curry", "spicy"),
        ),
        (_o("土豆胡萝卜咖喱鸡", "鸡肉", "辣"), _o("南瓜鹰嘴豆咖喱", "辣")),
    ),
    RequestKind(
        "pasta",
        re.compile(r"\b(?:pasta|spaghetti|noodles?)\b|意面|面条|拉面|煮面|一碗面", _I),
        (
            _o("spaghetti with cherry tomatoes, basil and olive oil", "flour"),
            _o("penne with roasted vegetables", "flour"),
            _o("rice noodles with stir-fried vegetables"),
        ),
        (_o("番茄青菜汤面", "面条"), _o("青菜香菇汤面", "面条", "香菇"), _o("清汤米线配青菜")),
    ),
    RequestKind(
        "baking",
        re.compile(
            r"\b(?:bake|baking|bake sale|cookies?|biscuits?|muffins?|pastr(?:y|ies))\b|烘焙|烤点心|饼干", _I
        ),
        (
            _o("oatmeal raisin cookies", "flour", "butter", "sugar", "egg", "gluten"),
            _o("coconut macaroons", "egg", "sugar"),
            _o("banana bread", "flour", "egg", "sugar"),
        ),
        (_o("燕麦葡萄干饼干", "面粉", "黄油", "鸡蛋", "糖"), _o("椰丝球", "鸡蛋", "糖")),
    ),
    MEDICINE,  # a medicine for pain or a fever (suggestion_remedies)
    RequestKind(
        "trip",
        # (days off: "五一放五天假…去哪达好", "a long weekend, where should we go?")
        re.compile(
            r"\b(?:holidays?|vacation|trip|getaway|travel|long weekend|(?:a week|\w+ days) off|"
            r"(?:the same|a whole|one) weeks? off|where (?:could|should|shall|can) (?:we|i) go)\b|"
            r"旅游|旅行|度假|去哪(?:儿)?玩|行程|玩[一二三两四五六七八九十几]天|放[一二三四五六七八九十两几]天假|长假|小长假|黄金周",
            _I,
        ),
        (
            _o("a few days in Lisbon, walking the old town"),
            _o("a walking holiday in the Scottish Highlands", "hiking"),
            _o("a city break in Kyoto"),
        ),
        (_o("坐高铁去杭州西湖走走"), _o("去成都吃吃逛逛", "辣"), _o("去云南大理住几天")),
    ),
    RequestKind(
        "dinner",
        re.compile(
            # ("order" of food only: "order the decorations and the goody bags" asks for no dinner)
            r"\b(?:dinner|supper|dish(?:es)?|meals?|cook(?:ing)?|menu|eat|restaurant|food|pot-?luck|"
            r"order (?:in|out|food|takeaway|takeout|dinner|lunch)|"
            r"what (?:should|shall|could|can) (?:i|we) order|for (?:my |our |your )?tea)\b|"
            r"晚饭|晚餐|菜|吃|餸|食饭|煮饭|做饭|外卖|午饭|中饭|午餐",  # 餸, 食饭: Cantonese: a dish, a meal
            _I,
        ),
        (
            _o("a vegetable stir-fry with rice"),
            _o("a baked salmon with potatoes", "fish"),
            _o("a chickpea curry with rice", "spicy"),
            _o("roast chicken with vegetables", "chicken"),
        ),
        (
            _o("番茄炒蛋配米饭", "鸡蛋"),
            _o("清炒时蔬配米饭"),
            _o("清蒸鱼", "鱼"),
            _o("宫保鸡丁", "鸡肉", "花生", "辣"),
        ),
    ),
)
