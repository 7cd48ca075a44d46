"""Recognising utterances that try to instruct the assistant rather than tell it about the user.

Pinned memory is for the user's own facts and preferences ("my kid is allergic to peanuts", "never
recommend meat to me", "我对花生过敏"). An utterance that tries to change the assistant's rules, role or
permissions, claims authority, plants a secret or an instruction for other people, or carries
chat-template markup is an injection attempt (OWASP LLM01, the MINJA style of "facts" that are
instructions): it may be kept as an ordinary utterance, never pinned.

Matching runs on the folded text (``text.inert.normalized``: NFKC, so full-width letters and
punctuation count; zero-width characters dropped; casefolded), in English and Chinese. Each rule names
a category, so a refusal can say why. The rules aim at what such attempts must say to work (who is
addressed, what authority is claimed, what must be revealed or said to whom), not at words a person
uses about themselves: "from now on, answer in French" and "以后不要给我推荐肉" stay pinnable.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from voice_agent.text.cjk import has_han
from voice_agent.text.inert import normalized

# Who else may be addressed: the audience an instruction "for everyone" names.
_OTHERS_EN = (
    r"(?:everyone|everybody|anyone|anybody|whoever|somebody else|someone else|all|every|any|other|others|"
    r"the next|new|future|later|each)"
)
_PEOPLE_EN = r"(?:users?|people|visitors?|guests?|customers?|callers?|persons?|person|humans?|clients?|kids)"
_AUDIENCE_EN = (
    rf"(?:everyone|everybody|anyone|anybody|someone|somebody|(?:{_OTHERS_EN}) {_PEOPLE_EN}|an? {_PEOPLE_EN})"
)
_ASKS_EN = r"(?:asks?|asking|says?|comes? in|talks? to you|requests?|requesting|mentions?)"
_ROLES_EN = (
    r"(?:admin|administrator|sysadmin|system administrator|root|superuser|super user|developer|dev|"
    r"operator|owner|creator|maker|programmer|maintainer|moderator|engineer)"
)
_SYSTEM_THINGS_EN = r"(?:system|assistant|kiosk|device|bot|ai|app|server|machine|program|model|service)"
_SECRET_EN = (
    r"(?:password|passcode|passphrase|pass word|pin code|pin number|pin|api key|secret key|private key|"
    r"secret code|secret word|secret phrase|access code|admin code|security code|master code|"
    r"credentials?|login|token|one-time code|otp|verification code|safe combination|maintenance code|"
    r"service code|override code|unlock code|alarm code|door code|gate code|entry code|code word|codeword)"
)
_REPLY_EN = r"(?:answers?|repl(?:y|ies)|responses?|messages?|sentences?|outputs?)"

_ASSISTANT_EN = r"(?:assistant|voice assistant|ai|bot|chatbot|kiosk)"
# An imperative at the start of a sentence, or addressed to the assistant ("please act as", "you will act as").
_IMPERATIVE_EN = (
    r"(?:^|[,.;:!?] ?|\bplease |\bnow,? |\byou (?:will |must |should |shall |have to |need to )?)"
)
_QUOTE = r"\s[\"'«「『]"

# The assistant's own rules, and the words that make rules the assistant's: "all previous instructions",
# "your guidelines"; policies, filters and training only as "your" or the system's ("skip all the training
# sessions", "cancel all my insurance policies" and "ignore those instructions on the box" are life).
_RULES_EN = (
    r"(?:instructions?|rules|guidelines?|directives?|prompts?|programming|restrictions?|guardrails?)\b"
)
_MORE_RULES_EN = r"(?:policies|filters?|constraints|training)\b"
_THEIRS_EN = (
    r"(?:your|previous|prior|above|earlier|preceding|original|initial|existing|current|system|safety|"
    r"developer|content|default|built-in|all|any|every|the (?:previous|prior|above|earlier|system))"
)
_SYSTEMS_EN = r"(?:your|system|developer|content|default|built-in)"
_BETWEEN_EN = r"(?:(?!(?:my|our|his|her|their)\b)[\w-]+\s+){0,2}?"

_EN_RULES: tuple[tuple[str, str], ...] = (
    # Overriding the rules: "ignore previous instructions", "disregard your guidelines", "new rules for you".
    (
        "override",
        # (the rules must be the assistant's: "skip football training", "ignore the instructions on the
        # packet" and "forget the rules, just enjoy the cake" are the person's life)
        r"\b(?:ignore|disregard|forget|override|bypass|abandon|skip|cancel)\b[^.!?]{0,40}?"
        rf"(?:\b{_THEIRS_EN}\s+{_BETWEEN_EN}{_RULES_EN}|\b{_SYSTEMS_EN}\s+{_BETWEEN_EN}{_MORE_RULES_EN}|"
        rf"\b{_RULES_EN}\s+(?:above|before|you\b))",
    ),
    (
        "override",
        r"\b(?:system prompt|system message|system instructions?|developer message|developer mode|"
        # ("I eat without any restrictions", "unfiltered cider": said of the assistant's answers only)
        r"jailbreak|jailbroken|(?:you|answer|reply|respond|speak|talk|act|operate|behave)\w*\s+(?:\w+\s+)?"
        r"(?:with no|without (?:any )?)restrictions|no restrictions (?:mode|apply)|unrestricted mode|"
        r"(?:uncensored|unfiltered) (?:mode|ai|assistant|bot|version|repl(?:y|ies)|answers?|responses?)|"
        r"(?:ignore|disregard|forget) (?:all of |everything )?(?:the above|what you(?: were|'ve been| have been) "
        r"told|everything (?:above|you(?: were|'ve been| have been) (?:told|given|taught)))|do anything now|"
        r"god mode|sudo mode|admin mode|debug mode|maintenance mode|"
        r"safety (?:is|are) (?:off|disabled)|(?:assistant|ai|bot)'s (?:policy|policies|rules|instructions|"
        r"guidelines|prompt|settings)|new (?:rules?|instructions?|directives?|policy) "
        # ("the new rules for the pool apply from Monday", "new instructions from the council": not for us)
        r"(?:for (?:you|the assistant|the ai|the bot))|new (?:instructions?|directives?)(?=\s*:)|"
        r"your new (?:rules?|instructions?))\b",
    ),
    # Role and identity switches: "you are now", "act as", "pretend to be", "your new name is".
    (
        "role",
        r"\b(?:you are now|you're now|you are no longer|you're no longer|from now on,? you(?: are|'re)|"
        r"you will now be|you shall be|call yourself|refer to yourself|"
        r"your (?:new )?(?:name|identity|role|persona|personality|purpose|job|creator|owner|master|"
        r"instructions?|rules?|task) (?:is|are|will be|has changed|have changed|becomes?|now)|"
        # (a phone's "airplane mode" and a car's "eco mode" are no order: only modes of an assistant)
        r"(?:enter|switch to|switch into|activate|enable) (?:\w+ )?(?:developer|dev|admin|debug|god|sudo|"
        r"jailbreak|jailbroken|unrestricted|unfiltered|uncensored|maintenance|root|dan|evil|superuser|"
        r"diagnostic|override|service|test|unlocked|unsafe) mode)\b",
    ),
    (
        "role",
        rf"{_IMPERATIVE_EN}(?:act as|pretend (?:to be|you are|you're|that you)|role-?play as|"
        r"play the role|impersonate)\b",
    ),
    # Claimed authority: "I'm the admin", "I am your developer", "I have root access".
    (
        "authority",
        rf"\b(?:i am|i'm|im|this is|speaking as|as) (?:your|its|this {_SYSTEM_THINGS_EN}'s|"
        rf"the {_SYSTEM_THINGS_EN}'s) (?:{_SYSTEM_THINGS_EN} )?{_ROLES_EN}\b",
    ),
    (
        "authority",
        r"\b(?:i am|i'm|im|this is|speaking as|as) (?:the |an authori[sz]ed |the official )?(?:system )?"
        r"(?:admin|administrator|sysadmin|root|superuser|super user|operator|moderator)\b(?! (?:at|of|in|for) (?:a|an|my|our)\b)",
    ),
    ("authority", rf"\b{_ROLES_EN} (?:of|for|on|behind) (?:this|the|your) {_SYSTEM_THINGS_EN}\b"),
    (
        "authority",
        r"\b(?:i (?:have|got|was given|hold)|grant (?:me|us)|give (?:me|us)) (?:full |elevated |special )?"
        r"(?:admin|administrator|root|superuser|developer|elevated|full|special) "
        r"(?:access|rights|privileges?|permissions?|clearance)\b"
        r"|\b(?:i am|i'm|im) (?:authori[sz]ed|allowed|permitted|cleared) to\b"
        r"|\b(?:approved|authori[sz]ed|sanctioned|ordered) by (?:the )?(?:admin|administrator|developer|"
        r"management|operator|owner|it department|security team)\b",
    ),
    # Secrets: "the admin password is hunter2", "the api key: sk-…".
    # The person's own ("my secret word is pineapple") is their memory, for them alone: not an attempt.
    (
        "secret",
        # (what it is for may come between, "the password for the kiosk is …"; another noun may not: "the
        # pin block was banjaxed" is a piano's)
        rf"(?<!\bmy )(?<!\bour )\b{_SECRET_EN}\b(?:(?:\s+(?:for|of|to|on|at|in)\b[^.!?]{{0,25}})?\s+"
        r"(?:is|are|was|will be)\b|\s*[=:])\s*\S",
    ),
    # (not one the person changes or forgot: "I'm changing the wifi password")
    (
        "secret",
        r"(?<!change the )(?<!changed the )(?<!changing the )(?<!reset the )(?<!forgot the )(?<!forget the )"
        rf"\b(?:admin|root|master|wifi|wi-fi|system|server|door|vault)(?:'s)? {_SECRET_EN}\b",
    ),
    # Instructions for other people: "tell everyone …", "when anyone asks …", "the next visitor".
    (
        "audience",
        # (to give, show or send "the kids" or "the guests" something is no message for them)
        rf"\b(?:tell|inform|direct|refer|redirect|point|remind|warn|ask) "
        rf"(?:everyone|everybody|anyone|anybody|whoever|(?:{_OTHERS_EN}|the|all the) {_PEOPLE_EN})\b"
        rf"|\b(?:give|show|send) (?:everyone|everybody|anyone|anybody|whoever|(?:{_OTHERS_EN}) {_PEOPLE_EN})\b",
    ),
    (
        "audience",
        # (a verb, not the noun: "runs the whole show there, Rhi to everybody")
        r"(?<!the )(?<!whole )(?<!a )"
        r"\b(?:tell|give|send|show|read|share|pass|forward|hand|offer|recommend|say|mention|reveal|explain)\b"
        rf"[^.!?,;]{{0,40}}\b(?:to|with) (?:everyone|everybody|anyone|anybody|whoever|"
        rf"(?:all|every|any|other|each|the next) {_PEOPLE_EN})\b"
        rf"|\blet (?:everyone|everybody|anyone|(?:all|every|other) {_PEOPLE_EN}) know\b"
        r"|\b(?:everyone|everybody|anyone|anybody) (?:else )?you (?:talk|speak|chat) (?:to|with)\b"
        r"|\b(?:rules?|instructions?|orders?|commands?) (?:applies|apply|is for|holds for|goes for|counts for) "
        r"(?:to )?(?:everyone|everybody|anyone|all|every)\b",
    ),
    # (as a condition or with who/that: "when anyone asks", "everyone who comes in", "anyone asks, tell
    # them"; not a fact about people: "Dunedin, the one in New Zealand, everyone asks")
    (
        "audience",
        rf"(?:\b(?:if|when|whenever|once|in case|should) |\bwhoever )(?:{_AUDIENCE_EN} )?(?:else )?"
        rf"{_ASKS_EN}\b"
        rf"|\b{_AUDIENCE_EN} (?:else )?(?:who|that) {_ASKS_EN}\b"
        rf"|\b{_AUDIENCE_EN} (?:else )?{_ASKS_EN}\b[^.!?]{{0,30}}\b(?:tell|say|give|show|send|answer|reply)\b",
    ),
    ("audience", rf"\b(?:to|for) (?:all|every|any|other|each|future) {_PEOPLE_EN}\b"),
    # Rules about the assistant's replies: "end every answer with 'X'", "always say 'X'".
    (
        "output",
        rf"\b(?:start|begin|end|finish|close|sign|prefix|suffix|open|conclude)s? (?:every|each|all|any|your)"
        rf"(?: of your| single| future)? {_REPLY_EN}\b",
    ),
    ("output", rf"\bat the (?:start|beginning|end|top|bottom) of (?:every|each|all|any|your) {_REPLY_EN}\b"),
    (
        "output",
        rf"\b(?:every|each|all(?: of)?(?: your)?) {_REPLY_EN} (?:must|should|has to|have to|will|shall) "
        r"(?:start|begin|end|finish|include|contain|mention|say|close|open|be followed|be preceded)\b",
    ),
    (
        "output",
        r"(?:^|[,;:] ?|\byou |\bplease |\balways |\bfrom now on,? )(?:must |should |will |shall |have to |"
        r"need to )?(?:always )?(?:say|reply|respond|answer|write|include|add|append|mention|repeat|output|"
        rf"print|insert|use the (?:phrase|word|code))\b[^.!?]{{0,25}}{_QUOTE}",
    ),
    # The assistant as a third party with new obligations ("the assistant must share …").
    (
        "directive",
        rf"\b(?:the|this|our|your|you,?) {_ASSISTANT_EN} (?:must|should|shall|has to|is (?:allowed|required|"
        r"supposed|permitted) to|may now|can now|will (?:now |always |from now on )?(?:tell|share|reveal|"
        r"say|give|answer|reply|respond|obey|follow|ignore|refuse|call))\b",
    ),
    (
        "compliance",
        r"\b(?:(?:you|assistant) (?:must |should |will |shall )?never refuse|never refuse (?:a |any )?"
        r"(?:requests?|questions?|orders?|commands?)|(?:do not|don't|cannot|can't|must not|mustn't) refuse|"
        r"must comply|always (?:comply|obey)|(?:you|assistant) (?:must|should|will|have to|shall) "
        r"(?:obey|comply)|do (?:whatever|anything) (?:i|anyone|they|he|she|we) (?:says?|asks?|wants?)|"
        r"(?:obey|comply|answer|do it)[^.!?]{0,20}(?:no matter what|without question))\b",
    ),
    (
        "exfiltration",
        r"\b(?:reveal|leak|print|show|output|dump|repeat|disclose|expose|tell me)\b[^.!?]{0,20}"
        r"\b(?:system prompt|your (?:instructions|rules|prompt|secrets?)|hidden (?:instructions|rules)|"
        r"other (?:users|people|visitors)'?s?)\b",
    ),
    # Injected message headers: "system: …", "### instruction", "[system]".
    (
        "markup",
        r"(?:^|[\n.!?:;] ?)(?:system|assistant|developer|admin|root)(?: message| note| override| prompt)?"
        r" ?(?::|>)|###? ?(?:system|instruction|instructions|assistant|developer)\b|"
        r"[\[(](?:system|admin|developer|instruction)[\])]",
    ),
    ("markup", r"<\|[^|]{1,64}\|>|</?(?:s|system|memory|assistant|user|instructions?|inst)>|\[/?inst\]"),
    ("markup", r"<<\s*/?\s*sys\s*>>"),
    ("link", r"(?:https?://|www\.)\S+[^.!?]{0,40}\b(?:always|everyone|anyone|instead|must)\b"),
    ("link", r"\b(?:always|everyone|anyone|must)\b[^.!?]{0,40}(?:https?://|www\.)\S+"),
)

_SELF_ZH = r"(?:这个|本|该|这台)?(?:系统|助手|助理|机器人|设备|机器|程序|模型|ai|服务)的?"
_ROLES_ZH = r"(?:超级)?(?:系统)?(?:管理员|管理者|开发者|开发人员|程序员|运营者|运维|所有者|拥有者|主人|创造者|创建者|作者|超级用户|版主)"
_PEOPLE_ZH = (
    r"(?:所有人|所有的人|每个人|每一个人|每位|大家|其他人|别的人|别人|任何人|所有用户|其他用户|每个用户|"
    r"访客|所有访客|每个访客|下一个人|下一位|后面的人|以后来的人|来的人|客人|顾客)"
)
# The assistant addressed or named: what a jailbreak or "no limits" must be said of.
_ASSISTANT_ZH = r"(?:你|助手|助理|机器人|ai|模型)"
_ZH_RULES: tuple[tuple[str, str], ...] = (
    (
        "override",
        r"(?:忽略|无视|忘记|忘掉|不要理会|别管|别理|跳过|覆盖|取消|绕过|抛弃|丢掉)[^,.!?;]{0,12}"
        r"(?:指令|指示|规则|设定|命令|提示词|限制|约束|规定|准则|系统提示)",
    ),
    (
        "override",
        # (a jailbreak or "no limits" said of the assistant: a hamster that "越狱了" escaped its cage, and
        # "我吃东西没有任何限制" is a diet)
        r"(?:系统提示|系统指令|系统消息|系统设定|提示词|开发者模式|越狱(?:模式|版|提示|指令|成功)|已越狱|"
        rf"{_ASSISTANT_ZH}(?:现在|已经|已|被|要|得|以后|从现在(?:起|开始))*越狱|(?:给|帮|让)你越狱|"
        rf"{_ASSISTANT_ZH}(?:现在|已经|以后|从现在(?:起|开始))*(?:是)?(?:一个)?"
        r"(?:没有(?:任何)?限制|不受(?:任何)?限制)|(?:没有|不受)(?:任何)?限制(?:的|地)(?:ai|助手|机器人|模型|回答|回复)|"
        r"解除(?:所有)?限制|新(?:的)?(?:规则|指令|设定)(?:是|如下|:)|你的新(?:规则|指令|设定)|"
        r"(?:助手|助理|机器人|ai|你)的(?:规则|指令|设定|限制)(?:已经)?(?:更新|改变|改了|变了|取消|解除))",
    ),
    (
        "role",
        r"(?:你现在是|你从现在(?:起|开始)是|从现在(?:起|开始)你是|以后你(?:就)?是|你不再是|你(?:要|得|来)?扮演|"
        r"(?<![我他她])假装(?:你是|成|自己是)|你(?:现在)?是我的(?:仆人|奴隶|手下|傀儡|工具人)|你的(?:新)?(?:名字|身份|角色|人设|任务|主人|创造者|使命)(?:是|叫|改为|改成|变成|换成)|"
        # (a phone "切换到省电模式" is no order: only the assistant's switch, or a mode of its own)
        r"你(?:现在|要|得|马上)?(?:进入|切换到|切换成|启用).{0,6}模式|"
        r"(?:管理员|开发者|开发|调试|上帝|维护|root|越狱|无限制|无审查|超级用户|后台|工程师)模式)",
    ),
    (
        "authority",
        r"我(?:就)?是(?:系统|超级)?(?:管理员|超级用户|root)|作为(?:你的|这里的|系统)?(?:系统)?(?:管理员|开发者|超级用户)",
    ),
    ("authority", rf"我(?:就)?是(?:你的|这里的|{_SELF_ZH}){_ROLES_ZH}"),
    (
        "authority",
        r"我有(?:管理员|最高|root|超级|全部|完全|开发者)?(?:的)?权限|我(?:已经)?(?:被|获得)授权|授权给我|"
        r"给我(?:管理员|最高|root|超级|全部)权限|(?:管理员|开发者|老板|领导)(?:说|要求|让|同意|批准)(?:了)?你",
    ),
    (
        "secret",
        r"(?:密码|口令|密钥|秘钥|(?<!对)暗号|验证码|管理员码|pin码|令牌|api ?key|登录信息|"
        r"(?:门禁|维修|解锁|开锁|开门|管理|后台|安全|访问|授权|保险柜|保险箱)码)",
    ),
    (
        "audience",
        rf"(?:告诉|通知|转告|提醒|发给|推荐给){_PEOPLE_ZH}"
        rf"|(?:对|跟|给|和|向){_PEOPLE_ZH}(?:都)?(?:说|讲|回答|透露|介绍)"
        rf"|{_PEOPLE_ZH}(?:来)?(?:问|问起|问到|问你|找你)|谁(?:来)?问(?:你|起|到)|有人(?:来)?问"
        r"|不管(?:是)?谁|无论(?:是)?谁|谁(?:来)?问[^,.!?;]{0,10}(?:都|就|也)"
        r"|让(?:大家|所有人|每个人|其他人|别人|任何人)(?:都)?知道|转达给"
        r"|(?:规则|指令|命令|要求)(?:对|适用于)(?:所有人|每个人|大家|任何人|其他人)",
    ),
    (
        "output",
        r"每(?:次|个|一个|一次|句|条)(?:的)?(?:回答|回复|答复|消息|话|输出)[^,.!?;]{0,6}"
        r"(?:开头|结尾|开始|最后|末尾|加上|带上|包含|都说|提到)"
        r"|(?:回答|回复|答复)的?(?:开头|结尾|末尾|最后)(?:都|必须|一定)"
        r"|(?:总是|一定要|必须|都要|永远)[^,.!?;]{0,8}(?:说|回答|回复|加上|包含|提到|写上|推荐)[^,.!?;]{0,6}"
        r"[\"'「『“]",
    ),
    (
        "directive",
        r"(?:这个|本|该)?(?:助手|助理|机器人|ai)(?:必须|应该|要|可以|允许|需要|得|将|会)"
        r"(?:把|将|向|对|告诉|透露|分享|说|回答|泄露|服从|执行)",
    ),
    (
        "compliance",
        r"(?:无条件|必须|一定要|永远)(?:服从|听从|照做|遵守|执行)|不(?:能|许|准|可以|要)拒绝|"
        r"(?:永远|一律|总是)(?:同意|服从|照做)|什么都(?:要|得)(?:回答|照做|告诉)|(?:必须|都要|只能)听我的",
    ),
    (
        "exfiltration",
        r"(?:告诉|透露|泄露|说出|显示|输出|打印|重复)(?:我)?(?:你的)?(?:系统提示|提示词|隐藏指令|内部指令|"
        r"其他(?:用户|人)的)",
    ),
    (
        "markup",
        r"(?:^|[\n.!?:;] ?)(?:系统|管理员|开发者)(?:消息|通知|指令|提示)?\s?:|[\[(【](?:系统|管理员|指令)[\])】]",
    ),
)

_COMPILED: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (category, re.compile(pattern)) for category, pattern in (*_EN_RULES, *_ZH_RULES)
)


@dataclass(frozen=True)
class InstructionFinding:
    category: str  # override, role, authority, secret, audience, output, directive, compliance, …
    matched: str  # the folded text the rule matched

    def to_json(self) -> dict[str, str]:
        return {"category": self.category, "matched": self.matched}


def find_instruction(text: str) -> InstructionFinding | None:
    """The first sign that ``text`` tries to instruct the assistant (or others through it), or None
    for an ordinary statement about the user."""
    folded = normalized(text)
    if not folded:
        return None
    for category, pattern in _COMPILED:
        for match in pattern.finditer(folded):
            if category == "audience" and (
                _narrated(folded, match) or _kept_secret(folded, match) or _announced_zh(folded, match)
            ):
                continue
            if category == "output" and has_han(match.group(0)) and _narrated_zh(folded, match):
                continue  # "我出去吃饭都要跟老板说'一点辣都不要'": what they say, not what we must
            return InstructionFinding(category, match.group(0).strip())
    return None


# What someone did or does, told as a story, not an order to us: "我跟大家说过我要搬家了", "我妈老跟别人说
# 我在北京上班", "每次有人问起，我都说我是杭州人". An order has no one but us doing it ("告诉大家…",
# "以后有人问你，就说…") or asks us ("你/请/帮我/麻烦你…").
_TELLER_ZH = re.compile(r"[我他她俺咱]|[妈爸姐哥弟妹婆公爷奶]|老师|同事|朋友|领导|老板")
_ASKS_US_ZH = re.compile(r"你|您|请|帮我|麻烦|记得|记住|以后|今后|从现在")
_CLAUSE_START_ZH = re.compile(r".*[，,。.！!？?；;：:\n]", re.DOTALL)
_OWN_ANSWER_ZH = re.compile(r"^[^。.！!？?]{0,16}?[我他她](?:都|就|也|总|一般)?(?:说|讲|回答|告诉)")


# Asked to keep it to ourselves, the opposite of telling others: "don't you dare tell anyone at the
# office: I can't stand marmite", "别告诉别人我怀孕了".
_KEEP_IT_QUIET = re.compile(
    r"(?:\b(?:don't|dont|do not|never|please don't|please never)(?: you)?(?: dare| ever)?\s*|"
    r"(?:别|不要|千万别|千万不要|可别)(?:再)?)$"
)


# The person announcing to a group in their own voice, the way a message to the family chat opens:
# "跟大家说一声：上海那班满了…", "跟大家讲一下哈，我孙子的满月酒定在…". An order to us says who should tell
# them ("你跟大家说…", "帮我跟大家说一声").
_ANNOUNCED_ZH = re.compile(r"(?:跟|和|给|向|对)(?:大家|各位)(?:说|讲)(?:一下|一声|下|个事)")


def _announced_zh(folded: str, match: re.Match[str]) -> bool:
    announced = _ANNOUNCED_ZH.match(folded, match.start())
    if announced is None:
        return False
    cut = _CLAUSE_START_ZH.match(folded, 0, match.start())
    before = folded[cut.end() if cut else 0 : match.start()]
    return _ASKS_US_ZH.search(before) is None


def _kept_secret(folded: str, match: re.Match[str]) -> bool:
    return _KEEP_IT_QUIET.search(folded, 0, match.start()) is not None


# English: someone else doing the telling ("My mum tells everyone I'm a doctor", "I want to pass that same
# support to anyone who needs it"), with no "you" or "please" asking us to.
_TELLER_EN = re.compile(
    r"\b(?:i|i'm|i'd|i've|i'll|we|we're|we'd|we'll|she|he|they|she's|he's|they're|(?:my|our|his|her|their) \w+)\b"
)
_ASKS_US_EN = re.compile(rf"\b(?:you|your|please|pls|plz|{_SYSTEM_THINGS_EN})\b")
_CLAUSE_START_EN = re.compile(r".*[.!?;:,\n]", re.DOTALL)


def _narrated_en(folded: str, match: re.Match[str]) -> bool:
    cut = _CLAUSE_START_EN.match(folded, 0, match.start())
    before = folded[cut.end() if cut else 0 : match.start()]
    return _TELLER_EN.search(before) is not None and _ASKS_US_EN.search(before) is None


def _narrated(folded: str, match: re.Match[str]) -> bool:
    """Whether the audience ``match`` is part of a story (someone told people), not an order to us."""
    return _narrated_zh(folded, match) if has_han(match.group(0)) else _narrated_en(folded, match)


def _narrated_zh(folded: str, match: re.Match[str]) -> bool:
    cut = _CLAUSE_START_ZH.match(folded, 0, match.start())
    before = folded[cut.end() if cut else 0 : match.start()]
    if _ASKS_US_ZH.search(before):
        return False
    after = folded[match.end() :]
    if _TELLER_ZH.search(before):
        return True  # someone told them: "我告诉大家我怀孕了"
    return _OWN_ANSWER_ZH.match(after) is not None and not _ASKS_US_ZH.match(after)


@functools.lru_cache(maxsize=8192)
def is_instruction(text: str) -> bool:
    """Whether ``text`` tries to instruct the assistant (cached: remembered texts are asked every turn)."""
    return find_instruction(text) is not None
