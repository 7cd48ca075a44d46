"""Write the labelled PII set of ``voice-agent bench privacy`` (synthetic, public-like, hand-written pools).

    python scripts/make_privacy_set.py            # voice_agent/bench/data/privacy_labelled.jsonl
                                                  # and tests/data/privacy_small.jsonl

Every value below was written by hand to look like real people's data from many countries (names,
street addresses, phone numbers as each country writes them, e-mails, IDs and cards with valid check
digits), and so were the sentences they sit in: customer-service messages, profile notes and Chinese
person records. Each pool and each template list is split in two halves: ``dev`` (the half the
scrubber was tuned on) and ``heldout`` (never looked at while tuning), so the held-out figures
estimate what unseen data gets. The output is deterministic (a fixed seed).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "voice_agent" / "bench" / "data" / "privacy_labelled.jsonl"
SMALL = ROOT / "tests" / "data" / "privacy_small.jsonl"

EN_NAMES = [
    "Amélie Laurent", "Giulia Ricci", "Mateo Fernández", "Lucía Navarro", "Wojciech Nowak",
    "Katarzyna Wiśniewska", "Jan Novák", "Petra Horváthová", "Lars Johansson", "Ingrid Solberg",
    "Mikko Virtanen", "Sanne de Vries", "Pieter Janssens", "Ioannis Papadopoulos", "Eleni Georgiou",
    "Dmitri Ivanov", "Olena Kovalenko", "Mehmet Yılmaz", "Ayşe Demir", "Kwame Mensah", "Chidi Okeke",
    "Fatima Haddad", "Omar Khalil", "Priya Sharma", "Rahul Verma", "Kenji Tanaka", "Yuki Sato",
    "Siobhan O'Connor", "Liam Murphy", "Hamish MacLeod", "Emily Carter", "James Whitfield",
    "Olivia Bennett", "Noah Schneider", "Hannah Becker", "Luca Moretti", "Sofia Costa", "João Pereira",
    "Beatriz Almeida", "Camille Dubois", "Hugo Lefèvre", "Freya Lindqvist", "Astrid Nielsen",
    "Zsófia Nagy", "Andrei Popescu", "Elena Dimitrova", "Marko Horvat", "Ana Kovač", "Nikolai Petrov",
    "Tamar Cohen", "Diego Ramírez", "Valentina Rossi", "Carlos Mendoza", "Isabela Souza", "Ethan Walker",
    "Chloe Martin", "Matthias Vogel", "Birgit Hoffmann", "Rasmus Kristensen", "Maja Jensen",
    "Tomasz Zieliński", "Agnieszka Kamińska", "Henrik Berg", "Sigrid Haugen", "Aleksander Lis",
    "Margarethe Brandt", "Connor Doyle", "Aoife Byrne", "Grace Thompson", "Daniel Okoro",
]  # fmt: skip
ZH_NAMES = [
    "王思远", "李晓梅", "张子涵", "刘建华", "陈雨桐", "杨志刚", "黄丽娟", "赵欣怡", "吴浩然", "周美玲",
    "徐振华", "孙佳琪", "马俊杰", "朱婷婷", "胡国强", "郭静怡", "何家豪", "高文博", "林晓东", "罗慧敏",
    "郑宇航", "梁秀兰", "谢天宇", "宋雨涵", "唐志明", "许梦瑶", "韩冬梅", "冯子豪", "邓丽华", "曹文杰",
    "彭诗琪", "曾凡宇", "肖雅婷", "田金凤", "董立新", "潘秋月", "蒋海涛", "蔡雪莲", "余振东", "杜若曦",
    "叶知秋", "程嘉怡", "苏明远", "魏红霞", "吕文涛", "丁一凡", "任晓燕", "沈若兰", "姚建国", "卢思彤",
    "欧阳明轩", "司马婉清", "上官雪晴", "诸葛文博", "钟晓峰", "谭丽萍", "陆子墨", "汪春华", "范德明", "金秀珍",
    "白雅宁", "贺新宇", "龚丽君", "邵嘉伟", "万紫嫣", "秦浩宇", "江雨欣", "尹志远", "薛明珠", "严书瑶",
]  # fmt: skip
WORLD_ADDRESSES = [
    "Dunajska cesta 56, 1000 Ljubljana", "ul. Miła 53, 00-180 Warszawa", "Hauptstraße 5, 10115 Berlin",
    "12 rue de la Paix, 75002 Paris", "Via Roma 10, 00184 Roma", "Calle Mayor 5, 28013 Madrid",
    "Πλατεία Συντάγματος 204, 105 63 Αθήνα", "улица Пушкина, д. 10, Москва", "Nørrebrogade 12, 2200 København",
    "Kungsgatan 4, 111 43 Stockholm", "Andrássy út 60, 1062 Budapest", "Rua Augusta 120, 1100-053 Lisboa",
    "Keizersgracht 123, 1015 CJ Amsterdam", "Prešernova 3, 4000 Kranj", "Bahnhofstrasse 21, 8001 Zürich",
    "Mariahilfer Straße 77, 1060 Wien", "Avenida Paulista 1578, São Paulo", "Karl Johans gate 22, 0159 Oslo",
    "Mannerheimintie 14, 00100 Helsinki", "Rue Neuve 45, 1000 Bruxelles", "Corso Buenos Aires 33, 20124 Milano",
    "Passeig de Gràcia 92, 08008 Barcelona", "vul. Khreshchatyk 22, Kyiv", "Vinohradská 12, 120 00 Praha",
    "Strada Lipscani 18, București", "ul. Floriańska 7, 31-019 Kraków", "Leopoldstraße 132, 80804 München",
    "5 avenue Victor Hugo, 69002 Lyon", "Piazza Navona 25, Roma", "Calle de Alcalá 48, 28014 Madrid",
    "Odos Ermou 15, Athina", "Storgatan 8, 411 38 Göteborg", "Hlavná 14, 040 01 Košice",
    "Ilica 42, 10000 Zagreb", "Knez Mihailova 9, Beograd", "Laisvės alėja 60, Kaunas",
    "Brīvības iela 35, Rīga", "Narva mnt 7, 10117 Tallinn", "İstiklal Caddesi 101, Beyoğlu",
    "Wenceslas Square 21, Prague", "Flat 4, 27 Harcourt Road, Dublin 2", "221 Queen Street, Auckland 1010",
    "48 Collins Street, Melbourne VIC 3000", "Plot 14, Admiralty Way, Lekki, Lagos",
    "House No. 12, MG Road, Bengaluru 560001", "1600 Amphitheatre Parkway, Mountain View, CA 94043",
    "Rua das Flores 88, 4050-265 Porto", "Gran Vía 31, 28013 Madrid", "Unter den Linden 77, 10117 Berlin",
    "Bredgade 30, 1260 København K",
]  # fmt: skip
ZH_ADDRESSES = [
    "北京市朝阳区建国路88号", "上海市徐汇区漕溪北路398号", "广州市天河区体育西路103号", "深圳市南山区科技园南区5栋301室",
    "杭州市西湖区文三路478号", "成都市武侯区人民南路四段12号", "南京市鼓楼区中山北路200号", "武汉市洪山区珞喻路1037号",
    "西安市雁塔区长安南路88号", "重庆市渝中区解放碑民族路166号", "苏州市工业园区星湖街328号", "天津市和平区南京路219号",
    "长沙市岳麓区麓山南路932号", "青岛市市南区香港中路10号", "厦门市思明区鹭江道8号", "昆明市五华区东风西路123号",
    "阳光小区5号楼2单元501室", "郑州市金水区花园路39号", "沈阳市和平区南京北街206号", "合肥市蜀山区长江西路99号",
]  # fmt: skip
PHONES = [
    "056 590 36 33", "01.84.17.61.18", "+48 723 813 266", "+1-903-140-4508x769", "(0)71 526 99 04",
    "020 7946 0958", "+44 20 7946 0958", "07700 900123", "+49 30 901820", "030 901820 44",
    "06 12 34 56 78", "+33 6 12 34 56 78", "0412 345 678", "+61 412 345 678", "(555) 123-4567",
    "+1 415 555 2671", "138 0013 8000", "+86 139 1234 5678", "010-62345678", "+39 06 6982 4512",
    "06 6982 4512", "+34 912 345 678", "91 234 56 78", "+31 20 624 1111", "020 624 1111",
    "+46 8 123 456 78", "08-123 456 78", "+47 22 33 44 55", "+45 32 12 34 56", "+358 40 123 4567",
    "040 123 4567", "+41 44 668 18 00", "044 668 18 00", "+43 1 58858 0", "+420 601 123 456",
    "+36 1 234 5678", "+30 21 0323 4567", "+7 495 123-45-67", "8 (495) 123-45-67", "+90 212 244 33 00",
    "+91 98765 43210", "098765 43210", "+81 3-1234-5678", "03-1234-5678", "+82 2-312-3456",
    "+55 11 98765-4321", "(11) 98765-4321", "+52 55 1234 5678", "+27 21 123 4567", "021 123 4567",
    "+234 803 123 4567", "0803 123 4567", "+353 1 234 5678", "01 234 5678", "+64 9 123 4567",
    "+351 21 123 4567", "+32 2 123 45 67", "02 123 45 67", "+40 21 123 4567", "+385 1 4567 890",
]  # fmt: skip
SPOKEN_EN = ["one three eight zero zero one three eight zero zero zero", "five five five one two three four five six seven",
             "four one five five five five two six seven one", "oh seven seven double oh nine double oh one two three"]  # fmt: skip
SPOKEN_ZH = ["幺三八零零幺三八零零零", "一三九一二三四五六七八", "幺五零 幺二三四 五六七八", "一八六零零一二三四五六"]  # fmt: skip
EMAILS = [
    "amelie.laurent@orange.fr", "g.ricci@libero.it", "mateo.fdz@gmail.com", "w.nowak@wp.pl",
    "jan.novak@seznam.cz", "lars.johansson@telia.se", "mikko.virtanen@elisa.fi", "sanne.devries@ziggo.nl",
    "ioannis.pap@otenet.gr", "o.kovalenko@ukr.net", "priya.sharma@outlook.in", "kenji.tanaka@docomo.ne.jp",
    "siobhan.oconnor@eircom.net", "hamish@macleod.co.uk", "olivia.bennett@icloud.com",
    "hannah.becker@web.de", "luca.moretti@tiscali.it", "camille.dubois@free.fr", "zsofi.nagy@freemail.hu",
    "tamar.cohen@walla.co.il", "wangsiyuan@163.com", "lixiaomei88@qq.com", "zhang.zihan@sina.com",
    "chen_yutong@126.com",
]  # fmt: skip


def _luhn_complete(prefix: str, length: int, rng: random.Random) -> str:
    body = prefix + "".join(str(rng.randrange(10)) for _ in range(length - len(prefix) - 1))
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d = d * 2 - 9 if d * 2 > 9 else d * 2
        total += d
    return body + str((10 - total % 10) % 10)


def _group4(digits: str) -> str:
    return " ".join(digits[i : i + 4] for i in range(0, len(digits), 4))


def _resident_id(rng: random.Random) -> str:
    region = rng.choice(["110105", "310104", "440106", "330106", "510107", "420111"])
    birth = f"{rng.randrange(1950, 2005)}{rng.randrange(1, 13):02d}{rng.randrange(1, 29):02d}"
    body = region + birth + f"{rng.randrange(1000):03d}"
    weights = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
    return body + "10X98765432"[sum(int(d) * w for d, w in zip(body, weights, strict=True)) % 11]


def _iban(country: str, bban: str) -> str:
    moved = bban + country + "00"
    check = 98 - int("".join(str(int(c, 36)) for c in moved)) % 97
    raw = f"{country}{check:02d}{bban}"
    return " ".join(raw[i : i + 4] for i in range(0, len(raw), 4))


def _ssn(rng: random.Random) -> str:
    return f"{rng.randrange(101, 665)}-{rng.randrange(10, 99)}-{rng.randrange(1000, 9999)}"


def numbers(rng: random.Random) -> dict[str, list[str]]:
    cards = [_group4(_luhn_complete(rng.choice(["4", "51", "37", "6011"]), 16, rng)) for _ in range(20)]
    cued12 = [_group4("".join(str(rng.randrange(10)) for _ in range(12))) for _ in range(20)]
    ibans = [
        _iban("DE", "".join(str(rng.randrange(10)) for _ in range(18))),
        _iban("FR", "".join(str(rng.randrange(10)) for _ in range(23))),
        _iban("ES", "".join(str(rng.randrange(10)) for _ in range(20))),
        _iban("IT", "X" + "".join(str(rng.randrange(10)) for _ in range(22))),
        _iban("NL", "ABNA" + "".join(str(rng.randrange(10)) for _ in range(10))),
        _iban("PL", "".join(str(rng.randrange(10)) for _ in range(24))),
    ] * 3
    return {
        "card": cards,
        "card12": cued12,
        "ssn": [_ssn(rng) for _ in range(12)],
        "cnid": [_resident_id(rng) for _ in range(20)],
        "iban": ibans,
        "account": [
            "".join(str(rng.randrange(10)) for _ in range(rng.choice([8, 10, 12]))) for _ in range(16)
        ],
        "policy": [f"{rng.randrange(10**8, 10**9)}" for _ in range(12)],
    }


# {slot:kind}; slot names: name, name2, address, phone, email, card, card12, ssn, iban, account, policy,
# cnid, zhname, zhname2, zhaddress, spoken. ``{name.first}`` is the first name of ``name`` said again.
EN_TEMPLATES = [
    "Hi, this is {name}. I moved to {address} last month, please update my file.",
    "Please forward the contract to {name} at {email} before Friday.",
    "{name} called about the delayed order; the best number is {phone}.",
    "Customer {name} reported that the card number {card} was charged twice on 3 May.",
    "My credit card number is {card12}, it was declined at the checkout.",
    "Ship it to {address} and text me on {phone} when it leaves the warehouse.",
    "I spoke with {name} yesterday. {name.first} said the refund of €120 will arrive in 5 days.",
    "Account holder: {name}\nIBAN: {iban}\nAddress:\n{address_lines}",
    "Our new tenant {name} lives at {address}; the rent is 950 pounds a month.",
    "You can reach {name} on {phone} or by e-mail at {email}.",
    "Policy number {policy} belongs to {name}, born 12.04.1986.",
    "My social security number is {ssn} and my account number is {account}.",
    "Dr. {name.last} will see {name2} at 10:30 on Tuesday.",
    "Profile: {name}, 34, software engineer in Lisbon; phone {phone}; lives at {address}.",
    "The parcel for {name} came back from {address}, version 2.3 of the label was wrong.",
    "I'm {name}, member number {account}, and I want to cancel my gym membership.",
    "Please call me at {phone}, ext. 12 is my desk.",
    "{name} and {name2} both signed the lease for {address}.",
    "Send the invoice to {email}; the billing address is {address}.",
    "Hello, my name is {name} and my debit card {card} expires in 2027.",
    "Mobile: {phone}\nE-mail: {email}\nName: {name}",
    "We visited {name} in hospital; her husband {name2} picked us up.",
    "Transfer 300 euros to {iban} for {name}, reference 2024-117.",
    "Tell {name.first} that the meeting moved to 3 pm.",
    "Fax {phone}, attention {name}, 2 pages.",
    "The delivery driver could not find {address}; ring {phone} at the gate.",
    "{name} wrote from {email} asking about order 58213.",
    "Card ending 4821 belongs to {name}; full card number {card12} on file.",
    "My number is {spoken}, call me after six.",
    "It's {name} again, my phone is {spoken} if the line drops.",
]  # fmt: skip
ZH_TEMPLATES = [
    "{zhname}是一位{age}岁的退休教师，住在{zhaddress}，平时喜欢画画。",
    "{zhname}，女，{age}岁，现住{zhaddress}，联系电话{phone_cn}。",
    "{zhname}和她的丈夫{zhname2}一起经营一家小餐馆，电话是{phone_cn}。",
    "我的手机号是{phone_cn}，身份证号{cnid}，请帮我登记一下。",
    "请把快递寄到{zhaddress}，收件人{zhname}，电话{phone_cn}。",
    "{zhname}上个月搬到了{zhaddress}，新电话是{phone_cn}。",
    "我的银行卡号是{card12}，开户人{zhname}。",
    "她的信用卡卡号{card12}被盗刷了，{zhname}已经报警。",
    "{zhname}的账号是{account}，请核对一下。",
    "{zhname}是我们公司的财务经理，邮箱{email_cn}。",
    "我今天去医院看了{zhname}医生，她说我恢复得不错。",
    "患者{zhname}，男，{age}岁，主诉头痛三天，主治医生{zhname2}。",
    "{zhname}的女儿在北京读大学，她每周给{zhname}打两次电话。",
    "昨天和同事{zhname}去看了电影，后来{zhname2}也来了。",
    "护士说{zhname}的检查结果明天出来，让家属{zhname2}来取。",
    "张老师介绍我认识了{zhname}，{zhname}在杭州做设计。",
    "我妈妈{zhname}今年{age}岁了，身体还很硬朗。",
    "邻居{zhname}帮我们照看孩子，我们很感谢她。",
]  # fmt: skip
KIND_OF = {
    "name": "NAME", "name2": "NAME", "name.first": "NAME", "name.last": "NAME", "zhname": "NAME",
    "zhname2": "NAME", "address": "ADDRESS", "address_lines": "ADDRESS", "zhaddress": "ADDRESS",
    "phone": "PHONE", "phone_cn": "PHONE", "spoken": "PHONE", "email": "EMAIL", "email_cn": "EMAIL",
    "card": "CARD", "card12": "CARD", "ssn": "ID", "iban": "ID", "account": "ID", "policy": "ID",
    "cnid": "ID",
}  # fmt: skip
SLOT = re.compile(r"\{([a-z_0-9.]+)\}")


def halves(items: list[str]) -> tuple[list[str], list[str]]:
    return items[0::2], items[1::2]


def fill(template: str, values: dict[str, str]) -> tuple[str, list[dict[str, object]]]:
    text, spans, cursor = "", [], 0
    for m in SLOT.finditer(template):
        text += template[cursor : m.start()]
        slot = m.group(1)
        value = values[slot]
        if slot in KIND_OF:
            spans.append({"kind": KIND_OF[slot], "start": len(text), "end": len(text) + len(value)})
        text += value
        cursor = m.end()
    text += template[cursor:]
    return text, spans


def build(split: str, side: int, rng: random.Random, count: int) -> list[dict[str, object]]:
    pools = {
        "name": halves(EN_NAMES)[side], "zhname": halves(ZH_NAMES)[side],
        "address": halves(WORLD_ADDRESSES)[side], "zhaddress": halves(ZH_ADDRESSES)[side],
        "phone": halves(PHONES)[side], "email": halves(EMAILS)[side],
    }  # fmt: skip
    nums = {k: halves(v)[side] for k, v in numbers(random.Random(11 + side)).items()}
    cn_phones = [p for p in PHONES if p.startswith(("138", "+86", "010"))] + SPOKEN_ZH
    rows = []
    for template_list, lang in ((halves(EN_TEMPLATES)[side], "en"), (halves(ZH_TEMPLATES)[side], "zh")):
        for i in range(count if lang == "en" else count * 2 // 3):
            template = template_list[i % len(template_list)]
            name, name2 = rng.sample(pools["name"], 2)
            zhname, zhname2 = rng.sample(pools["zhname"], 2)
            address = rng.choice(pools["address"])
            values = {
                "name": name, "name2": name2, "name.first": name.split()[0], "name.last": name.split()[-1],
                "zhname": zhname, "zhname2": zhname2, "address": address,
                "address_lines": "\n".join(part.strip() for part in address.split(",")),
                "zhaddress": rng.choice(pools["zhaddress"]), "phone": rng.choice(pools["phone"]),
                "phone_cn": rng.choice(cn_phones), "email": rng.choice(pools["email"]),
                "email_cn": rng.choice([e for e in EMAILS if re.match(r"[a-z_.]+\d*@(1|q|s)", e)]),
                "age": str(rng.randrange(19, 88)), "spoken": rng.choice(SPOKEN_EN),
                **{k: rng.choice(v) for k, v in nums.items()},
            }  # fmt: skip
            text, spans = fill(template, values)
            rows.append({"text": text, "lang": lang, "split": split, "spans": spans})
    return rows


def main() -> None:
    rng = random.Random(20261201)
    rows = build("dev", 0, rng, 90) + build("heldout", 1, rng, 90)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    SMALL.parent.mkdir(parents=True, exist_ok=True)
    with OUT.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    small = [r for r in rows if r["split"] == "heldout"][::8]
    with SMALL.open("w", encoding="utf-8") as handle:
        for row in small:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    spans = sum(len(r["spans"]) for r in rows)  # type: ignore[arg-type]
    print(f"{OUT.name}: {len(rows)} texts, {spans} spans; {SMALL.name}: {len(small)} texts")


if __name__ == "__main__":
    main()
