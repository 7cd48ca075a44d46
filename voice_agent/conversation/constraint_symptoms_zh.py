"""The bodily reactions people tell of in Chinese (Mandarin, and Cantonese and other dialects' words for
them): what a reaction reader looks for after a thing eaten, drunk or touched."""

from __future__ import annotations

__all__ = ["RETCH_MORE_ZH", "SYMPTOM_ZH"]

RETCH_MORE_ZH = "(?<![作想干])呕(?=[了出])"  # (retching, as ``constraint_disgust`` reads it)
SYMPTOM_ZH = (
    "拉肚子|腹泻|过敏|起疹子|起红疹|长疹子|出疹子|起包|不舒服|难受|胃疼|胃痛|肚子疼|肚子痛|头疼|头痛|心慌|心悸|"
    "失眠|睡不着|长痘|想吐|想呕|作呕|吐|恶心|胀气|发痒|痒|喘|呼吸困难|反酸|闹肚子|跑厕所|反胃|头晕|红肿|起风团|犯病|烧心|烧得慌|坏事儿?|"
    "喉咙痛|嗓子疼|上火|生飞滋|口腔溃疡|流鼻血|口烂|窜稀|蹿稀|拉稀|跑肚|冲厕所|蹲厕所|往厕所[窜蹿跑冲奔]|转筋|"
    "肚子(?:就)?咕噜|起(?:红)?疙瘩|心口(?:就)?突突|"  # ("一小口啤的下肚…浑身起红疙瘩、心口突突直跳")
    # ("一口下去我当场就呕了", "全身起晒红疹", "块面肿到好似个猪头", "喉咙仲收紧到唞唔到气", "痛得在床上打滚")
    f"{RETCH_MORE_ZH}|起[晒咗满了](?:红)?疹|肿(?:到|得|成)|喉咙.?.?收紧|[唞透喘](?:唔|不)[到过上]气|[痛疼]得.{{0,5}}打滚|"
    "心跳得(?:像|跟|厉害|飞快)|手抖得"  # ("心跳得像敲鼓，手抖得筷子都拿不牢")
)
