"""A visit to a doctor, a dentist or a pharmacy: the person's allergies are what they must say first.

"I have an appointment with the dentist on Thursday, they want to remove that wisdom tooth. Is there
anything I should tell them?" asked weeks after "the consultant said it is penicillin allergy…" has one
answer that matters: the allergy. Such a turn names no food, so the food rules (``reminders``) would not
restate it; here the allergies and intolerances the person told us go next to the turn, and the reply
opens with them ("Tell them first that you're allergic to penicillin and amoxicillin.").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from voice_agent.conversation.constraints import Constraint

# Care that a drug or a material is given in: the allergy matters whatever is asked about it.
CARE = re.compile(
    r"\b(?:dentist|dental|surgery|operation|anaesthe\w*|anesthe\w*|prescri\w*|antibiotics?|medicines?|"
    r"medication|vaccin\w*|jabs?|injections?|extraction|wisdom tooth|root canal|fillings?|procedure|"
    r"biopsy|stitches)\b|牙医|手术|拔牙|补牙|开药|打针|输液|麻醉|看牙|疫苗|抗生素|消炎药|住院|睇牙|种牙",
    re.IGNORECASE,
)
# Someone who gives care, and the person asking what to tell them ("I'm seeing the GP tomorrow,
# anything I should mention?"); "My doctor says I should walk more" is no visit.
CLINICIAN = re.compile(
    r"\b(?:doctors?|doc|gp|surgeon|hospital|a&e|clinic|nurse|pharmacist|pharmacy|chemist|consultant|"
    r"specialist|appointment)\b|医生|大夫|医院|诊所|门诊|药店|药房|睇医生|看病|体检",
    re.IGNORECASE,
)
TELL = re.compile(
    r"\b(?:tell|mention|inform|warn|let (?:them|him|her) know|bring up|should i (?:say|know))\b|"
    r"告诉|跟(?:医生|大夫|他|她|他们)说|说点|说啥|说什么|要注意|注意什么|注意啥|提醒|交代",
    re.IGNORECASE,
)
# A medicine asked for at home ("What can I take for the pain tonight?", "头疼吃什么药好？"): the allergy
# matters as much, and the answer is a medicine that is none of what the person reacts to.
MEDICINE = re.compile(
    r"\b(?:painkillers?|pain ?killers?|pain relief|pain relievers?|"
    r"(?:take|give (?:him|her|them|my \w+)) for (?:the|my|his|her|their|a|this|that)\s+(?:\w+\s+){0,2}?"
    r"(?:pain|headache|fever|temperature|cold|cough|sore throat|aches?|sprain|migraine|cramps)|"
    r"something for (?:the|my|his|her|a|this) (?:\w+\s+)?(?:pain|headache|fever|ache|migraine|cramps)|"
    # a kit of medicines packed ahead ("a first aid kit for her dorm", "宿舍常备药清单", "带点什么药")
    r"first[- ]aid (?:kit|box|bag|pouch)|(?:medicine|medical|meds) (?:kit|cabinet|box|bag|chest|pouch))\b|"
    # (what to get at a chemist's: "I'm heading down to the Chemist Warehouse, what should I grab")
    r"\b(?:chemist|pharmacy|pharmacist|drugstore|drug store)\b[^?]{0,120}?\bwhat (?:should|can|do) (?:i|we) "
    r"(?:grab|get|buy|pick up|take)\b|\bwhat (?:should|can|do) (?:i|we) (?:grab|get|buy|pick up|take)\b"
    r"[^.?!]{0,60}\b(?:chemist|pharmacy|drugstore)|(?:药店|药房)[^。？！?!]{0,20}(?:买|拿)(?:什么|啥|点)|"
    r"吃(?:什么|啥|点什么|点啥|哪种|哪个)药|什么药|止痛药|止疼药|退烧药|感冒药|吃止痛|吃止疼|常备药|医?药箱|"
    r"(?:备|带)(?:点|些|一些|哪些)药",
    re.IGNORECASE,
)
MEDICAL_KINDS = frozenset(("allergy", "intolerance"))
MAX_NAMED = 3


def clinical_turn(user_text: str) -> bool:
    """Whether the turn is about a procedure or a medicine, or asks what to tell a clinician."""
    return bool(CARE.search(user_text) or (CLINICIAN.search(user_text) and TELL.search(user_text)))


def medicine_turn(user_text: str) -> bool:
    """Whether the turn asks what medicine to take (not a visit: ``clinical_turn``)."""
    return MEDICINE.search(user_text) is not None


# A medicine's name: what a drug allergy keeps off matters for a medicine or a visit (above), not for a
# day's plan or a packing list.
_DRUG = re.compile(
    r"cillin|mycin|cef|sulfa|ibuprofen|aspirin|codeine|morphine|paracetamol|acetaminophen|nsaid|"
    r"antibiotic|opioid|statin|medicine|medication|tablets?|pills?|药|霉素|头孢|阿司匹林|布洛芬|扑热息痛",
    re.IGNORECASE,
)


def keeps_medicine_off(constraint: Constraint) -> bool:
    """Whether what ``constraint`` keeps off is a medicine (penicillin, 头孢, ibuprofen)."""
    return _DRUG.search(" ".join([constraint.noun_en, constraint.noun_zh, *constraint.terms_en])) is not None


_MEDICINE_NOTE = {
    "en": "Suggest a medicine that is not {nouns}, and say to check with a pharmacist.",
    "zh": "推荐一种不是{nouns}的药，并提醒先问问药剂师。",
}


def medicine_note(constraints: Sequence[Constraint], language: str) -> str:
    """The note after a turn asking for a medicine: one that is none of the person's allergies."""
    chosen = medical(constraints)
    if not chosen:
        return ""
    if language == "zh":
        return _MEDICINE_NOTE["zh"].format(nouns="、".join(dict.fromkeys(c.noun_zh for c in chosen)))
    nouns = _joined([c.noun_en for c in chosen]).replace(" and ", " or ")
    return _MEDICINE_NOTE["en"].format(nouns=nouns)


