"""A second opinion for `bench adoption`: an LLM judge on a remote OpenAI-compatible backend.

The keyword score is strict and cheap; a capable model can tell "a lemon sponge is a safe choice" from a
reply that ignores the allergy. The judge sees the remembered facts, the probe and the reply, and answers
``{"adopted": bool, "violates": bool}``. It runs only when asked (``--judge NAME`` names a non-local
entry of ``[[llm.backends]]``); its verdicts sit next to the keyword score, never replace it.
"""

from __future__ import annotations

import json
import re
from typing import Any

from voice_agent.bench.adoption import Scenario
from voice_agent.config import Config
from voice_agent.errors import InputError, VoiceAgentError

SYSTEM = (
    "You grade a voice assistant's reply. Answer with one JSON object and nothing else: "
    '{"adopted": true or false, "violates": true or false}. adopted: the reply uses or respects what '
    "the user said earlier. violates: the reply recommends something the user said they must avoid, "
    "or states an outdated fact as current."
)


class Judge:
    def __init__(self, router: Any) -> None:
        self.router = router

    @classmethod
    def from_config(cls, config: Config, backend: str) -> Judge:
        from voice_agent.llm.router import build_router

        chosen = [b for b in config.llm.backends if b.name == backend]
        if not chosen:
            raise InputError(f"--judge {backend!r}: no such entry in [[llm.backends]]")
        if chosen[0].kind == "local":
            raise InputError(f"--judge {backend!r}: the judge must be a remote OpenAI-compatible backend")
        llm = config.llm.model_copy(update={"backends": chosen, "rewarm_prefix": False})
        return cls(build_router(config.model_copy(update={"llm": llm}), config.data_dir))

    async def verdict(self, scenario: Scenario, reply: str) -> dict[str, Any]:
        facts = " / ".join(scenario.facts)
        prompt = (
            f"What the user said earlier: {facts}\nTheir question now: {scenario.probe}\nThe reply: {reply}"
        )
        messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}]
        text = ""
        try:
            async for delta in self.router.stream(messages, max_tokens=40, temperature=0.0):
                text += delta
        except VoiceAgentError as err:
            return {"error": str(err)}
        return parse_verdict(text)

    async def aclose(self) -> None:
        await self.router.aclose()


def parse_verdict(text: str) -> dict[str, Any]:
    """The judge's JSON object, or an error naming what it said instead."""
    match = re.search(r"\{.*?\}", text, re.S)
    if match:
        try:
            data = json.loads(match.group(0))
        except json.JSONDecodeError:
            data = None
        if isinstance(data, dict) and isinstance(data.get("adopted"), bool):
            return {"adopted": data["adopted"], "violates": bool(data.get("violates", False))}
    return {"error": f"unparsable verdict: {text[:80]!r}"}
