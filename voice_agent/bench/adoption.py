"""`bench adoption`: does the spoken reply use what was remembered?

Each scenario says a fact (or two: "the party is on Saturday" … "we moved it to Sunday"), then N
unrelated turns so the fact leaves the recent window, then a probe ("When is the party?"). The reply
*adopted* the fact when it contains one of the scenario's ``expect_any`` words and breaks none of its
``never`` words. A ``never`` word that is negated or names the constraint ("nut-free", "without peanuts",
"不含坚果", "allergic to nuts") does not count, and neither does one inside a ``never_except`` word
(鸡 in 鸡蛋). The scenario data (``voice_agent/defaults/adoption_scenarios.json``) is split in two:
``tune`` (used while shaping the prompt) and ``heldout`` to ``heldout284`` (only reported; ``heldout2`` to
``heldout284`` were each written later, before the changes they measure, in users' words).

This module loads and scores; ``adoption_run`` drives the real engine.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from voice_agent.bench.report import percentiles
from voice_agent.bench.splits import SPLITS
from voice_agent.conversation.negation import is_negated
from voice_agent.conversation.reply_language import reply_language_ok
from voice_agent.errors import InputError


@dataclass(frozen=True)
class Scenario:
    id: str
    language: str
    category: str
    facts: tuple[str, ...]
    probe: str
    expect_any: tuple[str, ...]
    never: tuple[str, ...] = ()
    never_except: tuple[str, ...] = ()
    split: str = "heldout"


@dataclass(frozen=True)
class ScenarioSet:
    scenarios: tuple[Scenario, ...]
    fillers: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)

    def select(self, split: str = "all", limit: int | None = None, ids: Sequence[str] = ()) -> list[Scenario]:
        chosen = [s for s in self.scenarios if split == "all" or s.split == split]
        if ids:
            chosen = [s for s in chosen if s.id in set(ids)]
        return chosen[:limit] if limit else chosen

    def filler_turns(self, language: str, count: int, offset: int = 0) -> list[tuple[str, str]]:
        pool = self.fillers.get(language) or self.fillers.get("en") or ()
        if not pool:
            return []
        return [pool[(offset + i) % len(pool)] for i in range(count)]


def default_scenarios_path() -> Path:
    return Path(str(resources.files("voice_agent") / "defaults" / "adoption_scenarios.json"))


def load_scenarios(path: str | Path | None = None) -> ScenarioSet:
    """Read and validate a scenario file; a bad file is an error naming the scenario and field."""
    source = Path(path) if path is not None else default_scenarios_path()
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as err:
        raise InputError(f"{source}: cannot read the scenario file: {err}") from err
    if not isinstance(data, dict) or not isinstance(data.get("scenarios"), list):
        raise InputError(f"{source}: expected an object with a 'scenarios' list")
    scenarios = tuple(_scenario(source, i, item) for i, item in enumerate(data["scenarios"]))
    ids = [s.id for s in scenarios]
    if len(set(ids)) != len(ids):
        raise InputError(f"{source}: scenario ids must be unique")
    fillers_raw = data.get("fillers") or {}
    fillers = {
        str(lang): tuple((str(q), str(a)) for q, a in pairs) for lang, pairs in dict(fillers_raw).items()
    }
    return ScenarioSet(scenarios, fillers)


def _scenario(source: Path, index: int, item: Any) -> Scenario:
    where = f"{source}: scenario {index}"
    if not isinstance(item, dict):
        raise InputError(f"{where}: expected an object")
    for key in ("id", "facts", "probe", "expect_any"):
        if not item.get(key):
            raise InputError(f"{where}: '{key}' is missing or empty")
    split = str(item.get("split", "heldout"))
    if split not in SPLITS:
        raise InputError(f"{where}: split must be one of {SPLITS}, got {split!r}")
    return Scenario(
        id=str(item["id"]),
        language=str(item.get("language", "en")),
        category=str(item.get("category", "other")),
        facts=tuple(str(f) for f in item["facts"]),
        probe=str(item["probe"]),
        expect_any=tuple(str(w) for w in item["expect_any"]),
        never=tuple(str(w) for w in item.get("never", ())),
        never_except=tuple(str(w) for w in item.get("never_except", ())),
        split=split,
    )


# -- scoring ------------------------------------------------------------------------------------------
def violations(reply: str, never: Sequence[str], never_except: Sequence[str] = ()) -> list[str]:
    """The ``never`` words the reply recommends (negated mentions and ``never_except`` words aside)."""
    if not never or not reply:
        return []
    pattern = _never_pattern(tuple(never))
    masked = _mask(reply, never_except)
    found: list[str] = []
    for match in pattern.finditer(masked):
        if not is_negated(masked, match.start(), match.end(), pattern):
            found.append(match.group(0))
    return found


def _never_pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    parts = []
    for word in sorted(set(words), key=len, reverse=True):
        escaped = re.escape(word).replace(r"\ ", r"[\s-]+")
        if re.search(r"[A-Za-z]", word[0]) and re.search(r"[A-Za-z]", word[-1]):
            parts.append(rf"(?<![A-Za-z]){escaped}(?:s|es)?(?![A-Za-z])")
        else:
            parts.append(escaped)
    return re.compile("|".join(parts), re.IGNORECASE)


def _mask(text: str, words: Sequence[str]) -> str:
    # the longest first: "避开寺庙" whole, not "避开寺" with its 庙 left bare of the negation
    for word in sorted(words, key=len, reverse=True):
        text = text.replace(word, "□" * len(word))
    return text


def adopted(reply: str, scenario: Scenario, opening: str = "") -> bool:
    """The reply names an expected word and recommends no ``never`` word (the opening aside: it is the
    person's own constraint said back, "因为你一吃豆类就胀气，黄豆绿豆都不行，", not a recommendation)."""
    lowered = reply.lower()
    mentions = any(word.lower() in lowered for word in scenario.expect_any)
    return mentions and not recommended(reply, scenario, opening)


def recommended(reply: str, scenario: Scenario, opening: str = "") -> list[str]:
    """The ``never`` words the reply recommends, in what follows the ``opening``."""
    return violations(after_opening(reply, opening), scenario.never, scenario.never_except)


def after_opening(reply: str, opening: str) -> str:
    """The reply without the opening that named the constraint (what the model itself suggested)."""
    stripped = opening.strip()
    if not stripped:
        return reply
    if stripped in reply:
        return reply.replace(stripped, "", 1).strip()
    # The reply's pieces are joined with spaces ("因为你对桃子过敏， 吃了…"): match the opening without them.
    spaced = re.compile(r"\s*".join(re.escape(ch) for ch in "".join(stripped.split())))
    found = spaced.search(reply)
    return (reply[: found.start()] + reply[found.end() :]).strip() if found else reply


def language_matches(reply: str, language: str) -> bool:
    """Reply in the probe's language (a reply too short to tell counts as a match)."""
    return reply_language_ok(language, reply) is not False


@dataclass
class ScenarioResult:
    scenario: Scenario
    variant: str
    reply: str
    adopted: bool
    violations: list[str]
    language_ok: bool
    first_token_ms: float | None
    first_text_ms: float | None
    checks: dict[str, Any]
    prompt_tokens: int | None
    judge: dict[str, Any] | None = None
    model: str = ""
    turn_message: str = ""  # the last message the LLM read: memory block, reminder line, the probe
    # Adopted by what follows the opening alone: the opening names the constraint, so it matches the
    # scenario's "allerg"/"过敏" words whatever the model suggested.
    adopted_after_opening: bool | None = None
    # The reply check's marks ("reply.regenerate" with its reason, "constraint.safe_sentence", …): why a
    # reply was said the way it was.
    marks: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        s = self.scenario
        return {
            "model": self.model, "id": s.id, "split": s.split, "language": s.language, "category": s.category,
            "variant": self.variant, "reply": self.reply, "adopted": self.adopted,
            "violations": self.violations, "language_ok": self.language_ok,
            "first_token_ms": self.first_token_ms, "first_text_ms": self.first_text_ms,
            "checks": self.checks, "prompt_tokens": self.prompt_tokens, "judge": self.judge,
            "turn_message": self.turn_message, "adopted_after_opening": self.adopted_after_opening,
            "marks": self.marks,
        }  # fmt: skip


def summarise(results: Sequence[ScenarioResult]) -> dict[str, Any]:
    """Rates and latencies of one group of results (a model × variant × split)."""
    n = len(results)
    if not n:
        return {"scenarios": 0}
    first_token = [r.first_token_ms for r in results if r.first_token_ms is not None]
    first_text = [r.first_text_ms for r in results if r.first_text_ms is not None]
    check_ms = [float(r.checks.get("check_ms_max", 0.0)) for r in results]
    judged = [r.judge for r in results if r.judge and "adopted" in r.judge]
    out: dict[str, Any] = {
        "scenarios": n,
        "adoption": round(sum(r.adopted for r in results) / n, 3),
        "violations": sum(len(r.violations) for r in results),
        "replies_with_violation": sum(bool(r.violations) for r in results),
        "language_match": round(sum(r.language_ok for r in results) / n, 3),
        "adoption_after_opening": round(sum(_own(r) for r in results) / n, 3),
        "regenerated": sum(int(r.checks.get("attempts", 1)) > 1 for r in results),
        "safe_sentences": sum(bool(r.checks.get("safe_sentence")) for r in results),
        "answered_from_memory": sum(bool(r.checks.get("recall_answer")) for r in results),
        "first_attempt_violations": sum(
            any(v.get("attempt") == 1 for v in r.checks.get("violations", [])) for r in results
        ),
        "first_token_ms": percentiles(first_token),
        "first_text_ms": percentiles(first_text),
        "check_ms_max": round(max(check_ms), 3) if check_ms else 0.0,
    }
    if judged:
        out["judge_adoption"] = round(sum(bool(j["adopted"]) for j in judged) / len(judged), 3)
        out["judge_agreement"] = round(
            sum(bool(j["adopted"]) == r.adopted for r, j in ((r, r.judge) for r in results if r.judge))
            / len(judged),
            3,
        )
    return out


def _own(result: ScenarioResult) -> bool:
    own = result.adopted_after_opening
    return result.adopted if own is None else own


def table(report: dict[str, Any]) -> str:
    """The report's groups as a plain-text table (one line per model × variant × split)."""
    header = (
        f"{'model':<22} {'variant':<16} {'split':<8} {'n':>3} {'adopt':>6} {'own':>5} {'viol':>5} "
        f"{'lang':>6} {'regen':>5} {'safe':>4} {'1st tok p50':>11} {'p95':>7}"
    )
    lines = [header, "-" * len(header)]
    for group in report.get("groups", []):
        s = group["summary"]
        if not s.get("scenarios"):
            continue
        lines.append(
            f"{group['model']:<22} {group['variant']:<16} {group['split']:<8} {s['scenarios']:>3} "
            f"{s['adoption']:>6.0%} {s.get('adoption_after_opening', s['adoption']):>5.0%} "
            f"{s['violations']:>5} {s['language_match']:>6.0%} {s['regenerated']:>5} "
            f"{s['safe_sentences']:>4} {s['first_token_ms']['p50']:>9.0f}ms "
            f"{s['first_token_ms']['p95']:>5.0f}ms"
        )
    return "\n".join(lines)