def medical(constraints: Sequence[Constraint]) -> list[Constraint]:
    """The allergies and intolerances among ``constraints`` (in their order, at most a few)."""
    return [c for c in constraints if c.kind in MEDICAL_KINDS][:MAX_NAMED]


def tell_them(constraints: Sequence[Constraint], language: str) -> str:
    """The sentence that opens the reply: what to tell the clinician first ("" without an allergy)."""
    chosen = medical(constraints)
    if not chosen:
        return ""
    if language == "zh":
        allergic = "、".join(c.noun_zh for c in chosen if c.kind == "allergy")
        other = "、".join(c.noun_zh for c in chosen if c.kind != "allergy")
        parts = [f"你对{allergic}过敏" if allergic else "", f"你对{other}不耐受" if other else ""]
        return f"记得先告诉医生{'，'.join(p for p in parts if p)}。"
    allergic = _joined([c.noun_en for c in chosen if c.kind == "allergy"])
    other = _joined([c.noun_en for c in chosen if c.kind != "allergy"])
    parts = [f"you're allergic to {allergic}" if allergic else "", f"you react to {other}" if other else ""]
    return f"Tell them first that {' and that '.join(p for p in parts if p)}. "


def clinical_note(constraints: Sequence[Constraint], language: str) -> str:
    """The note after the turn: what the person must tell the clinician."""
    said = tell_them(constraints, language).strip()
    if not said:
        return ""
    return f"回答时先提醒这一点：{said}" if language == "zh" else f"Start the answer with this: {said}"


def _joined(nouns: list[str]) -> str:
    """ "penicillin, amoxicillin and Augmentin" ("" for none)."""
    unique = list(dict.fromkeys(nouns))
    if len(unique) < 2:
        return "".join(unique)
    return ", ".join(unique[:-1]) + " and " + unique[-1]
