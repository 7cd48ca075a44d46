"""Identifiers that only their context gives away: IBANs, and codes said after a cue word.

- IBAN: two letters, two check digits, then 11–30 letters or digits, written solid or in groups of
  four; kept only when the ISO 13616 mod-97 check passes, so no cue is needed.
- A passport, driving licence, account, membership or other ID *number* right after the word naming it
  ("passport number X12345678", "driver's license is D1234567", "护照号码是E12345678", "账号：6225…"):
  one code of 6–24 letters and digits holding at least 5 digits. Without the cue such a code is not
  scrubbed: order numbers, flight numbers and model names look the same.

- Any long digit run (8+ digits, spaces, dashes or dots between groups) right after a card, account,
  policy or member word ("credit card number 5212 3456 7890", "卡号 6222 0212 3456"): scrubbed as a CARD
  (card words) or an ID even when its checksum fails — a mis-heard digit must not expose the rest.

Canonical form: upper-case letters and digits, separators dropped. Kind: ID (CARD for cued card runs).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from voice_agent.memory.pii_numbers import Detection

_IBAN = re.compile(
    r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?(?![A-Za-z0-9])"
)
_EN_CUE = (
    r"passport|(?:driver'?s?|driving)[ \t]+licen[cs]e|licen[cs]e|national[ \t]+id|identity[ \t]+card|"
    r"id[ \t]+card|social[ \t]+security|social|tax[ \t]+id|account|acct|membership|member|"
    r"customer|policy|patient|student|employee|staff|badge|visa|permit|insurance|iban"
)
_EN_FILLER = r"(?:[ \t]+(?:number|no\.?|num|#|id|code))?(?:[ \t]*(?:is|was|:|=|-)?)?[ \t]*(?:#[ \t]*)?"
_ZH_CUE = r"护照|驾照|驾驶证|驾驶执照|账号|帐号|账户|卡号|社保|医保|学号|工号|会员号|保单|证件|签证"
_ZH_FILLER = r"(?:号码|号|编号)?(?:是|为|：|:)?[ \t]*"
_CODE = r"(?=(?:[A-Za-z-]*\d){5})[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){5,23}(?![A-Za-z0-9])"
_CUED = re.compile(
    rf"(?i:(?<![A-Za-z])(?:{_EN_CUE}){_EN_FILLER})(?P<en>{_CODE})"
    rf"|(?:{_ZH_CUE}){_ZH_FILLER}(?P<zh>{_CODE})"
)
_IBAN_HINT = re.compile(r"[A-Z]{2}\d{2}")
_CUE_HINT = re.compile(rf"(?i)(?<![A-Za-z])(?:{_EN_CUE})|{_ZH_CUE}")


def find_ibans(text: str) -> Iterator[Detection]:
    """IBANs anywhere in ``text`` whose check digits are right."""
    if _IBAN_HINT.search(text):
        for m in _IBAN.finditer(text):
            if iban_ok(m.group()):
                yield Detection(m.start(), m.end(), "ID", canonical_code(m.group()))


def find_cued_ids(text: str) -> Iterator[Detection]:
    """Codes right after a cue word naming an identity, account or membership number."""
    if _CUE_HINT.search(text):
        for m in _CUED.finditer(text):
            group = "en" if m.group("en") else "zh"
            yield Detection(m.start(group), m.end(group), "ID", canonical_code(m.group(group)))


def canonical_code(raw: str) -> str:
    return re.sub(r"[^A-Za-z0-9]", "", raw).upper()


def iban_ok(raw: str) -> bool:
    """The ISO 13616 check: move the first four characters to the end, letters to 10–35, mod 97 = 1."""
    code = canonical_code(raw)
    if not 15 <= len(code) <= 34:
        return False
    rearranged = code[4:] + code[:4]
    return int("".join(str(int(c, 36)) for c in rearranged)) % 97 == 1


_CARD_CUE = (
    r"(?:credit|debit|bank|visa|master[ \t]?card|amex|payment)?[ \t]*card|银行卡|信用卡|储蓄卡|卡号|卡"
)
_ACCOUNT_CUE = (
    r"(?:bank[ \t]+)?account|acct|a/c|iban|policy|member(?:ship)?|customer|insurance|subscriber|"
    r"账号|帐号|账户|保单|会员|客户"
)
_RUN_FILLER = (
    r"(?:[ \t]+(?:number|no\.?|num|#|id|details))?(?:[ \t]*(?:is|was|:|=|-|#|号码|号|编号|是|为|：))*[ \t]*"
)
_DIGIT_RUN = r"\d(?:[ \t.\-]?\d){7,29}(?!\d)"
_CUED_RUN = re.compile(
    rf"(?i:(?<![A-Za-z])(?P<card>{_CARD_CUE})|(?<![A-Za-z])(?:{_ACCOUNT_CUE})){_RUN_FILLER}"
    rf"(?P<run>{_DIGIT_RUN})"
)
_RUN_HINT = re.compile(
    r"(?i)card|account|acct|a/c|iban|policy|member|customer|insurance|subscriber|卡|账|帐|保单|会员|客户"
)


def find_cued_numbers(text: str) -> Iterator[Detection]:
    """Digit runs of 8+ digits right after a card, account, policy or member word, checksum or not."""
    if _RUN_HINT.search(text):
        for m in _CUED_RUN.finditer(text):
            digits = re.sub(r"\D", "", m.group("run"))
            kind = "CARD" if m.group("card") else "ID"
            yield Detection(m.start("run"), m.end("run"), kind, digits, ("cued",))
